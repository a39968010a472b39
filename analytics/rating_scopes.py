"""Which records count in which rating scope: a game, a club (per game), a league season.

The rules (docs/analytics.md, "Ratings and leaderboards"): a game scope takes
every record of the game that is not simulated; a club scope the records with a
not voided entry in any season of the club's leagues or that the club vouches for
otherwise (``ClubRecord``: an event's confirmed table); a season scope those with a
not voided entry in that season. A record with a bot seat counts nowhere, even when
it is not marked simulated (a player made a bot after the fact, until the
re-announced record is ingested): a second guard behind ``Record.simulated``.
:func:`record_scope_specs` answers for one record (:func:`records_scope_specs` for
many), :func:`scope_records` for one scope, :func:`all_scope_specs` for all.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.db.models.functions import Coalesce

from analytics.models import RatingScope
from clubs.models import ClubRecord, SeasonEntry
from replays.models import Player, Record, Seat


@dataclass(frozen=True)
class ScopeSpec:
    key: str
    kind: str
    game: str
    club_id: int | None = None
    season_id: int | None = None


def game_scope_key(game: str) -> str:
    return f"game:{game}"


def club_scope_key(club_id: int, game: str) -> str:
    return f"club:{club_id}:{game}"


def season_scope_key(season_id: int) -> str:
    return f"season:{season_id}"


def bot_seat() -> Exists:
    """True for a record (``OuterRef("pk")``) where a player of kind bot sat."""
    return Exists(Seat.objects.filter(record=OuterRef("pk"), player__kind=Player.Kind.BOT))


def record_scope_specs(*, record: Record) -> dict[str, ScopeSpec]:
    """The scopes ``record`` should count in now (none when it is bot play)."""
    return records_scope_specs(records=[record])[record.pk]


def records_scope_specs(*, records: list[Record]) -> dict[int, dict[str, ScopeSpec]]:
    """:func:`record_scope_specs` for many records at once (two queries): {record id: specs}."""
    ids = [r.pk for r in records if not r.simulated]
    bots = set(Record.objects.filter(pk__in=ids).filter(bot_seat()).values_list("pk", flat=True))
    out: dict[int, dict[str, ScopeSpec]] = {}
    for record in records:
        if record.simulated or record.pk in bots:
            out[record.pk] = {}
            continue
        key = game_scope_key(record.game)
        out[record.pk] = {key: ScopeSpec(key, "game", record.game)}
    games = {r.pk: r.game for r in records}
    entries = SeasonEntry.objects.filter(
        record_id__in=[pk for pk, specs in out.items() if specs], voided_at__isnull=True
    ).values_list("record_id", "season_id", "season__league__club_id")
    for record_id, season_id, club_id in entries:
        specs, game = out[record_id], games[record_id]
        key = season_scope_key(season_id)
        specs[key] = ScopeSpec(key, "season", game, club_id, season_id)
        key = club_scope_key(club_id, game)
        specs[key] = ScopeSpec(key, "club", game, club_id)
    vouched = ClubRecord.objects.filter(
        record_id__in=[pk for pk, specs in out.items() if specs]
    ).values_list("record_id", "club_id")
    for record_id, club_id in vouched:
        key = club_scope_key(club_id, games[record_id])
        out[record_id][key] = ScopeSpec(key, "club", games[record_id], club_id)
    return out


def scope_records(scope: RatingScope) -> QuerySet[Record]:
    """The records that count in ``scope``, each with its ``order_at``, in application order.

    A quarantined record (its ingest failed: ``IngestQuarantine``) counts nowhere
    until an ingest of it succeeds, so a recompute, incremental or full, never
    stops on it and both give the same ratings.
    """
    records = Record.objects.filter(
        game=scope.game, simulated=False, ingest_quarantine__isnull=True
    ).exclude(bot_seat())
    entries = SeasonEntry.objects.filter(voided_at__isnull=True)
    if scope.kind == RatingScope.Kind.CLUB:
        entries = entries.filter(season__league__club_id=scope.club_id)
        vouched = ClubRecord.objects.filter(club_id=scope.club_id)
        records = records.filter(
            Q(pk__in=entries.values("record_id")) | Q(pk__in=vouched.values("record_id"))
        )
    elif scope.kind == RatingScope.Kind.SEASON:
        records = records.filter(
            pk__in=entries.filter(season_id=scope.season_id).values("record_id")
        )
    return records.annotate(order_at=Coalesce("played_at", "created_at")).order_by("order_at", "id")


def scope_get_locked(spec: ScopeSpec) -> RatingScope:
    """The scope's row, made if missing, locked (``select_for_update``) until the commit."""
    scope, _ = RatingScope.objects.get_or_create(
        key=spec.key,
        defaults={
            "kind": spec.kind,
            "game": spec.game,
            "club_id": spec.club_id,
            "season_id": spec.season_id,
        },
    )
    return RatingScope.objects.select_for_update().get(pk=scope.pk)


def all_scope_specs() -> dict[str, ScopeSpec]:
    """Every scope some record counts in now."""
    specs = {
        game_scope_key(game): ScopeSpec(game_scope_key(game), "game", game)
        for game in Record.objects.filter(simulated=False)
        .exclude(bot_seat())
        .values_list("game", flat=True)
        .distinct()
        .order_by()
    }
    entries = (
        SeasonEntry.objects.filter(voided_at__isnull=True, record__simulated=False)
        .exclude(record__seats__player__kind=Player.Kind.BOT)
        .values_list("season_id", "season__league__club_id", "season__league__game")
        .distinct()
        .order_by()
    )
    for season_id, club_id, game in entries:
        specs[season_scope_key(season_id)] = ScopeSpec(
            season_scope_key(season_id), "season", game, club_id, season_id
        )
        specs[club_scope_key(club_id, game)] = ScopeSpec(
            club_scope_key(club_id, game), "club", game, club_id
        )
    vouched = (
        ClubRecord.objects.filter(record__simulated=False)
        .exclude(record__seats__player__kind=Player.Kind.BOT)
        .values_list("club_id", "record__game")
        .distinct()
        .order_by()
    )
    for club_id, game in vouched:
        specs[club_scope_key(club_id, game)] = ScopeSpec(
            club_scope_key(club_id, game), "club", game, club_id
        )
    return specs
