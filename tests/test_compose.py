"""compose.yaml runs what docs/operations.md says: every queue read, safe defaults."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from config import settings

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text())
OPERATIONS = (ROOT / "docs" / "operations.md").read_text()


def compose_default(name: str) -> str:
    value = COMPOSE["x-app"]["environment"][name]
    match = re.fullmatch(r"\$\{" + name + r":-(.*)\}", value)
    assert match, value
    return match.group(1)


def documented_default(name: str) -> str:
    match = re.search(r"^\| `" + name + r"` \| ([^|]+) \|", OPERATIONS, re.MULTILINE)
    assert match, f"{name} is not in the settings table of docs/operations.md"
    return match.group(1).strip()


def test_secure_cookies_are_on_by_default_in_compose_as_the_docs_say():
    assert documented_default("SECURE_COOKIES") == "on"
    assert settings.env_bool("SECURE_COOKIES", True) is True  # the settings' own default
    assert compose_default("SECURE_COOKIES") in {"1", "true", "on", "yes"}


def test_compose_trusts_no_forwarded_address_by_default_as_the_docs_say():
    assert documented_default("NUM_PROXIES") == "0"
    assert compose_default("NUM_PROXIES") == "0"


def test_every_queue_a_task_is_routed_to_has_a_compose_worker():
    queues = {settings.CELERY_TASK_DEFAULT_QUEUE}
    queues |= {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    read = set()
    for service in COMPOSE["services"].values():
        command = service.get("command", "")
        if "worker" in command and "-Q" in command:
            read |= set(command.split("-Q", 1)[1].split()[0].split(","))
    assert queues <= read, queues - read
    assert "simulations" in queues


def _queues_read(service: str) -> set[str]:
    command = COMPOSE["services"][service]["command"]
    return set(command.split("-Q", 1)[1].split()[0].split(","))


def test_a_single_uploads_ingest_never_shares_a_worker_with_bulk_batches():
    from celery import current_app

    router = current_app.amqp.Router()

    def queue_of(task: str) -> str:
        return router.route({}, task)["queue"].name

    single, bulk = queue_of("analytics.record_ingest"), queue_of("analytics.records_ingest")
    assert (single, bulk) == ("analytics", "analytics_bulk")
    readers = {
        name
        for name in COMPOSE["services"]
        if name != "beat" and "-Q" in str(COMPOSE["services"][name].get("command", ""))
    }
    assert {name for name in readers if single in _queues_read(name)} == {"worker"}
    assert {name for name in readers if bulk in _queues_read(name)} == {"importer"}
    # The replays' preparation (seconds a bulk batch) never holds either of them back.
    prepare = queue_of("replays.records_viewer_warm")
    assert {name for name in readers if prepare in _queues_read(name)} == {"analyst"}
    # As docs/operations.md documents them.
    assert "-Q giftbox,analytics " in OPERATIONS
    assert "-Q imports,analytics_bulk " in OPERATIONS
    assert "-Q analysis,replays " in OPERATIONS


def test_redis_is_bounded_and_evicts_only_cached_copies():
    """Past its memory, Redis evicts only keys with an expiry: the cached copies (each
    has one: tests/core/test_cache_expiry.py), never the broker's queued messages."""
    command = COMPOSE["services"]["redis"]["command"].split()
    policy = command[command.index("--maxmemory-policy") + 1]
    assert policy.startswith("volatile-"), policy
    limit = command[command.index("--maxmemory") + 1]
    match = re.fullmatch(r"\$\{REDIS_MAXMEMORY:-(\d+[kmg]b)\}", limit)
    assert match, limit
    assert documented_default("REDIS_MAXMEMORY") == match.group(1)
