"""config/gunicorn.py: a worker's garbage is collected between requests, not inside one."""

from __future__ import annotations

import gc
import runpy
from pathlib import Path

import pytest

CONFIG = runpy.run_path(str(Path(__file__).resolve().parent.parent / "config" / "gunicorn.py"))


class Cycle:
    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def collector_paused():
    """The automatic collector off, so only ``post_request`` collects; restored after."""
    thresholds = gc.get_threshold()
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    yield
    gc.set_threshold(*thresholds)
    if enabled:
        gc.enable()


def test_the_young_generation_is_collected_after_a_request_that_left_enough(collector_paused):
    between = CONFIG["BETWEEN_REQUESTS"]
    garbage = [Cycle() for _ in range(between)]
    del garbage  # cycles: only the collector frees them
    assert gc.get_count()[0] >= between
    CONFIG["post_request"](None, None, None, None)
    assert gc.get_count()[0] < between // 10


def test_a_request_that_left_little_is_not_followed_by_a_collection(collector_paused):
    before = gc.get_count()[0]
    garbage = [Cycle() for _ in range(CONFIG["BETWEEN_REQUESTS"] // 5)]
    del garbage
    CONFIG["post_request"](None, None, None, None)
    assert gc.get_count()[0] >= before + CONFIG["BETWEEN_REQUESTS"] // 5


def test_older_generations_are_collected_in_their_turn(collector_paused):
    """Every tenth young collection takes the middle generation too, as the automatic
    collector would: objects that outlived a young collection are not kept forever."""
    between = CONFIG["BETWEEN_REQUESTS"]
    seen_middle = False
    for _ in range(12):
        garbage = [Cycle() for _ in range(between)]
        del garbage
        CONFIG["post_request"](None, None, None, None)
        seen_middle = seen_middle or gc.get_count()[1] == 0
    assert seen_middle


def test_a_worker_collects_inside_a_request_only_past_a_high_threshold(collector_paused):
    CONFIG["post_fork"](None, None)
    assert gc.get_threshold()[0] > 10 * CONFIG["BETWEEN_REQUESTS"]
