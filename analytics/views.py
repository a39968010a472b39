"""Pages: the home page and the per-game dashboards."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from analytics import selectors
from analytics.charts import score_distribution_html
from games.registry import UnknownGame, all_engines, get_engine
from replays.pages import record_row
from replays.selectors import record_list


def home(request: HttpRequest) -> HttpResponse:
    counts = selectors.game_record_counts()
    games = [{"engine": engine, "records": counts.get(engine.slug, 0)} for engine in all_engines()]
    rows = [record_row(record) for record in record_list()[:10]]
    return render(request, "analytics/home.html", {"games": games, "rows": rows})


def game_dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        engine = get_engine(slug)
    except UnknownGame:
        raise Http404(f"Unknown game {slug!r}") from None
    scores = selectors.game_final_scores(game=slug)
    chart = (
        score_distribution_html(scores, title=f"{engine.name}: final score distribution")
        if scores
        else ""
    )
    return render(
        request,
        "analytics/game.html",
        {
            "engine": engine,
            "summary": selectors.game_summary_get(game=slug),
            "chart": chart,
            "rows": [record_row(record) for record in record_list(game=slug)[:20]],
        },
    )
