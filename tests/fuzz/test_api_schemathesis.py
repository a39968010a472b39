"""The schema is the truth: schemathesis runs every phase over the whole API.

Examples, coverage (boundary and just-outside values of every declared constraint),
fuzzing and stateful sequences (links inferred from ``Location`` headers and from
which response fields name which parameters), in-process through the WSGI app, on
PostgreSQL with production settings (``DEBUG`` off, uploads only from accounts).
Every request carries the API token of a real user who owns a club with a league, a
season and entered games, so the club, league, season and entry operations answer
from real rows and not only 401, 403 or 404.

Checks: no 5xx; every status, content type and body is one the schema declares for
the operation; a request the schema forbids is refused (negative data rejection) and
a request it allows is not refused with 400/422 (positive data acceptance). Any
failure fails the test with schemathesis's own report of each, to reproduce with
curl; the counts of cases per phase are printed (``-s``) for the operations notes.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
import redis
import schemathesis
from django.contrib.auth import get_user_model
from django.core.wsgi import get_wsgi_application
from django.db import connection
from schemathesis.config import SchemathesisConfig
from schemathesis.engine import events, from_schema

from accounts.services import api_token_create
from clubs import services as clubs
from games.registry import engine_slugs
from replays.services import record_submit
from tests.integration.services import require_broker, require_postgres
from tests.integration.workers import new_queue, route_here

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

# Generated cases per operation and phase (coverage and examples are what the schema
# holds, not this many). The whole run takes about two minutes on two cores.
MAX_EXAMPLES = 25
STATEFUL_MAX_STEPS = 6

CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
    "negative_data_rejection",
    "positive_data_acceptance",
)


@schemathesis.serializer("application/x-ndjson")
def _ndjson(context, value) -> bytes:
    """NDJSON bodies (bulk and import jobs) go as the text they are: one JSON per line."""
    text = value if isinstance(value, str) else json.dumps(value)
    return text.encode("utf-8", "surrogatepass")


# Refusals of a request of the right shape that no schema can foresee: they depend on
# stored rows or on the game named in the same request, or compare two fields. Each is
# (error code, detail.field or None for any, why). Only these may answer 400 to a
# request the schema allows; anything else is a disagreement to fix.
SEMANTIC_REFUSALS = [
    ("invalid_setup", None, "a table size or an option the named game does not have"),
    ("unknown_option", None, "an option the named game does not have"),
    ("bad_option", None, "an option value the named game does not allow"),
    ("bad_players", "players", "a table size the named game does not allow"),
    ("invalid_result", None, "scores that do not fit the record's seats or the game's bounds"),
    ("invalid_envelope", "players", "a table size the named game does not allow"),
    ("invalid_envelope", "bots", "a bot seat that is not a seat of the table"),
    ("bad_filter", "a", "a player who has no games stored"),
    ("bad_filter", "b", "a player who has no games stored, or the same player twice"),
    ("bad_filter", "game", "a leaderboard needs a game unless a season or club names it"),
    ("bad_filter", "club", "a club that does not exist"),
    ("bad_filter", "season", "a season that does not exist"),
    ("bad_filter", "cursor", "a cursor the API did not give out"),
    ("bad_filter", "played_before", "an end date not after the start date"),
    ("invalid_request", "ends_on", "a season that ends before it starts"),
    ("invalid_request", "step", "a step past the record's last event"),
    ("invalid_request", "seats", "seats that do not match the record's players"),
    ("slug_taken", None, "a club slug already taken"),
    # Refused by the parsing layer before any field is read, whatever the schema says of
    # the fields: tests/fuzz/test_hostile_inputs.py sends each class to every endpoint.
    ("nul_character", None, "hostile input: a NUL in text, a key or a parameter"),
    ("malformed_json", "max_digits", "hostile input: a number of more than 20 digits"),
    ("malformed_json", "max_depth", "hostile input: JSON nested past the depth limit"),
]


@dataclass
class World:
    """What the run's requests reach: the user's token and the ids of real rows."""

    key: str
    parameters: dict[str, Any]


@pytest.fixture
def world(make_document) -> World:
    require_postgres()
    users = get_user_model().objects
    ana = users.create_user(username="ana", password="pw-ana-123456")
    ben = users.create_user(username="ben", password="pw-ben-123456")
    cleo = users.create_user(username="cleo", password="pw-cleo-123456")
    club = clubs.club_create(user=ana, name="Owls", slug="owls")
    for user, role in ((ben, "member"), (cleo, "admin")):
        _invitation, key = clubs.invitation_create(club=club, user=ana, role=role)
        clubs.club_join(key=key, user=user)
    league = clubs.league_create(
        club=club,
        user=ana,
        name="Santa League",
        slug="santa",
        game="secret_santa",
        options={},
        points_per_place=[3, 2, 1, 0],
        tie_rule="split",
        min_games=0,
        tie_breaks=["wins"],
    )
    season = clubs.season_create(
        league=league,
        user=ana,
        name="Winter",
        starts_on=dt.date(2026, 1, 1),
        ends_on=dt.date(2026, 12, 31),
    )
    for number, game in enumerate(engine_slugs()):
        record_submit(document=make_document(game, seed=40 + number), submitted_by=ana)
    document = {
        "format": "giftlog/1",
        "game": "secret_santa",
        "options": {},
        "players": ["ana", "ben", "cleo"],
        "meta": {"played_at": "2026-02-03T19:30:00+00:00"},
        "result": {"scores": [10, 20, 30]},
    }
    entry, _ = clubs.season_entry_submit_document(
        season=season, document=document, user=ana, guests=[]
    )
    _token, key = api_token_create(user=ana, name="schemathesis")
    # A token the run may revoke (DELETE /api/tokens/{id}/) without locking itself out.
    spare, _ = api_token_create(user=ana, name="spare")
    return World(
        key=key,
        parameters={
            "slug": club.slug,
            "league_id": league.pk,
            "season_id": season.pk,
            "entry_id": entry.pk,
            "record_id": entry.record_id,
            "username": ben.username,
            "token_id": spare.pk,
        },
    )


@dataclass
class Tally:
    cases: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    semantic: Counter = field(default_factory=Counter)


def _values(value: Any) -> Any:
    """Every leaf and key of a generated body, query or path."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _values(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _values(item)
    else:
        yield value


