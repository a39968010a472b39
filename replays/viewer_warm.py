"""A long record's replay, prepared ahead: what its first visitors would otherwise wait for.

Why: the first visit of a long game's replay page told the whole game (450-550 ms for
an 8-player GiftTRAP game of 4,620 events), its first step replayed thousands of
events, and each seat's first timeline told the game again (docs/performance.md,
"The replay viewer"). A record never changes, so all of it can be prepared once,
by a worker, right after the record is stored: the log is replayed once, the states
every ``state_cache.EVERY`` events are kept with the events after them (a step's first
visit then applies at most that many events, reading neither the database nor the log,
with the record's header ``selectors.record_replay_header`` kept too; both are kept
under the record's token as well, so the visit reads them with its body in one round
trip: ``response_cache.snapshot_variant``), every viewer's
timeline is told from those states and kept, and
the page's move list, first table and own part (``replays.replay_page``) are drawn and
kept under the record's token. The snapshots and the timelines are also kept in the
database (``replays.replay_store``): after a Redis restart or eviction, or a day later,
a first visit reads them there instead of replaying the log.

Only records of at least ``WARM_MIN_EVENTS`` events are prepared: a shorter game is
told in a few milliseconds on its first visit, and preparing every record of a bulk
import would cost the workers more than it saves (the same length as
``replay_store.STORE_MIN_EVENTS``). Everything kept is a copy; if it is lost, the next
visitor builds it from the log.
"""

from __future__ import annotations

from replays import replay_page, response_cache, selectors, state_cache
from replays.models import Record
from replays.timeline import record_states, record_timeline

WARM_MIN_EVENTS = 500


def record_viewer_warm(*, record_id: int) -> bool:
    """Prepare one record's replay (see the module); False if it is short, gone or has no log."""
    record = Record.objects.filter(pk=record_id, kind=Record.Kind.LOG).first()
    if record is None or record.num_events < WARM_MIN_EVENTS:
        return False
    players = selectors.record_player_names(record)
    states = record_states(record, len(players))
    bundles = {0: state_cache.opening_bundle(record, states)}
    bundles |= state_cache.snapshots_store(record, states)
    token_name = response_cache.record_token_name(record_id)
    response_cache.bodies_store(
        token_name,
        response_cache.token_taken(token_name),
        {response_cache.snapshot_variant(base): bundle for base, bundle in bundles.items()},
        response_cache.BODY_TIMEOUT,  # a copy for the first hour's visitors, as bodies are
    )
    for seat in [None, *range(len(players))]:
        record_timeline(record, players=players, seat=seat, states=states)
        selectors.record_timeline_body(record_id, seat=seat)
    selectors.record_replay_header(record_id)
    selectors.record_replay_page_parts(record_id)
    selectors.record_step_table_body(record_id, step=0, seat=None)
    for embed in (False, True):
        replay_page.replay_page_body(record_id, embed=embed)
    return True


def records_viewer_warm(*, record_ids: list[int]) -> int:
    """Prepare the long ones of these records; returns how many were prepared."""
    long_ones = Record.objects.filter(
        pk__in=record_ids, kind=Record.Kind.LOG, num_events__gte=WARM_MIN_EVENTS
    ).values_list("pk", flat=True)
    return sum(record_viewer_warm(record_id=pk) for pk in long_ones)
