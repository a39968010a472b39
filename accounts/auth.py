"""``Authorization: Token <key>`` for programs (DRF authentication).

The key is looked up by its SHA-256, so the comparison happens inside a
unique-index lookup of a hash: no key is stored, and no key is compared
character by character in Python. Other schemes (live play's ``Seat``,
``Basic``, ``Bearer``) are not ours: they are left to whoever reads them.
"""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from accounts.models import ApiToken
from accounts.services import api_token_touch, token_hash

SCHEME = "token"


class InvalidToken(exceptions.AuthenticationFailed):
    default_code = "invalid_token"
    default_detail = "This API token is not valid."


class RevokedToken(exceptions.AuthenticationFailed):
    default_code = "token_revoked"
    default_detail = "This API token was revoked; make a new one on the API tokens page."


class ApiTokenAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != SCHEME.encode():
            return None
        if len(parts) != 2:
            raise InvalidToken("Send exactly `Authorization: Token <key>`.")
        try:
            key = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise InvalidToken() from None
        token = ApiToken.objects.select_related("user").filter(key_hash=token_hash(key)).first()
        if token is None or not token.user.is_active:
            raise InvalidToken()
        if token.revoked_at is not None:
            raise RevokedToken()
        api_token_touch(token=token)
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return 'Token realm="api"'
