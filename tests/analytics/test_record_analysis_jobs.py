"""The analysis job: it runs the real analysis (tiny settings), saves its progress as it
goes and its result at the end, gives the same result from the same seed, and is queued
by itself for the league games of a club that asks for it (and only those)."""

from __future__ import annotations

import pytest

from analytics import record_analysis, tasks
from analytics.models import RecordAnalysis, SkillFigure
from clubs import services as club_services
from games import analysis as engine_analysis
from tests.analytics.analysis_helpers import (
    TINY,
    result_only_document,
    short_game,
    stored,
    tiny_settings,  # noqa: F401
)
from tests.clubs.conftest import as_members, world  # noqa: F401

pytestmark = pytest.mark.django_db


def test_the_task_saves_progress_as_it_goes_and_the_result_at_the_end(
    make_document,
    tiny_settings,  # noqa: F811
    monkeypatch,
):
    record = stored(short_game(make_document))
    row, _ = record_analysis.analysis_request(record=record)
    seen: list[tuple[str, int, int]] = []
    real = engine_analysis.analyse

    def watched(*args, progress=None, **kwargs):
        def spy(done: int, total: int) -> None:
            progress(done, total)
            saved = RecordAnalysis.objects.values_list("status", "done", "total")
            seen.append(saved.get(pk=row.pk))

        return real(*args, progress=spy, **kwargs)

    monkeypatch.setattr(record_analysis.engine_analysis, "analyse", watched)
    assert tasks.record_analyse.apply(kwargs={"analysis_id": row.pk}).get() == "done"
    row.refresh_from_db()
    moves = sum(1 for event in record.events if event["by"] != "chance")
    assert row.result["decisions"]
    assert moves > record_analysis.PROGRESS_EVERY
    assert (row.status, row.done, row.total) == ("done", moves, moves)
    assert row.started_at is not None
    assert row.finished_at >= row.started_at
    # While it ran, the row said so, and its saved count rose to the end in steps.
    assert all(status == "running" for status, _done, _total in seen)
    saved = sorted({done for _status, done, _total in seen})
    assert saved[-1] == moves
    assert any(0 < done < moves for done in saved)
    assert {total for _status, _done, total in seen if total} == {moves}
    # The stored result is the analysis's own, read back whole.
    back = engine_analysis.GameAnalysis.from_json(row.result)
    assert back.num_players == 3
    assert len(back.curve) == record.num_events + 1
    assert back.settings == TINY


def test_the_same_seed_settings_and_version_give_the_same_result(
    make_document,
    tiny_settings,  # noqa: F811
):
    record = stored(short_game(make_document, seed=5))
    row, _ = record_analysis.analysis_request(record=record)
    record_analysis.analysis_run(analysis_id=row.pk)
    row.refresh_from_db()
    first = dict(row.result)
    RecordAnalysis.objects.filter(pk=row.pk).update(status="queued", result=None)
    record_analysis.analysis_run(analysis_id=row.pk)
    row.refresh_from_db()
    again = dict(row.result)
    first.pop("seconds", None)
    again.pop("seconds", None)
    assert again == first


def test_a_finished_job_is_left_alone_and_a_result_only_record_never_runs(
    make_document,
    tiny_settings,  # noqa: F811
    monkeypatch,
):
    record = stored(short_game(make_document))
    row, _ = record_analysis.analysis_request(record=record)
    record_analysis.analysis_run(analysis_id=row.pk)

    def refuse(*args, **kwargs):
        raise AssertionError("analysed again")

    monkeypatch.setattr(record_analysis.engine_analysis, "analyse", refuse)
    assert record_analysis.analysis_run(analysis_id=row.pk).status == "done"
    scores_only = stored(result_only_document())
    other, queued = record_analysis.analysis_request(record=scores_only)
    assert not queued
    assert record_analysis.analysis_run(analysis_id=other.pk).status == "unavailable"
    assert record_analysis.analysis_run(analysis_id=10**9) is None


def test_a_job_queued_by_another_version_fails_and_says_to_ask_again(
    make_document,
    tiny_settings,  # noqa: F811
):
    record = stored(short_game(make_document))
    row, _ = record_analysis.analysis_request(record=record)
    RecordAnalysis.objects.filter(pk=row.pk).update(version="0+before-the-deploy")
    row = record_analysis.analysis_run(analysis_id=row.pk)
    assert row.status == "failed"
    assert row.error["code"] == "version_changed"
    assert row.result is None


def test_an_error_in_the_analysis_fails_the_job_with_the_reason(
    make_document,
    tiny_settings,  # noqa: F811
    monkeypatch,
):
    record = stored(short_game(make_document))
    row, _ = record_analysis.analysis_request(record=record)

    def broken(*args, **kwargs):
        raise ValueError("no legal move")

    monkeypatch.setattr(record_analysis.engine_analysis, "analyse", broken)
    row = record_analysis.analysis_run(analysis_id=row.pk)
    assert (row.status, row.error["code"]) == ("failed", "analysis_failed")
    assert "no legal move" in row.error["message"]


