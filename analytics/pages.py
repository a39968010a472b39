"""Analytics' pages: the home page, the per-game dashboards (statistics and the balance
lab), leaderboards (per game, club, season) and head-to-head."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_POST

from analytics import leaderboards, selectors
from analytics.analysis_charts import skill_rows
from analytics.api.serializers import (
    RATING_WORDS,
    head_to_head_query,
    leaderboard_query,
    statistics_filters,
)
from analytics.dashboard import statistics_context
from analytics.forms import SimulationForm
from analytics.rating_charts import score_difference_chart
from analytics.simulations import (
    SIMULATION_MAX_GAMES,
    simulation_job_create,
    simulation_job_resume,
)
from clubs.models import Club, Season
from core.errors import BadRequest, ServiceError
from core.games import variant_words
from core.house_rules import field_name as house_rules_field
from core.inputs import whole_number
from games.registry import UnknownGame, all_engines, get_engine
from replays.models import Player
from replays.selectors import PLAY_REAL, record_list, record_row


def home(request: HttpRequest) -> HttpResponse:
    counts = selectors.game_record_counts()
    simulated = selectors.game_record_counts(simulated=True)
    games = [
        {
            "engine": engine,
            "records": counts.get(engine.slug, 0),
            "simulated": simulated.get(engine.slug, 0),
        }
        for engine in all_engines()
    ]
    # People's games; bot play (the demo data, the balance lab) is on the records page.
    rows = [record_row(record) for record in record_list(play=PLAY_REAL)[:10]]
    context = {"games": games, "rows": rows, "simulated": sum(simulated.values())}
    return render(request, "analytics/home.html", context)


def _engine_or_404(slug: str) -> Any:
    try:
        return get_engine(slug)
    except UnknownGame:
        raise Http404(f"Unknown game {slug!r}") from None


def game_dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    return _dashboard(request, _engine_or_404(slug))


def _dashboard(
    request: HttpRequest, engine: Any, lab_form: SimulationForm | None = None, status: int = 200
) -> HttpResponse:
    params = request.GET
    error = None
    try:
        filters = statistics_filters(params, known=("job",))
    except ServiceError as exc:
        filters, error = {}, exc.message
    stats = statistics_context(engine, filters)
    job_id = params.get("job", "")
    return render(
        request,
        "analytics/game.html",
        {
            **stats,
            "engine": engine,
            "error": error,
            "sizes": range(engine.min_players, engine.max_players + 1),
            "jobs": _jobs_with_rules(engine.slug),
            "job_id": job_id if whole_number(job_id) is not None else "",
            "lab_form": lab_form,
            "lab_fields_html": _lab_fields_html(engine) if lab_form is None else None,
            "may_simulate": settings.ALLOW_ANONYMOUS_UPLOADS or request.user.is_authenticated,
            "skill": skill_rows(selectors.skill_figures(game=engine.slug)),
        },
        status=status,
    )


_LAB_FIELDS: dict[tuple[str, int], str] = {}


def _lab_fields_html(engine: Any) -> str:
    """The balance lab's fields as the form first shows them, drawn once per process.

    They depend on the game and the code only (no value, no error, nothing of the
    visitor's: the CSRF token is outside them), and drawing a form's widgets and house
    rules took 2 ms of every visit to a dashboard, a third of a cached one.
    """
    key = (engine.slug, SIMULATION_MAX_GAMES)
    if key not in _LAB_FIELDS:
        form = SimulationForm(engine=engine, max_games=SIMULATION_MAX_GAMES)
        _LAB_FIELDS[key] = render_to_string("analytics/_lab_fields.html", {"lab_form": form})
    return _LAB_FIELDS[key]


def _jobs_with_rules(slug: str) -> list[Any]:
    """The recent lab jobs, each with its house rules in words (``rules``)."""
    # A job cut short by a restart of the embedded server goes on when its page is opened.
    jobs = [simulation_job_resume(job=job) for job in selectors.simulation_jobs_recent(game=slug)]
    for job in jobs:
        job.rules = variant_words(job.game, job.options)
    return jobs


@require_POST
def simulation_start(request: HttpRequest, slug: str) -> HttpResponse:
    """The dashboard's balance-lab form: queue a job and come back to the page, which
    shows its progress (the games are played in the background, never in this request).
    A refusal shows the form again with the message beside the field it is about."""
    engine = _engine_or_404(slug)
    url = reverse("game-dashboard", args=[engine.slug])
    if not (settings.ALLOW_ANONYMOUS_UPLOADS or request.user.is_authenticated):
        messages.error(request, "Log in to run a simulation.")
        return redirect(url)
    form = SimulationForm(request.POST, engine=engine, max_games=SIMULATION_MAX_GAMES)
    if not form.is_valid():
        messages.error(request, "The simulation was not started: see the marked fields.")
        return _dashboard(request, engine, form, status=400)
    data = form.cleaned_data
    try:
        job = simulation_job_create(
            game=engine.slug,
            num_players=data["players"],
            games=data["games"],
            bots=data["bots"],
            options=data["options"],
            created_by=request.user,
        )
    except ServiceError as exc:
        messages.error(request, f"The simulation was not started: {exc.message}")
        field = str(exc.detail.get("field", ""))
        option = exc.detail.get("option")
        if isinstance(option, str):
            form.add_error(house_rules_field(engine.slug, option), exc.message)
        elif field in form.fields:
            form.add_error(field, exc.message)
        return _dashboard(request, engine, form, status=exc.status)
    messages.success(request, f"Simulation started: {job.total} games of {engine.name}.")
    return redirect(f"{url}?job={job.pk}#balance-lab")


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
