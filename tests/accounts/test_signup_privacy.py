"""Sign-up tells nobody whether an e-mail address has an account, and refuses look-alike names."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from replays.models import Player
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db

CYRILLIC_A = "\N{CYRILLIC SMALL LETTER A}"
FULLWIDTH_A = "\N{FULLWIDTH LATIN SMALL LETTER A}"


def signup(client, username: str, email: str):
    return client.post(
        "/accounts/signup/",
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )


def answer(response) -> tuple[int, str]:
    """What the person signing up is answered: the status and where it leads."""
    return response.status_code, response.get("Location", "")


def test_a_taken_email_gets_the_same_answer_as_a_free_one_and_its_owner_a_mail(
    client, user, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        free = signup(client, "cy", "cy@example.org")
    assert mail.outbox == []
    client.logout()
    with django_capture_on_commit_callbacks(execute=True):
        taken = signup(client, "dee", "ANA@example.org")
    assert answer(free) == answer(taken) == (302, "/")
    assert "Welcome, dee: your account is ready." in client.get("/").content.decode()
    # The owner of the address hears of it; the person signing up learns nothing.
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["ANA@example.org"]
    assert '"ana"' in mail.outbox[0].body
    assert '"dee"' in mail.outbox[0].body


def test_a_password_reset_of_a_shared_address_reaches_every_account(
    client, user, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        signup(client, "dee", "ana@example.org")
    client.logout()
    mail.outbox.clear()
    assert client.post("/accounts/password-reset/", {"email": "ana@example.org"}).status_code == 302
    bodies = " ".join(m.body for m in mail.outbox)
    assert "ana" in bodies
    assert "dee" in bodies


@pytest.mark.parametrize(
    "name",
    [
        f"{CYRILLIC_A}na",  # mixes Cyrillic and Latin letters
        f"{CYRILLIC_A}n{CYRILLIC_A}x",
        "\N{GREEK SMALL LETTER ALPHA}na",
    ],
)
def test_signup_refuses_a_look_alike_of_a_name(client, user, name):
    response = signup(client, name, "someone@example.org")
    assert response.status_code == 200
    assert "alphabet" in response.content.decode() or "too much like" in response.content.decode()
    assert not get_user_model().objects.filter(username=name).exists()


@pytest.mark.parametrize("name", [f"{FULLWIDTH_A}na", "ANA", "Ana"])
def test_signup_refuses_another_form_of_an_existing_username(client, user, name):
    response = signup(client, name, "someone@example.org")
    assert response.status_code == 200
    assert get_user_model().objects.count() == 1


def test_signup_refuses_a_whole_cyrillic_look_alike_of_a_player(client, api, make_document):
    document = {**make_document(seed=3, players=3), "players": ["ace", "bo", "cy"]}
    assert api.post("/api/records/", document, format="json").status_code == 201
    lookalike = "".join(
        [
            "\N{CYRILLIC SMALL LETTER A}",
            "\N{CYRILLIC SMALL LETTER ES}",
            "\N{CYRILLIC SMALL LETTER IE}",
        ]
    )
    response = signup(client, lookalike, "x@example.org")
    assert response.status_code == 200
    assert "too much like the existing name “ace”" in response.content.decode()
    # A genuine Cyrillic name is welcome.
    vera = "".join(
        [
            "\N{CYRILLIC CAPITAL LETTER VE}",
            "\N{CYRILLIC SMALL LETTER IE}",
            "\N{CYRILLIC SMALL LETTER ER}",
            "\N{CYRILLIC SMALL LETTER A}",
        ]
    )
    assert signup(client, vera, "v@example.org").status_code == 302
    assert Player.objects.filter(name=vera).exists()
