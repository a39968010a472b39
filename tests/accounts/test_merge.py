"""Merging two players who are one person: every record kept, seats moved."""

from __future__ import annotations

import pytest
from django.contrib.admin.sites import site
from django.contrib.auth import get_user_model
from django.contrib.messages.storage.fallback import FallbackStorage
from django.test import RequestFactory

from analytics.models import PlayerResult
from core.errors import Unprocessable
from replays.models import Player, Record, Seat
from replays.services import player_merge

pytestmark = pytest.mark.django_db(transaction=True)  # on_commit: analytics ingests


def upload(api, document) -> int:
    response = api.post("/api/records/", document, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def as_player(document: dict, old: str, new: str) -> dict:
    return {**document, "players": [new if p == old else p for p in document["players"]]}


@pytest.fixture
def two_names(api, make_document):
    """'ana' and 'Ana L.' played different games; 'ben' played with both."""
    first = make_document(seed=41, players=3)
    second = make_document(seed=42, players=3)
    first = {**first, "players": ["ana", "ben", "cy"]}
    second = {**second, "players": ["Ana L.", "ben", "dee"]}
    return [upload(api, first), upload(api, second)]


def test_merge_moves_seats_and_results_and_keeps_every_record(two_names):
    keep, other = Player.objects.get(name="ana"), Player.objects.get(name="Ana L.")
    assert PlayerResult.objects.filter(player=other).count() == 1
    moved = player_merge(keep=keep, merge=[other])
    assert moved == 1
    assert Record.objects.count() == 2
    assert not Player.objects.filter(name="Ana L.").exists()
    assert Seat.objects.filter(player=keep).count() == 2
    assert PlayerResult.objects.filter(player=keep).count() == 2
    assert set(Record.objects.filter(players=keep).values_list("pk", flat=True)) == set(two_names)


def test_merge_refuses_players_who_shared_a_record(two_names):
    ana, ben = Player.objects.get(name="ana"), Player.objects.get(name="ben")
    with pytest.raises(Unprocessable) as refused:
        player_merge(keep=ana, merge=[ben])
    assert refused.value.code == "players_share_a_record"
    assert "ana and ben" in refused.value.message
    assert Player.objects.filter(name="ben").exists()
    assert Seat.objects.filter(player=ben).count() == 2


def test_merge_keeps_a_user_link(two_names):
    user = get_user_model().objects.create_user("ana2", "a@example.org", "x")
    Player.objects.filter(name="Ana L.").update(user=user, display_name="Ana Lima")
    keep = Player.objects.get(name="ana")
    player_merge(keep=keep, merge=[Player.objects.get(name="Ana L.")])
    keep.refresh_from_db()
    assert keep.user == user
    assert keep.display_name == "Ana Lima"


def admin_request(path: str = "/admin/replays/player/"):
    request = RequestFactory().post(path)
    request.user = get_user_model().objects.create_superuser("root", "r@example.org", "x")
    request.session = {}
    request._messages = FallbackStorage(request)
    return request


def test_admin_action_merges_into_the_first_and_reports(two_names):
    admin = site._registry[Player]
    request = admin_request()
    admin.merge_players(request, Player.objects.filter(name__in=["ana", "Ana L."]))
    texts = [str(m) for m in request._messages]
    # "Ana L." sorts before "ana": it is the one kept.
    assert any("into Ana L." in t and "every record kept" in t for t in texts), texts
    assert not Player.objects.filter(name="ana").exists()
    assert Record.objects.count() == 2


def test_admin_action_says_why_it_refuses(two_names):
    admin = site._registry[Player]
    request = admin_request()
    admin.merge_players(request, Player.objects.filter(name__in=["ana", "ben"]))
    texts = [str(m) for m in request._messages]
    assert any("both sat in record" in t for t in texts), texts
    assert Player.objects.filter(name="ben").exists()
