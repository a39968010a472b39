"""simulate and import_records, through the same service as uploads."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from replays.models import Record
from tests.conftest import make_illegal

pytestmark = pytest.mark.django_db


def test_simulate_stores_games_and_is_repeatable_by_seed():
    out = StringIO()
    call_command("simulate", "secret_santa", games=3, players=3, seed=5, stdout=out)
    assert Record.objects.filter(game="secret_santa").count() == 3
    assert {r.seats.count() for r in Record.objects.all()} == {3}
    assert "3/3" in out.getvalue()
    assert "3 new Secret Santa records stored" in out.getvalue()

    again = StringIO()
    call_command("simulate", "secret_santa", games=3, players=3, seed=5, stdout=again)
    assert Record.objects.count() == 3
    assert "3 already present" in again.getvalue()


def test_simulate_refuses_bad_arguments():
    with pytest.raises(CommandError, match="Unknown game"):
        call_command("simulate", "chess", games=1)
    with pytest.raises(CommandError, match="played by"):
        call_command("simulate", "secret_santa", games=1, players=9)


def test_import_records_ndjson_stores_good_lines_and_names_bad_ones(tmp_path, make_document):
    good = [make_document(seed=s) for s in (61, 62)]
    bad, step = make_illegal(make_document(seed=63))
    path = tmp_path / "games.ndjson"
    path.write_text("\n".join(json.dumps(d) for d in [good[0], bad, good[1]]) + "\n{oops\n")
    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError, match="2 stored, 0 already present, 2 refused"):
        call_command("import_records", str(path), stdout=out, stderr=err)
    assert Record.objects.count() == 2
    assert f"line 2: refused: illegal_event (step {step})" in err.getvalue()
    assert "line 4: refused: malformed_json" in err.getvalue()


def test_import_records_single_pretty_json(tmp_path, make_document):
    path = tmp_path / "one.json"
    path.write_text(json.dumps(make_document(seed=64), indent=2))
    out = StringIO()
    call_command("import_records", str(path), stdout=out)
    assert Record.objects.count() == 1
    assert "1 stored" in out.getvalue()


def test_demo_data_fills_empty_games_once():
    call_command("demo_data", games=2, stdout=StringIO())
    first = Record.objects.count()
    assert first >= 2
    call_command("demo_data", games=2, stdout=StringIO())
    assert Record.objects.count() == first


def test_simulate_plays_a_variant_given_as_options():
    out = StringIO()
    call_command(
        "simulate",
        "gift_trap",
        games=2,
        players=3,
        seed=1,
        game_options='{"expert_cards": true}',
        stdout=out,
    )
    records = list(Record.objects.filter(game="gift_trap"))
    assert len(records) == 2
    assert all(r.options["expert_cards"] is True for r in records), "stored in full"
    assert all(r.options["max_rounds"] == 30 for r in records), "simulations stop at 30 rounds"
    with pytest.raises(CommandError, match="not JSON"):
        call_command("simulate", "gift_trap", games=1, game_options="{oops")
    with pytest.raises(CommandError, match="no option"):
        call_command("simulate", "gift_trap", games=1, game_options='{"colour": 1}')
