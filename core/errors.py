"""The one error type services raise; the API turns it into the one error shape.

Every API error body is ``{"code": ..., "message": ..., "detail": {...}}``
(Zulip's JsonableError idea): ``code`` is stable for programs, ``message`` is
for people, ``detail`` carries the data a client needs to act (the step of an
illegal event, the field that is wrong).
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    status = 400

    def __init__(self, code: str, message: str, **detail: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "detail": self.detail}


class BadRequest(ServiceError):
    """The input is not a well-formed request (bad JSON, bad envelope)."""

    status = 400


class NotFound(ServiceError):
    status = 404


class Unprocessable(ServiceError):
    """Well-formed, but the rules refuse it (an illegal event, an unfinished game)."""

    status = 422


class Unauthorized(ServiceError):
    """A seat token is needed and none was given."""

    status = 401


class Forbidden(ServiceError):
    status = 403


class Conflict(ServiceError):
    """The request was based on a stale state (another event landed first)."""

    status = 409
