"""The balance lab through its API and its form, and the statistics API (tasks eager)."""

from __future__ import annotations

import pytest

from analytics.models import RecordFacts, SimulationJob
from analytics.simulations import SIMULATION_MAX_GAMES, simulation_job_run
from replays.models import Record

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_simulation_runs_end_to_end_through_the_api(api):
    response = api.post(
        "/api/simulations/",
        {"game": "gift_swap", "players": 3, "games": 30, "bots": "greedy"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    job = response.json()
    assert (job["game"], job["players"], job["total"], job["bots"]) == (
        "gift_swap",
        3,
        30,
        "greedy",
    )
    progress = api.get(f"/api/simulations/{job['id']}/").json()
    # Eager tasks: the job ran when the request's transaction committed.
    assert (progress["state"], progress["done"], progress["total"]) == ("done", 30, 30)
    assert progress["errors"] == []
    records = Record.objects.filter(game="gift_swap")
    assert records.count() == 30
    assert all(records.values_list("simulated", flat=True))
    assert set(records.values_list("seats__seat", flat=True)) == {0, 1, 2}
    stats = api.get("/api/games/gift_swap/statistics/").json()
    assert stats["simulated"]["records"] == 30
    assert stats["real"]["records"] == 0
    assert stats["simulated"]["by_players"]["3"]["records"] == 30
    seats = stats["simulated"]["by_players"]["3"]["seats"]
    assert sum(s["wins"] for s in seats) == pytest.approx(30.0, abs=0.01)  # shares rounded
    # Running the job again (a redelivered task) stores nothing new.
    simulation_job_run(job_id=job["id"])
    assert records.count() == 30
    assert RecordFacts.objects.count() == 30


def test_a_half_done_job_goes_on_from_its_last_batch():
    job = SimulationJob.objects.create(
        game="secret_santa", num_players=2, options={}, bots="random", total=12, seed=5
    )
    simulation_job_run(job_id=job.pk, batch=5)
    first = set(Record.objects.values_list("digest", flat=True))
    assert len(first) == 12
    # The worker died after two batches: progress says 10, the third batch is replayed.
    SimulationJob.objects.filter(pk=job.pk).update(done=10, state="running")
    simulation_job_run(job_id=job.pk, batch=5)
    assert set(Record.objects.values_list("digest", flat=True)) == first
    job.refresh_from_db()
    assert (job.state, job.done) == ("done", 12)


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"game": "gift_swap", "players": 3, "games": SIMULATION_MAX_GAMES + 1}, "too_many_games",
         "games"),
        ({"game": "gift_swap", "players": 3, "games": 0}, "bad_games", "games"),
        ({"game": "gift_swap", "players": 3, "games": "ten"}, "bad_games", "games"),
        ({"game": "chess", "players": 2, "games": 5}, "unknown_game", "game"),
        ({"game": "gift_swap", "players": 9, "games": 5}, "bad_players", "players"),
        ({"game": "gift_swap", "players": 3, "games": 5, "bots": "clever"}, "bad_bots", "bots"),
        ({"game": "gift_swap", "players": 3, "games": 5, "options": {"nope": 1}},
         "unknown_option", "options"),
    ],
)  # fmt: skip
def test_bad_simulation_requests_are_400_and_change_nothing(api, body, code, field):
    response = api.post("/api/simulations/", body, format="json")
    assert response.status_code == 400
    error = response.json()
    assert error["code"] == code
    assert error["detail"]["field"] == field
    assert set(error) == {"code", "message", "detail"}
    assert SimulationJob.objects.count() == 0
    assert Record.objects.count() == 0


def test_unknown_job_and_game_are_404_in_the_error_shape(api):
    missing = api.get("/api/simulations/999/")
    assert missing.status_code == 404
    assert missing.json()["code"] == "not_found"
    unknown = api.get("/api/games/chess/statistics/")
    assert unknown.status_code == 404
    assert unknown.json()["code"] == "unknown_game"


@pytest.mark.parametrize(
    ("query", "field"),
    [("players=many", "players"), ("real=maybe", "real"), ("from=2026-13", "from"),
     ("colour=red", "colour")],
)  # fmt: skip
def test_statistics_api_refuses_bad_filters(api, query, field):
    response = api.get(f"/api/games/gift_swap/statistics/?{query}")
    assert response.status_code == 400
    assert response.json()["detail"]["field"] == field


def test_statistics_api_filters_real_play(api, make_document):
    api.post("/api/records/", make_document("gift_swap", seed=3, players=4), format="json")
    api.post("/api/simulations/", {"game": "gift_swap", "players": 3, "games": 5}, format="json")
    real = api.get("/api/games/gift_swap/statistics/?real=true").json()
    assert "simulated" not in real
    assert real["real"]["records"] == 1
    assert list(real["real"]["by_players"]) == ["4"]
    both = api.get("/api/games/gift_swap/statistics/?players=3").json()
    assert (both["real"]["records"], both["simulated"]["records"]) == (0, 5)


def test_the_dashboard_form_starts_a_job_and_the_page_shows_its_progress(client):
    response = client.post(
        "/games/secret_santa/simulations/", {"players": "3", "bots": "mixed", "games": "8"}
    )
    assert response.status_code == 302
    job = SimulationJob.objects.get()
    assert response["Location"] == f"/games/secret_santa/?job={job.pk}#balance-lab"
    page = client.get(response["Location"]).content.decode()
    assert f'data-job-url="/api/simulations/{job.pk}/"' in page
    assert "8 of 8 played" in page
    assert "/static/analytics/simulation.js" in page
    assert 'id="seat-advantage"' in page  # the bots' games are on the dashboard already
    refused = client.post("/games/secret_santa/simulations/", {"players": "3", "games": "5000"})
    assert refused.status_code == 400  # the form again, with the message beside the field
    follow = refused.content.decode()
    assert "The simulation was not started" in follow
    assert "less than or equal to 2000" in follow
    assert SimulationJob.objects.count() == 1


def _cut_short_job(*, minutes_ago):
    """A job left "running" at 10 of 20 games, as a restart of the embedded server leaves it."""
    from datetime import timedelta

    from django.utils import timezone

    job = SimulationJob.objects.create(
        game="gift_swap", num_players=3, bots="random", total=20, done=10, seed=7,
        state=SimulationJob.State.RUNNING,
    )  # fmt: skip
    SimulationJob.objects.filter(pk=job.pk).update(
        updated_at=timezone.now() - timedelta(minutes=minutes_ago)
    )
    return job


def test_a_job_cut_short_by_a_restart_goes_on_when_it_is_next_read(api):
    job = _cut_short_job(minutes_ago=10)
    progress = api.get(f"/api/simulations/{job.pk}/").json()
    assert (progress["state"], progress["done"]) == ("done", 20)
    # The batch it was in is played again from its seed: the job's 20 games, each once.
    assert Record.objects.filter(game="gift_swap").count() == 20


def test_a_job_still_making_progress_is_not_sent_twice(api):
    job = _cut_short_job(minutes_ago=0)
    progress = api.get(f"/api/simulations/{job.pk}/").json()
    assert (progress["state"], progress["done"]) == ("running", 10)
    assert Record.objects.count() == 0
