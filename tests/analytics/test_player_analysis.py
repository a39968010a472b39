"""A player's page: their analysed games, decision quality over time, and their biggest
mistakes, each a link to the position before the move, from their seat, as a puzzle."""

from __future__ import annotations

import html

import pytest

from analytics import record_analysis
from analytics.models import RecordAnalysis
from replays.selectors import record_player_names
from tests.analytics.analysis_helpers import short_game, stored, tiny_settings  # noqa: F401

pytestmark = pytest.mark.django_db


def _analysed_with_marks(make_document):
    """An analysed game in which its first player has at least one marked decision."""
    for seed in range(1, 30):
        record = stored(short_game(make_document, seed=seed))
        row, _ = record_analysis.analysis_request(record=record)
        row = record_analysis.analysis_run(analysis_id=row.pk)
        marked = [d for d in row.result["decisions"] if d["seat"] == 0 and d["mark"]]
        if marked:
            return record, row, marked
    raise AssertionError("no analysed game with a marked decision of seat 0")


def test_the_player_page_lists_their_biggest_mistakes_as_puzzles(
    client,
    make_document,
    tiny_settings,  # noqa: F811
):
    record, row, marked = _analysed_with_marks(make_document)
    handle = record_player_names(record)[0]
    page = client.get(f"/players/{handle}/")
    assert page.status_code == 200
    text = html.unescape(page.content.decode())
    assert "Analysed games" in text
    assert 'id="decision-quality-chart"' in text
    # Their marked decisions in every analysed game they sat in, by loss: the top ten.
    theirs = []
    for analysis in RecordAnalysis.objects.filter(status="done").select_related("record"):
        names = record_player_names(analysis.record)
        if handle not in names:
            continue
        seat = names.index(handle)
        theirs += [
            (d["loss"], analysis.record_id, d["step"], seat)
            for d in analysis.result["decisions"]
            if d["seat"] == seat and d["mark"]
        ]
    assert marked
    assert theirs
    for _loss, record_id, step, seat in sorted(theirs, reverse=True)[:10]:
        link = f"/records/{record_id}/?puzzle=1#step={step}&seat={seat}"
        assert link in text, link
    # Only their own decisions: another seat's marks are not theirs to puzzle over.
    others = [d for d in row.result["decisions"] if d["seat"] != 0 and d["mark"]]
    for decision in others:
        step, seat = decision["step"], decision["seat"]
        assert f"/records/{record.pk}/?puzzle=1#step={step}&seat={seat}" not in text
    # Their decision quality in the game, as points lost per decision.
    quality = row.result["players"][0]["decision_quality"]
    assert f"{100 * quality:.1f}" in text


def test_a_player_without_analysed_games_has_no_analysis_section(client, make_document):
    record = stored(short_game(make_document))
    handle = record_player_names(record)[0]
    text = client.get(f"/players/{handle}/").content.decode()
    assert "Analysed games" not in text
