"""Reads for clubs: lookups with their permission-free 404s, and season standings.

Standings are computed from the season's entries each time they are read (a
season holds tens to hundreds of games; this is a few queries and a loop).

Points per place and the two tie rules, for ``points_per_place = [3, 2, 1, 0]``
and a four-player game where two players tie for second (ranks 1, 2, 2, 4):

- ``share_best``: tied players all get the points of the best place they
  share: 3, 2, 2, 0.
- ``split``: tied players share the points of the places they cover,
  averaged: places 2 and 3 are worth 2 + 1, so each gets 1.5: 3, 1.5, 1.5, 0.

Places past the end of ``points_per_place`` are worth 0. Guest seats take
their place (a guest who wins pushes the members down) but have no row.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from clubs.models import (
    AuditLog,
    Club,
    ClubRecord,
    Invitation,
    League,
    Membership,
    Season,
    SeasonEntry,
)
from core.errors import NotFound
from replays.models import Player, Record, Seat


def club_list() -> QuerySet[Club]:
    return Club.objects.annotate(
        member_count=Count("memberships", distinct=True),
        league_count=Count("leagues", distinct=True),
    ).order_by("name")


def club_get(*, slug: str) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise NotFound("not_found", f"There is no club {slug!r}.")
    return club


def club_members(*, club: Club) -> QuerySet[Membership]:
    return Membership.objects.filter(club=club).select_related("user").order_by("joined_at", "id")


def club_leagues(*, club: Club) -> QuerySet[League]:
    return League.objects.filter(club=club).prefetch_related("seasons").order_by("name")


def club_detail(*, slug: str) -> dict[str, Any]:
    """What a club's page shows: the club, its members with their players, its leagues."""
    club = club_get(slug=slug)
    return {
        "club": club,
        "members": list(club_members(club=club)),
        "leagues": list(club_leagues(club=club)),
    }


def club_invitations(*, club: Club) -> QuerySet[Invitation]:
    """A club's join links, newest first, with who made each (and that person's players).

    Only admins may see them: the caller checks (``services.require_admin``).
    """
    return (
        Invitation.objects.filter(club=club)
        .select_related("created_by")
        .prefetch_related("created_by__players")
        .order_by("-created_at", "-id")
    )


def invitation_by_key(*, key: str) -> Invitation | None:
    """The invitation a join link's key opens, with its club and its maker, or None."""
    return (
        Invitation.objects.select_related("club", "created_by")
        .prefetch_related("created_by__players")
        .filter(key_hash=Invitation.hash_of(key))
        .first()
    )


def user_clubs(*, user: AbstractBaseUser) -> QuerySet[Membership]:
    """A user's (a player's person's) clubs, with their role in each."""
    return Membership.objects.filter(user=user).select_related("club").order_by("club__name")


def player_clubs(*, player_name: str) -> QuerySet[Club]:
    """The clubs of the account a player is linked to (none for an unlinked player)."""
    return Club.objects.filter(memberships__user__players__name=player_name).distinct()


def league_list(*, club: Club | None = None) -> QuerySet[League]:
    leagues = League.objects.select_related("club").order_by("club__name", "name")
    return leagues.filter(club=club) if club is not None else leagues


def league_get(*, league_id: int) -> League:
    league = League.objects.select_related("club").filter(pk=league_id).first()
    if league is None:
        raise NotFound("not_found", f"There is no league {league_id}.")
    return league


def league_seasons(*, league: League) -> QuerySet[Season]:
    return (
        Season.objects.filter(league=league)
        .annotate(entry_count=Count("entries", filter=Q(entries__voided_at__isnull=True)))
        .order_by("-starts_on", "id")
    )


def season_get(*, season_id: int) -> Season:
    season = Season.objects.select_related("league__club").filter(pk=season_id).first()
    if season is None:
        raise NotFound("not_found", f"There is no season {season_id}.")
    return season


def season_entries(*, season: Season, include_voided: bool = True) -> QuerySet[SeasonEntry]:
    """Entries, most recently played first, with what a list needs (record, players, who)."""
    entries = (
        SeasonEntry.objects.filter(season=season)
        .select_related("record", "submitted_by", "voided_by")
        .prefetch_related("record__seats__player")
        .order_by("-record__played_at", "-id")
    )
    return entries if include_voided else entries.filter(voided_at__isnull=True)


def season_entry_get(*, season: Season, entry_id: int) -> SeasonEntry:
    entry = (
        SeasonEntry.objects.select_related("season__league__club", "record")
        .filter(season=season, pk=entry_id)
        .first()
    )
    if entry is None:
        raise NotFound("not_found", f"Season {season.pk} has no entry {entry_id}.")
    return entry


