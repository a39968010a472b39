"""Writes of the statistics: per-record facts and the snapshots they add up to.

``statistics_apply_many`` is called by ``analytics.ingest`` for every batch of
stored records (the incremental path); ``statistics_recompute_all`` is the nightly
fresh computation that compares with it, logs any difference and fixes it.
Both are idempotent. Counters and definitions: analytics.stats, docs/analytics.md.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import orjson
from django.db import connection, transaction
from django.utils import timezone

from analytics.bulk_sql import rows_upsert
from analytics.models import RecordFacts, StatisticsSnapshot
from analytics.stats import canonical, contribution, counters_accumulate
from games.facts import record_facts_compute
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
        and (facts.length is None) == (record.kind == Record.Kind.RESULT or not record.num_events)
    )


def record_facts_build(
    *, record: Record, existing: RecordFacts | None, events: list[Any] | None = None
) -> RecordFacts:
    """The record's facts row as it should be now (not saved).

    The derived facts come from the record itself (``Record.replay_facts``, computed
    by the replay that validated it); a record stored before those were kept reuses
    its facts row when the row is current, and only otherwise replays its log once
    (``events``: its log when the caller already read it). Scores, winners and the
    descriptive fields (month, club, variant, simulated) are read every time, so a
    corrected result-only record moves with its result.
    """
    result = record.result or {}
    scores = list(result.get("scores", []))
    derived = record.replay_facts
    if not isinstance(derived, dict) or len(derived.get("cards_held") or []) != len(scores):
        if _facts_current(existing, record, result):
            assert existing is not None
            derived = {name: getattr(existing, name) for name in FACT_FIELDS}
        else:
            log = events if events is not None else record.events
            derived = record_facts_compute(
                game=record.game,
                num_players=len(scores),
                options=record.options,
                events=log if record.kind != Record.Kind.RESULT else [],
                result=result,
                checked=False,  # a stored record was validated when it was stored
            )
    facts = RecordFacts(record_id=record.pk)
    for name in FACT_FIELDS:
        setattr(facts, name, derived[name])
    facts.scores = scores
    facts.winners = sorted(result.get("winners", []))
    facts.num_players = len(scores)
    facts.game = record.game
    facts.simulated = record.simulated
    facts.variant = options_key(record.options)
    facts.club = record_club(record)
    facts.month = record_month(record)
    return facts


def record_facts_get_or_compute(*, record: Record) -> RecordFacts:
    """The record's facts (see :func:`record_facts_build`), against its stored row."""
    return record_facts_build(
        record=record, existing=RecordFacts.objects.filter(pk=record.pk).first()
    )


_STORED_FIELDS = (
    "game",
    "simulated",
    "num_players",
    "variant",
    "club",
    "month",
    "scores",
    "winners",
    *FACT_FIELDS,
)
_JSON_FIELDS = {"scores", "winners", "event_counts", "cards_held", "cards_ended"}
FACT_COLUMNS = (
    "record_id",
    *_STORED_FIELDS,
    "applied",
    "summary_applied",
    "computed_at",
)


def _json(value: Any) -> str | None:
    return None if value is None else orjson.dumps(value).decode()


def facts_row(facts: RecordFacts, now: Any) -> tuple[Any, ...]:
    values = [facts.record_id]
    for name in _STORED_FIELDS:
        value = getattr(facts, name)
        values.append(_json(value) if name in _JSON_FIELDS else value)
    values += [_json(facts.applied), _json(facts.summary_applied), now]
    return tuple(values)


# A record counted before summaries kept what each record added: its earlier
# contribution is read from its results (analytics.ingest).
UNKNOWN = object()