def test_skill_figures_count_the_analysed_games_per_table_size_and_kind_of_play(
    client,
    make_document,
    tiny_settings,  # noqa: F811
):
    for seed in (1, 2):
        record = stored(short_game(make_document, seed=seed))
        row, _ = record_analysis.analysis_request(record=record)
        record_analysis.analysis_run(analysis_id=row.pk)
    assert record_analysis.skill_figures_refresh(game="secret_santa") == 1
    figure = SkillFigure.objects.get()
    assert (figure.game, figure.num_players, figure.simulated, figure.games) == (
        "secret_santa",
        3,
        False,
        2,
    )
    analyses = [
        engine_analysis.GameAnalysis.from_json(r.result) for r in RecordAnalysis.objects.all()
    ]
    assert figure.figure == engine_analysis.skill_share(analyses)
    # The game's dashboard shows it: the best decider's win share against chance alone.
    page = client.get("/games/secret_santa/").content.decode()
    assert "How much skill decides the result" in page
    page = page[page.index('id="skill"') :]
    page = page[: page.index("</section>")]
    assert "3 players" in page
    assert figure.figure["games"] == 2
    assert f"{round(100 * figure.figure['share'])}%" in page
    assert "33%" in page  # chance alone: one in three


# --- automatic analysis of league games --------------------------------------------


def _league_game(world, make_document, *, seed: int):  # noqa: F811
    names = [m.username for m in world.members[:3]]
    document = as_members(make_document("secret_santa", seed=seed, players=3), names)
    record = stored(document)
    club_services.season_entry_submit(season=world.season, record=record, user=world.admin)
    return record


def test_a_club_that_turns_it_on_has_its_league_games_queued_after_their_ingest(
    world,  # noqa: F811
    make_document,
    tiny_settings,  # noqa: F811
    django_capture_on_commit_callbacks,
    monkeypatch,
):
    sent: list[int] = []
    monkeypatch.setattr(
        record_analysis.background,
        "task_submit",
        lambda name, *, kwargs, then=None: sent.append(kwargs["analysis_id"]),
    )
    club_services.club_settings_update(club=world.club, user=world.admin, analyse_league_games=True)
    record = _league_game(world, make_document, seed=11)
    loose = stored(short_game(make_document, seed=12))  # in no league
    with django_capture_on_commit_callbacks(execute=True):
        tasks.record_ingest.apply(kwargs={"record_id": record.pk})
        tasks.record_ingest.apply(kwargs={"record_id": loose.pk})
    row = RecordAnalysis.objects.get()
    assert (row.record_id, row.status, row.requested_by) == (record.pk, "queued", None)
    assert row.analysis_settings == TINY.to_json()
    assert sent == [row.pk]
    # Ingested again (an announcement delivered twice): still one job.
    with django_capture_on_commit_callbacks(execute=True):
        tasks.record_ingest.apply(kwargs={"record_id": record.pk})
    assert RecordAnalysis.objects.count() == 1
    assert sent == [row.pk]


def test_a_club_that_leaves_it_off_has_nothing_queued_and_voided_games_neither(
    world,  # noqa: F811
    make_document,
    tiny_settings,  # noqa: F811
):
    assert world.club.analyse_league_games is False
    record = _league_game(world, make_document, seed=21)
    tasks.record_ingest.apply(kwargs={"record_id": record.pk})
    assert not RecordAnalysis.objects.exists()
    club_services.club_settings_update(club=world.club, user=world.admin, analyse_league_games=True)
    entry = record.season_entries.get()
    club_services.record_void(entry=entry, user=world.admin, reason="wrong night")
    assert record_analysis.analysis_league_queue(record_ids=[record.pk]) == 0
    assert not RecordAnalysis.objects.exists()


def test_the_analysis_version_changes_with_the_analysis_code(tmp_path, monkeypatch):
    """The replays' wording fingerprint leaves games/analysis.py out; the analysis's own
    version must not, or a changed analysis would pass for the stored one."""
    import games
    from replays import state_cache

    root = tmp_path / "games"
    (root / "gift_swap").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "gift_swap" / "rules.py").write_text("RULES = 1\n")
    (root / "analysis.py").write_text("PLAYOUTS = 1\n")
    monkeypatch.setattr(games, "__file__", str(root / "__init__.py"))
    words, whole = state_cache.words_version(), state_cache.games_version()
    (root / "analysis.py").write_text("PLAYOUTS = 2\n")
    assert state_cache.words_version() == words
    assert state_cache.games_version() != whole
    (root / "gift_swap" / "rules.py").write_text("RULES = 2\n")
    assert state_cache.words_version() != words
