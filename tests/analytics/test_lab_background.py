"""The balance lab in the background on the embedded default (no broker, tasks eager),
with visible progress, and any declared house rule, stored or not."""

from __future__ import annotations

import threading
import time

import pytest
from django.db.models.signals import post_save

from analytics import simulations
from analytics.models import SimulationJob
from core import background
from replays.models import Record

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def in_process_pool(settings):
    """The embedded default: no broker, a one-thread pool (bin/serve's settings)."""
    settings.BACKGROUND_WORKERS = 1
    settings.CELERY_TASK_ALWAYS_EAGER = True
    yield
    assert background.background_wait(timeout=120), "the pool drained"


def test_a_lab_request_returns_at_once_and_the_job_plays_in_the_background(
    client, in_process_pool, monkeypatch
):
    release = threading.Event()
    original = simulations.simulation_job_run

    def held(**kwargs):
        assert release.wait(timeout=60)
        return original(**kwargs)

    monkeypatch.setattr(simulations, "simulation_job_run", held)
    seen: list[int] = []

    def progress(sender, instance, **kwargs):
        seen.append(instance.done)

    post_save.connect(progress, sender=SimulationJob, weak=False)
    try:
        started = time.monotonic()
        response = client.post(
            "/games/secret_santa/simulations/", {"players": "3", "bots": "random", "games": "6"}
        )
        answered = time.monotonic() - started
        assert response.status_code == 302
        job = SimulationJob.objects.get()
        # The request answered while the job was still waiting to be played.
        assert (job.state, job.done) == ("queued", 0)
        assert Record.objects.count() == 0
        assert background.background_pending() == 1
        assert answered < 5
        status = client.get(f"/api/simulations/{job.pk}/").json()
        assert (status["state"], status["done"], status["total"]) == ("queued", 0, 6)
        release.set()
        assert background.background_wait(timeout=120)
    finally:
        release.set()
        post_save.disconnect(progress, sender=SimulationJob)
    job.refresh_from_db()
    assert (job.state, job.done) == ("done", 6)
    assert Record.objects.filter(simulated=True).count() == 6
    # The job saved its progress game by game, for the page's progress bar.
    assert list(dict.fromkeys(n for n in seen if n)) == [1, 2, 3, 4, 5, 6]
    assert client.get(f"/api/simulations/{job.pk}/").json()["done"] == 6


def test_a_full_pool_leaves_the_job_queued_and_says_so(client, in_process_pool, settings):
    settings.BACKGROUND_QUEUE_MAX = 0
    response = client.post("/games/secret_santa/simulations/", {"players": "2", "games": "3"})
    assert response.status_code == 302
    job = SimulationJob.objects.get()
    assert (job.state, job.done) == ("queued", 0)
    assert job.errors[0]["code"] == "busy"


def test_a_lab_job_with_a_house_rule_never_stored_runs(client):
    assert not Record.objects.exists()
    response = client.post(
        "/games/gift_trap/simulations/",
        {
            "players": "3",
            "bots": "greedy",
            "games": "3",
            "rules-gift_trap": "1",
            "rules-gift_trap-expert_cards": "on",
            "rules-gift_trap-packs": ['"black"', '"yellow"'],
            "rules-gift_trap-first_dealer": "1",
            "rules-gift_trap-track_length": "12",
            "rules-gift_trap-zone_size": "3",
            "rules-gift_trap-max_rounds": "20",
        },
    )
    assert response.status_code == 302
    job = SimulationJob.objects.get()
    wanted = {
        "expert_cards": True,
        "packs": ["yellow", "black"],
        "first_dealer": 1,
        "track_length": 12,
        "zone_size": 3,
        "max_rounds": 20,
    }
    assert job.options == wanted
    assert (job.state, job.done) == ("done", 3)
    records = Record.objects.filter(game="gift_trap")
    assert records.count() == 3
    assert all(options == wanted for options in records.values_list("options", flat=True))


def test_the_lab_refuses_a_seat_the_table_does_not_have_beside_its_field(client):
    response = client.post(
        "/games/gift_trap/simulations/",
        {"players": "3", "games": "3", "rules-gift_trap": "1", "rules-gift_trap-packs": ['"red"'],
         "rules-gift_trap-first_dealer": "5", "rules-gift_trap-track_length": "25",
         "rules-gift_trap-zone_size": "5"},
    )  # fmt: skip
    assert response.status_code == 400
    errors = response.context["lab_form"].errors
    assert errors["rules-gift_trap-first_dealer"] == [
        "A table of 3 has players 1 to 3: choose one of them."
    ]
    assert not SimulationJob.objects.exists()


def test_the_lab_shows_every_declared_option(client):
    page = client.get("/games/gift_economy/").content.decode()
    assert 'name="rules-gift_economy-ranking"' in page
    assert "Goal only (most cards wins)" in page
    assert 'href="/rules/gift_economy/#options-house-rules"' in page, "what each rule means"
    assert 'name="rules-gift_economy-start_player"' in page
