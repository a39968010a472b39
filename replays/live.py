"""Live games: one validated event at a time, with each seat behind its own token.

Writes (``live_game_create``, ``live_event_submit``) follow the same order as
uploads: check, then do, then announce after commit. The row is locked, the
client's expected step is compared (a stale client gets a conflict, as
boardgame.io's ``_stateID`` does), and the new events are inserted under a
unique (game, step) constraint so a lost race can never fork the log. Reads
(``live_game_view``) only ever return the engine's view for the caller's seat
while the game is live: this is the hidden-information boundary.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from core.errors import BadRequest, Conflict, Forbidden, NotFound, Unauthorized, Unprocessable
from core.inputs import whole_number
from core.quotas import QuotaExceeded, budget_charge, budget_remaining
from games.base import CHANCE, Engine, IllegalEvent, InvalidSetup
from games.play import BOTS, replay, replay_states, waiting_for
from games.registry import get_engine
from replays.giftlog import FORMAT, giftlog_parse
from replays.handles import player_names_check
from replays.models import LiveEvent, LiveGame, Record
from replays.selectors import record_require_replayable
from replays.services import record_submit
from replays.tables import table_html
from replays.timeline import step_moves, timeline_entries

MAX_SEED = 2**63 - 1


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


MAX_AUTO_EVENTS = 100_000


def _auto_events(
    engine: Engine, state: Any, *, seed: int, step: int, bots: dict[int, str]
) -> tuple[Any, list[dict]]:
    """Let the server's actors play until a person must: chance, then bot seats.

    Every draw and every bot choice is seeded by (seed, step), so the same game
    replays to the same events; what is stored is always the explicit events.
    """
    drawn: list[dict] = []
    while not engine.is_over(state) and len(drawn) < MAX_AUTO_EVENTS:
        rng = random.Random(f"{seed}:{step + len(drawn)}")
        waiting = waiting_for(engine, state)
        if CHANCE in waiting:
            event = engine.sample_chance(state, rng)
        else:
            bot_seats = [seat for seat in waiting if seat in bots]
            if not bot_seats:
                break
            seat = bot_seats[0]
            event = BOTS[bots[seat]](engine, state, seat, rng)
        state = engine.apply(state, event)
        drawn.append(event)
    return state, drawn


def _bots_parse(value: Any, num_players: int) -> dict[int, str]:
    """``{"1": "greedy"}``: seats the server plays, by seat number (JSON keys are strings)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BadRequest(
            "invalid_envelope", '"bots" must map seat numbers to bot names.', field="bots"
        )
    bots: dict[int, str] = {}
    for key, name in value.items():
        seat = whole_number(key, high=num_players)
        if seat is None or not 0 <= seat < num_players:
            raise BadRequest(
                "invalid_envelope",
                f'"bots" names {key!r}, which is not a seat index of this game: '
                f"0 (seat 1) to {num_players - 1} (seat {num_players}).",
                field="bots",
            )
        if name not in BOTS:
            raise BadRequest(
                "invalid_envelope",
                f"Unknown bot {name!r}; bots: {', '.join(sorted(BOTS))}.",
                field="bots",
            )
        bots[seat] = name
    if len(bots) == num_players:
        raise BadRequest("invalid_envelope", "At least one seat must be a person's.", field="bots")
    return bots


# -- writes -----------------------------------------------------------------------------


