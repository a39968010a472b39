"""Who may write: uploads and new live games need an account unless the site allows anonymous.

``ALLOW_ANONYMOUS_UPLOADS`` (on in the embedded default, off in production)
decides; reading is always open, and live play's seat tokens are their own
credentials.
"""

from __future__ import annotations

from django.conf import settings
from rest_framework import exceptions
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request


class AuthenticationRequired(exceptions.NotAuthenticated):
    default_code = "authentication_required"
    default_detail = (
        "This server takes uploads only from accounts: log in, or send "
        "`Authorization: Token <key>` (make one on the API tokens page)."
    )


def request_user(request: Request):
    """The authenticated user of an API request, or None."""
    user = getattr(request, "user", None)
    return user if user is not None and user.is_authenticated else None


class UploadAllowed(BasePermission):
    def has_permission(self, request: Request, view) -> bool:
        if request.method in SAFE_METHODS or settings.ALLOW_ANONYMOUS_UPLOADS:
            return True
        if request_user(request) is None:
            raise AuthenticationRequired()
        return True
