"""The dashboard computed faster is the same page: its statistics part and its records.

The statistics part used to be rendered by a template that included ``core/_chart.html``
for every chart (json_script, the include's lookups: most of a first visit's time); it
is now built with ``core.chartkit.chart_html``. The recent records were read with every
column and seats in their default order; now with what the table shows. These tests
render the page both ways and compare.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.template import Context, Template

from analytics import dashboard, selectors
from analytics.models import StatisticsSnapshot
from games.registry import get_engine
from replays.selectors import PLAY_REAL, record_list, record_row
from replays.services import record_submit

pytestmark = pytest.mark.django_db(transaction=True)

# analytics/_statistics.html as it was before chart_html (main at 7e4b7f1).
BEFORE = """{% if any_records %}
<section class="glance" aria-labelledby="glance-title">
  <h2 id="glance-title">At a glance</h2>
  <div class="glance-grid">
    <div class="scroll-x"><table class="key-figures">
      <thead><tr><th scope="col">figure</th><th scope="col"><span class="swatch real" aria-hidden="true"></span>real play</th><th scope="col"><span class="swatch simulated" aria-hidden="true"></span>simulated</th></tr></thead>
      <tbody>{% for row in key_figures %}
      <tr><th scope="row">{{ row.label }}<small>Ludii: {{ row.ludii }}</small></th>{% for v in row.values %}<td>{{ v }}</td>{% endfor %}</tr>
      {% endfor %}</tbody>
    </table></div>
    <div class="scroll-x"><table class="balance">
      <caption>Seat balance by table size (1.00 = every seat wins equally often)</caption>
      <thead><tr><th scope="col">play</th><th scope="col">players</th><th scope="col">games</th><th scope="col">balance</th><th scope="col">best seat</th></tr></thead>
      <tbody>{% for row in balance_rows %}
      <tr><td>{{ row.play }}</td><td>{{ row.players }}</td><td>{{ row.games }}</td><td>{{ row.balance }}</td><td>{{ row.best_seat }}{% if row.verdict == "above fair" %} <strong class="flag">favoured</strong>{% endif %}</td></tr>
      {% endfor %}</tbody>
    </table></div>
  </div>
</section>

<div class="stat-grid">
{% for section in sections %}
<section class="stat" id="{{ section.id }}-section" aria-labelledby="{{ section.id }}-title">
  <h2 id="{{ section.id }}-title">{{ section.heading }}</h2>
  <p class="read">{{ section.words }}</p>
  {% include "core/_chart.html" with chart=section.chart %}
</section>
{% endfor %}
</div>
{% if not has_cards %}<p class="muted">In {{ engine.name }} no player holds cards (the gifts lie on a shared grid), so there are no card charts.</p>{% endif %}
{% else %}
<p class="notice">No {{ engine.name }} games match these filters yet. Upload a game, or run a simulation below to see what bots make of the rules.</p>
{% endif %}

"""  # noqa: E501


def _parsed(html: str) -> tuple[str, list[Any]]:
    """The markup with each JSON script's body taken out, and the bodies parsed."""
    bodies: list[Any] = []

    def take(match: re.Match[str]) -> str:
        bodies.append(json.loads(match.group(2)))
        return match.group(1) + "</script>"

    pattern = r'(<script id="[^"]*" type="application/json">)(.*?)</script>'
    return re.sub(pattern, take, html, flags=re.S), bodies


def _before(slug: str, filters: dict[str, Any]) -> str:
    """The statistics part as the template with one include per chart rendered it."""
    engine = get_engine(slug)
    figures = selectors.game_statistics(game=slug, **filters)
    has_cards = slug != "gift_trap"
    context = {
        "key_figures": dashboard._key_figures(figures),
        "balance_rows": dashboard._balance_rows(figures),
        "sections": dashboard._charts(figures, engine.name, has_cards),
        "has_cards": has_cards,
        "any_records": any(figures.get(k, {}).get("records") for k in ("real", "simulated")),
        "engine": engine,
    }
    return Template("{# comment line #}\n" + BEFORE).render(Context(context))


