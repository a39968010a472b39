"""A game's summary (its players table of real play): kept by adding each ingest's deltas.

``GameSummary.tallies`` holds, per player id, ``[name, games, wins, total score]``
and ``GameSummary.players`` is the table drawn from it. An ingest adds what its
records contribute and takes out what they contributed before (each record's
``RecordFacts.summary_applied``: a correction, a record made bot play, seats moved
by a player merge), so a refresh costs what the batch holds, not a GROUP BY over
every result of the game. :func:`game_summary_recompute` is the full computation
(the nightly check and ``analytics_rebuild`` compare and fix with it).

Real play: the players table and the count of games leave out bot play
(``Record.simulated``) and bots, as every real-play figure does.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Count, Q, Sum

from analytics.models import GameSummary, PlayerResult
from replays.models import Player, Record

logger = logging.getLogger("analytics.summaries")

# What one record adds to its game's summary: {"games": 0 or 1, "seats": [[player id,
# name, won (0/1), score], ...]} (bots and bot play left out); None: nothing yet.
Contribution = dict[str, Any]


def record_summary_contribution(
    *, simulated: bool, seats: Iterable[tuple[int, str, str, bool, int]]
) -> Contribution:
    """``seats``: (player id, name, player kind, won, score) of each seat of the record."""
    if simulated:
        return {"games": 0, "seats": []}
    return {
        "games": 1,
        "seats": [
            [player_id, name, int(won), int(score)]
            for player_id, name, kind, won, score in seats
            if kind != Player.Kind.BOT
        ],
    }


@dataclass
class SummaryDelta:
    """One game's change: games, and per player id [name, games, wins, total]."""

    games: int = 0
    players: dict[str, list[Any]] = field(default_factory=dict)

    def add(self, contribution: Contribution | None, sign: int) -> None:
        if not contribution:
            return
        self.games += sign * int(contribution.get("games", 0))
        for player_id, name, won, score in contribution.get("seats", []):
            row = self.players.setdefault(str(player_id), [name, 0, 0, 0])
            if sign > 0:
                row[0] = name
            row[1] += sign
            row[2] += sign * int(won)
            row[3] += sign * int(score)

    def merge(self, other: SummaryDelta) -> None:
        """Add another delta (a later batch's: its names win, as :meth:`add`'s do)."""
        self.games += other.games
        for player_id, (name, games, wins, total) in other.players.items():
            row = self.players.setdefault(player_id, [name, 0, 0, 0])
            row[0] = name
            row[1] += games
            row[2] += wins
            row[3] += total

    def empty(self) -> bool:
        return self.games == 0 and not any(any(r[1:]) for r in self.players.values())


def players_table(tallies: Mapping[str, list[Any]]) -> list[dict[str, Any]]:
    """The summary's players table: most wins first, then best average, then name."""
    rows = [
        (name, games, wins, total / games)
        for name, games, wins, total in tallies.values()
        if games > 0
    ]
    rows.sort(key=lambda r: (-r[2], -r[3], r[0]))
    return [
        {"player": name, "games": games, "wins": wins, "average_score": round(average, 2)}
        for name, games, wins, average in rows
    ]


def _tallies_full(game: str) -> dict[str, list[Any]]:
    rows = (
        PlayerResult.objects.filter(game=game, record__simulated=False)  # real play only
        .exclude(player__kind=Player.Kind.BOT)
        .values("player_id", "player__name")
        .annotate(games=Count("id"), wins=Count("id", filter=Q(won=True)), total=Sum("score"))
    )
    return {
        str(row["player_id"]): [row["player__name"], row["games"], row["wins"], row["total"] or 0]
        for row in rows
    }


def _games_full(game: str) -> int:
    """Real-play records of the game that are ingested (a quarantined one counts once it is)."""
    return Record.objects.filter(game=game, simulated=False, facts__isnull=False).count()


def _summary_locked(game: str) -> GameSummary:
    GameSummary.objects.bulk_create([GameSummary(game=game)], ignore_conflicts=True)
    return GameSummary.objects.select_for_update().get(game=game)


@transaction.atomic
def game_summary_recompute(*, game: str) -> GameSummary:
    """Recompute one game's summary from every result of the game (a GROUP BY).

    The row is locked (``select_for_update``) *before* the GROUP BY: two
    refreshes at once would otherwise each count the results committed before
    it started, and the later write, from the older count, would win. Locked
    first, the second waits for the first to commit and then counts both.
    """
    summary = _summary_locked(game)
    tallies = _tallies_full(game)
    summary.tallies = tallies
    summary.players = players_table(tallies)
    summary.games = _games_full(game)
    summary.save(update_fields=["games", "players", "tallies", "updated_at"])
    return summary


def game_summaries_apply(deltas: Mapping[str, SummaryDelta]) -> None:
    """Add each game's delta to its summary: one locked read and one write per game.

    Games are locked in name order, after the rating scopes' and snapshots' locks
    (the ingest applies summaries last), so no two workers deadlock. A summary
    without tallies (kept before they were) is recomputed in full once instead.
    Call inside the ingest's transaction.
    """
    for game in sorted(deltas):
        delta = deltas[game]
        summary = _summary_locked(game)
        if summary.tallies is None:
            game_summary_recompute(game=game)
            continue
        if delta.empty():
            continue
        tallies = {k: list(v) for k, v in summary.tallies.items()}
        for player_id, (name, games, wins, total) in delta.players.items():
            row = tallies.setdefault(player_id, [name, 0, 0, 0])
            row[0] = name
            row[1] += games
            row[2] += wins
            row[3] += total
            if row[1] <= 0:
                del tallies[player_id]
        summary.tallies = tallies
        summary.players = players_table(tallies)
        summary.games = max(0, summary.games + delta.games)
        summary.save(update_fields=["games", "players", "tallies", "updated_at"])


def game_summaries_check(*, fix: bool = True) -> list[str]:
    """The nightly check: each game's summary against a full recompute; returns the games
    that differed (logged, and with ``fix`` replaced by the full figures)."""
    differ = []
    games = set(Record.objects.values_list("game", flat=True).distinct())
    games |= set(GameSummary.objects.values_list("game", flat=True))
    for game in sorted(games):
        with transaction.atomic():
            summary = _summary_locked(game)
            tallies = _tallies_full(game)
            count = _games_full(game)
            if summary.tallies == tallies and summary.games == count:
                continue
            differ.append(game)
            logger.warning(
                "game summary of %s differs from a full recompute (%s games stored, %s fresh)%s",
                game,
                summary.games,
                count,
                "; replaced" if fix else "",
            )
            if fix:
                summary.tallies = tallies
                summary.players = players_table(tallies)
                summary.games = count
                summary.save(update_fields=["games", "players", "tallies", "updated_at"])
    return differ
