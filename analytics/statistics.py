"""Writes of the statistics: per-record facts and the snapshots they add up to.

``statistics_apply`` is called by ``analytics.services.record_ingest`` for every
stored record (the incremental path); ``statistics_recompute_all`` is the nightly
fresh computation that compares with it, logs any difference and fixes it.
Both are idempotent. Counters and definitions: analytics.stats, docs/analytics.md.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from django.db import transaction

from analytics.facts import record_facts_compute
from analytics.models import RecordFacts, StatisticsSnapshot
from analytics.stats import contribution, counters_add
from replays.giftlog import options_key
from replays.models import Record

logger = logging.getLogger("analytics.statistics")

Scope = tuple[str, bool, int, str, str, str]  # game, simulated, players, variant, club, month
SCOPE_FIELDS = ("game", "simulated", "num_players", "variant", "club", "month")
FACT_FIELDS = (
    "length",
    "rounds",
    "decisiveness",
    "lead_changes",
    "event_counts",
    "cards_held",
    "cards_ended",
)


def record_month(record: Record) -> str:
    when = record.played_at or record.created_at
    return when.strftime("%Y-%m") if when else "0000-00"


def record_club(record: Record) -> str:
    club = (record.meta or {}).get("club") if isinstance(record.meta, dict) else None
    return str(club)[:64] if club else ""


def facts_scopes(facts: RecordFacts) -> list[Scope]:
    """The snapshots a record counts in: its club and month, and all clubs and months."""
    base = (facts.game, facts.simulated, facts.num_players, facts.variant)
    return [
        (*base, facts.club, facts.month),
        (*base, StatisticsSnapshot.ALL, StatisticsSnapshot.ALL),
    ]


def facts_contribution(facts: RecordFacts) -> dict[str, Any]:
    """What ``facts.applied`` holds once the record is counted: scopes and counters."""
    data = {name: getattr(facts, name) for name in FACT_FIELDS}
    data.update(num_players=facts.num_players, scores=facts.scores, winners=facts.winners)
    return {"scopes": [list(s) for s in facts_scopes(facts)], "counters": contribution(data)}


def _facts_current(facts: RecordFacts | None, record: Record, result: dict[str, Any]) -> bool:
    return (
        facts is not None
        and facts.scores == list(result.get("scores", []))
        and facts.winners == sorted(result.get("winners", []))
        and facts.num_players == len(result.get("scores", []))
        and (facts.length is None) == (record.kind == Record.Kind.RESULT or not record.events)
    )


def record_facts_get_or_compute(*, record: Record) -> RecordFacts:
    """The record's facts row, replaying its log only when the row is missing or stale.

    Stale means the stored result changed (a corrected result-only record). The
    row's descriptive fields (month, club, variant, simulated) are refreshed every time.
    """
    result = record.result or {}
    facts = RecordFacts.objects.filter(pk=record.pk).first()
    if not _facts_current(facts, record, result):
        derived = record_facts_compute(
            game=record.game,
            num_players=len(result.get("scores", [])),
            options=record.options,
            events=record.events if record.kind != Record.Kind.RESULT else [],
            result=result,
        )
        if facts is None:
            facts = RecordFacts(record=record)
        for name, value in derived.items():
            setattr(facts, name, value)
        facts.scores = list(result.get("scores", []))
        facts.winners = sorted(result.get("winners", []))
        facts.num_players = len(facts.scores)
    assert facts is not None
    facts.game = record.game
    facts.simulated = record.simulated
    facts.variant = options_key(record.options)
    facts.club = record_club(record)
    facts.month = record_month(record)
    return facts


def _snapshot_add(scope: Scope, counters: dict[str, Any], sign: int) -> None:
    key = dict(zip(SCOPE_FIELDS, scope, strict=True))
    StatisticsSnapshot.objects.bulk_create([StatisticsSnapshot(**key)], ignore_conflicts=True)
    snapshot = StatisticsSnapshot.objects.select_for_update().get(**key)
    snapshot.counters = counters_add(snapshot.counters, counters, sign)
    snapshot.records = int(snapshot.counters.get("records", 0))
    if snapshot.records <= 0:
        snapshot.delete()
    else:
        snapshot.save(update_fields=["counters", "records", "updated_at"])


@transaction.atomic
def statistics_apply(*, record: Record) -> bool:
    """Count one record in the statistics snapshots, exactly once.

    Returns True if any snapshot changed. Ingesting the same record again finds its
    contribution already applied and changes nothing; if the record's facts changed
    (a corrected result), the old contribution is taken out and the new one added.
    Snapshots are locked in one sorted order, so concurrent workers cannot deadlock
    or lose an update.
    """
    facts = record_facts_get_or_compute(record=record)
    if facts._state.adding:
        RecordFacts.objects.bulk_create([facts], ignore_conflicts=True)
    locked = RecordFacts.objects.select_for_update().get(pk=record.pk)
    new = facts_contribution(facts)
    if locked.applied == new:
        if any(getattr(locked, f) != getattr(facts, f) for f in FACT_FIELDS):
            facts.applied = new
            facts.save()
        return False
    changes: list[tuple[Scope, dict[str, Any], int]] = []
    if locked.applied:
        changes += [(tuple(s), locked.applied["counters"], -1) for s in locked.applied["scopes"]]  # type: ignore[misc]
    changes += [(tuple(s), new["counters"], 1) for s in new["scopes"]]  # type: ignore[misc]
    for scope, counters, sign in sorted(changes, key=lambda c: (tuple(map(str, c[0])), c[2])):
        _snapshot_add(scope, counters, sign)
    facts.applied = new
    facts._state.adding = False
    facts.save()
    return True


def _all_facts(chunk: int = 2000) -> Iterator[RecordFacts]:
    last = 0
    while True:
        rows = list(
            RecordFacts.objects.filter(pk__gt=last).order_by("pk").defer("computed_at")[:chunk]
        )
        if not rows:
            return
        yield from rows
        last = rows[-1].pk


def statistics_fresh() -> dict[Scope, dict[str, Any]]:
    """Every snapshot's counters computed again from the stored facts (no replays)."""
    fresh: dict[Scope, dict[str, Any]] = {}
    for facts in _all_facts():
        counters = facts_contribution(facts)["counters"]
        for scope in facts_scopes(facts):
            fresh[scope] = counters_add(fresh.get(scope), counters)
    return fresh