def statistics_apply_many(
    *,
    records: Sequence[Record],
    summaries: Mapping[int, Any] | None = None,
    events: Mapping[int, list[Any]] | None = None,
) -> dict[int, Any]:
    """Count these records in the statistics snapshots, each exactly once: a batch at a time.

    Each record's facts row is locked (new rows are inserted, which locks them too;
    a row a concurrent ingest inserted first is then locked and compared); a record
    whose contribution (``applied``) is unchanged changes nothing, a changed one (a
    corrected result) takes its old contribution out and adds the new one. The
    batch's changes are summed per scope in memory, then each touched snapshot is
    locked (all in one sorted order, so concurrent workers cannot deadlock or lose
    an update) and written once. ``summaries`` (record id: what it adds to its
    game's summary) is stored with each row; returns, per record, what its row held
    before (None: nothing; :data:`UNKNOWN`: counted before summaries were kept).
    """
    if not records:
        return {}
    events = events or {}
    by_id = {record.pk: record for record in records}
    ids = sorted(by_id)
    locked = {
        facts.pk: facts
        for facts in RecordFacts.objects.select_for_update()
        .filter(pk__in=ids)
        .order_by("pk")
        .defer("computed_at")
    }
    built = {
        pk: record_facts_build(record=by_id[pk], existing=locked.get(pk), events=events.get(pk))
        for pk in ids
    }
    for pk, facts in built.items():
        facts.applied = facts_contribution(facts)
        if summaries is not None:
            facts.summary_applied = summaries.get(pk)
    adapt = connection.ops.adapt_datetimefield_value
    now = adapt(timezone.now())
    table = RecordFacts._meta.db_table
    fresh = [pk for pk in ids if pk not in locked]
    inserted = set(
        rows_upsert(
            table,
            FACT_COLUMNS,
            [facts_row(built[pk], now) for pk in fresh],
            conflict=["record_id"],
            returning="record_id",
            new=True,  # no row was found under lock: only a concurrent ingest's can exist
        )
    )
    late = [pk for pk in fresh if pk not in inserted]  # a concurrent ingest inserted it first
    if late:
        locked.update(
            (facts.pk, facts)
            for facts in RecordFacts.objects.select_for_update().filter(pk__in=late).order_by("pk")
        )
    before: dict[int, Any] = {}
    # Summed per set of scopes first (a record counts in its club and month and in
    # "all"): one sum per record, then one per set and scope.
    by_set: dict[tuple[Scope, ...], dict[str, Any]] = {}
    changed: list[int] = []
    for pk in ids:
        facts = built[pk]
        old = locked.get(pk) if pk not in inserted else None
        if old is None:
            before[pk] = None
        elif old.summary_applied is None and old.applied is not None:
            before[pk] = UNKNOWN
        else:
            before[pk] = old.summary_applied
        if old is not None and old.applied == facts.applied:
            if summaries is None:
                facts.summary_applied = old.summary_applied
            if any(getattr(old, f) != getattr(facts, f) for f in _STORED_FIELDS) or (
                old.summary_applied != facts.summary_applied
            ):
                changed.append(pk)
            continue
        if old is not None:
            changed.append(pk)
            if summaries is None:
                facts.summary_applied = old.summary_applied
            if old.applied:
                key = tuple(tuple(scope) for scope in old.applied["scopes"])
                counters_accumulate(by_set.setdefault(key, {}), old.applied["counters"], -1)
        key = tuple(tuple(scope) for scope in facts.applied["scopes"])
        counters_accumulate(by_set.setdefault(key, {}), facts.applied["counters"])
    if changed:
        rows_upsert(
            table,
            FACT_COLUMNS,
            [facts_row(built[pk], now) for pk in changed],
            conflict=["record_id"],
            update=[c for c in FACT_COLUMNS if c != "record_id"],
        )
    deltas: dict[Scope, dict[str, Any]] = {}
    for key, summed in by_set.items():
        for scope in key:
            counters_accumulate(deltas.setdefault(scope, {}), summed)  # type: ignore[arg-type]
    _snapshots_add(deltas)
    return before


