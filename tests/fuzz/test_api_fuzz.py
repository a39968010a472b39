"""Schemathesis against the API's own OpenAPI schema: every operation, bounded.

Each operation gets ``MAX_EXAMPLES`` generated requests (path ids, query strings,
headers and bodies built from the schema), sent in-process to the WSGI app. Every
answer must not be a 5xx, must carry a documented content type, and must match the
schema for its status: the typed response serializers (replays/api/schemas.py) for
successes, the common error shape ``{"code", "message", "detail"}`` for every 4xx.
Some records and a live game exist first, so small ids hit real objects too.
"""

from __future__ import annotations

import json

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from games.registry import engine_slugs
from replays.services import record_submit

MAX_EXAMPLES = 25


@schemathesis.serializer("application/x-ndjson")
def _ndjson(context, value) -> bytes:
    """NDJSON bodies (bulk and import jobs) go as the text they are: one JSON per line."""
    text = value if isinstance(value, str) else json.dumps(value)
    return text.encode("utf-8", "surrogatepass")


pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def stored(db, make_document):
    for number, game in enumerate(engine_slugs()):
        record_submit(document=make_document(game, seed=40 + number))


@pytest.fixture
def simulations_queued(monkeypatch):
    """A balance-lab job the fuzzer starts stays queued: its games (up to thousands) are a
    worker's, and tasks here run in the test's own process."""
    monkeypatch.setattr("analytics.simulations._simulation_enqueue", lambda job_id: None)


def test_every_operation_answers_within_its_schema(stored, simulations_queued, settings):
    # Schemathesis's WSGI client sends "Host: localhost".
    settings.ALLOWED_HOSTS = ["testserver", "localhost"]
    schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 20, [op.label for op in operations]
    failures: list[str] = []
    for operation in operations:

        @given(case=operation.as_strategy())
        @hypothesis_settings(
            max_examples=MAX_EXAMPLES,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
            database=None,
        )
        def run(case) -> None:
            case.call_and_validate(
                checks=[not_a_server_error, content_type_conformance, response_schema_conformance]
            )

        try:
            run()
        except Exception as error:  # collect every operation's failure, then report
            failures.append(f"{operation.label}: {error}"[:3000])
    assert failures == [], "\n\n".join(failures)
