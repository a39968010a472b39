"""Pages: the home page and the per-game dashboards (statistics and the balance lab)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from analytics import selectors
from analytics.dashboard import statistics_context
from analytics.simulations import SIMULATION_MAX_GAMES, simulation_job_create
from analytics.statistics_api import statistics_filters
from games.registry import UnknownGame, all_engines, get_engine
from replays.errors import ServiceError
from replays.pages import record_row
from replays.selectors import record_list
from replays.simulation import BOT_MIXES

BOT_WORDS = {
    "mixed": "a mix of random and greedy bots",
    "random": "random bots",
    "greedy": "greedy bots",
}


def home(request: HttpRequest) -> HttpResponse:
    counts = selectors.game_record_counts()
    games = [{"engine": engine, "records": counts.get(engine.slug, 0)} for engine in all_engines()]
    rows = [record_row(record) for record in record_list()[:10]]
    return render(request, "analytics/home.html", {"games": games, "rows": rows})


def _engine_or_404(slug: str) -> Any:
    try:
        return get_engine(slug)
    except UnknownGame:
        raise Http404(f"Unknown game {slug!r}") from None


def game_dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    engine = _engine_or_404(slug)
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
            "jobs": selectors.simulation_jobs_recent(game=slug),
            "job_id": job_id if job_id.isdigit() else "",
            "bot_mixes": [(b, BOT_WORDS.get(b, b)) for b in BOT_MIXES],
            "max_games": SIMULATION_MAX_GAMES,
            "may_simulate": settings.ALLOW_ANONYMOUS_UPLOADS or request.user.is_authenticated,
        },
    )


@require_POST
def simulation_start(request: HttpRequest, slug: str) -> HttpResponse:
    """The dashboard's balance-lab form: queue a job, come back to the page to watch it."""
    engine = _engine_or_404(slug)
    url = reverse("game-dashboard", args=[engine.slug])
    if not (settings.ALLOW_ANONYMOUS_UPLOADS or request.user.is_authenticated):
        messages.error(request, "Log in to run a simulation.")
        return redirect(url)
    variant = request.POST.get("variant", "")
    options: dict[str, Any] = {}
    if variant:
        known = {v["key"]: v["options"] for v in selectors.game_statistics_variants(game=slug)}
        options = known.get(variant, {})
    try:
        job = simulation_job_create(
            game=engine.slug,
            num_players=_int(request.POST.get("players")),
            games=_int(request.POST.get("games")),
            bots=request.POST.get("bots", "mixed"),
            options=options,
            created_by=request.user,
        )
    except ServiceError as exc:
        messages.error(request, f"The simulation was not started: {exc.message}")
        return redirect(f"{url}#balance-lab")
    messages.success(request, f"Simulation started: {job.total} games of {engine.name}.")
    return redirect(f"{url}?job={job.pk}#balance-lab")


def _int(value: str | None) -> int | None:
    value = (value or "").strip()
    return int(value) if value.isdigit() else None
