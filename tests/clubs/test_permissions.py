"""Who may write what: every write against every kind of caller; a refusal changes nothing."""

from __future__ import annotations

import pytest

from clubs import selectors, services
from clubs.models import AuditLog, League, Membership, SeasonEntry
from replays.models import Record
from replays.services import record_submit
from tests.clubs.conftest import result_only

pytestmark = pytest.mark.django_db


def snapshot() -> tuple:
    return (
        Record.objects.count(),
        SeasonEntry.objects.count(),
        SeasonEntry.objects.filter(voided_at__isnull=False).count(),
        League.objects.count(),
        sorted(Membership.objects.values_list("club_id", "user_id", "role")),
        AuditLog.objects.count(),
        sorted(map(str, Record.objects.values_list("result", flat=True))),
    )


def callers(world) -> dict:
    return {
        "anonymous": None,
        "member": world.members[3],
        "admin": world.admin,
        "other_admin": world.other_admin,
        "submitter": world.members[4],
    }


def check(world, who: str, expected: tuple[int, str | None], send) -> None:
    user = callers(world)[who]
    before = snapshot()
    response = send(world.client(user))
    status, code = expected
    assert response.status_code == status, (who, response.content)
    if code is not None:
        assert response.json()["code"] == code, (who, response.json())
    if status >= 400:
        assert snapshot() == before, f"{who}: a refusal changed something"


@pytest.fixture
def entered(world):
    """A result-only record entered by the submitter (m4)."""
    names = [u.username for u in world.members[2:5]]
    record, _ = (
        services.season_entry_submit_document(
            season=world.season, document=result_only(names, [25, 10, 5]), user=world.members[4]
        ),
        None,
    )
    return record[0]


UNAUTH = (401, "not_authenticated")


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("anonymous", UNAUTH),
        ("member", (201, None)),
        ("admin", (201, None)),
        ("other_admin", (403, "not_a_member")),
        ("submitter", (201, None)),
    ],
)
def test_submit_to_a_league(world, who, expected):
    names = [u.username for u in world.members[:3]]
    record, _ = record_submit(document=result_only(names, [25, 10, 5]))
    url = f"/api/seasons/{world.season.pk}/entries/"
    check(world, who, expected, lambda c: c.post(url, {"record": record.pk}, format="json"))


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("anonymous", UNAUTH),
        ("member", (403, "not_club_admin")),
        ("admin", (200, None)),
        ("other_admin", (403, "not_a_member")),
        ("submitter", (403, "not_club_admin")),
    ],
)
def test_void(world, entered, who, expected):
    url = f"/api/seasons/{world.season.pk}/entries/{entered.pk}/void/"
    check(world, who, expected, lambda c: c.post(url, {"reason": "typo"}, format="json"))


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("anonymous", UNAUTH),
        ("member", (403, "not_submitter")),
        ("admin", (200, None)),  # an admin of a club the game is entered in
        ("other_admin", (403, "not_submitter")),
        ("submitter", (200, None)),
    ],
)
def test_correct_a_result(world, entered, who, expected):
    url = f"/api/records/{entered.record_id}/result/"
    check(world, who, expected, lambda c: c.patch(url, {"scores": [9, 26, 5]}, format="json"))


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("anonymous", UNAUTH),
        ("member", (403, "not_club_admin")),
        ("admin", (204, None)),
        ("other_admin", (403, "not_a_member")),
        ("submitter", (403, "not_club_admin")),
    ],
)
def test_remove_a_member(world, who, expected):
    url = f"/api/clubs/{world.club.slug}/members/m7/"
    check(world, who, expected, lambda c: c.delete(url))


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("anonymous", UNAUTH),
        ("member", (403, "not_club_owner")),
        ("admin", (403, "not_club_owner")),
        ("other_admin", (403, "not_a_member")),
        ("submitter", (403, "not_club_owner")),
    ],
)
def test_change_a_role(world, who, expected):
    url = f"/api/clubs/{world.club.slug}/members/m6/"
    check(world, who, expected, lambda c: c.patch(url, {"role": "admin"}, format="json"))


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("anonymous", UNAUTH),
        ("member", (403, "not_club_admin")),
        ("admin", (201, None)),
        ("other_admin", (403, "not_a_member")),
        ("submitter", (403, "not_club_admin")),
    ],
)
def test_create_a_league(world, who, expected):
    body = {
        "club": world.club.slug,
        "name": "Swap League",
        "slug": "swap",
        "game": "gift_swap",
        "points_per_place": [5, 3, 1],
    }
    check(world, who, expected, lambda c: c.post("/api/leagues/", body, format="json"))


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("anonymous", UNAUTH),
        ("member", (404, "not_found")),
        ("admin", (404, "not_found")),
        ("other_admin", (404, "not_found")),
        ("submitter", (204, None)),
    ],
)
def test_revoke_a_token(world, who, expected):
    owner = world.client(world.members[4])
    made = owner.post("/api/tokens/", {"name": "league bot"}, format="json")
    assert made.status_code == 201, made.json()
    url = f"/api/tokens/{made.json()['id']}/"
    check(world, who, expected, lambda c: c.delete(url))
    revoked = owner.get("/api/tokens/").json()[0]["revoked_at"]
    assert (revoked is not None) == (who == "submitter")


def test_the_last_owner_cannot_leave_and_a_member_can(world):
    owner = world.client(world.owner)
    response = owner.delete(f"/api/clubs/{world.club.slug}/members/{world.owner.username}/")
    assert response.status_code == 409
    assert response.json()["code"] == "last_owner"
    member = world.client(world.members[5])
    assert member.delete(f"/api/clubs/{world.club.slug}/members/m5/").status_code == 204
    assert not Membership.objects.filter(user=world.members[5]).exists()
    assert AuditLog.objects.filter(action="member.leave").count() == 1


def test_join_by_invitation_link_and_key(world):
    admin = world.client(world.admin)
    made = admin.post(f"/api/clubs/{world.club.slug}/invitations/", {"max_uses": 1}, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["url"].endswith(f"/clubs/join/{made.json()['key']}/")
    joined = world.client(world.outsider).post(
        "/api/clubs/join/", {"key": made.json()["key"]}, format="json"
    )
    assert joined.json() == {"club": world.club.slug, "role": "member"}
    late = world.client(world.other_admin).post(
        "/api/clubs/join/", {"key": made.json()["key"]}, format="json"
    )
    assert late.status_code == 403
    assert late.json()["code"] == "invitation_used_up"
    detail = world.client().get(f"/api/clubs/{world.club.slug}/").json()
    assert "stranger" in [m["username"] for m in detail["members"]]
    assert [lg["slug"] for lg in detail["leagues"]] == ["santa"]


def test_head_to_head_and_the_tie_rules(world):
    assert selectors.place_points([1, 2, 2, 4], [3, 2, 1, 0], "share_best") == [3, 2, 2, 0]
    assert [float(p) for p in selectors.place_points([1, 2, 2, 4], [3, 2, 1, 0], "split")] == [
        3,
        1.5,
        1.5,
        0,
    ]
    # m2 and m3 tie on points, wins and average score; m3 finished ahead of m2 twice, m2 once.
    names = ["m2", "m3", "m4"]
    # (Secret Santa ends once someone alone has 25 or more.)
    games = [([30, 40, 25], names), ([40, 30, 25], names), ([25, 40, 30], names)]
    for day, (scores, table) in enumerate(games):
        services.season_entry_submit_document(
            season=world.season, document=result_only(table, scores, day=day), user=world.admin
        )
    rows = selectors.season_standings(season=world.season)
    assert [r["player"] for r in rows] == ["m3", "m2", "m4"]
