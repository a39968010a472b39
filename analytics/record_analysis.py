"""Analysis jobs: every decision of a stored game valued from its mover's view, stored.

The analysis itself is ``games.analysis`` (pure, no Django); this module is its jobs:
``analysis_request`` checks a request and queues it (on request from the replay page and
the API, and for league games of a club that turned it on: ``analysis_league_queue``),
the Celery task ``analytics.record_analyse`` runs ``analysis_run`` on the ``analysis``
queue (in the embedded default, the in-process pool's low lane: ``core.background``),
which saves its progress every few decisions and the result at the end.

A row is unique per (record, version, settings): asking again for the same analysis
returns the row there is, so a request is idempotent. The version names the analysis
code and the rules it ran on, so the same version, settings and seed give the same
result, and a deploy that changes either makes old rows "not current" (still readable).

Only stored records are analysed. A record is a finished game (a live game becomes one
when it ends), so its analysis is shown whole: no card is hidden any more. A record of
the final scores only (played at a real table) has no moves: its row says so
(``unavailable``) and nothing runs.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Iterable
from datetime import timedelta
from functools import cache
from typing import Any

from django.conf import settings as django_settings
from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone

from analytics.models import RecordAnalysis, SkillFigure
from clubs.models import SeasonEntry
from core import background
from core.errors import BadRequest
from core.quotas import QuotaExceeded, budget_charge, budget_remaining
from games import analysis as engine_analysis
from replays.models import Record
from replays.state_cache import games_version
from replays.timeline import names_fill

logger = logging.getLogger("analytics.record_analysis")

TASK = "analytics.record_analyse"
FIGURES_TASK = "analytics.skill_figures_refresh"
# Progress is saved after this many decisions, or this many seconds, whichever first:
# often enough for a page polling every two seconds, rarely enough to cost nothing.
PROGRESS_EVERY = 5
PROGRESS_SECONDS = 2.0
# Without a broker a job runs in this process's pool: one untouched this long, and not
# handed to this process's pool, lost its thread to a restart and is sent again.
ANALYSIS_STALLED = timedelta(minutes=2)
# What a request may set (the rest are the defaults): more playouts than this would keep
# a worker for many minutes a game.
MAX_PLAYOUTS_FACTOR = 4
MAX_PLAYOUTS = engine_analysis.DEFAULT_SETTINGS.playouts * MAX_PLAYOUTS_FACTOR
MAX_SEED = 2**31 - 1
_submitted_here: set[int] = set()
_NOT_SENT = ("busy", "broker_unavailable")  # the codes analysis_enqueue leaves in ``error``

RESULT_ONLY = {
    "code": "result_only",
    "message": (
        "This record holds only the final scores of a game played at a real table: "
        "there are no moves to analyse."
    ),
    "detail": {},
}


@cache
def analysis_version() -> str:
    """The analysis code's version and a fingerprint of every module of ``games/``, the
    analysis's own included (``replays.state_cache.games_version``; the replays' wording
    fingerprint leaves it out).

    The rules, the bots that play the playouts and the analysis all live in ``games/``;
    a change to any of them may change a value, so it is a new version. The fingerprint
    is of the sources, not of a compiled build: a compiled engine runs the same rules as
    its source (``games.__init__`` refuses a stale build), so both give the same result.
    """
    return f"{engine_analysis.ANALYSIS_VERSION}+{games_version()}"


def default_settings() -> engine_analysis.Settings:
    """The settings a request without any gets (``games.analysis.DEFAULT_SETTINGS``)."""
    return engine_analysis.DEFAULT_SETTINGS


def settings_hash(settings: engine_analysis.Settings) -> str:
    """A short digest of the settings' canonical JSON: part of a row's identity."""
    canonical = json.dumps(settings.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def analysis_settings_parse(data: Any) -> engine_analysis.Settings:
    """The settings of a request body: the defaults, with ``playouts`` and ``seed`` if given.

    Raises :class:`BadRequest` naming the field for anything else, or a value out of
    range (1 to four times the default playouts; a seed from 0 to 2**31 - 1).
    """
    base = default_settings()
    if data is None:
        return base
    if not isinstance(data, dict):
        raise BadRequest("bad_request", "The body must be a JSON object (or empty).")
    unknown = sorted(set(data) - {"playouts", "seed"})
    if unknown:
        raise BadRequest(
            "unknown_field",
            f'Unknown field "{unknown[0]}"; an analysis request may set playouts and seed.',
            field=unknown[0],
        )
    values: dict[str, int] = {}
    limits = {"playouts": (1, max(base.playouts, MAX_PLAYOUTS)), "seed": (0, MAX_SEED)}
    for name, (low, high) in limits.items():
        if name not in data:
            continue
        value = data[name]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise BadRequest(
                f"bad_{name}",
                f"{name} must be a whole number from {low} to {high}.",
                field=name,
                min=low,
                max=high,
            )
        values[name] = value
    return engine_analysis.Settings.from_json({**base.to_json(), **values})


def analysis_request(
    *,
    record: Record,
    user: Any = None,
    settings: engine_analysis.Settings | None = None,
    charge: bool = True,
) -> tuple[RecordAnalysis, bool]:
    """The analysis of ``record`` with ``settings``: the one stored, or a new one queued.

    Returns the row and whether this call queued work. Idempotent: the same record,
    version and settings give the same row (a failed one is queued again). A result-only
    record gets a row that says it cannot be analysed, and nothing runs. A new job asked
    by ``user`` counts against ``ANALYSIS_REQUESTS_PER_HOUR`` (``charge``; the automatic
    league analysis is not charged): past it, :class:`QuotaExceeded` (429).
    """
    settings = settings or default_settings()
    version, digest = analysis_version(), settings_hash(settings)
    if record.kind == Record.Kind.RESULT:
        row, _ = RecordAnalysis.objects.get_or_create(
            record=record,
            version=version,
            settings_hash=digest,
            defaults={
                "analysis_settings": settings.to_json(),
                "seed": settings.seed,
                "status": RecordAnalysis.Status.UNAVAILABLE,
                "error": RESULT_ONLY,
                "requested_by": user,
            },
        )
        return row, False
    existing = RecordAnalysis.objects.filter(
        record=record, version=version, settings_hash=digest
    ).first()
    if existing is not None and existing.status != RecordAnalysis.Status.FAILED:
        if (existing.error or {}).get("code") in _NOT_SENT:
            # Queued while the broker was down or the pool full: send it now.
            RecordAnalysis.objects.filter(pk=existing.pk).update(error=None)
            transaction.on_commit(lambda: analysis_enqueue(analysis_id=existing.pk))
            existing.error = None
            return existing, True
        return analysis_resume(analysis=existing), False
    if charge and user is not None:
        _budget_check(user)
    with transaction.atomic():
        if existing is None:
            try:
                with transaction.atomic():
                    row = RecordAnalysis.objects.create(
                        record=record,
                        version=version,
                        settings_hash=digest,
                        analysis_settings=settings.to_json(),
                        seed=settings.seed,
                        requested_by=user,
                    )
            except IntegrityError:  # another request made it first: that one is the job
                return RecordAnalysis.objects.get(
                    record=record, version=version, settings_hash=digest
                ), False
        else:
            claimed = RecordAnalysis.objects.filter(
                pk=existing.pk, status=RecordAnalysis.Status.FAILED
            ).update(status=RecordAnalysis.Status.QUEUED, done=0, error=None, finished_at=None)
            existing.refresh_from_db()
            if not claimed:
                return existing, False
            row = existing
        transaction.on_commit(lambda: analysis_enqueue(analysis_id=row.pk))
    if charge and user is not None:
        budget_charge("analysis", f"user:{user.pk}", 1, period=3600)
    return row, True


def _budget_check(user: Any) -> None:
    limit = int(django_settings.ANALYSIS_REQUESTS_PER_HOUR)
    budget = budget_remaining("analysis", f"user:{user.pk}", limit=limit, period=3600)
    if budget.remaining <= 0:
        raise QuotaExceeded(
            f"This account has asked for {budget.used} analyses this hour, the most it may "
            f"({limit}); ask again later.",
            retry_after=budget.retry_after,
            used=budget.used,
            limit=limit,
        )


def analysis_enqueue(*, analysis_id: int) -> None:
    """Send the job to an ``analysis`` worker, or to this process's pool's low lane.

    A broker that is down or a full pool leaves it queued, with the reason in ``error``;
    asking again (the page's button, ``POST``) or reading it (``GET``) sends it again.
    """
    background.job_submit(
        TASK,
        {"analysis_id": analysis_id},
        job_id=analysis_id,
        noun="analysis",
        submitted_here=_submitted_here,
        queued=lambda code, message: _queued_because(analysis_id, code, message),
    )


def _queued_because(analysis_id: int, code: str, message: str) -> None:
    RecordAnalysis.objects.filter(pk=analysis_id).update(
        error={"code": code, "message": message, "detail": {}}
    )


def analysis_resume(*, analysis: RecordAnalysis) -> RecordAnalysis:
    """Send again a job of the in-process pool that a restart cut short (as the balance
    lab's ``simulation_job_resume``); a worker's job comes back by itself (``acks_late``)."""
    active = (RecordAnalysis.Status.QUEUED, RecordAnalysis.Status.RUNNING)
    if analysis.status in active and background.restart_claim(
        RecordAnalysis.objects,
        pk=analysis.pk,
        field="status",
        active=active,
        stalled=ANALYSIS_STALLED,
        submitted_here=_submitted_here,
    ):
        logger.warning("analysis %s was cut short by a restart; sending it again", analysis.pk)
        analysis_enqueue(analysis_id=analysis.pk)
        analysis.refresh_from_db()
    return analysis


def analysis_run(*, analysis_id: int) -> RecordAnalysis | None:
    """Analyse the record of job ``analysis_id`` and store the result (the task's body).

    Idempotent: a finished or unavailable job is left alone; a job cut short runs again
    from the start (the seed makes it the same analysis). A job queued by another
    version of the code is not run by this one (its result would carry the wrong
    version): it fails with ``version_changed``, and asking again queues the current one.
    """
    row = RecordAnalysis.objects.select_related("record").filter(pk=analysis_id).first()
    if row is None or row.status in (
        RecordAnalysis.Status.DONE,
        RecordAnalysis.Status.UNAVAILABLE,
    ):
        return row
    record = row.record
    if record.kind == Record.Kind.RESULT or not record.events:
        return _finish(row, status=RecordAnalysis.Status.UNAVAILABLE, error=RESULT_ONLY)
    if row.version != analysis_version():
        return _finish(
            row,
            status=RecordAnalysis.Status.FAILED,
            error={
                "code": "version_changed",
                "message": "The service was updated since this analysis was asked for; ask again.",
                "detail": {"queued_version": row.version, "version": analysis_version()},
            },
        )
    settings = engine_analysis.Settings.from_json(row.analysis_settings)
    started = timezone.now()
    RecordAnalysis.objects.filter(pk=row.pk).update(
        status=RecordAnalysis.Status.RUNNING, started_at=started, done=0, error=None
    )
    saved = {"done": 0, "total": 0, "at": time.monotonic()}

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if (
            done < total
            and done - saved["done"] < PROGRESS_EVERY
            and now - saved["at"] < (PROGRESS_SECONDS)
        ):
            return
        saved.update(done=done, total=total, at=now)
        RecordAnalysis.objects.filter(pk=row.pk).update(
            done=done, total=total, updated_at=timezone.now()
        )

    try:
        outcome = engine_analysis.analyse(
            record.game,
            record.seats.count(),
            record.options,
            record.events,
            settings=settings,
            progress=progress,
        )
    except DatabaseError:
        raise  # the task retries; the job runs again from the start
    except Exception as exc:
        logger.exception("analysis %s of record %s failed", row.pk, record.pk)
        return _finish(
            row,
            status=RecordAnalysis.Status.FAILED,
            error={
                "code": "analysis_failed",
                "message": f"The analysis stopped: {exc}",
                "detail": {"type": type(exc).__name__},
            },
        )
    # Progress counts the seat events gone through (a forced move too); at the end, all.
    moves = saved["total"] or sum(1 for event in record.events if event.get("by") != "chance")
    row = _finish(
        row, status=RecordAnalysis.Status.DONE, result=outcome.to_json(), done=moves, total=moves
    )
    game = record.game
    transaction.on_commit(lambda: _figures_later(game))
    return row


def _finish(row: RecordAnalysis, *, status: str, **fields: Any) -> RecordAnalysis:
    fields.setdefault("error", None)
    for name, value in {"status": status, "finished_at": timezone.now(), **fields}.items():
        setattr(row, name, value)
    row.save(update_fields=["status", "finished_at", *fields, "updated_at"])
    return row


def _figures_later(game: str) -> None:
    try:
        background.task_submit(FIGURES_TASK, kwargs={"game": game})
    except Exception:
        logger.warning("skill figures of %s not refreshed", game, exc_info=True)


def analysis_league_queue(*, record_ids: Iterable[int]) -> int:
    """Queue the analysis of the records entered in a season of a club that asks for it.

    Called after a record's ingest (a new record, an entry, a void: ``analytics.tasks``),
    so a game entered in such a league is analysed without anyone asking. Voided entries,
    result-only records and records already analysed (this version, default settings)
    are passed over. Returns how many jobs it queued.
    """
    wanted = (
        SeasonEntry.objects.filter(
            record_id__in=list(record_ids),
            voided_at__isnull=True,
            season__league__club__analyse_league_games=True,
            record__kind=Record.Kind.LOG,
        )
        .values_list("record_id", flat=True)
        .distinct()
    )
    queued = 0
    for record in Record.objects.filter(pk__in=list(wanted)).defer("events"):
        _row, new = analysis_request(record=record, charge=False)
        queued += new
    return queued


def skill_figures_refresh(*, game: str) -> int:
    """Recompute the skill figures of ``game`` from its done analyses of this version.

    Per table size and real or bot play: ``games.analysis.skill_share`` over the
    analyses. Rows of a scope with no analysis left are removed. Returns the scopes.
    """
    version = analysis_version()
    rows = (
        RecordAnalysis.objects.filter(
            record__game=game, version=version, status=RecordAnalysis.Status.DONE
        )
        .order_by("record_id", "-finished_at")
        .values_list("record_id", "record__simulated", "result")
    )
    scopes: dict[tuple[int, bool], list[Any]] = {}
    seen: set[int] = set()
    for record_id, simulated, result in rows.iterator(chunk_size=200):
        if record_id in seen or not result:
            continue  # one analysis a record (the latest), whatever its settings
        seen.add(record_id)
        # The stored JSON as it is: skill_share reads only the table size, the players'
        # figures and the final shares, so nothing is rebuilt.
        scopes.setdefault((result["num_players"], simulated), []).append(result)
    with transaction.atomic():
        SkillFigure.objects.filter(game=game).exclude(
            pk__in=[
                figure.pk
                for figure in SkillFigure.objects.filter(game=game)
                if (figure.num_players, figure.simulated) in scopes
            ]
        ).delete()
        for (num_players, simulated), analyses in scopes.items():
            SkillFigure.objects.update_or_create(
                game=game,
                num_players=num_players,
                simulated=simulated,
                defaults={
                    "version": version,
                    "games": len(analyses),
                    "figure": engine_analysis.skill_share(analyses),
                },
            )
    return len(scopes)


def _move_json(move: Any, players: list[str]) -> dict[str, Any]:
    return {
        "label": names_fill(move.label, players),
        "event": move.event,
        "win": move.win,
        "win_se": move.win_se,
        "place": move.place,
        "place_se": move.place_se,
        "playouts": move.playouts,
    }


def analysis_result_json(result: dict[str, Any], *, players: list[str]) -> dict[str, Any]:
    """The API's view of a stored result: ``GameAnalysis`` read back and told field by field
    (so the answer keeps its documented shape whatever extra the analysis stores), each
    move's label with the players' names where the engine wrote a seat (``{p1}``)."""
    analysed = engine_analysis.GameAnalysis.from_json(result)
    return {
        "num_players": analysed.num_players,
        "curve": analysed.curve,
        "swings": analysed.swings,
        "decisions": [
            {
                "step": decision.step,
                "seat": decision.seat,
                "chosen": _move_json(decision.chosen, players),
                "best": _move_json(decision.best, players),
                "moves": [_move_json(move, players) for move in decision.moves],
                "loss": decision.loss,
                "mark": decision.mark,
                "simultaneous": decision.simultaneous,
            }
            for decision in analysed.decisions
        ],
        "players": analysed.players,
        "playouts": analysed.playouts,
        "seconds": analysed.seconds,
    }


def analysis_json(row: RecordAnalysis, *, players: list[str]) -> dict[str, Any]:
    """The API's view of an analysis job (also what the replay page's script reads)."""
    return {
        "id": row.pk,
        "record": row.record_id,
        "status": row.status,
        "version": row.version,
        "current": row.version == analysis_version(),
        "settings": row.analysis_settings,
        "seed": row.seed,
        "progress": {"done": row.done, "total": row.total},
        "error": row.error,
        "players": players,
        "created_at": row.created_at.isoformat(),
        "started_at": row.started_at.isoformat() if row.started_at else None,
        "finished_at": row.finished_at.isoformat() if row.finished_at else None,
        "result": (
            analysis_result_json(row.result, players=players)
            if row.status == RecordAnalysis.Status.DONE and row.result
            else None
        ),
    }
