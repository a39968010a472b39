"""Every declared option can be shown to a player: a label, one line of help, choices in words."""

from __future__ import annotations

import pytest

from games.registry import all_engines

OPTIONS = [(engine.slug, option) for engine in all_engines() for option in engine.options]


@pytest.mark.parametrize(("game", "option"), OPTIONS, ids=[f"{g}.{o.name}" for g, o in OPTIONS])
def test_an_option_speaks_to_players(game, option):
    assert option.label, f"{game}.{option.name} has no label"
    assert option.hint, f"{game}.{option.name} has no one-line hint"
    assert len(option.hint) <= 100
    for words in (option.label, option.hint, *option.choice_words):
        assert "_" not in words, "player words, not names"
        assert "null" not in words
        assert "seat" not in words.lower(), "players, not seats"
    if option.kind in ("choice", "list"):
        assert len(option.choice_words) == len(option.choices)
    if option.kind == "bool":
        assert len(option.choice_words) == 2, "words for true, then false"
    if option.kind in ("int", "int_or_none"):
        assert option.choice_words == ()
    for words in option.choice_words:
        assert len(words) <= 30, "a value's words are short; the rules page explains them"
    if option.seat:
        assert option.kind == "int"
        assert option.low == 0


def test_a_list_option_is_canonical_in_declared_order():
    packs = next(o for e in all_engines() for o in e.options if o.kind == "list")
    assert packs.canonical(list(reversed(packs.choices))) == list(packs.choices)
    assert packs.canonical([packs.choices[2], packs.choices[0]]) == [
        packs.choices[0],
        packs.choices[2],
    ]
