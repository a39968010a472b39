"""Password guessing is limited: per account name and per address, on the site and the admin."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client, override_settings

from tests.accounts.conftest import PASSWORD

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("fresh_counters"),
]

LIMITS = {"LOGIN_FAILURE_LIMIT": 3, "LOGIN_FAILURE_SECONDS": 900, "PASSWORD_RESET_LIMIT": 2}


@pytest.fixture
def fresh_counters():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_superuser("boss", "boss@example.org", PASSWORD)


def login(client: Client, name: str, password: str, path: str = "/accounts/login/"):
    return client.post(path, {"username": name, "password": password})


def assert_refused(response) -> None:
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many attempts" in page
    wait = int(response["Retry-After"])
    assert 1 <= wait <= 900
    minutes = -(-wait // 60)
    assert f"Try again in {minutes} minute" in page


@override_settings(**LIMITS)
def test_wrong_passwords_for_one_account_are_refused_after_the_limit(user):
    for n in range(3):
        # Each from another address: the account name is counted on its own.
        answer = login(Client(REMOTE_ADDR=f"198.51.100.{n}"), "ana", "wrong")
        assert answer.status_code == 200  # the form again, with its error
    refused = login(Client(REMOTE_ADDR="198.51.100.99"), "ANA", PASSWORD)
    assert_refused(refused)  # even the right password: no password is checked now
    assert "_auth_user_id" not in Client().session


@override_settings(**LIMITS)
def test_one_address_trying_many_names_is_refused_after_the_limit(user):
    client = Client(REMOTE_ADDR="198.51.100.7")
    for n in range(3):
        assert login(client, f"someone{n}", "wrong", ).status_code == 200
    # A new X-Forwarded-For per request is not a new address (NUM_PROXIES is 0).
    assert_refused(
        client.post(
            "/accounts/login/",
            {"username": "ana", "password": PASSWORD},
            HTTP_X_FORWARDED_FOR="203.0.113.1",
        )
    )
    # Another address may still log in.
    other = Client(REMOTE_ADDR="198.51.100.8")
    assert login(other, "ana", PASSWORD).status_code == 302


@override_settings(**LIMITS)
def test_the_admin_login_is_limited_too(staff):
    client = Client(REMOTE_ADDR="198.51.100.20")
    for _ in range(3):
        assert login(client, "boss", "wrong", "/admin/login/").status_code == 200
    assert_refused(login(client, "boss", PASSWORD, "/admin/login/"))
    assert_refused(login(Client(REMOTE_ADDR="198.51.100.21"), "boss", PASSWORD, "/admin/login/"))


@override_settings(**LIMITS)
def test_password_reset_requests_are_limited(user):
    client = Client(REMOTE_ADDR="198.51.100.30")
    for _ in range(2):
        answer = client.post("/accounts/password-reset/", {"email": "ana@example.org"})
        assert answer.status_code == 302
    assert len(mail.outbox) == 2
    assert_refused(client.post("/accounts/password-reset/", {"email": "ana@example.org"}))
    # The same e-mail from another address is refused as well: no mail flood to one inbox.
    other = Client(REMOTE_ADDR="198.51.100.31")
    assert other.post("/accounts/password-reset/", {"email": "ANA@example.org"}).status_code == 429
    assert len(mail.outbox) == 2


def test_the_defaults_are_ten_failures_in_fifteen_minutes(user):
    client = Client(REMOTE_ADDR="198.51.100.40")
    answers = [login(client, "ana", "wrong").status_code for _ in range(11)]
    assert answers == [200] * 10 + [429]
