"""The balance lab: simulation jobs that store bot games as simulated records.

A job is created by the API or the dashboard form (``simulation_job_create``, which
checks everything first and changes nothing on bad input) and run by the Celery task
``analytics.simulation_run`` (``simulation_job_run``), which plays the games in
batches through ``replays.simulation.records_simulate`` and saves progress after
each batch. Each batch has its own seed, so a run that is retried (a worker died
mid-batch) plays the same games again and the digest dedupes them: a job never
stores a game twice and always ends with ``done == total`` stored or refused games.
"""

from __future__ import annotations

import logging
import random
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, transaction
from django.db.models import Count, F, Sum
from django.utils import timezone

from analytics.models import SimulationJob
from core import background
from core.errors import BadRequest, NotFound, ServiceError
from core.quotas import QuotaExceeded
from games.base import GameError, options_resolve
from games.registry import UnknownGame, get_engine
from replays.simulation import BOT_MIXES, SIMULATION_OPTIONS, records_simulate

logger = logging.getLogger("analytics.simulations")

SIMULATION_MAX_GAMES = 2000
SIMULATION_BATCH = 25
# The task's time limit: an unfinished job untouched for longer is not running.
SIMULATION_STALE = timedelta(hours=1)
# Without a broker a job runs in this process's pool and saves its progress after every
# game: one untouched this long, and not handed to this process's pool, lost its thread
# to a restart of the server (a code reload of ``bin/serve``) and is sent again.
SIMULATION_STALLED = timedelta(minutes=2)
_submitted_here: set[int] = set()  # jobs this process handed to its own pool


def simulation_job_create(
    *,
    game: Any,
    num_players: Any,
    games: Any,
    bots: Any = "mixed",
    options: Any = None,
    created_by: Any = None,
) -> SimulationJob:
    """Check a balance-lab request and queue it (the task starts after commit).

    Raises :class:`BadRequest` (400) naming the field: an unknown game, a table size
    the game does not allow, an unknown bot mix, bad options, or a number of games
    outside 1..``SIMULATION_MAX_GAMES``; and :class:`QuotaExceeded` (429) past the
    account's allowance of unfinished jobs and queued games.
    """
    try:
        engine = get_engine(game)
    except UnknownGame as exc:
        raise BadRequest("unknown_game", str(exc), field="game") from None
    if (
        not isinstance(num_players, int)
        or isinstance(num_players, bool)
        or not (engine.min_players <= num_players <= engine.max_players)
    ):
        raise BadRequest(
            "bad_players",
            f"{engine.name} is played by {engine.min_players} to {engine.max_players} players.",
            field="players",
            min=engine.min_players,
            max=engine.max_players,
        )
    if (
        not isinstance(games, int)
        or isinstance(games, bool)
        or not (1 <= games <= SIMULATION_MAX_GAMES)
    ):
        raise BadRequest(
            "too_many_games"
            if isinstance(games, int) and games > SIMULATION_MAX_GAMES
            else "bad_games",
            f"A simulation plays 1 to {SIMULATION_MAX_GAMES} games at a time.",
            field="games",
            max=SIMULATION_MAX_GAMES,
        )
    if bots not in BOT_MIXES:
        raise BadRequest(
            "bad_bots",
            f"Bots must be one of {', '.join(BOT_MIXES)}.",
            field="bots",
            allowed=list(BOT_MIXES),
        )
    try:
        resolved = options_resolve(
            engine, {**SIMULATION_OPTIONS.get(engine.slug, {}), **(options or {})}
        )
        engine.setup(num_players, resolved)
    except GameError as exc:
        raise BadRequest(exc.code, str(exc), field="options", **exc.detail) from None
    except (TypeError, AttributeError):
        raise BadRequest("bad_options", "Options must be a JSON object.", field="options") from None
    account = created_by if getattr(created_by, "is_authenticated", False) else None
    with transaction.atomic():
        _simulation_quota_check(account, games)
        job = _simulation_job_store(engine.slug, num_players, resolved, bots, games, account)
    transaction.on_commit(lambda: _simulation_enqueue(job.pk))
    return job


def _simulation_quota_check(account: Any, games: int) -> None:
    """Refuse a job past the account's allowance: ``SIMULATIONS_MAX_JOBS`` unfinished
    jobs, ``SIMULATIONS_MAX_QUEUED_GAMES`` games still to play (429 ``quota_exceeded``
    with the numbers). Clients without an account share one allowance.

    A job no worker has touched for ``SIMULATION_STALE`` (the task's time limit) no
    longer counts: a job whose message was lost must not lock its owner out for good.
    The account's row is locked for the check and the write, so two requests at once
    cannot both take the last place.
    """
    if account is not None:
        get_user_model().objects.select_for_update().filter(pk=account.pk).first()
    unfinished = SimulationJob.objects.filter(
        state__in=[SimulationJob.State.QUEUED, SimulationJob.State.RUNNING],
        updated_at__gte=timezone.now() - SIMULATION_STALE,
    )
    unfinished = (
        unfinished.filter(created_by=account)
        if account is not None
        else unfinished.filter(created_by__isnull=True)
    )
    counts = unfinished.aggregate(jobs=Count("id"), games=Sum(F("total") - F("done")))
    jobs, queued = counts["jobs"], counts["games"] or 0
    max_jobs, max_games = settings.SIMULATIONS_MAX_JOBS, settings.SIMULATIONS_MAX_QUEUED_GAMES
    numbers = {
        "jobs": jobs,
        "max_jobs": max_jobs,
        "queued_games": queued,
        "max_queued_games": max_games,
        "games": games,
    }
    if jobs >= max_jobs:
        raise QuotaExceeded(
            f"This account has {jobs} simulations still running or waiting, the most it may "
            f"have ({max_jobs}); start another when one has finished.",
            **numbers,
        )
    if queued + games > max_games:
        raise QuotaExceeded(
            f"This account's simulations still have {queued} games to play; {games} more "
            f"would pass its limit of {max_games} queued games.",
            **numbers,
        )


