"""Writes: validating and storing records.

Check, then do, then announce after commit: the rules check runs before any
write, the record and its announcement are written in one transaction, and
the announcement is dispatched to analytics only once the transaction commits.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models.functions import Coalesce

from core.errors import Unprocessable
from replays import replay_store
from replays.bulk import BulkOutcome, records_import
from replays.giftlog import Giftlog, giftlog_parse
from replays.handles import player_names_check
from replays.models import Player, Record, Seat
from replays.outbox import records_announce
from replays.signals import players_merged
from replays.validation import (
    log_validate,
    log_validate_with_facts,
    record_validate,
    result_check,
)

__all__ = [
    "BulkOutcome",
    "log_validate",
    "player_kind_set",
    "player_merge",
    "record_result_replace",
    "record_submit",
    "record_validate",
    "records_announce",
    "result_check",
]


def record_submit(
    *,
    document: Any,
    submitted_by: Any = None,
    bot_seats: Iterable[int] = (),
    confirm_unusual: bool = False,
) -> tuple[Record, bool]:
    """Validate and store one finished game; returns the record and whether it is new.

    Uploading a game that is already stored returns the stored record: identity
    is the digest of game, options, players and events (for a result-only
    record, no events: scores, ranks and ``meta.played_at``). A result-only
    record with a score outside the game's plausible range is refused (422
    ``result_unusual``) unless ``confirm_unusual``: a person has looked again.

    ``bot_seats`` are the seats a program played (a live game's bots, a simulation):
    a player first named at one of them is made a bot. A game with a bot seat (one
    of those, or a player already of kind bot) is bot play: stored simulated, with
    ``meta.simulated`` set, whatever the document said.
    """
    log = giftlog_parse(document)
    given = log.table.given if log.table is not None else log.result
    existing = Record.objects.filter(digest=log.digest).first()
    if existing is not None:
        result_check(given, existing.result)
        return existing, False
    player_names_check(log.players)
    result, facts = log_validate_with_facts(log, confirm_unusual=confirm_unusual)
    bots = {log.players[seat] for seat in bot_seats}
    try:
        return _record_store(log, result, facts, submitted_by=submitted_by, bots=bots), True
    except IntegrityError:
        # A concurrent upload of the same game won the race: it is the same record.
        return Record.objects.get(digest=log.digest), False


@transaction.atomic
def _record_store(
    log: Giftlog,
    result: dict[str, Any],
    facts: dict[str, Any] | None,
    *,
    submitted_by: Any = None,
    bots: set[str],
) -> Record:
    players = _players_get_or_create(log.players, bots=bots)
    simulated = log.simulated or bool(bots) or any(_is_bot(p) for p in players.values())
    record = Record.objects.create(
        game=log.game,
        digest=log.digest,  # meta is not part of it: marking a game simulated keeps it
        options=log.options,
        meta={**log.meta, "simulated": True} if simulated else log.meta,
        events=log.events,
        result=result,
        num_events=len(log.events),
        kind=Record.Kind.LOG if log.table is None else Record.Kind.RESULT,
        played_at=log.played_at,
        simulated=simulated,
        submitted_by=submitted_by,  # the user, or None (anonymous, a command)
        replay_facts=facts,
    )
    winners = set(result.get("winners", []))
    Seat.objects.bulk_create(
        Seat(record=record, player=players[name], seat=seat, won=seat in winners)
        for seat, name in enumerate(log.players)
    )
    records_announce(record_ids=[record.pk])
    return record


def _is_bot(player: Player) -> bool:
    return player.kind == Player.Kind.BOT


def _players_get_or_create(names: list[str], *, bots: set[str]) -> dict[str, Player]:
    """The players of these names, the missing ones made (those in ``bots`` as bots).

    A player who already exists keeps their kind: a person's name at a bot's seat (a
    game played on from a record, with a bot in that seat) makes the game bot play,
    not the person a bot. So does an account's username (its person has not played yet).
    """
    found = {p.name: p for p in Player.objects.filter(name__in=names)}
    missing = [name for name in names if name not in found]
    if missing and bots:
        user = get_user_model()
        accounts = user.objects.filter(**{f"{user.USERNAME_FIELD}__in": missing})
        bots = bots - set(accounts.values_list(user.USERNAME_FIELD, flat=True))
    if missing:
        Player.objects.bulk_create(
            [
                Player(name=name, kind=Player.Kind.BOT if name in bots else Player.Kind.PERSON)
                for name in missing
            ],
            ignore_conflicts=True,
        )
        found = {p.name: p for p in Player.objects.filter(name__in=names)}
    return found


@transaction.atomic
def player_kind_set(*, player: Player, kind: str) -> int:
    """Say who plays under ``player``'s name; returns how many records became bot play.

    Made a bot, every game they sat in is bot play from now on: marked simulated and
    announced, so analytics takes it out of every rating, leaderboard and real-play
    figure. A bot made a person again leaves its games simulated (which ones were
    played by a program is not known): correct them one by one if needed.
    """
    if kind not in Player.Kind.values:
        raise Unprocessable(
            "bad_kind", f"A player is one of: {', '.join(Player.Kind.values)}.", kind=kind
        )
    player.kind = kind
    player.save(update_fields=["kind"])
    if kind != Player.Kind.BOT:
        return 0
    records = list(
        Record.objects.select_for_update()
        .filter(pk__in=Seat.objects.filter(player=player).values("record_id"), simulated=False)
        .order_by("pk")
    )
    for record in records:
        record.simulated = True
        record.meta = {**record.meta, "simulated": True}
        record.save(update_fields=["simulated", "meta"])
    _games_announce(record_ids=[record.pk for record in records])
    return len(records)


def records_submit_many(
    documents: Iterable[tuple[int, Any]], *, submitted_by: Any = None
) -> Iterator[BulkOutcome]:
    """Submit (line, document or raw line) pairs, collecting refusals instead of stopping.

    A refused document stores nothing and does not affect the others
    (python-chess's collecting visitor, for bulk); the work is done in batches
    by :func:`replays.bulk.records_import`.
    """
    return records_import(documents, submitted_by=submitted_by)


@transaction.atomic
def record_result_replace(*, record: Record, result: dict[str, Any], digest: str) -> None:
    """Store a corrected result of a result-only record, and announce it.

    The caller (a club's correction) checks who may correct and validates the result;
    this keeps the record's rows consistent: its result and identity, each seat's win
    mark, and the announcement that makes analytics recount it.
    """
    record.result = result
    record.digest = digest
    record.save(update_fields=["result", "digest"])
    winners = set(result.get("winners", []))
    for seat in record.seats.all():
        if seat.won != (seat.seat in winners):
            seat.won = seat.seat in winners
            seat.save(update_fields=["won"])
    records_announce(record_ids=[record.pk])


@transaction.atomic
def player_merge(*, keep: Player, merge: list[Player]) -> int:
    """Merge players who are one person into ``keep``; returns how many seats moved.

    Every seat (and analytics' per-seat results) of the merged players becomes
    ``keep``'s, every record stays, and the merged players are deleted. Refused
    when two of them sat in the same record: one person cannot hold two seats.
    """
    others = [p for p in merge if p.pk != keep.pk]
    if not others:
        return 0
    everyone = [keep.pk, *(p.pk for p in others)]
    seats = Seat.objects.select_for_update().filter(player_id__in=everyone)
    seen: dict[int, int] = {}
    for record_id, player_id in seats.values_list("record_id", "player_id"):
        if record_id in seen and seen[record_id] != player_id:
            names = sorted(p.name for p in [keep, *others] if p.pk in (player_id, seen[record_id]))
            raise Unprocessable(
                "players_share_a_record",
                f"{' and '.join(names)} both sat in record {record_id}: they are not one person.",
                record=record_id,
                players=names,
            )
        seen[record_id] = player_id
    other_ids = [p.pk for p in others]
    moved = Seat.objects.filter(player_id__in=other_ids).update(player=keep)
    players_merged.send(sender=Player, keep=keep, merged_ids=other_ids)
    if keep.user_id is None:
        keep.user_id = next((p.user_id for p in others if p.user_id), None)
        if not keep.display_name:
            keep.display_name = next((p.display_name for p in others if p.display_name), "")
        keep.save(update_fields=["user", "display_name"])
    Player.objects.filter(pk__in=other_ids).delete()
    renamed = [record_id for record_id, player_id in seen.items() if player_id != keep.pk]
    # Their timelines name the merged players: the announcement prepares them again.
    replay_store.records_stored_drop(renamed, timelines_only=True)
    _games_announce(record_ids=renamed)
    return moved


def _games_announce(*, record_ids: list[int]) -> None:
    """Announce every record whose seats moved, in the order they were played.

    Analytics' ingest is idempotent: announcing a stored record again refreshes
    its game's summary (which names players), and a record whose players changed
    makes each rating scope recompute from it (the first one, in played order,
    redoes all the later ones, which are then unchanged).
    """
    ordered = (
        Record.objects.filter(pk__in=record_ids)
        .annotate(order_at=Coalesce("played_at", "created_at"))
        .order_by("order_at", "pk")
        .values_list("pk", flat=True)
    )
    records_announce(record_ids=list(ordered))
