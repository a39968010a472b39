"""Reads: records, their export form, and the state at any step of a replay."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
from django.db.models import Count, Exists, OuterRef, Prefetch, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils.html import escape
from rest_framework.fields import DateTimeField

from core.errors import BadRequest, Conflict, NotFound
from core.games import game_name, variant_words
from games.base import CHANCE, Engine
from games.play import waiting_for
from games.registry import get_engine
from replays import replay_store, response_cache, state_cache
from replays.giftlog import giftlog_document
from replays.models import Record, Seat
from replays.simulation import DEMO_SOURCE
from replays.tables import table_html, table_summarizer
from replays.timeline import (
    names_fill,
    record_timeline,
    record_timeline_json,
    record_timeline_known,
    scores_shown,
    setup_sentence,
    step_move_words,
    step_moves,
)

PLAY_REAL, PLAY_SIMULATED, PLAY_ALL = "real", "simulated", "all"
PLAY_FILTERS = {PLAY_REAL: False, PLAY_SIMULATED: True}  # play=all: no filter


def record_list(
    *,
    game: str | None = None,
    player: str | None = None,
    players: int | None = None,
    played_after: datetime | None = None,
    played_before: datetime | None = None,
    winner: str | None = None,
    options: dict[str, Any] | None = None,
    play: str | None = None,
) -> QuerySet[Record]:
    """Stored records, with their seats, narrowed by any of the filters.

    ``play``: ``"real"`` leaves out bot play (``Record.simulated``: games with a bot
    seat, simulations, the demo data), ``"simulated"`` keeps only it, ``"all"`` or
    None keeps both.

    ``game`` is an engine slug. ``player`` and ``winner`` are player names, any
    case; ``winner`` keeps the records whose result lists that player among the
    winners. ``players`` is the number of seats. The dates bound ``played``
    (aliased on every row): ``played_at``, or ``created_at`` for records that do
    not say when they were played; ``played_after`` is inclusive,
    ``played_before`` exclusive.
    """
    records = Record.objects.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player"))
    ).alias(played=Coalesce("played_at", "created_at"))
    if game:
        records = records.filter(game=game)
    if play in PLAY_FILTERS:
        records = records.filter(simulated=PLAY_FILTERS[play])
    if player:
        records = records.filter(_seat_exists(player__name__iexact=player))
    if winner:
        records = records.filter(_seat_exists(player__name__iexact=winner, won=True))
    if players is not None:
        seat_count = (
            Seat.objects.filter(record=OuterRef("pk"))
            .order_by()
            .values("record")
            .annotate(n=Count("pk"))
            .values("n")
        )
        records = records.alias(num_players=Subquery(seat_count)).filter(num_players=players)
    if played_after is not None:
        records = records.filter(played__gte=played_after)
    if played_before is not None:
        records = records.filter(played__lt=played_before)
    for name, value in (options or {}).items():
        records = records.filter(**{f"options__{name}": value})
    return records


SUMMARY_FIELDS = (
    "id", "game", "result", "num_events", "meta", "played_at", "created_at",
    "submitted_by__username", "simulated",
)  # fmt: skip
_DATETIME = DateTimeField()


def record_summary_rows(records: QuerySet[Record]) -> QuerySet:
    """The list's columns as plain rows (the log is never read)."""
    return records.prefetch_related(None).select_related(None).values(*SUMMARY_FIELDS)


