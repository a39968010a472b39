"""Hostile input over every endpoint: never a 5xx, always the error shape, nothing changed.

The endpoints come from the URLconf (``tests/fuzz/hostile.py``): a route without an
entry in the catalogue fails ``test_every_route_is_in_the_catalogue`` by name. Each
endpoint is one test that sends all of its hostile requests (see the catalogue for
the classes) authenticated with an API token, with production settings: ``DEBUG``
off and anonymous uploads off.

The whole suite runs on PostgreSQL (marker ``services``; NUL characters and
integers past a column fail only there); a sample of the endpoints also runs on
SQLite in the normal run.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from accounts.models import ApiToken
from accounts.services import api_token_create
from analytics.models import SimulationJob
from clubs import services as club_services
from clubs.models import Club, Invitation, League, Membership, Season, SeasonEntry
from events import services as event_services
from replays import live as live_play
from replays.models import ImportChunk, ImportJob, LiveEvent, LiveGame, Player, Record, Seat
from replays.services import record_submit
from replays.simulation import simulated_document
from tests.fuzz import hostile
from tests.integration.services import require_postgres

pytestmark = pytest.mark.django_db(transaction=True)

COUNTED = (
    Record,
    Seat,
    Player,
    LiveGame,
    LiveEvent,
    Club,
    Membership,
    Invitation,
    League,
    Season,
    SeasonEntry,
    ApiToken,
    SimulationJob,
    ImportJob,
    ImportChunk,
    get_user_model(),
)
# An import answers 202 and keeps a job whose lines are then each refused.
IMPORT_MAY_ADD = {ImportJob, ImportChunk}

# Every request the suite sent, by outcome: the figures of the hostile-input report.
SENT: Counter[str] = Counter()
TIMES: list[tuple[float, str]] = []


def _counts() -> dict[type, int]:
    """Rows of every counted table, in one round trip (the suite sends thousands)."""
    sql = "SELECT " + ", ".join(
        f"(SELECT COUNT(*) FROM {connection.ops.quote_name(model._meta.db_table)})"
        for model in COUNTED
    )
    with connection.cursor() as cursor:
        cursor.execute(sql)
        row = cursor.fetchone()
    return dict(zip(COUNTED, row, strict=True))


def _document(seed: int, *, played_at: str | None = None) -> dict[str, Any]:
    rng = random.Random(seed)
    document = simulated_document("secret_santa", num_players=3, rng=rng, simulated=False)
    document["players"] = ["Ana", "Ben", "Cleo"]
    if played_at:
        document["meta"] = {"played_at": played_at}
    return document


@pytest.fixture
def world(settings) -> dict[str, Any]:
    """Production settings, a signed-in user with a token, and one of every object."""
    settings.DEBUG = False
    settings.ALLOW_ANONYMOUS_UPLOADS = False
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = hostile.SIZE_LIMIT
    settings.MAX_IMPORT_BYTES = hostile.SIZE_LIMIT
    user = get_user_model().objects.create_user("ana", "ana@example.org", "pw-ana-123456")
    other = get_user_model().objects.create_user("ben", "ben@example.org", "pw-ben-123456")
    token, key = api_token_create(user=user, name="hostile")
    record, _ = record_submit(document=_document(1), submitted_by=user)
    result_record, _ = record_submit(
        document={
            "format": "giftlog/1",
            "game": "secret_santa",
            "players": ["Ana", "Ben", "Cleo"],
            "meta": {"played_at": "2026-01-05T20:00:00+00:00"},
            "result": {"scores": [10, 20, 30]},
        },
        submitted_by=user,
    )
    Player.objects.filter(name="Ana").update(user=user)
    club = club_services.club_create(user=user, name="Hostile club", slug="hostile", description="")
    invitation, invite_key = club_services.invitation_create(club=club, user=user, role="member")
    club_services.club_join(key=invite_key, user=other)
    # Revoked already: revoking it again changes nothing, whatever a request gets through.
    club_services.invitation_revoke(club=club, user=user, invitation_id=invitation.pk)
    league = club_services.league_create(
        club=club,
        user=user,
        name="Winter",
        slug="winter",
        game="secret_santa",
        options={},
        points_per_place=[3, 2, 1],
        tie_rule="share_best",
        min_games=0,
        tie_breaks=[],
    )
    from datetime import date

    season = club_services.season_create(
        league=league,
        user=user,
        name="2026",
        starts_on=date(2026, 1, 1),
        ends_on=date(2026, 12, 31),
    )
    entry, _ = club_services.season_entry_submit_document(
        season=season,
        document=_document(2, played_at="2026-02-01T20:00:00+00:00"),
        user=user,
        guests=[1, 2],
    )
    live, tokens = live_play.live_game_create(
        document={
            "game": "secret_santa",
            "players": ["Ana", "Ben", "Cleo"],
            "bots": {"1": "greedy", "2": "greedy"},
        },
        opened_by=user,
    )
    view = live_play.live_game_view(live, seat=0)
    legal = view["legal_events"] or [{"by": 0, "do": "pass"}]
    job = ImportJob.objects.create(submitted_by=user, lines=0)
    simulation = SimulationJob.objects.create(
        game="secret_santa", num_players=3, total=1, seed=1, created_by=user
    )
    event = event_services.event_create(
        user=user,
        club=club,
        name="Hostile night",
        slug="night",
        game="gift_gift_gone",
        starts_at=datetime(2026, 2, 1, 19, tzinfo=UTC),
    )
    event_entry = event_services.entry_add(event=event, user=user, handle="Ana", checked_in=True)
    for name in ("Ben", "Cleo"):
        event_services.entry_add(event=event, user=user, handle=name, checked_in=True)
    event_services.round_seat_next(event=event, user=user, seed=1)
    client = Client(raise_request_exception=False, HTTP_AUTHORIZATION=f"Token {key}")
    client.force_login(user)
    return {
        "client": client,
        "document": _document(3),
        "season_document": _document(4, played_at="2026-03-01T20:00:00+00:00"),
        "record_id": record.pk,
        "result_record": result_record.pk,
        "step": 2,
        "live_id": live.pk,
        "seat_token": tokens[0],
        "live_step": view["step"],
        "live_event": legal[0],
        "job_id": job.pk,
        "simulation_id": simulation.pk,
        "club_slug": club.slug,
        "league_slug": league.slug,
        "league_id": league.pk,
        "season_id": season.pk,
        "entry_id": entry.pk,
        "invitation_id": invitation.pk,
        "event_id": event.pk,
        "event_entry_id": event_entry.pk,
        "round_number": 1,
        "table_number": 1,
        "username": "ben",
        "token_id": token.pk,
        "handle": "Ana",
        "key": "nokey",
        "uidb64": "MQ",
        "token": "set-password",
    }


def _send(client: Client, case: hostile.Case):
    if case.form is not None and case.body is None:
        return client.generic(
            case.method,
            case.path,
            _form_encoded(case.form),
            content_type="application/x-www-form-urlencoded",
            **case.headers,
        )
    return client.generic(
        case.method,
        case.path,
        case.body or b"",
        content_type=case.content_type or "",
        **case.headers,
    )


def _form_encoded(form: dict[str, str]) -> bytes:
    from urllib.parse import urlencode

    return urlencode(form, encoding="utf-8", errors="surrogatepass").encode()


def _json(response) -> Any:
    if response.streaming:
        return None
    try:
        return json.loads(response.content)
    except ValueError:
        return None


def _problem(endpoint: hostile.Endpoint, case: hostile.Case, response, changed: list[str]) -> str:
    """What is wrong with one answer ("" if nothing)."""
    status = response.status_code
    if status >= 500:
        return f"{status}"
    body = _json(response) if endpoint.api else None
    shaped = isinstance(body, dict) and {"code", "message", "detail"} <= set(body)
    if endpoint.api and 400 <= status < 500 and not shaped:
        return f"{status} not in the error shape: {response.content[:200]!r}"
    if endpoint.kind == "bulk" and status == 200:
        if not (isinstance(body, dict) and body.get("stored") == 0 and body.get("refused", 0) >= 1):
            return f"200 storing or refusing nothing: {body}"
        for item in body["items"]:
            error = item.get("error")
            if item["status"] == "refused" and not (
                isinstance(error, dict) and {"code", "message", "detail"} <= set(error)
            ):
                return f"refused line not in the error shape: {item}"
    if changed:
        return f"{status} changed {', '.join(changed)}"
    if case.must_refuse and 200 <= status < 300 and endpoint.kind not in ("bulk", "import"):
        return f"{status}: accepted"
    return ""


def run_endpoint(endpoint: hostile.Endpoint, world: dict[str, Any]) -> list[str]:
    """Send every hostile request of one endpoint; the problems found, one line each."""
    client: Client = world["client"]
    problems: list[str] = []
    after = _counts()
    for case in hostile.cases_for(endpoint, world):
        before = after
        started = time.perf_counter()
        response = _send(client, case)
        TIMES.append(
            (time.perf_counter() - started, f"{case.method} {case.path[:60]} {case.label}")
        )
        after = _counts()
        allowed = (
            IMPORT_MAY_ADD if endpoint.kind == "import" and response.status_code == 202 else set()
        )
        changed = [
            f"{model.__name__} {before[model]}->{after[model]}"
            for model in COUNTED
            if before[model] != after[model] and model not in allowed
        ]
        problem = _problem(endpoint, case, response, changed)
        if endpoint.kind == "import" and response.status_code == 202 and not problem:
            job = _json(response) or {}
            done = _json(client.get(f"/api/imports/{job.get('id')}/")) or {}
            if done.get("stored") or done.get("refused") != done.get("lines"):
                problem = f"202 and the job did not refuse every line: {done}"
        SENT["5xx" if response.status_code >= 500 else "other"] += 1
        if problem:
            problems.append(f"{case.method} {case.path[:120]} [{case.label}]: {problem}")
    return problems


def test_every_route_is_in_the_catalogue():
    missing = [route for route in hostile.routes() if route not in hostile.BY_ROUTE]
    assert missing == [], (
        f"routes without hostile inputs (add them to tests/fuzz/hostile.py): {missing}"
    )
    gone = [route for route in hostile.BY_ROUTE if route not in hostile.routes()]
    assert gone == [], f"catalogue entries for routes that no longer exist: {gone}"


# A sample on SQLite in the normal run: the writes that take the most hostile bodies.
SQLITE_SAMPLE = (
    "api/records/",
    "api/records/bulk/",
    "api/imports/",
    "api/live/",
    "api/clubs/<slug:slug>/invitations/",
    "api/leaderboards/",
    "head-to-head/",
    "players/<str:handle>/",
    "clubs/<slug:slug>/leagues/<slug:league_slug>/games/<int:entry_id>/correct/",
)


def _run_all(routes: list[str], world: dict[str, Any]) -> list[str]:
    # One world for all of them: nothing may change, so each request finds it as it was.
    return [problem for route in routes for problem in run_endpoint(hostile.BY_ROUTE[route], world)]


def test_hostile_inputs_sample(world):
    problems = _run_all(list(SQLITE_SAMPLE), world)
    assert problems == [], "\n".join(problems)


@pytest.mark.services
def test_hostile_inputs_every_endpoint_postgresql(world):
    require_postgres()
    problems = _run_all([endpoint.route for endpoint in hostile.ENDPOINTS], world)
    assert problems == [], "\n".join(problems)


@pytest.fixture(autouse=True, scope="module")
def _report_figures():
    """The suite's figures (requests sent, 5xx answers), printed with ``-s``."""
    yield
    for seconds, label in sorted(TIMES, reverse=True)[:25]:
        print(f"{seconds:.2f} {label}")
    print(f"\nhostile requests sent: {sum(SENT.values())}, answered 5xx: {SENT['5xx']}")