@transaction.atomic
def live_game_create(
    *,
    document: Any,
    prefix: list[dict] | None = None,
    opened_by: Any = None,
    client: str | None = None,
) -> tuple[LiveGame, list[str | None]]:
    """Open a live game; returns it and the seat tokens (shown once, stored hashed).

    Seats named in ``bots`` are played by the server (no token); the game then
    runs until a person must act. ``prefix`` are events already played (a fork
    of a stored record): they are replayed, checked, and stored as the first steps.
    ``client`` (the address of a client without an account) is what the allowance
    of games opened counts when there is no ``opened_by`` (see ``_live_quota_check``).
    """
    if not isinstance(document, dict):
        raise BadRequest("invalid_envelope", "A live game is described by a JSON object.", field="")
    _live_quota_check(opened_by, client)
    seed = document.get("seed")
    if seed is None:
        seed = secrets.randbelow(MAX_SEED)
    elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise BadRequest(
            "invalid_envelope", f'"seed" must be a whole number from 0 to {MAX_SEED}.', field="seed"
        )
    envelope = {k: v for k, v in document.items() if k not in ("seed", "bots")}
    log = giftlog_parse({**envelope, "format": FORMAT, "events": []})
    player_names_check(log.players)  # refused now, not when the game ends and is stored
    bots = _bots_parse(document.get("bots"), len(log.players))
    engine = get_engine(log.game)
    try:
        state = engine.setup(len(log.players), log.options)
    except InvalidSetup as exc:
        raise BadRequest(
            "invalid_setup", exc.message, **{**exc.detail, "reason": exc.code}
        ) from exc
    prefix = list(prefix or [])
    for event in prefix:
        state = engine.apply(state, event)
    if engine.is_over(state):
        raise Unprocessable("game_over", "The game is already over at this step.")
    tokens = [
        None if seat in bots else secrets.token_urlsafe(24) for seat in range(len(log.players))
    ]
    live = LiveGame.objects.create(
        game=log.game,
        options=log.options,
        players=log.players,
        # A game with a bot seat is bot play: it is stored simulated when it ends, and
        # never reaches a rating, a leaderboard or a real-play figure.
        meta={**log.meta, "simulated": True} if bots else log.meta,
        seed=seed,
        token_hashes=[_token_hash(t) if t else "" for t in tokens],
        bots={str(seat): name for seat, name in bots.items()},
        opened_by=opened_by,
    )
    _, drawn = _auto_events(engine, state, seed=seed, step=len(prefix), bots=bots)
    LiveEvent.objects.bulk_create(
        LiveEvent(live_game=live, step=step, event=event)
        for step, event in enumerate([*prefix, *drawn])
    )
    if opened_by is None and client is not None:
        budget_charge(LIVE_BUDGET, client, 1, period=LIVE_BUDGET_SECONDS)
    return live, tokens


LIVE_BUDGET = "live-open"
LIVE_BUDGET_SECONDS = 3600


def _live_quota_check(opened_by: Any, client: str | None) -> None:
    """Refuse a new game past the opener's allowance (429 ``quota_exceeded``).

    An account may have ``LIVE_MAX_OPEN_GAMES`` games open: live, and opened in the
    last ``LIVE_OPEN_HOURS`` (an abandoned game stops counting then). Its row is
    locked for the count, so games opened at once cannot all take the last place.
    A client without an account may open that many games per address per hour.
    Games opened by the server itself (no account, no address) are not counted.
    """
    most = settings.LIVE_MAX_OPEN_GAMES
    if opened_by is not None:
        get_user_model().objects.select_for_update().filter(pk=opened_by.pk).first()
        since = timezone.now() - timedelta(hours=settings.LIVE_OPEN_HOURS)
        open_games = LiveGame.objects.filter(
            opened_by=opened_by, status=LiveGame.Status.LIVE, created_at__gte=since
        ).count()
        if open_games >= most:
            raise QuotaExceeded(
                f"This account has {open_games} live games open, the most it may have "
                f"({most}); finish one, or wait until one is {settings.LIVE_OPEN_HOURS:g} "
                "hours old.",
                open_games=open_games,
                max_open_games=most,
            )
    elif client is not None:
        budget = budget_remaining(LIVE_BUDGET, client, limit=most, period=LIVE_BUDGET_SECONDS)
        if budget.remaining <= 0:
            raise QuotaExceeded(
                f"This address has opened {budget.used} live games this hour, the most a "
                f"client without an account may; try again in {budget.retry_after} seconds.",
                retry_after=budget.retry_after,
                opened_games=budget.used,
                max_open_games=most,
            )