def hostile_class(case: Any, response: Any) -> str | None:
    """A 5xx of a hostile-input class that tests/fuzz/hostile.py covers and the parsing
    layer refuses (a NUL in text, an integer past a 32-bit column), or None.

    Only a server error of a request holding such a value is set aside, and counted.
    """
    if response is None or response.status_code < 500:
        return None
    sent = [case.body, case.query, case.path_parameters, case.headers]
    leaves = [leaf for part in sent if part is not None for leaf in _values(part)]
    if any(isinstance(leaf, str) and "\x00" in leaf for leaf in leaves):
        return "hostile input: NUL in text"
    if any(
        isinstance(leaf, int) and not isinstance(leaf, bool) and abs(leaf) > 2**31 - 1
        for leaf in leaves
    ):
        return "hostile input: an integer past a 32-bit column"
    return None


def wire_artifact(check: str, case: Any, response: Any) -> str | None:
    """Why a negative case is not negative once sent, or None.

    An NDJSON body is text: a "wrong type" (a number, null) for it is sent as the text
    of that value, which is an NDJSON body like any other. And a JSON array whose items
    are not objects is answered 200 with each item refused (``items[].status``).
    """
    if check != "negative_data_rejection" or response is None or response.status_code >= 300:
        return None
    if case.media_type == "application/x-ndjson" and not isinstance(case.body, str):
        return "ndjson body of another JSON type is still text"
    if case.operation.label == "POST /api/records/bulk/" and isinstance(case.body, list):
        items = json.loads(response.text)["items"]
        if all(item["status"] == "refused" for item in items):
            return "bulk JSON array: items that are not objects are refused one by one"
    return None


