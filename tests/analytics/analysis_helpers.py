"""Shared by the analysis tests: tiny settings (the real analysis, few playouts) and records."""

from __future__ import annotations

import dataclasses

import pytest

from analytics import record_analysis
from games import analysis as engine_analysis
from replays.models import Record
from replays.services import record_submit

# The real analysis with a handful of playouts: fast, and still every decision valued.
TINY = dataclasses.replace(engine_analysis.DEFAULT_SETTINGS, playouts=2)


@pytest.fixture
def tiny_settings(monkeypatch):
    """Requests without settings get TINY (as a deployment may lower its default)."""
    monkeypatch.setattr(record_analysis, "default_settings", lambda: TINY)
    return TINY


def stored(document: dict, **kwargs) -> Record:
    record, _new = record_submit(document=document, **kwargs)
    return record


def short_game(make_document, *, seed: int = 3) -> dict:
    """A short full-log game (Secret Santa at three): a few dozen decisions."""
    return make_document("secret_santa", seed=seed, players=3)


def result_only_document() -> dict:
    return {
        "format": "giftlog/1",
        "game": "secret_santa",
        "options": {},
        "players": ["ana", "ben", "cy"],
        "meta": {"played_at": "2026-11-28T19:30:00Z"},
        "result": {"scores": [27, 18, 9]},
    }
