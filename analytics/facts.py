"""A record's facts: computed on the engines' floor (``games.facts``), re-exported here.

The computation moved to :mod:`games.facts` so the rules check of an upload (a bulk
import's worker processes, which import no analytics) computes them in its own
replay and the record is stored with them (``replays.models.Record.replay_facts``).
"""

from games.facts import facts_empty, record_facts_compute, seat_card_ids

__all__ = ["facts_empty", "record_facts_compute", "seat_card_ids"]