def _simulation_job_store(
    game: str, num_players: int, options: dict, bots: str, games: int, account: Any
) -> SimulationJob:
    return SimulationJob.objects.create(
        game=game,
        num_players=num_players,
        options=options,
        bots=bots,
        total=games,
        seed=random.SystemRandom().randrange(2**31),
        created_by=account,
    )


def _simulation_enqueue(job_id: int) -> None:
    """Send the job to a worker, or to this process's background pool when there is no
    broker (``core.background``): the request never plays the games. A broker that is
    down, or a full pool, leaves the job queued with the reason in its errors."""
    background.job_submit(
        "analytics.simulation_run",
        {"job_id": job_id},
        job_id=job_id,
        noun="simulation",
        submitted_here=_submitted_here,
        queued=lambda code, message: _simulation_queued_because(job_id, code, message),
    )


def _simulation_queued_because(job_id: int, code: str, message: str) -> None:
    SimulationJob.objects.filter(pk=job_id).update(
        errors=[{"code": code, "message": message, "detail": {}}]
    )


def simulation_job_get(*, job_id: int) -> SimulationJob:
    job = SimulationJob.objects.filter(pk=job_id).first()
    if job is None:
        raise NotFound("not_found", f"There is no simulation {job_id}.", id=job_id)
    return job


def simulation_job_resume(*, job: SimulationJob) -> SimulationJob:
    """Send again a job whose run in this process's pool was cut short by a restart.

    Only without a broker: a worker that dies hands its task back to the broker
    (``acks_late``), but the in-process pool's queue lives in memory, so after a
    restart of the embedded server its unfinished jobs would stay "running" for good.
    The page and the API read a job through here, so opening it resumes it from its
    last saved batch (``simulation_job_run`` is idempotent). The claim is one
    conditional UPDATE: two readers at once send it once.
    """
    active = (SimulationJob.State.QUEUED, SimulationJob.State.RUNNING)
    if job.state in active and background.restart_claim(
        SimulationJob.objects,
        pk=job.pk,
        field="state",
        active=active,
        stalled=SIMULATION_STALLED,
        submitted_here=_submitted_here,
    ):
        logger.warning("simulation %s was cut short by a restart; resuming it", job.pk)
        _simulation_enqueue(job.pk)
        job.refresh_from_db()
    return job


def simulation_job_run(*, job_id: int, batch: int = SIMULATION_BATCH) -> SimulationJob | None:
    """Play the job's remaining games, a batch at a time, saving progress after each.

    Idempotent: a finished job is left alone, a half-done one goes on from its last
    saved batch. A game the service refuses is reported in ``errors`` (the common
    error shape) and the job goes on; an unexpected error fails the job, says so in
    ``errors`` and is raised for the worker's log.
    """
    job = SimulationJob.objects.filter(pk=job_id).first()
    if job is None or job.state in (SimulationJob.State.DONE, SimulationJob.State.FAILED):
        return job
    SimulationJob.objects.filter(pk=job.pk).update(state=SimulationJob.State.RUNNING)
    batches = range(job.done // batch, -(-job.total // batch))
    try:
        for index in batches:
            count = min(batch, job.total - index * batch)
            errors = []
            runs = records_simulate(
                job.game,
                games=count,
                num_players=job.num_players,
                seed=job.seed * 10_000 + index,
                bots=job.bots,
                options=job.options,
            )
            for played in range(1, count + 1):
                try:
                    next(runs)
                except StopIteration:
                    break
                except ServiceError as exc:
                    errors.append(exc.as_dict())
                # Progress after every game, for the page that polls it; a retry still
                # starts from the batch (its seed), and the digest dedupes the replayed games.
                job.done = index * batch + played
                job.errors = (job.errors + errors)[:50]
                errors = []
                job.save(update_fields=["done", "errors", "updated_at"])
            if job.done != index * batch + count:
                job.done = index * batch + count
                job.save(update_fields=["done", "updated_at"])
    except DatabaseError:
        raise  # the task retries and goes on from the last saved batch
    except Exception as exc:
        job.state = SimulationJob.State.FAILED
        job.errors = [
            *job.errors,
            {
                "code": "simulation_failed",
                "message": str(exc),
                "detail": {"type": type(exc).__name__},
            },
        ][:50]
        job.save(update_fields=["state", "errors", "updated_at"])
        logger.exception("simulation %s failed", job.pk)
        raise
    job.state = SimulationJob.State.DONE
    job.save(update_fields=["state", "updated_at"])
    return job


def simulation_job_json(job: SimulationJob) -> dict[str, Any]:
    """The API's view of a job (also what the dashboard's progress script reads)."""
    return {
        "id": job.pk,
        "game": job.game,
        "players": job.num_players,
        "options": job.options,
        "bots": job.bots,
        "total": job.total,
        "done": job.done,
        "state": job.state,
        "errors": job.errors,
        "created_at": job.created_at.isoformat(),
        "updated_at": job.updated_at.isoformat(),
    }
