"""``/api/tokens/`` and ``Authorization: Token``: create, list, use, revoke."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.services import api_token_create

pytestmark = pytest.mark.django_db


def assert_error(response, status: int, code: str) -> dict:
    body = response.json()
    assert response.status_code == status, body
    assert set(body) == {"code", "message", "detail"}
    assert body["code"] == code, body
    return body


def test_create_list_revoke_with_a_session(session_api):
    session_api.cookies["csrftoken"] = "x" * 32
    csrf = {"HTTP_X_CSRFTOKEN": "x" * 32}
    created = session_api.post("/api/tokens/", {"name": "league bot"}, format="json", **csrf)
    assert created.status_code == 201, created.json()
    body = created.json()
    assert set(body) == {"id", "name", "prefix", "created_at", "last_used_at", "revoked_at", "key"}
    assert body["prefix"] == body["key"][:8]
    listed = session_api.get("/api/tokens/").json()
    assert [t["name"] for t in listed] == ["league bot"]
    assert "key" not in listed[0]
    assert session_api.delete(f"/api/tokens/{body['id']}/", **csrf).status_code == 204
    assert session_api.get("/api/tokens/").json()[0]["revoked_at"] is not None


def test_session_writes_need_csrf(session_api):
    response = session_api.post("/api/tokens/", {"name": "x"}, format="json")
    assert_error(response, 403, "permission_denied")


def test_a_token_authenticates_and_notes_its_use(token_api, user):
    response = token_api.get("/api/tokens/")
    assert response.status_code == 200
    token = ApiToken.objects.get(user=user)
    assert token.last_used_at is not None
    first = token.last_used_at
    token_api.get("/api/tokens/")
    token.refresh_from_db()
    assert token.last_used_at == first  # at most one write a minute
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=first - timedelta(minutes=2))
    token_api.get("/api/tokens/")
    token.refresh_from_db()
    assert token.last_used_at > first - timedelta(seconds=1)
    assert token.last_used_at <= timezone.now()


def test_a_program_can_make_a_token_with_its_token(token_api):
    response = token_api.post("/api/tokens/", {"name": "second"}, format="json")
    assert response.status_code == 201
    assert len(token_api.get("/api/tokens/").json()) == 2


def test_no_credentials_is_401_in_the_error_shape():
    response = APIClient().get("/api/tokens/")
    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"].startswith("Token")


def test_unknown_and_malformed_tokens_are_401(db):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-key")
    assert_error(client.get("/api/tokens/"), 401, "invalid_token")
    assert_error(client.get("/api/records/"), 401, "invalid_token")
    client.credentials(HTTP_AUTHORIZATION="Token a b")
    assert_error(client.get("/api/tokens/"), 401, "invalid_token")


def test_a_revoked_token_is_refused(token_api, user):
    token = ApiToken.objects.get(user=user)
    assert token_api.delete(f"/api/tokens/{token.pk}/").status_code == 204
    body = assert_error(token_api.get("/api/tokens/"), 401, "token_revoked")
    assert "revoked" in body["message"]


def test_another_users_token_is_404(token_api, other_user):
    theirs, _ = api_token_create(user=other_user, name="theirs")
    assert_error(token_api.delete(f"/api/tokens/{theirs.pk}/"), 404, "not_found")
    theirs.refresh_from_db()
    assert theirs.revoked_at is None
    assert [t["name"] for t in token_api.get("/api/tokens/").json()] == ["test program"]


def test_a_token_needs_a_name(token_api):
    response = token_api.post("/api/tokens/", {"name": ""}, format="json")
    assert_error(response, 400, "invalid_request")


def test_the_seat_scheme_is_left_to_live_play(db):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Seat whatever")
    assert client.get("/api/records/").status_code == 200
    assert_error(client.get("/api/tokens/"), 401, "not_authenticated")
