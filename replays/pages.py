"""Replays' pages: the replay viewer (and its embed), live play, the rules, the records
list with its filters, and the upload page.

The replay and live pages draw the table on the server (``replays.tables``) and swap in
the HTML of other steps with a little JavaScript; the timeline comes from the same reads
as the API, so the page and the API always tell the same story. The records page checks
its filters with the API's own ``record_filters`` (so a filter means the same on the
page, in the list and in the export); the upload page posts to ``POST
/api/records/bulk/`` from the browser and tells each outcome.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.clickjacking import xframe_options_exempt

from core.errors import BadRequest, NotFound, ServiceError
from core.games import game_slug_find
from core.inputs import whole_number
from core.sections import slot_render
from games.registry import UnknownGame, all_engines, get_engine
from replays import live as live_play
from replays import replay_page, response_cache, rules, selectors
from replays.api.live_views import seat_token
from replays.api.serializers import RECORD_FILTERS, record_filters
from replays.house_rules import house_rules
from replays.models import LiveGame
from replays.tables import table_stylesheets

# Where the page's own part goes in the rendered page (``replays.replay_page``): put in
# as the kept bytes, never passed through the template.
BODY_MARK = mark_safe("<!--giftbox:replay-body-->")


def _replay_page(request: HttpRequest, record_id: int, *, embed: bool) -> HttpResponse:
    """The replay page: the site's header rendered for this visitor, the page's own part
    (the same for everyone: the record's, ``replays.replay_page``) read as bytes."""
    try:
        body = replay_page.replay_page_body(record_id, embed=embed)
    except NotFound:
        return render(request, "replays/missing.html", {"record_id": record_id}, status=404)
    context = {
        "record_id": record_id,
        "engine": get_engine(body.game),
        "stylesheets": body.stylesheets,
        "embed": embed,
        "body_mark": BODY_MARK,
    }
    response = render(request, "replays/replay.html", context)
    head, mark, tail = response.content.partition(BODY_MARK.encode())
    if mark:
        origin = replay_page.request_origin(request)
        sections = slot_render(
            "replay",
            record_id=record_id,
            result_only=body.result_only,
            user=request.user,
            embed=embed,
        )
        response.content = b"".join((head, body.for_origin(origin, sections), tail))
    return response


def record_replay_page(request: HttpRequest, record_id: int) -> HttpResponse:
    return _replay_page(request, record_id, embed=False)


@xframe_options_exempt
def record_embed_page(request: HttpRequest, record_id: int) -> HttpResponse:
    """The replay without the site around it, for a club's own pages (may be framed)."""
    return _replay_page(request, record_id, embed=True)


def record_step_table_fragment(request: HttpRequest, record_id: int, step: int) -> HttpResponse:
    """The table at one step as an HTML fragment (what the viewer swaps in); a table drawn
    now is kept once the answer is sent (``response_cache.StoredAfterResponse``).

    Its list of moves comes folded and empty unless asked for (``?moves=listed``): the
    viewer asks for it once the visitor opens the list (``tables.folded_moves_list``)."""
    seat = whole_number(request.GET.get("seat", ""))
    listed = request.GET.get("moves") == "listed"
    try:
        answer = selectors.record_step_table_answer(
            record_id, step=step, seat=seat, listed=listed
        )
    except ServiceError as exc:
        return HttpResponse(exc.message, status=exc.status, content_type="text/plain")
    if answer.key is None:
        return HttpResponse(answer.body)
    return response_cache.StoredAfterResponse(answer.body, key=answer.key)


def live_game_page(request: HttpRequest, live_id: int) -> HttpResponse:
    """The page talks to the API with the seat token from the URL fragment only."""
    live = LiveGame.objects.filter(pk=live_id).first()
    if live is None:
        return render(request, "replays/live_missing.html", {"live_id": live_id}, status=404)
    return render(
        request,
        "replays/live.html",
        {
            "live": live,
            "engine": get_engine(live.game),
            "players": live.players,
            "stylesheets": table_stylesheets(live.game),
        },
    )


def live_table_fragment(request: HttpRequest, live_id: int) -> HttpResponse:
    """The live table as the token's seat sees it (token in the Authorization header)."""
    token = seat_token(request)
    try:
        live = live_play.live_game_get(live_id=live_id)
        seat = live_play.live_seat_authenticate(live, token) if token else None
        html = live_play.live_game_table(live, seat=seat)
    except ServiceError as exc:
        return HttpResponse(exc.message, status=exc.status, content_type="text/plain")
    return HttpResponse(html)


def rules_index_page(request: HttpRequest) -> HttpResponse:
    return render(request, "replays/rules_index.html", {"engines": all_engines()})


def _engine_or_404(slug: str) -> Any:
    try:
        return get_engine(slug)
    except UnknownGame:
        raise Http404(f"Unknown game {slug!r}") from None


def rules_page(request: HttpRequest, slug: str) -> HttpResponse:
    """How to play, for players, with every house rule the game declares explained."""
    engine = _engine_or_404(slug)
    context = {
        "engine": engine,
        "how_to_play": rules.how_to_play_html(slug),
        "house_rules": house_rules(slug, engine.options),
    }
    return render(request, "replays/rules.html", context)


def rules_notes_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The maintainers' notes: how the service reads every unclear point of the rulebook."""
    engine = _engine_or_404(slug)
    return render(
        request,
        "replays/rules_notes.html",
        {"engine": engine, "notes_html": rules.rules_notes_html(slug)},
    )


RECORDS_PER_PAGE = 25

FILTER_LABELS = {
    "game": "Game",
    "player": "Player",
    "players": "Number of players",
    "played_after": "Played from",
    "played_before": "Played before",
    "winner": "Winner",
    "play": "Games",
}
PLAY_CHOICES = (
    (selectors.PLAY_REAL, "people's games"),
    (selectors.PLAY_ALL, "all games"),
    (selectors.PLAY_SIMULATED, "simulated only"),
)


def record_browse_page(request: HttpRequest) -> HttpResponse:
    """Records found by the filters, newest games first, 25 a page.

    A wrong filter is answered on the page (status 400) naming the field,
    with the form kept as typed so it can be corrected. Bot play (simulated games:
    the balance lab's thousands, the demo data, games against the bots) is hidden
    unless asked for, so a club finds its own games; the page says how many are
    hidden and links to them, and marks each one shown.
    """
    values = {name: request.GET.get(name, "").strip() for name in RECORD_FILTERS}
    chosen = {name: value for name, value in values.items() if value}
    values["play"] = values["play"] or selectors.PLAY_REAL
    context: dict[str, Any] = {
        "values": values,
        "play_choices": PLAY_CHOICES,
        "game_slug": game_slug_find(values["game"]) if values["game"] else "",
        "games": [(engine.slug, engine.name) for engine in all_engines()],
        "labels": FILTER_LABELS,
        "filtered": bool(chosen),
    }
    try:
        filters = record_filters(request.GET)
    except BadRequest as exc:
        field = exc.detail.get("field", "")
        context["error"] = {
            "field": field,
            "label": FILTER_LABELS.get(field, field),
            "message": exc.message,
            "value": exc.detail.get("value") or "",
        }
        return render(request, "replays/records.html", context, status=400)

    filters.setdefault("play", selectors.PLAY_REAL)
    records = selectors.record_list(**filters).order_by("-played", "-id")
    page = Paginator(records, RECORDS_PER_PAGE).get_page(request.GET.get("page"))
    base = reverse("record-browse")
    if filters["play"] == selectors.PLAY_REAL:
        hidden = selectors.record_list(**{**filters, "play": selectors.PLAY_SIMULATED}).count()
        context["hidden_simulated"] = hidden
        context["show_simulated_url"] = (
            f"{base}?{urlencode({**chosen, 'play': selectors.PLAY_ALL})}"
        )
    shown = {**chosen, "play": filters["play"]}  # the export takes what the page shows
    context.update(
        page=page,
        rows=[selectors.record_row(record) for record in page.object_list],
        previous_url=(
            f"{base}?{urlencode({**chosen, 'page': page.previous_page_number()})}"
            if page.has_previous()
            else ""
        ),
        next_url=(
            f"{base}?{urlencode({**chosen, 'page': page.next_page_number()})}"
            if page.has_next()
            else ""
        ),
        export_url=f"{reverse('record-export')}?{urlencode(shown)}",
        export_page=settings.EXPORT_PAGE_RECORDS,
    )
    return render(request, "replays/records.html", context)


def record_upload_page(request: HttpRequest) -> HttpResponse:
    """A drop zone and a paste box; the browser sends the text to the bulk API."""
    names = {engine.slug: engine.name for engine in all_engines()}
    return render(request, "replays/upload.html", {"game_names": names})
