"""Accounts fixtures: users, and API clients logged in by token or by session."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from accounts.services import api_token_create

PASSWORD = "correct-horse-battery-staple"


@pytest.fixture
def user(db):
    return get_user_model().objects.create_user("ana", "ana@example.org", PASSWORD)


@pytest.fixture
def other_user(db):
    return get_user_model().objects.create_user("ben", "ben@example.org", PASSWORD)


@pytest.fixture
def token_key(user) -> str:
    _, key = api_token_create(user=user, name="test program")
    return key


@pytest.fixture
def token_api(token_key) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_key}")
    return client


@pytest.fixture
def session_api(user) -> APIClient:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    return client