def statistics_recompute_all(*, fix: bool = True) -> dict[str, Any]:
    """The nightly full recompute: fresh figures compared with the incremental ones.

    First every record without facts is applied (one that was never ingested);
    then the snapshots are computed afresh from the facts and compared scope by
    scope. Each difference is logged as a warning and, with ``fix``, the stored
    snapshot is replaced by the fresh one (and each record's ``applied`` is set to
    what it now contributes). Returns what it found.
    """
    missing = Record.objects.filter(facts__isnull=True, ingest_quarantine__isnull=True).values_list(
        "pk", flat=True
    )  # a quarantined record is retried by the ingest sweep, not here
    for record_id in list(missing):
        record = Record.objects.filter(pk=record_id).first()
        if record is not None:
            statistics_apply(record=record)
    fresh = statistics_fresh()
    stored = {
        tuple(getattr(s, f) for f in SCOPE_FIELDS): s for s in StatisticsSnapshot.objects.all()
    }
    differences = []
    for scope in sorted(set(fresh) | set(stored), key=lambda s: tuple(map(str, s))):
        have = stored[scope].counters if scope in stored else None
        want = fresh.get(scope)
        if have != want:
            differences.append(
                {
                    "scope": dict(zip(SCOPE_FIELDS, scope, strict=True)),
                    "stored_records": stored[scope].records if scope in stored else 0,
                    "fresh_records": int((want or {}).get("records", 0)),
                }
            )
            logger.warning(
                "statistics snapshot differs from a fresh computation: %s (stored %s records, "
                "fresh %s)%s",
                differences[-1]["scope"],
                differences[-1]["stored_records"],
                differences[-1]["fresh_records"],
                "; replaced" if fix else "",
            )
    if fix and differences:
        with transaction.atomic():
            for diff in differences:
                scope = tuple(diff["scope"][f] for f in SCOPE_FIELDS)
                key = diff["scope"]
                if scope in fresh:
                    StatisticsSnapshot.objects.update_or_create(
                        **key,
                        defaults={"counters": fresh[scope], "records": fresh[scope]["records"]},  # type: ignore[index]
                    )
                else:
                    StatisticsSnapshot.objects.filter(**key).delete()
            stale = []
            for facts in _all_facts():
                want_applied = facts_contribution(facts)
                if facts.applied != want_applied:
                    facts.applied = want_applied
                    stale.append(facts)
            RecordFacts.objects.bulk_update(stale, ["applied"], batch_size=500)
    return {
        "records": RecordFacts.objects.count(),
        "scopes": len(fresh),
        "differences": differences,
    }


def statistics_reset() -> None:
    """Forget every fact and snapshot (``analytics_rebuild`` derives them again)."""
    StatisticsSnapshot.objects.all().delete()
    RecordFacts.objects.all().delete()
