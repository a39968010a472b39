"""Statistics split by house rules: each rules variant of a game on its own."""

from __future__ import annotations

import random

import pytest

from analytics.models import PlayerResult
from replays.giftlog import options_key
from replays.models import Record
from replays.services import record_submit
from replays.simulation import simulated_document

pytestmark = pytest.mark.django_db


def _store(options, seed, names):
    document = simulated_document(  # people's games: the players tables are of real play
        "gift_trap", num_players=3, rng=random.Random(seed), options=options, simulated=False
    )
    document["players"] = names
    record, _ = record_submit(document=document)
    return record


def test_each_result_knows_its_variant_and_the_dashboard_splits_by_it(
    client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        standard = _store({"max_rounds": None}, 1, ["ana", "ben", "cy"])
        limited = _store({"max_rounds": 2}, 2, ["dee", "eli", "fay"])
    assert set(PlayerResult.objects.filter(record=limited).values_list("variant", flat=True)) == {
        options_key(Record.objects.get(pk=limited.pk).options)
    }
    page = client.get("/games/gift_trap/").content.decode()
    assert "the standard rules (1 game)" in page
    assert "max rounds: 2 (1 game)" in page
    key = options_key(limited.options)
    only = client.get(f"/games/gift_trap/?variant={key}").content.decode()
    assert "GiftTRAP (max rounds: 2)" in only.split('id="scores-figure"')[1].split("</script>")[0]
    players = only.split('id="players"')[1].split("</table>")[0]
    assert "dee" in players
    assert "ana" not in players, "the other variant's players are not counted"
    assert f'href="/records/{limited.pk}/"' in only
    assert f'href="/records/{standard.pk}/"' not in only
    everything = client.get("/games/gift_trap/?variant=nonsense").content.decode()
    assert f'href="/records/{standard.pk}/"' in everything
