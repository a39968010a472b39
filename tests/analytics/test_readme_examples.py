"""The README's head-to-head example works once the two players it names have played."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from django.core.management import call_command

from replays.models import Player
from replays.services import record_submit

README = Path(__file__).resolve().parents[2] / "README.md"

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_readme_head_to_head_example_shows_two_players_who_met(client, make_document):
    found = re.search(r"`(/head-to-head/\?game=(\w+)&a=(\w+)&b=(\w+))`", README.read_text())
    assert found, "the README gives a head-to-head example"
    path, game, a, b = found.groups()
    # The demo data (bin/serve's first run) is bot play: it never makes a head-to-head.
    call_command("simulate", game, games=30, seed=2026, demo=True, stdout=io.StringIO())
    assert not Player.objects.filter(name__in=[a, b]).exists()
    assert client.get(path).status_code == 400  # nobody of those names yet, said so
    # The two players of the example play three games together.
    for seed in range(3):
        document = make_document(game, seed=seed, players=3)
        document["players"] = [a, b, "cleo"]
        record_submit(document=document)
    response = client.get(path)
    assert response.status_code == 200
    page = response.content.decode()
    together = re.search(r"(\d+) games? together\.", page)
    assert together, "the example's players met"
    assert int(together.group(1)) == 3
    assert 'id="meetings"' in page
