"""Pages: leaderboards (per game, club, season) and head-to-head."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from analytics import leaderboards
from analytics.rating_api import RATING_WORDS, head_to_head_query, leaderboard_query
from analytics.rating_charts import score_difference_chart
from clubs.models import Club, Season
from games.registry import all_engines, get_engine
from replays.errors import BadRequest
from replays.models import Player

PAGE_SIZE = 100


def _season_label(season: Season) -> str:
    league = season.league
    return f"{league.club.name} · {league.name} · {season.name}"


def _choices() -> dict[str, Any]:
    return {
        "games": [(engine.slug, engine.name) for engine in all_engines()],
        "clubs": list(Club.objects.order_by("name").values_list("slug", "name")),
        "seasons": [
            (season.pk, _season_label(season))
            for season in Season.objects.select_related("league__club").order_by(
                "league__club__name", "league__name", "-starts_on"
            )
        ],
    }


def leaderboard_page(request: HttpRequest) -> HttpResponse:
    """The board a form (or a link from a game, club or league page) asks for."""
    given = {k: v for k, v in request.GET.items() if v.strip()}
    if "season" in given:  # a season says its club and game
        given.pop("game", None)
        given.pop("club", None)
    context: dict[str, Any] = {
        **_choices(),
        "given": given,
        "rating_words": RATING_WORDS,
        "provisional_below": leaderboards.provisional_games(),
    }
    if not given.get("game") and not given.get("season") and not given.get("club"):
        return render(request, "analytics/leaderboards.html", context)
    try:
        chosen = leaderboard_query({**given, "limit": str(PAGE_SIZE)}, extra=())
    except BadRequest as error:
        context["error"] = error
        return render(request, "analytics/leaderboards.html", context, status=400)
    rows, total = leaderboards.leaderboard(
        scope=leaderboards.scope_get(key=chosen.key), limit=chosen.limit, offset=chosen.offset
    )
    context.update(
        chosen=chosen,
        title=chosen.title,
        game_name=get_engine(chosen.game).name,
        rows=rows,
        total=total,
        given={
            "game": chosen.game,
            "club": chosen.club.slug if chosen.club else "",
            "season": str(chosen.season.pk) if chosen.season else "",
        },
    )
    return render(request, "analytics/leaderboards.html", context)


def head_to_head_page(request: HttpRequest) -> HttpResponse:
    given = {k: v.strip() for k, v in request.GET.items() if v.strip()}
    context: dict[str, Any] = {
        "games": [(engine.slug, engine.name) for engine in all_engines()],
        "given": given,
        "players": list(Player.objects.order_by("name").values_list("name", flat=True)[:1000]),
    }
    if not all(given.get(name) for name in ("game", "a", "b")):
        # A link may name one player (the player page's "Compare"): the form, prefilled.
        return render(request, "analytics/head_to_head.html", context)
    try:
        game, a, b = head_to_head_query(given)
    except BadRequest as error:
        context["error"] = error
        return render(request, "analytics/head_to_head.html", context, status=400)
    h2h = leaderboards.head_to_head(game=game, a=a, b=b)
    a_name, b_name = a.display_name or a.name, b.display_name or b.name
    game_name = get_engine(game).name
    context.update(
        h2h=h2h,
        game_name=game_name,
        a_name=a_name,
        b_name=b_name,
        given={"game": game, "a": a.name, "b": b.name},
        average_abs=abs(h2h.average_difference or 0.0),
        a_percent=round(100 * h2h.a_ahead / h2h.games) if h2h.games else None,
        b_percent=round(100 * h2h.b_ahead / h2h.games) if h2h.games else None,
        chart=(
            score_difference_chart(h2h.distribution, a=a_name, b=b_name, game=game_name)
            if h2h.games
            else None
        ),
        meetings=[
            {
                "meeting": m,
                "ahead": a_name if m.a_rank < m.b_rank else b_name if m.b_rank < m.a_rank else None,
            }
            for m in h2h.meetings[:50]
        ],
    )
    return render(request, "analytics/head_to_head.html", context)
