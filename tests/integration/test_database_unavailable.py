"""While the database is away the API answers 503 in the common error shape and pages
say to try again: never a traceback, never a half-stored record.

On PostgreSQL (CI) the database is made unreachable for real: the connection is closed
and pointed at a port nobody listens on, so psycopg itself fails to connect, as it
would when the server is down. The test suite's SQLite database lives in memory and
cannot be closed, so there the connection is made to fail as a dead server's would
(``ensure_connection`` raises ``OperationalError``).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError, connection, connections
from django.test import Client

from replays.models import Record
from replays.services import record_submit
from tests.ports import closed_port

pytestmark = pytest.mark.django_db(transaction=True)


class Outage:
    """``outage()`` cuts the database, ``outage.end()`` brings it back."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.monkeypatch = monkeypatch
        self.saved = dict(connection.settings_dict)

    def __call__(self) -> None:
        connection.close()
        if connection.vendor == "postgresql":
            options = {**connection.settings_dict.get("OPTIONS", {}), "connect_timeout": 2}
            connection.settings_dict.update(
                HOST="127.0.0.1", PORT=str(closed_port()), OPTIONS=options
            )
            return

        def refuse() -> None:
            raise OperationalError("unable to open database file")

        self.monkeypatch.setattr(connections["default"], "ensure_connection", refuse)

    def end(self) -> None:
        self.monkeypatch.undo()
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(self.saved)


@pytest.fixture
def database_away(monkeypatch):
    outage = Outage(monkeypatch)
    yield outage
    outage.end()


def assert_503_in_shape(response) -> None:
    assert response.status_code == 503
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"code", "message", "detail"}
    assert body["code"] == "database_unavailable"
    assert body["detail"] == {"retry_after": 5}
    assert response["Retry-After"] == "5"
    assert "Traceback" not in response.content.decode()


def test_the_api_answers_503_in_the_error_shape(database_away, make_document):
    stored, _ = record_submit(document=make_document("gift_swap", seed=3))
    opened = (
        Client()
        .post(
            "/api/live/",
            {"game": "secret_santa", "players": ["ana", "b", "c"]},
            content_type="application/json",
        )
        .json()
    )
    client = Client(raise_request_exception=False)
    database_away()
    assert_503_in_shape(client.get("/api/records/"))
    assert_503_in_shape(client.get(f"/api/records/{stored.pk}/"))
    assert_503_in_shape(client.get(f"/api/records/{stored.pk}/steps/2/"))
    # The games' rules need no database: they still answer.
    assert client.get("/api/games/").status_code == 200
    assert_503_in_shape(
        client.get(
            f"/api/live/{opened['id']}/",
            HTTP_AUTHORIZATION=f"Seat {opened['seat_tokens'][0]}",
        )
    )
    assert_503_in_shape(
        client.post(
            "/api/records/",
            make_document("gift_swap", seed=4),
            content_type="application/json",
        )
    )
    # API tokens are looked up in the database too.
    assert_503_in_shape(client.get("/api/records/", HTTP_AUTHORIZATION="Token abc"))


def test_nothing_is_stored_while_the_database_is_away(database_away, make_document):
    before = Record.objects.count()
    database_away()
    response = Client(raise_request_exception=False).post(
        "/api/records/bulk/",
        [make_document("gift_swap", seed=s) for s in (7, 8)],
        content_type="application/json",
    )
    assert_503_in_shape(response)
    database_away.end()
    assert Record.objects.count() == before


def test_pages_answer_503_with_a_page_that_says_to_try_again(database_away, make_document):
    stored, _ = record_submit(document=make_document("gift_swap", seed=5))
    user = get_user_model().objects.create_user(username="ana", password="pw-ana-long-enough")
    logged_in = Client(raise_request_exception=False)
    logged_in.force_login(user)
    anonymous = Client(raise_request_exception=False)
    database_away()
    for client in (anonymous, logged_in):
        for path in ["/", "/records/", f"/records/{stored.pk}/", "/clubs/", "/games/gift_swap/"]:
            response = client.get(path)
            assert response.status_code == 503, path
            page = response.content.decode()
            assert "The database is not answering" in page
            assert "Traceback" not in page
            assert response["Retry-After"] == "5"