def live_game_fork(
    *,
    record: Record,
    players: list[str],
    step: Any,
    seats: Any = None,
    seed: Any = None,
    opened_by: Any = None,
    client: str | None = None,
) -> tuple[LiveGame, list[str | None]]:
    """Play on from step ``step`` of a stored record: a what-if line, as a new live game.

    ``seats`` gives each seat as ``"person"`` (it gets a token) or a bot name
    (the server plays it); by default every seat is a person's. The new game's
    ``meta`` says where it came from; when it ends it is a record of its own.
    A result-only record has no events to play on from: 409 ``not_replayable``.
    """
    record_require_replayable(record)
    if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= record.num_events:
        raise BadRequest(
            "invalid_request",
            f'"step" must be a whole number from 0 to {record.num_events}.',
            field="step",
        )
    if seats is None:
        seats = ["person"] * len(players)
    if not isinstance(seats, list) or len(seats) != len(players):
        raise BadRequest(
            "invalid_request",
            f'"seats" must list {len(players)} entries: "person" or a bot name, one per seat.',
            field="seats",
        )
    bots = {str(seat): kind for seat, kind in enumerate(seats) if kind != "person"}
    document: dict[str, Any] = {
        "game": record.game,
        "options": record.options,
        "players": players,
        "meta": {"forked_from": {"record": record.pk, "step": step}},
        "bots": bots,
    }
    if seed is not None:
        document["seed"] = seed
    if step == record.num_events:
        raise Unprocessable(
            "game_over", "The game is over at this step; fork from an earlier one.", step=step
        )
    return live_game_create(
        document=document, prefix=list(record.events[:step]), opened_by=opened_by, client=client
    )


def live_event_submit(
    *, live_id: int, token: str | None, event: Any, expected_step: Any = None
) -> tuple[LiveGame, int]:
    """Apply one seat's event to a live game; returns the game and the acting seat.

    ``expected_step`` (the number of events the client has seen) guards against
    acting on a stale state: if another event landed first, the answer is a
    conflict and the client reloads. Chance events that follow are drawn at once.
    """
    try:
        with transaction.atomic():
            return _live_event_submit(live_id, token, event, expected_step)
    except IntegrityError:
        raise Conflict(
            "stale_step", "Another event was recorded at the same moment; reload and retry."
        ) from None


def _live_event_submit(
    live_id: int, token: str | None, event: Any, expected_step: Any
) -> tuple[LiveGame, int]:
    live = LiveGame.objects.select_for_update().filter(pk=live_id).first()
    if live is None:
        raise NotFound("not_found", f"There is no live game {live_id}.")
    seat = live_seat_authenticate(live, token)
    if live.status != LiveGame.Status.LIVE:
        raise Conflict(
            "game_over", "This game is over; it is stored as a record.", record=live.record_id
        )
    events = live_events(live)
    if expected_step is not None and expected_step != len(events):
        raise Conflict(
            "stale_step",
            f"The game is at step {len(events)}, not {expected_step}; reload and retry.",
            step=len(events),
        )
    if not isinstance(event, dict):
        raise BadRequest("invalid_request", '"event" must be a JSON object.', field="event")
    event = {"by": seat, **event}
    if event["by"] != seat:
        raise Forbidden(
            "not_your_seat",
            f'Your token is seat {seat + 1}\'s ("by": {seat}); it cannot act for {event["by"]!r}.',
            seat=seat,
        )
    engine = get_engine(live.game)
    state = replay(engine, len(live.players), live.options, events)
    step = len(events)
    try:
        state = engine.apply(state, event)
    except IllegalEvent as exc:
        raise Unprocessable(
            "illegal_event",
            f"Event {step} is illegal: {exc.message}",
            **{**exc.detail, "step": step, "reason": exc.code, "event": event},
        ) from exc
    state, drawn = _auto_events(engine, state, seed=live.seed, step=step + 1, bots=live_bots(live))
    LiveEvent.objects.bulk_create(
        LiveEvent(live_game=live, step=step + offset, event=e)
        for offset, e in enumerate([event, *drawn])
    )
    if engine.is_over(state):
        record, _ = record_submit(
            document=live_game_document(live, [*events, event, *drawn]),
            submitted_by=live.opened_by,
            bot_seats=live_bots(live),
        )
        live.record = record
        live.status = LiveGame.Status.FINISHED
    live.save(update_fields=["record", "status", "updated_at"])
    return live, seat