def _snapshots_add(deltas: Mapping[Scope, dict[str, Any]]) -> None:
    """Add each scope's summed change to its snapshot: one lock and one write per scope.

    Three statements for the whole batch: the missing rows inserted, every touched
    row locked and read (in one sorted order, so concurrent workers cannot
    deadlock), and every row written; emptied snapshots are deleted.
    """
    if not deltas:
        return
    table = StatisticsSnapshot._meta.db_table
    scopes = sorted(deltas, key=lambda scope: tuple(map(str, scope)))
    fields = ", ".join(SCOPE_FIELDS)
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    rows_upsert(
        table,
        (*SCOPE_FIELDS, "records", "counters", "updated_at"),
        [(*scope, 0, "{}", now) for scope in scopes],
        conflict=SCOPE_FIELDS,
    )
    placeholders = ", ".join(["(" + ", ".join(["%s"] * len(SCOPE_FIELDS)) + ")"] * len(scopes))
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, {fields}, counters FROM {table} "
            f"WHERE ({fields}) IN (VALUES {placeholders}) ORDER BY {fields}{lock}",
            [value for scope in scopes for value in scope],
        )
        found = cursor.fetchall()
        keep, drop = [], []
        for pk, *key, counters in found:
            scope = tuple(key)
            scope = (scope[0], bool(scope[1]), *scope[2:])
            delta = deltas.get(scope)  # type: ignore[call-overload]
            if delta is None:
                continue
            if isinstance(counters, str):
                counters = orjson.loads(counters)
            counters_accumulate(counters, delta)
            counters = canonical(counters)
            records = int(counters.get("records", 0))
            if records <= 0:
                drop.append(pk)
            else:
                keep.append((orjson.dumps(counters).decode(), records, now, pk))
        if keep:
            cursor.executemany(
                f"UPDATE {table} SET counters = %s, records = %s, updated_at = %s WHERE id = %s",
                keep,
            )
        if drop:
            cursor.execute(
                f"DELETE FROM {table} WHERE id IN ({', '.join(['%s'] * len(drop))})", drop
            )


def statistics_apply(*, record: Record) -> bool:
    """Count one record in the statistics snapshots, exactly once (:func:`statistics_apply_many`).

    Returns True if its contribution changed. Ingesting the same record again finds
    its contribution already applied and changes nothing; if the record's facts
    changed (a corrected result), the old contribution is taken out and the new one added.
    """
    with transaction.atomic():
        applied = RecordFacts.objects.filter(pk=record.pk).values_list("applied", flat=True).first()
        statistics_apply_many(records=[record])
        now = RecordFacts.objects.filter(pk=record.pk).values_list("applied", flat=True).first()
    return bool(applied != now)


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
            counters_accumulate(fresh.setdefault(scope, {}), counters)
    return {scope: canonical(counters) for scope, counters in fresh.items()}


def statistics_recompute_all(*, fix: bool = True) -> dict[str, Any]:
    """The nightly full recompute: fresh figures compared with the incremental ones.

    First every record without facts is ingested (one that was never ingested),
    in played order and in batches (``analytics.ingest``); then the snapshots are
    computed afresh from the facts and compared scope by scope. Each difference is
    logged as a warning and, with ``fix``, the stored snapshot is replaced by the
    fresh one (and each record's ``applied`` is set to what it now contributes).
    Each game's summary is compared with a full recompute the same way
    (``analytics.summaries.game_summaries_check``). Returns what it found.
    """
    from analytics.ingest import records_stream_ingest
    from analytics.services import records_ingest_batch
    from analytics.summaries import game_summaries_check

    missing = Record.objects.filter(facts__isnull=True, ingest_quarantine__isnull=True)
    # A quarantined one is the sweep's to retry; one failing here is quarantined too.
    records_stream_ingest(records=missing, ingest=records_ingest_batch)
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
        "summaries": game_summaries_check(fix=fix),
    }
