"""The replay viewer page: steps through a record with the public API."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from replays import selectors
from replays.errors import NotFound


def record_replay_page(request: HttpRequest, record_id: int) -> HttpResponse:
    try:
        record = selectors.record_get(record_id=record_id)
    except NotFound:
        return render(request, "replays/missing.html", {"record_id": record_id}, status=404)
    return render(
        request,
        "replays/replay.html",
        {"record": record, "players": selectors.record_player_names(record)},
    )


def live_game_page(request: HttpRequest, live_id: int) -> HttpResponse:
    """The page only talks to the API with the seat token from the URL fragment."""
    return render(request, "replays/live.html", {"live_id": live_id})
