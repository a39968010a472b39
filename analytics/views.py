"""Pages: the home page and the per-game dashboards."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from analytics import selectors
from analytics.charts import score_distribution_chart
from games.registry import UnknownGame, all_engines, get_engine
from replays.pages import record_row, variant_words
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
    variants = [
        {**v, "words": variant_words(slug, v["options"]) or "the standard rules"}
        for v in selectors.game_variants(game=slug)
    ]
    chosen = request.GET.get("variant") or None
    if chosen is not None and chosen not in {v["key"] for v in variants}:
        chosen = None
    scores = selectors.game_final_scores(game=slug, variant=chosen)
    title = f"{engine.name}: final score distribution"
    if chosen is not None:
        words = next(v["words"] for v in variants if v["key"] == chosen)
        title += f" ({words})"
    chart = score_distribution_chart(scores, title=title) if scores else None
    records = record_list(game=slug)
    if chosen is not None:
        records = records.filter(pk__in=selectors.variant_record_ids(variant=chosen))
    return render(
        request,
        "analytics/game.html",
        {
            "engine": engine,
            "summary": selectors.game_summary_get(game=slug),
            "variants": variants,
            "chosen": chosen,
            "variant_players": (
                selectors.variant_players(game=slug, variant=chosen) if chosen else None
            ),
            "chart": chart,
            "rows": [record_row(record) for record in records[:20]],
        },
    )
