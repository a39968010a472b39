"""Writes for events: the event and its entries, rounds and seats, and table results.

Keyword-only, one transaction each; permission checks live here and raise
``Forbidden`` (``not_organiser``, ``not_at_table``, ``own_result``), so the API and
the pages refuse the same things. A refusal changes nothing.
"""

from events.services.events import (
    entry_add,
    entry_check_in,
    entry_drop,
    entry_join,
    entry_remove,
    event_create,
    event_delete,
    event_status_set,
)
from events.services.results import table_log_submit, table_result_confirm, table_result_submit
from events.services.rounds import (
    SwapOutcome,
    event_finish,
    round_finish,
    round_seat_next,
    seat_swap,
)

__all__ = [
    "SwapOutcome",
    "entry_add",
    "entry_check_in",
    "entry_drop",
    "entry_join",
    "entry_remove",
    "event_create",
    "event_delete",
    "event_finish",
    "event_status_set",
    "round_finish",
    "round_seat_next",
    "seat_swap",
    "table_log_submit",
    "table_result_confirm",
    "table_result_submit",
]
