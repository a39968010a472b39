"""Requests whose path or query string holds a NUL character are refused at the door.

PostgreSQL cannot compare or store U+0000: ``/players/%00/`` or ``?a=%00`` on
head-to-head reached a query with it and answered 500. No page or endpoint has a
use for one, so it is a 400 before any view runs: in the API's error shape under
``/api/``, a short text elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse

from core.inputs import text_has_nul


class NulRefusalMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        where = None
        if "\x00" in request.path:
            where = "path"
        elif "%00" in (query := request.META.get("QUERY_STRING", "")) or "\x00" in query:
            name = text_has_nul(request.GET)
            where = f"query parameter {name!r}" if name is not None else None
        if where is None:
            return self.get_response(request)
        message = f"The {where} holds a NUL character (%00); no address or value may."
        if request.path.startswith("/api/"):
            return JsonResponse(
                {"code": "nul_character", "message": message, "detail": {"field": where}},
                status=400,
            )
        return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
