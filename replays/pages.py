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
from core.games import game_slug_find, variant_words
from core.inputs import whole_number
from games.base import and_list
from games.registry import UnknownGame, all_engines, get_engine
from games.voice import points
from replays import live as live_play
from replays import rules, selectors
from replays.api.live_views import seat_token
from replays.api.serializers import RECORD_FILTERS, record_filters
from replays.house_rules import house_rules
from replays.models import LiveGame, Record
from replays.tables import table_stylesheets


def _result_words(record: Record, players: list[str]) -> str:
    """ "Ana wins with 50 points.": the winners and their final score, as the result says."""
    result = record.result or {}
    winners = [s for s in result.get("winners", []) if 0 <= s < len(players)]
    scores = result.get("scores") or []
    if not winners:
        return ""
    verb = "wins" if len(winners) == 1 else "share the win"
    names = and_list(players[s] for s in winners)
    best = scores[winners[0]] if winners[0] < len(scores) else None
    if not isinstance(best, int):
        return f"{names} {verb}."
    each = " each" if len(winners) > 1 and all(scores[s] == best for s in winners) else ""
    if each or len(winners) == 1:
        return f"{names} {verb} with {points(best)}{each}."
    return f"{names} {verb}."


EMBED_HEIGHT = 640  # pixels: the table and a few moves at a glance, the rest scrolls


def embed_snippet(request: HttpRequest, record: Record, engine: Any) -> str:
    """The ``<iframe>`` a club pastes into its own page to show this record.

    Only the embed page may be framed (``config.csp``): it shows a finished game, as
    every visitor may see it, and links back here.
    """
    src = request.build_absolute_uri(reverse("record-embed", args=[record.pk]))
    title = f"{engine.name} #{record.pk} on giftbox"
    return (
        f'<iframe src="{src}" title="{title}" width="100%" height="{EMBED_HEIGHT}" '
        'style="border: 0; max-width: 960px" loading="lazy"></iframe>'
    )


def _replay_context(request: HttpRequest, record_id: int, *, embed: bool) -> dict | None:
    """What the replay page shows; its bulky parts (the move list, the first table) come
    from the record's cached bodies, so a visit reads no log and replays nothing once
    they are cached (the log of a long game alone is thousands of events)."""
    try:
        record = selectors.record_get(record_id=record_id, log=False)
    except NotFound:
        return None
    players = selectors.record_player_names(record)
    engine = get_engine(record.game)
    if record.kind == Record.Kind.RESULT:
        context = _result_only_context(record, engine, players, embed=embed)
        context["embed_snippet"] = embed_snippet(request, record, engine)
        return context
    parts = selectors.record_replay_page_parts(record.pk)
    return {
        "record": record,
        "engine": engine,
        "players": players,
        "seats": list(enumerate(players)),
        "first_text": parts.first_text,
        "moves_mark": MOVES_MARK,
        "moves_html": parts.moves_html,
        "table": selectors.record_step_table_body(record.pk, step=0, seat=None).decode(),
        "result_words": _result_words(record, players),
        "forked_from": (record.meta or {}).get("forked_from"),
        "variant": variant_words(record.game, record.options or {}),
        "embed": embed,
        "embed_snippet": embed_snippet(request, record, engine),
        "stylesheets": table_stylesheets(record.game),
        "last_step": record.num_events,
    }


def _result_only_context(record: Record, engine: Any, players: list[str], *, embed: bool) -> dict:
    """A game played at a real table: who played, the final scores and ranks, no table."""
    result = record.result or {}
    scores, ranks = result.get("scores") or [], result.get("ranks") or []
    standings = sorted(
        (
            {"rank": ranks[seat], "name": name, "score": scores[seat], "won": ranks[seat] == 1}
            for seat, name in enumerate(players)
            if seat < len(scores) and seat < len(ranks)
        ),
        key=lambda row: (row["rank"], row["name"]),
    )
    return {
        "record": record,
        "engine": engine,
        "players": players,
        "seats": list(enumerate(players)),
        "result_only": True,
        "standings": standings,
        "duration_minutes": (result.get("details") or {}).get("duration_minutes"),
        "not_replayable": selectors.NOT_REPLAYABLE,
        "result_words": _result_words(record, players),
        "variant": variant_words(record.game, record.options or {}),
        "embed": embed,
        "stylesheets": [],
    }


# Where the move list goes in the rendered page. The list (most of a long game's page)
# is put in as the cached bytes, never passed through the template: joining and
# encoding a megabyte of HTML again at every visit cost more than the rest of the page.
MOVES_MARK = mark_safe("<!--giftbox:moves-->")


def _replay_render(request: HttpRequest, context: dict) -> HttpResponse:
    response = render(request, "replays/replay.html", context)
    moves = context.get("moves_html")
    if moves is not None:
        head, mark, tail = response.content.partition(MOVES_MARK.encode())
        if mark:
            response.content = b"".join((head, moves, tail))
    return response


def record_replay_page(request: HttpRequest, record_id: int) -> HttpResponse:
    context = _replay_context(request, record_id, embed=False)
    if context is None:
        return render(request, "replays/missing.html", {"record_id": record_id}, status=404)
    return _replay_render(request, context)


@xframe_options_exempt
def record_embed_page(request: HttpRequest, record_id: int) -> HttpResponse:
    """The replay without the site around it, for a club's own pages (may be framed)."""
    context = _replay_context(request, record_id, embed=True)
    if context is None:
        return render(request, "replays/missing.html", {"record_id": record_id}, status=404)
    return _replay_render(request, context)


def record_step_table_fragment(request: HttpRequest, record_id: int, step: int) -> HttpResponse:
    """The table at one step as an HTML fragment (what the viewer swaps in)."""
    seat = whole_number(request.GET.get("seat", ""))
    try:
        html = selectors.record_step_table_body(record_id, step=step, seat=seat)
    except ServiceError as exc:
        return HttpResponse(exc.message, status=exc.status, content_type="text/plain")
    return HttpResponse(html)


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