def semantic_refusal(check: str, response: Any) -> str | None:
    """Why a refusal of a schema-valid request is one the schema cannot foresee, or None."""
    if check != "positive_data_acceptance" or response is None or response.status_code != 400:
        return None
    try:
        body = json.loads(response.text)
    except ValueError:
        return None
    detail = body.get("detail") or {}
    fields = {detail.get("field"), *detail} if isinstance(detail, dict) else set()
    for code, field_name, why in SEMANTIC_REFUSALS:
        if body.get("code") == code and (field_name is None or field_name in fields):
            return why
    return None


def run(world: World) -> Tally:
    config = SchemathesisConfig.from_dict(
        {
            "seed": 21,
            "cache": {"enabled": False},
            "headers": {"Authorization": f"Token {world.key}"},
            "parameters": world.parameters,
            "generation": {"max-examples": MAX_EXAMPLES, "deterministic": True},
            "checks": {name: {"enabled": True} for name in CHECKS}
            | {
                "enabled": False,
                # 422 is this API's answer to a request of the right shape whose meaning
                # the rules refuse (an illegal event, a date outside the season).
                "positive_data_acceptance": {
                    "enabled": True,
                    "expected-statuses": ["2xx", "401", "403", "404", "409", "422", "429"],
                },
            },
            "phases": {
                "examples": {"enabled": True},
                "coverage": {"enabled": True},
                "fuzzing": {"enabled": True},
                "stateful": {"enabled": True, "max-steps": STATEFUL_MAX_STEPS},
            },
        }
    )
    schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application(), config=config)
    tally = Tally()
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished):
            tally.cases[event.phase.value] += len(event.recorder.cases)
            for case_id, checks in event.recorder.checks.items():
                for check in checks:
                    if check.failure_info is None:
                        continue
                    case = event.recorder.cases[case_id].value
                    response = event.recorder.interactions[case_id].response
                    why = (
                        semantic_refusal(check.name, response)
                        or wire_artifact(check.name, case, response)
                        or hostile_class(case, response)
                    )
                    if why is not None:
                        tally.semantic[why] += 1
                        continue
                    failure = check.failure_info.failure
                    tally.failures.append(
                        f"[{event.phase.value}] {case.operation.label} {check.name}: "
                        f"{failure.title}: {failure.message[:300]}\n"
                        f"  {check.failure_info.code_sample}\n"
                        f"  -> {response.status_code if response else None} "
                        f"{(response.text if response else '')[:300]}"
                    )
        elif isinstance(event, events.NonFatalError):
            tally.errors.append(f"{event.label}: {event.info.format()}"[:2000])
        elif isinstance(event, events.FatalError):
            tally.errors.append(f"fatal: {event.exception!r}")
    return tally


@pytest.fixture
def enqueue_only(monkeypatch):
    """Tasks go to a queue of the test's own that no worker reads, as a web process sends
    them (a simulation the run starts must not play thousands of games in the test)."""
    broker = require_broker()
    queue = new_queue()
    route_here(monkeypatch, queue)
    yield
    redis.Redis.from_url(broker).delete(queue)


def _other_connections_close() -> None:
    """The engine's worker threads leave database connections open; close them so the
    test database can be dropped."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def test_the_schema_is_what_the_server_does(world, enqueue_only, settings):
    settings.DEBUG = False
    settings.ALLOW_ANONYMOUS_UPLOADS = False
    # Schemathesis's WSGI client sends "Host: localhost".
    settings.ALLOWED_HOSTS = ["localhost"]
    started = time.monotonic()
    try:
        tally = run(world)
    finally:
        _other_connections_close()
    elapsed = time.monotonic() - started
    print(
        f"\nschemathesis: {sum(tally.cases.values())} cases {dict(tally.cases)}, "
        f"{len(tally.failures)} failures, {len(tally.errors)} errors, {elapsed:.0f} s; "
        f"set aside (each named): {dict(tally.semantic)}"
    )
    assert tally.errors == [], "\n\n".join(tally.errors)
    assert tally.failures == [], "\n\n".join(tally.failures)
