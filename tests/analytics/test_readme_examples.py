"""The README's example links work on the demo data ``bin/serve`` stores."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from django.core.management import call_command

README = Path(__file__).resolve().parents[2] / "README.md"

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_readme_head_to_head_example_shows_two_players_who_met(client):
    found = re.search(
        r"<http://127\.0\.0\.1:8000(/head-to-head/\?game=(\w+)&a=\w+&b=\w+)>", README.read_text()
    )
    assert found, "the README gives a head-to-head example"
    path, game = found.group(1), found.group(2)
    # What demo_data stores for this game (bin/serve's first run).
    call_command("simulate", game, games=30, seed=2026, demo=True, stdout=io.StringIO())
    response = client.get(path)
    assert response.status_code == 200
    page = response.content.decode()
    together = re.search(r"(\d+) games? together\.", page)
    assert together, "the example's players met in the demo data"
    assert int(together.group(1)) >= 3
    assert 'id="meetings"' in page
