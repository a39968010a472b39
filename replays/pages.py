"""Pages for finding and bringing records: the records list with filters, and the upload page.

Both are thin: the records page checks its filters with the API's own
``record_filters`` (so a filter means the same on the page, in the list and
in the export) and reads through ``selectors.record_list``; the upload page
posts to ``POST /api/records/bulk/`` from the browser and tells each outcome.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from games.registry import UnknownGame, all_engines, get_engine
from replays import selectors
from replays.api.serializers import RECORD_FILTERS, game_slug_find, record_filters
from replays.errors import BadRequest
from replays.models import Record

RECORDS_PER_PAGE = 25

FILTER_LABELS = {
    "game": "Game",
    "player": "Player",
    "players": "Number of players",
    "played_after": "Played from",
    "played_before": "Played before",
    "winner": "Winner",
}


@dataclass(frozen=True)
class SeatCell:
    name: str
    score: int | None
    won: bool


@dataclass(frozen=True)
class RecordRow:
    """One record as the page tells it: names people say, winners marked."""

    id: int
    game: str
    played: datetime
    played_known: bool  # False: the log does not say, ``played`` is when it was stored
    seats: list[SeatCell]  # seat order
    ranked: list[SeatCell]  # best first, for the scores
    num_events: int
    variant: str = ""  # the house rules that differ from the game's defaults, in words
    result_only: bool = False  # played at a real table: final scores only, no replay


def game_name(slug: str) -> str:
    try:
        return get_engine(slug).name
    except UnknownGame:
        return slug.replace("_", " ").title()


def variant_words(game: str, options: dict[str, Any]) -> str:
    """'max rounds: 15; deal fallback: first player': options unlike today's defaults."""
    try:
        declared = get_engine(game).options
    except UnknownGame:
        return ""
    parts = []
    for option in declared:
        value = options.get(option.name, option.default)
        if value != option.default:
            parts.append(f"{option.name.replace('_', ' ')}: {_value_words(value)}")
    return "; ".join(parts)


def _value_words(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(map(_value_words, value))
    return str(value).replace("_", " ")


def record_row(record: Record) -> RecordRow:
    result = record.result or {}
    scores = result.get("scores") or []
    ranks = result.get("ranks") or []
    winners = set(result.get("winners") or [])
    seats = [
        SeatCell(
            name=seat.player.name,
            score=scores[seat.seat] if seat.seat < len(scores) else None,
            won=seat.seat in winners,
        )
        for seat in sorted(record.seats.all(), key=lambda s: s.seat)
    ]
    order = sorted(range(len(seats)), key=lambda s: (ranks[s] if s < len(ranks) else len(seats), s))
    return RecordRow(
        id=record.pk,
        game=game_name(record.game),
        played=record.played_at or record.created_at,
        played_known=record.played_at is not None,
        seats=seats,
        ranked=[seats[s] for s in order],
        num_events=record.num_events,
        variant=variant_words(record.game, record.options or {}),
        result_only=record.kind == Record.Kind.RESULT,
    )


def record_browse_page(request: HttpRequest) -> HttpResponse:
    """Records found by the filters, newest games first, 25 a page.

    A wrong filter is answered on the page (status 400) naming the field,
    with the form kept as typed so it can be corrected.
    """
    values = {name: request.GET.get(name, "").strip() for name in RECORD_FILTERS}
    chosen = {name: value for name, value in values.items() if value}
    context: dict[str, Any] = {
        "values": values,
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

    records = selectors.record_list(**filters).order_by("-played", "-id")
    page = Paginator(records, RECORDS_PER_PAGE).get_page(request.GET.get("page"))
    base = reverse("record-browse")
    context.update(
        page=page,
        rows=[record_row(record) for record in page.object_list],
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
        export_url=reverse("record-export") + (f"?{urlencode(chosen)}" if chosen else ""),
    )
    return render(request, "replays/records.html", context)


def record_upload_page(request: HttpRequest) -> HttpResponse:
    """A drop zone and a paste box; the browser sends the text to the bulk API."""
    names = {engine.slug: engine.name for engine in all_engines()}
    return render(request, "replays/upload.html", {"game_names": names})
