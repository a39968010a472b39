"""Result-only records: games played at a real table, recorded with their final scores.

Such a record has no events, so nothing replays it; what the rules can still
check is checked here: the player count and options (the engine's ``setup``),
every score against the bounds the engine declares (``score_bounds``, made finite
by :func:`result_score_bounds`), and the ranks against the scores. Parsing
(:func:`table_result_parse`) happens with the envelope, because the ranks are
part of the record's identity; the rules check (:func:`table_result_validate`)
runs before anything is stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.errors import BadRequest, Unprocessable
from games.base import ImpossibleResult, InvalidSetup
from games.registry import get_engine, result_rules

RESULT_FIELDS = {"scores", "ranks", "duration_minutes", "winners", "details"}
MAX_DURATION_MINUTES = 7 * 24 * 60

# The range of the 32-bit integer columns a score is stored in (analytics'
# ``PlayerResult.score``, ``RatingHistory.score``): no bound may reach past it.
SCORE_COLUMN_MIN, SCORE_COLUMN_MAX = -(2**31), 2**31 - 1
# A game whose rules set no highest score (Secret Santa: the rounds go on while the
# best totals are tied) still has a highest *plausible* one for a score typed in by
# hand. Secret Santa ends once one player alone has 25 or more; a round adds a few
# points to a pile (seldom more than 15, 34 if one pile took every card), and played
# games end at 25 to 55 in 3 to 6 rounds, so 1,000 is some 30 rounds of tied
# leaders: anything above it is a typing error, not a game.
PLAUSIBLE_HIGHEST = {"secret_santa": 1000}
PLAUSIBLE_HIGHEST_DEFAULT = 10_000  # a game with no highest score not listed above


@dataclass(frozen=True)
class TableResult:
    """The final scores of a table game, with competition ranks (given or computed)."""

    scores: list[int]
    ranks: list[int]
    duration_minutes: int | None = None
    # What an export carries beyond scores and ranks (winners, details): checked
    # against the stored result when a document is uploaded again.
    given: dict[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> list[int]:
        return [seat for seat, rank in enumerate(self.ranks) if rank == 1]

    def to_json(self) -> dict[str, Any]:
        """The stored ``Record.result``: the shape analytics reads for every record."""
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": self.winners,
            "details": {"result_only": True, "duration_minutes": self.duration_minutes},
        }


def competition_ranks(scores: list[int]) -> list[int]:
    """1 + the number of better scores: ties share a rank (9, 9, 4 -> 1, 1, 3)."""
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bad(field_name: str, message: str, **detail: Any) -> BadRequest:
    return BadRequest("invalid_result", message, field=field_name, **detail)


def table_result_parse(result: Any, num_players: int) -> TableResult:
    """Check the shape of a result-only ``result``; compute the ranks when omitted.

    Raises :class:`BadRequest` (400) for a malformed value and
    :class:`Unprocessable` (422, ``ranks_inconsistent``) for ranks the scores
    contradict: a better rank with a lower score, or a shared rank with
    different scores. Equal scores may have different ranks, because some games
    break score ties (Gift Economy by the most cards, GiftTRAP by the markers).
    """
    if not isinstance(result, dict):
        raise _bad(
            "result",
            'A record without "events" is a result-only record: "result" must be an object '
            'with "scores" (one whole number per player, in seat order).',
        )
    unknown = sorted(set(result) - RESULT_FIELDS)
    if unknown:
        raise _bad(f"result.{unknown[0]}", f"Unknown field {unknown[0]!r} in the result.")
    scores = result.get("scores")
    if not isinstance(scores, list) or len(scores) != num_players:
        raise _bad(
            "result.scores",
            f'"result.scores" must list {num_players} scores, one per player in seat order.',
        )
    for seat, score in enumerate(scores):
        if not _whole(score):
            raise _bad(
                "result.scores",
                f"The score of seat {seat + 1} must be a whole number, not {score!r}.",
                seat=seat,
            )
    ranks = result.get("ranks")
    if ranks is None:
        ranks = competition_ranks(scores)
    else:
        _ranks_check(ranks, scores)
    details = result.get("details")
    if details is not None and not isinstance(details, dict):
        raise _bad("result.details", '"result.details" must be an object.')
    duration = result.get("duration_minutes", (details or {}).get("duration_minutes"))
    if duration is not None and (not _whole(duration) or not 0 < duration <= MAX_DURATION_MINUTES):
        raise _bad(
            "result.duration_minutes",
            f'"result.duration_minutes" must be a whole number from 1 to {MAX_DURATION_MINUTES}.',
        )
    given = {key: result[key] for key in ("winners", "details") if key in result}
    return TableResult(list(scores), list(ranks), duration, given)


def _ranks_check(ranks: Any, scores: list[int]) -> None:
    n = len(scores)
    if not isinstance(ranks, list) or len(ranks) != n:
        raise _bad("result.ranks", f'"result.ranks" must list {n} ranks, one per player.')
    for seat, rank in enumerate(ranks):
        if not _whole(rank) or not 1 <= rank <= n:
            raise _bad(
                "result.ranks",
                f"The rank of seat {seat + 1} must be a whole number from 1 to {n}, not {rank!r}.",
                seat=seat,
            )
    for seat, rank in enumerate(ranks):
        # Competition ranks: a seat's rank is 1 + the number of seats ranked better.
        better = sum(1 for other in ranks if other < rank)
        if rank != 1 + better:
            raise Unprocessable(
                "ranks_inconsistent",
                f"Rank {rank} of seat {seat + 1} is not a competition rank: {better} "
                f"player(s) rank better, so it should be {1 + better}.",
                field="result.ranks",
                seat=seat,
            )
    for seat in range(n):
        for other in range(n):
            if ranks[seat] < ranks[other] and scores[seat] < scores[other]:
                raise Unprocessable(
                    "ranks_inconsistent",
                    f"Seat {seat + 1} ranks above seat {other + 1} with a lower score "
                    f"({scores[seat]} against {scores[other]}).",
                    field="result.ranks",
                    seat=seat,
                )
            if ranks[seat] == ranks[other] and scores[seat] != scores[other]:
                raise Unprocessable(
                    "ranks_inconsistent",
                    f"Seats {seat + 1} and {other + 1} share rank {ranks[seat]} with different "
                    f"scores ({scores[seat]} and {scores[other]}).",
                    field="result.ranks",
                    seat=seat,
                )


def result_score_bounds(
    engine: Any, num_players: int, options: dict[str, Any] | None = None
) -> tuple[int, int]:
    """The lowest and highest score a result-only record of this table may give a seat.

    The engine's ``score_bounds`` (the rules' own, never excluding a reachable
    score), with a plausible highest score where the rules set none
    (``PLAUSIBLE_HIGHEST``), and never past the 32-bit column a score is stored
    in: a score outside them could not be ingested, so it is refused at the upload
    instead of failing in analytics. Raises :class:`InvalidSetup` as
    ``score_bounds`` does.
    """
    low, high = engine.score_bounds(num_players, options)
    if high is None:
        high = PLAUSIBLE_HIGHEST.get(engine.slug, PLAUSIBLE_HIGHEST_DEFAULT)
    return max(low, SCORE_COLUMN_MIN), min(high, SCORE_COLUMN_MAX)


def table_result_validate(
    *, game: str, options: dict[str, Any], table: TableResult, confirm_unusual: bool = True
) -> dict[str, Any]:
    """Check a result-only record against the game; return the result to store.

    The player count and the options are checked by the engine's ``setup``
    (400 ``invalid_setup``, as for a full log); each score must lie within
    :func:`result_score_bounds` for that table (422 ``score_out_of_bounds``; the
    message numbers seats from 1 as the pages do, ``detail.seat`` is the index);
    the scores together must be ones the game can end with (the game's
    ``results.result_check``: 422 ``impossible_result``, ``detail.reason`` names
    the rule). Unless ``confirm_unusual``, a score outside the game's plausible
    range is refused too (422 ``result_unusual``, see :func:`table_result_unusual`):
    a person confirms it before it is stored. Bulk imports of archives pass it.
    """
    engine = get_engine(game)
    n = len(table.scores)
    try:
        engine.setup(n, options)
        rules_high = engine.score_bounds(n, options)[1]
        low, high = result_score_bounds(engine, n, options)
    except InvalidSetup as exc:
        where = "players" if exc.code == "bad_player_count" else "options"
        raise BadRequest(
            "invalid_setup", exc.message, **{"field": where, **exc.detail, "reason": exc.code}
        ) from exc
    for seat, score in enumerate(table.scores):
        if low <= score <= high:
            continue
        if score < low:
            bound = f"at least {low}"
        elif rules_high is None:
            bound = (
                f"at most {high} in a record of its result (the rules set no highest "
                "score; a higher one is taken for a typing error)"
            )
        else:
            bound = f"at most {high}"
        raise Unprocessable(
            "score_out_of_bounds",
            f"Seat {seat + 1} scored {score}, but a seat of a {n}-player game of "
            f"{engine.name} scores {bound}.",
            field="result.scores",
            seat=seat,
            score=score,
            bounds=[low, high],
        )
    rules = result_rules(game)
    try:
        rules.result_check(table.scores, table.ranks, options)
    except ImpossibleResult as exc:
        raise Unprocessable(
            "impossible_result",
            exc.message,
            **{"field": "result.scores", **exc.detail, "reason": exc.code},
        ) from exc
    if not confirm_unusual:
        table_result_unusual(game=game, options=options, scores=table.scores)
    return table.to_json()


def table_result_unusual(*, game: str, options: dict[str, Any], scores: list[int]) -> None:
    """Refuse scores outside the game's plausible range until a person confirms them.

    A possible score can still be a typing error (a Secret Santa total of 310
    for 31), so the caller asks "this looks unusual, confirm?" and submits again
    with ``confirm_unusual``. 422 ``result_unusual``: ``detail.unusual`` lists
    each such seat (index) and score, ``detail.usual`` the plausible range and
    ``detail.confirm_field`` the field that confirms.
    """
    engine = get_engine(game)
    n = len(scores)
    low, high = result_rules(game).plausible_scores(n, options)
    unusual = [
        {"seat": seat, "score": score}
        for seat, score in enumerate(scores)
        if not low <= score <= high
    ]
    if not unusual:
        return
    said = " and ".join(f"seat {u['seat'] + 1} scored {u['score']}" for u in unusual)
    raise Unprocessable(
        "result_unusual",
        f"This looks unusual: {said}, while a {n}-player game of {engine.name} ends with "
        f"scores from {low} to {high}. If the scores are right, confirm them "
        "(confirm_unusual: true); otherwise correct them.",
        field="result.scores",
        seat=unusual[0]["seat"],
        unusual=unusual,
        usual=[low, high],
        confirm_field="confirm_unusual",
    )