def record_summaries(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Summaries as ``RecordSummarySerializer`` gives them, with one query for the players."""
    names: dict[int, list[str]] = {row["id"]: [] for row in rows}
    seats = Seat.objects.filter(record_id__in=list(names)).order_by("record_id", "seat")
    for record_id, name in seats.values_list("record_id", "player__name"):
        names[record_id].append(name)
    return [
        {
            "id": row["id"],
            "game": row["game"],
            "players": names[row["id"]],
            "result": row["result"],
            "num_events": row["num_events"],
            "meta": row["meta"],
            "played_at": _DATETIME.to_representation(row["played_at"])
            if row["played_at"]
            else None,
            "created_at": _DATETIME.to_representation(row["created_at"]),
            "submitted_by": row["submitted_by__username"],
            "simulated": row["simulated"],
        }
        for row in rows
    ]


def _seat_exists(**lookups: Any) -> Exists:
    return Exists(Seat.objects.filter(record=OuterRef("pk"), **lookups))


def record_get(*, record_id: int, log: bool = True) -> Record:
    """One record; with ``log=False`` its events are read only if something touches them
    (a cached timeline does not: decoding a 2,310-event log was most of that request)."""
    records = record_list() if log else record_list().defer("events")
    try:
        return records.get(pk=record_id)
    except Record.DoesNotExist:
        raise NotFound("not_found", f"There is no record {record_id}.") from None


def record_player_names(record: Record) -> list[str]:
    return [seat.player.name for seat in sorted(record.seats.all(), key=lambda s: s.seat)]


def record_document(record: Record) -> dict[str, Any]:
    """The record as giftlog/1: upload it again and it is the same record."""
    return giftlog_document(
        game=record.game,
        options=record.options,
        players=record_player_names(record),
        meta=record.meta,
        events=None if record.kind == Record.Kind.RESULT else record.events,
        result=record.result,
    )


NOT_REPLAYABLE = "This game was recorded with its final scores only; it cannot be replayed."


def record_require_replayable(record: Record) -> None:
    """Refuse (409 ``not_replayable``) to step through a result-only record: it has no events."""
    if record.kind == Record.Kind.RESULT:
        raise Conflict("not_replayable", NOT_REPLAYABLE, record=record.pk)


@dataclass
class StepPosition:
    """A record at one step: the engine, the state, the event that led there."""

    record: Record
    engine: Engine
    players: list[str]
    step: int
    seat: int | None
    before: Any
    event: dict[str, Any] | None
    state: Any


def record_step_position(
    record: Record,
    *,
    step: int,
    seat: int | None,
    players: list[str] | None = None,
    saved: bytes | None = None,
) -> StepPosition:
    """Replay ``record`` to ``step`` (refusing a step or seat outside it); ``players`` as
    ``record_player_names`` gives them, read here if not given; ``saved``: the snapshot
    the step starts from, if the caller read it (``state_cache.position_at``)."""
    record_require_replayable(record)
    if players is None:
        players = record_player_names(record)
    if not 0 <= step <= record.num_events:
        raise NotFound(
            "step_out_of_range",
            f"Step {step} is outside this record (0 to {record.num_events}).",
            step=step,
            last_step=record.num_events,
        )
    if seat is not None and not 0 <= seat < len(players):
        raise BadRequest(
            "bad_seat", f"Seat must be 0 to {len(players) - 1}.", seat=seat, field="seat"
        )
    engine = get_engine(record.game)
    before, event, state = state_cache.position_at(engine, record, len(players), step, saved=saved)
    return StepPosition(record, engine, players, step, seat, before, event, state)


def record_step_view(
    record: Record,
    *,
    step: int,
    seat: int | None,
    players: list[str] | None = None,
    saved: bytes | None = None,
) -> dict[str, Any]:
    """The state after ``step`` events, as everyone sees it or as ``seat`` saw it.

    Only the engine's views leave this function: with a seat given, the state,
    the event that led there, its description and the legal moves are all that
    seat's. A seat's view says who is to move (``waiting_for``) but lists only
    its own moves.
    """
    at = record_step_position(record, step=step, seat=seat, players=players, saved=saved)
    engine, state, event = at.engine, at.state, at.event
    movers = engine.to_move(state)
    seats = [m for m in movers if m != CHANCE]
    if seat is not None:
        seats = [s for s in seats if s == seat]
    over = engine.is_over(state)
    legal = {s: engine.legal_events(state, s) for s in seats}
    text = (
        names_fill(engine.describe(event, seat, at.before, state), at.players)
        if event is not None
        else setup_sentence(engine, at.players, seat)
    )
    return {
        "record": record.pk,
        "game": record.game,
        "players": at.players,
        "step": step,
        "last_step": record.num_events,
        "seat": seat,
        "event": engine.event_view(event, seat, before=at.before) if event is not None else None,
        "text": text,
        "to_move": movers,
        "waiting_for": waiting_for(engine, state, legal),
        "legal_events": {str(s): legal[s] for s in seats},
        "moves": step_moves(engine, state, seats, at.players, legal=legal),
        "scores": scores_shown(engine, state, seat),
        "is_over": over,
        "result": engine.result(state).to_json() if over else None,
        "state": engine.view(state, seat),
    }


def record_step_table(
    record: Record,
    *,
    step: int,
    seat: int | None,
    players: list[str] | None = None,
    saved: bytes | None = None,
    listed: bool = True,
) -> str:
    """The table at ``step`` drawn as HTML for that viewer (the replay page swaps it in);
    its list of moves in words, or (``listed=False``) folded and counted only, for the
    viewer to ask for the listed table when it is opened (``tables.folded_moves_list``)."""
    at = record_step_position(record, step=step, seat=seat, players=players, saved=saved)
    engine, state = at.engine, at.state
    movers = [m for m in engine.to_move(state) if m != CHANCE and seat in (None, m)]
    legal = {mover: engine.legal_events(state, mover) for mover in movers}
    if not listed:
        return table_html(
            engine, state, seat=seat, players=at.players, legal=legal, moves_later=True
        )
    summary = table_summarizer(engine.slug)
    moves = step_move_words(engine, state, movers, at.players, legal=legal, summary=summary)
    return table_html(engine, state, seat=seat, players=at.players, moves=moves, legal=legal)


def record_step_table_body(
    record_id: int, *, step: int, seat: int | None, listed: bool = True
) -> bytes:
    """The table at ``step`` as UTF-8 HTML for that viewer, cached per seat under the
    record's token, as the step's JSON is (``replays.response_cache.table_variant``).

    A record is a finished game; each viewer (everyone, or one seat) has its own key,
    so a seat's hidden cards are only ever in that seat's body. A refused step or seat
    raises as ``record_step_table`` does, and nothing is stored.
    """
    return record_step_table_answer(record_id, step=step, seat=seat, listed=listed).stored()


def record_step_table_answer(
    record_id: int, *, step: int, seat: int | None, listed: bool = True
) -> StepAnswer:
    """``record_step_table_body``, the body not stored yet if it was drawn now (the page
    stores it once its answer is sent: ``StepAnswer``)."""

    def draw(record: Record, players: list[str], saved: bytes | None) -> bytes:
        table = record_step_table(
            record, step=step, seat=seat, players=players, saved=saved, listed=listed
        )
        return table.encode()

    variant = response_cache.table_variant(step, seat, listed=listed)
    return _step_answer(record_id, variant, step, draw)


@dataclass(frozen=True)
class StepAnswer:
    """A step's body for one viewer; ``key`` is set when it was built now and is not
    stored yet (``stored()`` keeps it; a page answers first and stores after:
    ``response_cache.StoredAfterResponse``)."""

    body: bytes
    key: str | None = None

    def stored(self) -> bytes:
        if self.key is not None:
            response_cache.body_store(self.key, self.body, read_here=False)
        return self.body


def step_needs(step: int) -> list[str]:
    """What building a step's body needs, read with the body when it is missing: the
    record's header, and the snapshot the step starts from (kept under the record's token
    by the replay's preparation: ``response_cache.snapshot_variant``), the first
    window's too (the set-up and its first events)."""
    needs = [response_cache.header_variant()]
    if step:
        needs.append(response_cache.snapshot_variant(state_cache.window_base(step)))
    return needs


def _step_answer(
    record_id: int,
    variant: str,
    step: int,
    build: Callable[[Record, list[str], bytes | None], bytes],
    *,
    token: str | None = None,
    needs: Sequence[bytes | None] | None = None,
) -> StepAnswer:
    """The body ``variant`` of a record's ``step``, from the cache or built now.

    The record's token, the body and what building it needs (``step_needs``) are read in
    one round trip (``response_cache.bodies_read``); a hit reads the body alone. A caller
    that read the token (``token``) read the body under it too, and passes what it found
    of ``step_needs`` (``needs``: the body missing).
    The token is always read before anything the body is built from, as
    ``response_cache.cached_body`` does.
    """
    token_name = response_cache.record_token_name(record_id)
    if needs is None:
        token, found = response_cache.bodies_read(token_name, [variant, *step_needs(step)])
        if token is None:
            token = response_cache.token_taken(token_name)
        if found[0] is not None:
            return StepAnswer(found[0])
        needs = found[1:]
    elif token is None:
        raise ValueError("needs are read under a token: pass it")
    header, saved = needs[0], needs[1] if step else None
    if header is None:
        header = _header_body(record_id, token_name, token)
    record, players = _header_record(header)
    built = build(record, players, saved)
    return StepAnswer(built, response_cache.body_name(token_name, token, variant))


# What a step's first visit needs of its record, kept under the record's token: the record
# without its log, and its players' names.
HEADER_FIELDS = ("id", "game", "kind", "digest", "options", "num_events")


def record_replay_header(record_id: int) -> tuple[Record, list[str]]:
    """The record (these fields only: the others, its log first, are read if touched) and
    its players' names, from the cache under the record's token.

    Why: a step's first visit read them with two queries (the record, its seats and
    players) before replaying from a snapshot; one cache read replaces both. Nothing in
    it is hidden from anyone (no log, no hand). A missing record raises ``NotFound`` and
    nothing is kept.
    """
    token_name = response_cache.record_token_name(record_id)
    return _header_record(
        _header_body(record_id, token_name, response_cache.token_taken(token_name))
    )


def _header_body(record_id: int, token_name: str, token: str) -> bytes:
    """The header's bytes under ``token`` (taken before this reads the database)."""
    key = response_cache.body_name(token_name, token, response_cache.header_variant())
    body = response_cache.body_read(key)
    if body is None:
        record = record_get(record_id=record_id, log=False)
        values = [getattr(record, name) for name in HEADER_FIELDS]
        body = orjson.dumps({"values": values, "players": record_player_names(record)})
        response_cache.body_store(key, body)
    return body


def _header_record(body: bytes) -> tuple[Record, list[str]]:
    header = orjson.loads(body)
    record = Record.from_db("default", list(HEADER_FIELDS), header["values"])
    return record, header["players"]


def timeline_items_html(steps: list[dict[str, Any]]) -> str:
    """The replay page's move list: one ``<li>`` per step, its sentence escaped.

    Built as a string rather than by a template loop: a long game has thousands of
    steps, and the loop cost more than telling the game.
    """
    items = [
        f'<li data-step="{entry["step"]}"{CURRENT if index == 0 else ""}>'
        f'<a href="#step={entry["step"]}"><span class="n">{entry["step"]}.</span> '
        f'<span class="t">{escape(entry["text"])}</span></a></li>\n'
        for index, entry in enumerate(steps)
    ]
    return "".join(items)


CURRENT = ' class="current"'  # the step shown when the page opens


@dataclass(frozen=True)
class ReplayPageParts:
    """What a replay page would otherwise rebuild at every visit: the move list drawn as
    HTML (thousands of lines, most of the page's bytes, in a long game) and the first
    step's sentence. The list is kept as the bytes the page sends."""

    first_text: str
    moves_html: bytes


def record_replay_page_parts(record_id: int, *, tell: bool = True) -> ReplayPageParts | None:
    """The replay page's list of moves, as everyone sees the finished game, cached under
    the record's token (a rename of a player or a correction replaces it).

    With ``tell=False``, None for a long record whose game was not told yet (its
    preparation, ``replays.viewer_warm``, has not run): telling 4,620 events takes
    150-250 ms, which the page does not make its visitor wait for; the viewer fills the
    list from the timeline it fetches anyway. Nothing is kept then.
    """

    def build() -> bytes:
        record = record_get(record_id=record_id, log=False)  # the log is read if told now
        players = record_player_names(record)
        timeline = record_timeline_known(record, players=players, seat=None)
        if timeline is None:
            if not tell and replay_store.worth_storing(record.num_events):
                return b""
            timeline = record_timeline(record, players=players, seat=None)
        steps = timeline["steps"]
        first = steps[0]["text"].encode()
        return f"{len(first)}\n".encode() + first + timeline_items_html(steps).encode()

    token_name, variant = response_cache.record_target(record_id, response_cache.page_variant())
    body = response_cache.cached_body(token_name, variant, build, keep=bool)
    if not body:
        return None
    size, _, rest = body.partition(b"\n")
    return ReplayPageParts(first_text=rest[: int(size)].decode(), moves_html=rest[int(size) :])


# --- the record endpoints' JSON bodies, cached (replays.response_cache) ----------------------


def record_detail_json(record_id: int) -> bytes:
    """``GET /api/records/{id}/`` as JSON bytes, cached under the record's token."""
    token_name, variant = response_cache.record_target(record_id, response_cache.detail_variant())
    return response_cache.cached_body(
        token_name,
        variant,
        lambda: response_cache.json_body(record_document(record_get(record_id=record_id))),
    )


def record_step_json(record_id: int, *, step: int, seat: int | None) -> bytes:
    """A replay step as JSON bytes for that viewer, cached per seat under the record's token."""
    return record_step_answer(record_id, step=step, seat=seat).stored()


def record_step_answer(
    record_id: int,
    *,
    step: int,
    seat: int | None,
    token: str | None = None,
    needs: Sequence[bytes | None] | None = None,
) -> StepAnswer:
    """``record_step_json``, the body not stored yet if it was built now; ``token``: the
    record's token as the caller read it; ``needs``: what it read with it of
    ``step_needs`` (the body not found under it: ``replays.api.fastpath``)."""

    def build(record: Record, players: list[str], saved: bytes | None) -> bytes:
        view = record_step_view(record, step=step, seat=seat, players=players, saved=saved)
        return response_cache.json_body(view)

    variant = response_cache.step_variant(step, seat)
    return _step_answer(record_id, variant, step, build, token=token, needs=needs)


def record_timeline_checked(record_id: int, *, seat: int | None) -> tuple[Record, list[str]]:
    """The record and its players for a timeline, refusing a result-only record or a bad seat."""
    record = record_get(record_id=record_id, log=False)
    record_require_replayable(record)
    players = record_player_names(record)
    if seat is not None and seat >= len(players):
        raise BadRequest(
            "bad_seat", f"Seat must be 0 to {len(players) - 1}.", seat=seat, field="seat"
        )
    return record, players


def record_timeline_body(record_id: int, *, seat: int | None) -> bytes:
    """The timeline as JSON bytes for that viewer, cached per seat under the record's token."""

    def build() -> bytes:
        record, players = record_timeline_checked(record_id, seat=seat)
        return record_timeline_json(record, players=players, seat=seat)

    token_name, variant = response_cache.record_target(
        record_id, response_cache.timeline_variant(seat)
    )
    return response_cache.cached_body(token_name, variant, build)


@dataclass(frozen=True)
class SeatCell:
    name: str
    score: int | None
    won: bool


@dataclass(frozen=True)
class RecordRow:
    """One record as the page tells it: names people say, winners marked."""

    id: int
    game: str
    played: datetime
    played_known: bool  # False: the log does not say, ``played`` is when it was stored
    seats: list[SeatCell]  # seat order
    ranked: list[SeatCell]  # best first, for the scores
    num_events: int
    variant: str = ""  # the house rules that differ from the game's defaults, in words
    result_only: bool = False  # played at a real table: final scores only, no replay
    simulated: bool = False  # bot play: never counted in ratings, leaderboards, standings
    demo: bool = False  # of the demo data (bot play too)


def record_row(record: Record) -> RecordRow:
    return record_row_of(
        pk=record.pk,
        game=record.game,
        kind=record.kind,
        options=record.options,
        meta=record.meta,
        result=record.result,
        num_events=record.num_events,
        played_at=record.played_at,
        simulated=record.simulated,
        created_at=record.created_at,
        seats=[(seat.seat, seat.player.name) for seat in record.seats.all()],
    )


def record_row_of(
    *,
    pk: int,
    game: str,
    kind: str,
    options: dict[str, Any] | None,
    meta: dict[str, Any] | None,
    result: dict[str, Any] | None,
    num_events: int,
    played_at: datetime | None,
    simulated: bool,
    created_at: datetime,
    seats: list[tuple[int, str]],
) -> RecordRow:
    """:func:`record_row` from a record's columns and its (seat, player name) pairs, for a
    reader that fetched them as plain rows (the dashboard's recent records) instead of
    model instances."""
    result = result or {}
    scores = result.get("scores") or []
    ranks = result.get("ranks") or []
    winners = set(result.get("winners") or [])
    cells = [
        SeatCell(
            name=name,
            score=scores[seat] if seat < len(scores) else None,
            won=seat in winners,
        )
        for seat, name in sorted(seats, key=lambda pair: pair[0])
    ]
    order = sorted(range(len(cells)), key=lambda s: (ranks[s] if s < len(ranks) else len(cells), s))
    return RecordRow(
        id=pk,
        game=game_name(game),
        played=played_at or created_at,
        played_known=played_at is not None,
        seats=cells,
        ranked=[cells[s] for s in order],
        num_events=num_events,
        variant=variant_words(game, options or {}),
        result_only=kind == Record.Kind.RESULT,
        simulated=simulated,
        demo=simulated and (meta or {}).get("source") == DEMO_SOURCE,
    )


def records_awaiting_analytics(*, record_ids: Iterable[int]) -> int:
    """How many of these records analytics has not taken in yet (no per-seat results).

    Analytics writes one result row per seat when it ingests a record; until then the
    record is stored but missing from the dashboards and leaderboards. With a broker
    the ingest runs on a worker, without one in the web process's background pool:
    either way after the upload's answer, which says how many are still on their way.
    """
    ids = sorted(set(record_ids))
    waiting = 0
    for start in range(0, len(ids), AWAITING_CHUNK):
        waiting += Record.objects.filter(
            pk__in=ids[start : start + AWAITING_CHUNK], player_results__isnull=True
        ).count()
    return waiting


AWAITING_CHUNK = 5000  # ids per query: well under SQLite's limit on a query's parameters
