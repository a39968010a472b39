"""One DRF exception handler, so every API error has the same shape."""

from __future__ import annotations

import logging
import math
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response

from core.errors import ServiceError

_DRF_CODES: dict[type[exceptions.APIException], str] = {
    exceptions.ParseError: "malformed_json",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.NotFound: "not_found",
    exceptions.ValidationError: "invalid_request",
    exceptions.Throttled: "throttled",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
}


logger = logging.getLogger(__name__)

# How long a client should wait before trying again when the database is away.
DATABASE_RETRY_AFTER = 5


def database_unavailable_body() -> dict[str, Any]:
    """The 503 answer while the database is away: no exception text (it names hosts)."""
    return error_body(
        "database_unavailable",
        "The database is not answering; nothing was stored. Try again in a moment.",
        {"retry_after": DATABASE_RETRY_AFTER},
    )


def error_body(code: str, message: str, detail: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"code": code, "message": message, "detail": detail or {}}


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        retry_after = getattr(exc, "retry_after", None)
        headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
        return Response(exc.as_dict(), status=exc.status, headers=headers)
    if isinstance(exc, RequestDataTooBig):
        return Response(
            error_body("too_large", "The request body is larger than this server accepts."),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, OperationalError | InterfaceError):
        logger.warning("database unavailable: %s", exc)
        return Response(
            database_unavailable_body(),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(DATABASE_RETRY_AFTER)},
        )
    if isinstance(exc, Http404):
        return Response(error_body("not_found", "Not found."), status=status.HTTP_404_NOT_FOUND)
    if isinstance(exc, exceptions.APIException):
        code = _DRF_CODES.get(type(exc), exc.default_code)
        headers: dict[str, str] = {}
        if isinstance(exc, exceptions.ValidationError):
            detail = exc.detail if isinstance(exc.detail, dict) else {"errors": exc.detail}
            message = "The request is not valid."
        elif isinstance(exc, exceptions.Throttled):
            retry_after = math.ceil(exc.wait) if exc.wait is not None else 1
            detail = {"retry_after": retry_after}
            message = f"Too many requests; try again in {retry_after} seconds."
            headers["Retry-After"] = str(retry_after)
        else:
            detail, message = {}, str(exc.detail)
        # DRF sets this on 401s: the scheme the client should use (``Token``).
        if getattr(exc, "auth_header", None):
            headers["WWW-Authenticate"] = exc.auth_header  # type: ignore[attr-defined]
        return Response(error_body(code, message, detail), status=exc.status_code, headers=headers)
    return None  # a real bug: let Django log it and answer 500