@pytest.mark.parametrize("slug", ["secret_santa", "gift_trap"])
def test_the_statistics_part_is_the_page_it_was(make_document, slug):
    for seed in (61, 62, 63, 64):
        record_submit(document=make_document(slug, seed=seed))
    record_submit(document={**make_document(slug, seed=65), "meta": {"simulated": True}})
    assert StatisticsSnapshot.objects.filter(game=slug).exists()
    for filters in ({}, {"real": True}, {"players": 4}, {"month_from": "2020-01"}):
        ours = dashboard._statistics_compute(get_engine(slug), filters)["statistics_html"]
        before = _before(slug, filters)
        assert _parsed(ours) == _parsed(before), filters
        if not filters:
            assert len(_parsed(ours)[1]) >= 2 * 5  # the charts are there, each with its CSV


def test_the_recent_records_are_the_records_pages_latest_real_games(make_document):
    documents = [make_document(seed=s) for s in (71, 72, 73)]
    documents.append({**make_document(seed=74), "meta": {"simulated": True}})
    documents.append({**make_document(seed=75), "options": {}})
    for document in documents:
        record_submit(document=document)
    expected = [record_row(r) for r in record_list(game="secret_santa", play=PLAY_REAL)[:10]]
    got = [record_row(r) for r in selectors.recent_real_records(game="secret_santa")]
    assert got == expected
    assert len(got) == 4  # the simulated one left out
    assert [record_row(r) for r in selectors.recent_real_records(game="secret_santa", limit=2)] == (
        expected[:2]
    )
    variant = selectors.game_statistics_variants(game="secret_santa")[0]["key"]
    in_variant = record_list(game="secret_santa", play=PLAY_REAL).filter(
        pk__in=selectors.variant_record_ids(variant=variant)
    )
    assert [
        record_row(r) for r in selectors.recent_real_records(game="secret_santa", variant=variant)
    ] == [record_row(r) for r in in_variant[:10]]


def test_the_recent_record_rows_read_as_plain_rows_are_the_model_rows(make_document):
    """recent_real_record_rows (values, no model instances) gives what record_row gives for
    recent_real_records: shared wins, house rules, a result-only record, no date, bot play."""
    from replays.models import Record

    documents = [make_document(seed=s) for s in (101, 102, 103, 104, 105, 106)]
    documents[1] = {**documents[1], "options": {}}
    documents[2] = {**documents[2], "meta": {"simulated": True}}
    for document in documents:
        record_submit(document=document)
    first = Record.objects.filter(game="secret_santa").order_by("id").first()
    assert first is not None
    Record.objects.filter(pk=first.pk).update(played_at=None)
    tied = Record.objects.filter(game="secret_santa").order_by("id")[3]
    Record.objects.filter(pk=tied.pk).update(
        result={**tied.result, "winners": [0, 1], "ranks": [1, 1, *tied.result["ranks"][2:]]},
        kind=Record.Kind.RESULT,
    )
    variant = selectors.game_statistics_variants(game="secret_santa")[0]["key"]
    for kwargs in ({}, {"limit": 2}, {"variant": variant}, {"variant": "no-such-variant"}):
        expected = [
            record_row(r) for r in selectors.recent_real_records(game="secret_santa", **kwargs)
        ]
        assert selectors.recent_real_record_rows(game="secret_santa", **kwargs) == expected
        if not kwargs:
            assert len(expected) == 5  # the simulated one left out
            assert any(not row.played_known for row in expected)
            assert any(row.result_only for row in expected)
            assert any(sum(seat.won for seat in row.seats) == 2 for row in expected)