# -- reads ------------------------------------------------------------------------------


def live_game_get(*, live_id: int) -> LiveGame:
    live = LiveGame.objects.filter(pk=live_id).first()
    if live is None:
        raise NotFound("not_found", f"There is no live game {live_id}.")
    return live


def live_seat_authenticate(live: LiveGame, token: str | None) -> int:
    """The seat a token belongs to; compared in constant time against every seat."""
    if not token:
        raise Unauthorized(
            "seat_token_required", 'Send your seat token: "Authorization: Seat <token>".'
        )
    digest = _token_hash(token)
    seat = None
    for index, stored in enumerate(live.token_hashes):
        if stored and hmac.compare_digest(stored, digest):
            seat = index
    if seat is None:
        raise Forbidden("bad_seat_token", "This token is not a seat of this game.")
    return seat


def live_bots(live: LiveGame) -> dict[int, str]:
    return {int(seat): name for seat, name in live.bots.items()}


def live_events(live: LiveGame) -> list[dict]:
    return list(live.live_events.order_by("step").values_list("event", flat=True))


def live_game_document(live: LiveGame, events: list[dict]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": live.game,
        "options": live.options,
        "players": live.players,
        "meta": live.meta,
        "events": events,
    }


def live_game_view(live: LiveGame, *, seat: int | None) -> dict[str, Any]:
    """What the caller may see: its seat's view while live, everything once finished.

    Scores are shown while live only where the engine says they are public
    (Gift Economy's come from hidden hands); the seat's view carries what it
    may know of them.
    """
    if seat is None and live.status == LiveGame.Status.LIVE:
        raise Unauthorized(
            "seat_token_required",
            "A live game is shown only to its seats; send your seat token.",
        )
    engine = get_engine(live.game)
    events = live_events(live)
    states = list(replay_states(engine, len(live.players), live.options, events))
    state = states[-1]
    over = engine.is_over(state)
    movers = engine.to_move(state)
    mine = [seat] if seat is not None and seat in movers else []
    return {
        "id": live.pk,
        "game": live.game,
        "players": live.players,
        "bots": live.bots,
        "status": live.status,
        "seat": seat,
        "step": len(events),
        "to_move": movers,
        "waiting_for": waiting_for(engine, state),
        "legal_events": engine.legal_events(state, seat) if seat in movers else [],
        "moves": step_moves(engine, state, mine, live.players),
        "events": [engine.event_view(e, seat, before=states[k]) for k, e in enumerate(events)],
        "timeline": timeline_entries(engine, live.players, events, states, seat),
        "scores": engine.scores(state) if over or engine.scores_public else None,
        "state": engine.view(state, seat),
        "record": live.record_id,
        "result": engine.result(state).to_json() if over else None,
    }


def live_game_table(live: LiveGame, *, seat: int | None) -> str:
    """The table as the caller's seat sees it now, drawn as HTML (same rules as the view)."""
    if seat is None and live.status == LiveGame.Status.LIVE:
        raise Unauthorized(
            "seat_token_required",
            "A live game is shown only to its seats; send your seat token.",
        )
    engine = get_engine(live.game)
    state = replay(engine, len(live.players), live.options, live_events(live))
    return table_html(engine, state, seat=seat, players=live.players)
