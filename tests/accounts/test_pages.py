"""Sign-up, login, logout, password reset and the API tokens page, through the pages."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from accounts.models import ApiToken, SiteSettings
from accounts.services import token_hash
from replays.models import Player
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another-horse-battery-staple"


def signup(client, username="cy", email="cy@example.org"):
    return client.post(
        "/accounts/signup/",
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )


def test_signup_creates_user_and_linked_player_and_logs_in(client):
    response = signup(client)
    assert response.status_code == 302
    user = get_user_model().objects.get(username="cy")
    assert user.email == "cy@example.org"
    assert Player.objects.get(name="cy").user == user
    home = client.get("/")
    assert b"cy</span>" in home.content
    assert b"Log out" in home.content


def test_signup_does_not_take_a_handle_someone_plays_under(client, make_document, api):
    document = make_document(seed=3)
    assert api.post("/api/records/", document, format="json").status_code == 201
    taken = document["players"][0]
    assert signup(client, username=taken).status_code == 302
    assert Player.objects.get(name=taken).user is None


def test_signup_refuses_a_weak_password(client, user):
    response = client.post(
        "/accounts/signup/",
        {"username": "dee", "email": "d@example.org", "password1": "123", "password2": "123"},
    )
    assert response.status_code == 200
    assert not get_user_model().objects.filter(username="dee").exists()


def test_signup_closed_by_admin_refuses(client):
    SiteSettings.objects.update_or_create(pk=1, defaults={"signup_open": False})
    page = client.get("/accounts/signup/")
    assert page.status_code == 403
    assert b"Sign-up is closed" in page.content
    assert signup(client).status_code == 403
    assert not get_user_model().objects.filter(username="cy").exists()


def test_login_and_logout(client, user):
    assert b"Log in" in client.get("/").content
    response = client.post("/accounts/login/", {"username": "ana", "password": PASSWORD})
    assert response.status_code == 302
    assert b"ana</span>" in client.get("/records/").content
    assert client.get("/accounts/logout/").status_code == 405  # logging out is a POST
    assert client.post("/accounts/logout/").status_code == 302
    assert b"Sign up" in client.get("/").content


def test_login_with_a_wrong_password_says_so(client, user):
    response = client.post("/accounts/login/", {"username": "ana", "password": "nope"})
    assert response.status_code == 200
    assert b"correct username and password" in response.content


def test_password_reset_by_email(client, user):
    response = client.post("/accounts/password-reset/", {"email": "ana@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    body = mail.outbox[0].body
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", body).group(1)
    form = client.get(link, follow=True)
    assert b"Choose a new password" in form.content
    response = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


def test_tokens_page_makes_shows_once_and_revokes(client, user):
    assert client.get("/accounts/tokens/").status_code == 302  # to the login page
    client.force_login(user)
    response = client.post("/accounts/tokens/", {"name": "league bot"})
    assert response.status_code == 200
    key = re.search(rb'id="token-key">([^<]+)<', response.content).group(1).decode()
    token = ApiToken.objects.get(user=user)
    assert token.key_hash == token_hash(key)
    assert token.prefix == key[:8]
    listing = client.get("/accounts/tokens/")
    assert b"league bot" in listing.content
    assert key.encode() not in listing.content
    client.post(f"/accounts/tokens/{token.pk}/revoke/")
    token.refresh_from_db()
    assert token.revoked_at is not None


# --- next: where sign-up and login go on to -------------------------------------------------


def test_signup_goes_on_to_a_next_path_on_this_site(client):
    page = client.get("/accounts/signup/?next=/clubs/north-pier/")
    assert b'name="next" value="/clubs/north-pier/"' in page.content
    assert b'href="/accounts/login/?next=%2Fclubs%2Fnorth-pier%2F"' in page.content
    response = client.post(
        "/accounts/signup/",
        {
            "username": "cy",
            "email": "cy@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "/clubs/north-pier/",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == "/clubs/north-pier/"


@pytest.mark.parametrize(
    "wanted",
    [
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "javascript:alert(1)",
        "http://testserver/records/",  # this site, but not a path: only paths are followed
        "evil.example",
    ],
)
def test_signup_refuses_a_next_off_this_site(client, wanted):
    page = client.get("/accounts/signup/", {"next": wanted})
    assert b'name="next"' not in page.content
    assert b"evil" not in page.content
    response = client.post(
        "/accounts/signup/",
        {
            "username": "cy",
            "email": "cy@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": wanted,
        },
    )
    assert response.status_code == 302
    assert response["Location"] == "/"


def test_the_login_pages_sign_up_link_keeps_next(client):
    page = client.get("/accounts/login/?next=/clubs/join/abc/")
    assert b'href="/accounts/signup/?next=%2Fclubs%2Fjoin%2Fabc%2F"' in page.content
    off_site = client.get("/accounts/login/?next=https://evil.example/")
    assert b"evil" not in off_site.content
    assert b'href="/accounts/signup/">Sign up' in off_site.content


def test_a_logged_in_visitor_to_sign_up_goes_on_to_next(client, user):
    client.force_login(user)
    assert client.get("/accounts/signup/?next=/clubs/")["Location"] == "/clubs/"
    assert client.get("/accounts/signup/?next=//evil.example/")["Location"] == "/"


def test_signup_closed_offers_login_with_next(client):
    SiteSettings.objects.update_or_create(pk=1, defaults={"signup_open": False})
    page = client.get("/accounts/signup/?next=/clubs/join/abc/")
    assert page.status_code == 403
    assert b'href="/accounts/login/?next=%2Fclubs%2Fjoin%2Fabc%2F"' in page.content


def test_the_headers_log_in_and_sign_up_links_come_back_to_the_page(client):
    page = client.get("/records/?play=all")
    assert b'href="/accounts/login/?next=%2Frecords%2F%3Fplay%3Dall"' in page.content
    assert b'href="/accounts/signup/?next=%2Frecords%2F%3Fplay%3Dall"' in page.content
    login = client.get("/accounts/login/")
    assert b"?next=%2Faccounts" not in login.content, "the login page does not come back to itself"


def test_play_against_the_service_takes_the_signed_in_name_and_asks_a_visitor_for_one(
    client, user
):
    anonymous = client.get("/").content.decode()
    assert re.search(r'<input name="name" value="" placeholder="your name"', anonymous)
    client.force_login(user)
    signed_in = client.get("/").content.decode()
    assert f'<input name="name" value="{user.get_username()}"' in signed_in