def record_get(*, record_id: int) -> Record:
    record = Record.objects.filter(pk=record_id).first()
    if record is None:
        raise NotFound("not_found", f"There is no record {record_id}.")
    return record


def audit_log(*, club: Club) -> QuerySet[AuditLog]:
    return AuditLog.objects.filter(club=club).select_related("actor")


# --- standings -------------------------------------------------------------------


def place_points(ranks: list[int], points_per_place: list[int], tie_rule: str) -> list[Fraction]:
    """Points for each seat of one game from its competition ranks (see the module docstring)."""

    def worth(place: int) -> int:
        return points_per_place[place - 1] if place <= len(points_per_place) else 0

    counts: dict[int, int] = defaultdict(int)
    for rank in ranks:
        counts[rank] += 1
    points = []
    for rank in ranks:
        if tie_rule == League.TieRule.SPLIT:
            covered = range(rank, rank + counts[rank])
            points.append(Fraction(sum(worth(p) for p in covered), counts[rank]))
        else:
            points.append(Fraction(worth(rank)))
    return points


@dataclass
class _Row:
    player: str
    display_name: str
    games: int = 0
    points: Fraction = Fraction(0)
    wins: int = 0
    score_total: int = 0
    ranked: bool = False
    places: dict[int, int] = field(default_factory=dict)  # record id -> rank

    @property
    def average_score(self) -> float:
        return self.score_total / self.games if self.games else 0.0

    def to_json(self, position: int) -> dict[str, Any]:
        return {
            "position": position,
            "player": self.player,
            "display_name": self.display_name or self.player,
            "games": self.games,
            "points": _number(self.points),
            "wins": self.wins,
            "average_score": round(self.average_score, 2),
            "ranked": self.ranked,
        }


def _number(value: Fraction) -> float | int:
    return int(value) if value.denominator == 1 else round(float(value), 4)


def _counted_entries(season: Season) -> list[SeasonEntry]:
    """The entries that count: not voided, and not bot play (a season refuses a
    simulated record, and a game where a bot sat counts nowhere: a second guard)."""
    return list(
        SeasonEntry.objects.filter(season=season, voided_at__isnull=True, record__simulated=False)
        .exclude(record__seats__player__kind=Player.Kind.BOT)
        .select_related("record")
        .prefetch_related("record__seats__player")
        .order_by("record__played_at", "id")
    )


def _game_rows(entry: SeasonEntry, league: League) -> list[tuple[Any, int, int, Fraction]]:
    """(player, rank, score, points) of each member seat of one counted game."""
    result = entry.record.result
    ranks, scores = result["ranks"], result["scores"]
    points = place_points(ranks, league.points_per_place, league.tie_rule)
    guests = set(entry.guests)
    return [
        (seat.player, ranks[seat.seat], scores[seat.seat], points[seat.seat])
        for seat in sorted(entry.record.seats.all(), key=lambda s: s.seat)
        if seat.seat not in guests
    ]


def _head_to_head(rows: list[_Row]) -> dict[str, int]:
    """Among ``rows``: how often each finished ahead of another of them in a game they shared."""
    ahead = {row.player: 0 for row in rows}
    for row in rows:
        for other in rows:
            if other is row:
                continue
            for record_id, rank in row.places.items():
                other_rank = other.places.get(record_id)
                if other_rank is not None and rank < other_rank:
                    ahead[row.player] += 1
    return ahead


def _ordered(rows: list[_Row], keys: list[str]) -> list[_Row]:
    if len(rows) <= 1 or not keys:
        return sorted(rows, key=lambda r: r.player.lower())
    key, rest = keys[0], keys[1:]
    if key == "head_to_head":
        h2h = _head_to_head(rows)
        values: dict[str, Any] = {r.player: h2h[r.player] for r in rows}
    else:
        values = {r.player: getattr(r, key) for r in rows}
    groups: dict[Any, list[_Row]] = defaultdict(list)
    for row in rows:
        groups[values[row.player]].append(row)
    ordered: list[_Row] = []
    for value in sorted(groups, reverse=True):
        ordered.extend(_ordered(groups[value], rest))
    return ordered


def season_standings(*, season: Season) -> list[dict[str, Any]]:
    """The table: ranked players first (games >= min_games), then points, then the tie-breaks.

    Computed from the season's entries that are not voided; a player's place
    in a game is ``record.result["ranks"]``.
    """
    league = season.league
    rows: dict[str, _Row] = {}
    for entry in _counted_entries(season):
        for player, rank, score, points in _game_rows(entry, league):
            row = rows.setdefault(player.name, _Row(player.name, player.display_name))
            row.games += 1
            row.points += points
            row.wins += rank == 1
            row.score_total += score
            row.places[entry.record_id] = rank
    for row in rows.values():
        row.ranked = row.games >= league.min_games
    ordered = _ordered(list(rows.values()), ["ranked", "points", *league.tie_breaks])
    return [row.to_json(position) for position, row in enumerate(ordered, start=1)]


