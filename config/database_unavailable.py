"""Answer 503, never a traceback page, when the database is away.

The DRF exception handler (core/api/exception_handler.py) covers API views; the middleware
covers page views; ``server_error`` (the project's ``handler500``) covers what fails
outside any view, in a middleware (a session saved, a user looked up). Django's
exception handling wraps every middleware, so a middleware cannot catch those itself.
An API path gets the common error shape, a page gets a short HTML page.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from core.api.exception_handler import DATABASE_RETRY_AFTER, database_unavailable_body

logger = logging.getLogger(__name__)


def database_unavailable_response(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        response = HttpResponse(
            json.dumps(database_unavailable_body()), status=503, content_type="application/json"
        )
    else:
        # Rendered without a request context: the context processors would ask the
        # database for the user.
        response = HttpResponse(render_to_string("503.html"), status=503)
    response["Retry-After"] = str(DATABASE_RETRY_AFTER)
    return response


class DatabaseUnavailableMiddleware:
    """Turns OperationalError/InterfaceError from the database into a 503."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, OperationalError | InterfaceError):
            logger.warning("database unavailable: %s", exception)
            return database_unavailable_response(request)
        return None


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: Django calls it inside its ``except``, so the error is at hand.

    A database outage is a 503 like above; any other error is a 500 in the API's error
    shape on /api/ paths and the 500 page elsewhere (never a traceback)."""
    error = sys.exc_info()[1]
    if isinstance(error, OperationalError | InterfaceError):
        return database_unavailable_response(request)
    if request.path.startswith("/api/"):
        body = {
            "code": "server_error",
            "message": "Something went wrong on our side; the error has been logged.",
            "detail": {},
        }
        return HttpResponse(json.dumps(body), status=500, content_type="application/json")
    return HttpResponse(render_to_string("500.html"), status=500)