def test_the_forms_choices_read_at_once_are_the_variants_and_clubs(make_document):
    """game_statistics_choices (one query) gives what the two selectors it replaced gave."""
    for seed, club in ((81, "North Pier"), (82, "South Quay"), (83, ""), (84, "North Pier")):
        document = make_document("gift_swap", seed=seed)
        record_submit(document={**document, "meta": {"club": club} if club else {}})
    selectors._VARIANT_OPTIONS.clear()
    variants, clubs = selectors.game_statistics_choices(game="gift_swap")
    assert clubs == selectors.game_statistics_clubs(game="gift_swap")
    assert clubs == ["North Pier", "South Quay"]
    assert variants == selectors.game_statistics_variants(game="gift_swap")
    assert sum(v["records"] for v in variants) == 4
    assert selectors.game_statistics_choices(game="secret_santa") == ([], [])


def test_filters_share_the_recent_records_of_a_version_and_never_an_older_one(
    client, make_document, monkeypatch
):
    """The "Recent records" table is rendered once per snapshot version for every filter;
    a record that lands changes the version, and the next filter's first visit shows it."""
    from django.core.cache import cache

    cache.clear()
    monkeypatch.setattr("analytics.services.dashboard_warm", lambda *, game: None)
    record_submit(document=make_document(seed=91))
    assert client.get("/games/secret_santa/").status_code == 200  # computes the table

    def refuse(**kwargs: Any) -> None:
        raise AssertionError("the recent records were read again at the same version")

    with monkeypatch.context() as patched:
        patched.setattr(selectors, "recent_real_record_rows", refuse)
        page = client.get("/games/secret_santa/?players=4&real=real")  # a filter's first visit
        assert page.status_code == 200
    newer = make_document(seed=92)
    record_submit(document=newer)  # a new version: nothing rendered (no warm-up)
    html = client.get("/games/secret_santa/?players=5").content.decode()
    recent = html.split("<h2>Recent records</h2>")[1]  # the records table, nothing else
    for name in newer["players"]:
        assert name in recent


def test_the_lab_fields_drawn_once_are_the_forms_own(client, settings):
    """The balance lab's fields as the form first shows them are drawn once per process
    (``analytics.pages._lab_fields_html``): the page has exactly what the template draws
    for a new form, visit after visit, and a refused form still shows its own values."""
    from django.template.loader import render_to_string

    from analytics import pages
    from analytics.forms import SimulationForm

    settings.ALLOW_ANONYMOUS_UPLOADS = True
    pages._LAB_FIELDS.clear()
    engine = get_engine("gift_swap")
    fresh = SimulationForm(engine=engine, max_games=pages.SIMULATION_MAX_GAMES)
    drawn = render_to_string("analytics/_lab_fields.html", {"lab_form": fresh})
    assert 'name="players"' in drawn
    assert "house-rules" in drawn
    for _visit in range(2):
        html = client.get("/games/gift_swap/").content.decode()
        assert drawn in html
    assert list(pages._LAB_FIELDS) == [("gift_swap", pages.SIMULATION_MAX_GAMES)]
    refused = client.post("/games/gift_swap/simulations/", {"players": "99", "games": "7"})
    assert refused.status_code == 400
    assert refused.context["lab_form"].errors["players"]
    assert 'value="7"' in refused.content.decode()  # the visitor's own, not the memo's
    assert drawn not in refused.content.decode()


@pytest.mark.skipif(
    __import__("django.db").db.connection.vendor != "postgresql", reason="PostgreSQL's planner"
)
def test_the_latest_real_records_are_read_along_their_own_index(make_document):
    """The "Recent records" read walks ``record_recent_real`` (real play only, newest first)
    instead of stepping over every record of bot play stored since the last real game."""
    from django.db import connection

    from replays.models import Record

    for seed in (61, 62):
        record_submit(document=make_document(seed=seed))
    query = (
        Record.objects.filter(game="secret_santa", simulated=False)
        .order_by("-created_at", "-id")
        .values_list("id")[:10]
    )
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "record_recent_real" in plan, plan
    assert "Sort" not in plan, plan