def standings_history(*, season: Season) -> list[dict[str, Any]]:
    """Each player's points after each counted game, in the order played (for the chart)."""
    league = season.league
    totals: dict[str, Fraction] = {}
    history = []
    for entry in _counted_entries(season):
        for player, _rank, _score, points in _game_rows(entry, league):
            totals[player.name] = totals.get(player.name, Fraction(0)) + points
        history.append(
            {
                "record": entry.record_id,
                "played_at": entry.record.played_at,
                "points": {name: _number(value) for name, value in sorted(totals.items())},
            }
        )
    return history


# --- what the pages read ------------------------------------------------------------


def league_get_by_slug(*, club: Club, slug: str) -> League:
    league = League.objects.select_related("club").filter(club=club, slug=slug).first()
    if league is None:
        raise NotFound("not_found", f"{club.name} has no league {slug!r}.")
    return league


def season_current(*, league: League, today: Any = None) -> Season | None:
    """The season running today, else the one that started last (None: no season yet)."""
    seasons = list(Season.objects.filter(league=league).order_by("-starts_on", "-id"))
    if today is None:
        today = timezone.localdate()
    running = [s for s in seasons if s.starts_on <= today <= s.ends_on]
    started = [s for s in seasons if s.starts_on <= today]
    return (running or started or seasons or [None])[0]


def season_for_day(*, league: League, day: Any) -> Season | None:
    """The league's season whose dates cover ``day`` (the latest-starting one if several)."""
    return (
        Season.objects.filter(league=league, starts_on__lte=day, ends_on__gte=day)
        .order_by("-starts_on", "-id")
        .first()
    )


def player_simulated_count(*, player: Player) -> int:
    """How many bot-play games the player sat in (what the player page hides by default)."""
    return Record.objects.filter(seats__player=player, simulated=True).distinct().count()


def club_recent_entries(*, club: Club, limit: int = 20) -> list[SeasonEntry]:
    """The latest games entered in any season of the club's leagues, voided ones included."""
    return list(
        SeasonEntry.objects.filter(season__league__club=club)
        .select_related("record", "season__league", "voided_by")
        .prefetch_related("record__seats__player")
        .order_by("-record__played_at", "-id")[:limit]
    )


def club_recent_games(*, club: Club, limit: int = 20) -> list[SeasonEntry | ClubRecord]:
    """The club's latest games: season entries (voided ones included) and the games it
    counts outside seasons (events' tables), newest played first, each record once (a
    record in a season shows as its entry, which may be voided or corrected there)."""
    entries = club_recent_entries(club=club, limit=limit)
    seen = {e.record_id for e in entries}
    others = [
        row
        for row in ClubRecord.objects.filter(club=club)
        .select_related("record")
        .prefetch_related("record__seats__player")
        .order_by("-record__played_at", "-id")[:limit]
        if row.record_id not in seen
    ]
    games: list[SeasonEntry | ClubRecord] = [*entries, *others]
    games.sort(key=lambda g: (g.record.played_at is not None, g.record.played_at, g.pk))
    return games[::-1][:limit]


def membership_of(*, club: Club, user: AbstractBaseUser | None) -> Membership | None:
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user=user).first()


def player_get(*, handle: str) -> Player:
    player = Player.objects.select_related("user").filter(name=handle).first()
    if player is None:
        raise NotFound("not_found", f"There is no player {handle!r}.")
    return player


def player_recent_records(
    *, player: Player, limit: int = 20, simulated: bool = True
) -> list[Record]:
    """The player's latest games (any kind), most recently played first.

    ``simulated=False`` leaves out bot play (games against the bots, simulations).
    """
    records = Record.objects.filter(seats__player=player)
    if not simulated:
        records = records.filter(simulated=False)
    return list(
        records.prefetch_related("seats__player")
        .order_by("-played_at", "-created_at", "-id")
        .distinct()[:limit]
    )


@dataclass(frozen=True)
class GameResults:
    game: str
    games: int
    wins: int
    average_score: float


def player_results_by_game(*, player: Player) -> list[GameResults]:
    """Games, wins and average final score for each game the player has played, in real
    play (bot play, such as games against the service's bots, is left out)."""
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    seats = Seat.objects.filter(player=player, record__simulated=False).values_list(
        "record__game", "won", "seat", "record__result__scores"
    )
    for game, won, seat, scores in seats:
        row = totals[game]
        row[0] += 1
        row[1] += bool(won)
        if isinstance(scores, list) and seat < len(scores):
            row[2] += int(scores[seat])
    return [
        GameResults(game, games, wins, round(score / games, 1) if games else 0.0)
        for game, (games, wins, score) in sorted(totals.items())
    ]
