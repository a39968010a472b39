"""The list of moves under a drawn table: a seat's many moves said in one sentence where
its game's drawing module sums them up (GiftTRAP's giving and GET step), every other move
by its own label, and the count in the list's title always the number of legal moves."""

from __future__ import annotations

import html
import random
import re

import pytest

from games.base import CHANCE
from games.play import replay_states
from games.registry import all_engines, get_engine
from replays.simulation import simulated_document
from replays.tables import table_html, table_summarizer
from replays.timeline import names_fill, step_move_words

NAMES = [f"P<{i}>&'\" Zoë" for i in range(8)]
LIST = re.compile(
    r'<details class="moves-list"><summary>What (.*?) may do \((\d+) moves?\)</summary>'
    r"<ul>(.*?)</ul></details>"
)


def moves_listed(table: str) -> tuple[int, list[str]]:
    """The count in the list's title and the items, as a reader sees them."""
    found = LIST.search(table)
    assert found is not None, "no list of moves"
    items = re.findall(r"<li>(.*?)</li>", found.group(3))
    return int(found.group(2)), [html.unescape(item) for item in items]


def drawn(engine, state, seat, names):
    """The table as a step's first visit draws it (``selectors.record_step_table``)."""
    movers = [m for m in engine.to_move(state) if m != CHANCE and seat in (None, m)]
    legal = {mover: engine.legal_events(state, mover) for mover in movers}
    summary = table_summarizer(engine.slug)
    moves = step_move_words(engine, state, movers, names, legal=legal, summary=summary)
    table = table_html(engine, state, seat=seat, players=names, moves=moves, legal=legal)
    return movers, legal, table


@pytest.mark.parametrize("engine", all_engines(), ids=lambda engine: engine.slug)
def test_the_list_counts_every_legal_move_and_says_each_seats_moves(engine):
    """For every viewer at sampled steps: the title counts every legal move of the seats
    listed; a seat is listed by its module's one sentence (names filled in) or, without
    one, by each of its moves' labels, as the step API labels them."""
    players = engine.max_players
    document = simulated_document(
        engine.slug, num_players=players, rng=random.Random(5), simulated=False
    )
    names = NAMES[:players]
    states = list(replay_states(engine, players, document["options"], document["events"]))
    summary = table_summarizer(engine.slug)
    summed = 0
    for state in states[:: max(1, len(states) // 60)]:
        for seat in [None, *range(players)]:
            movers, legal, table = drawn(engine, state, seat, names)
            if not any(legal.values()):
                continue
            count, items = moves_listed(table)
            assert count == sum(len(events) for events in legal.values())
            labels = step_move_words(engine, state, movers, names, legal=legal)
            expected = []
            for mover in movers:
                prefix = f"{names[mover]}: " if len(movers) > 1 else ""
                sentence = summary(legal[mover]) if summary is not None else None
                if sentence is not None:
                    summed += 1
                    expected.append(prefix + names_fill(sentence, names))
                else:
                    expected += [prefix + label for s, label in labels if s == mover]
            assert items == expected
    if engine.slug == "gift_trap":
        assert summed > 20  # the giving and the GET steps were met, and summed up


def test_an_eight_player_giving_is_said_seat_by_seat():
    """Everyone's table in an 8-player giving lists eight sentences, not 504 moves; a
    seat's own table one, naming the others."""
    engine = get_engine("gift_trap")
    document = simulated_document("gift_trap", num_players=8, rng=random.Random(2), simulated=False)
    states = replay_states(engine, 8, document["options"], document["events"])
    giving = next(
        s
        for s in states
        if engine.view(s, None)["phase"] == "give"
        and all(engine.legal_events(s, seat) for seat in range(8))
    )
    _movers, legal, table = drawn(engine, giving, None, NAMES)
    count, items = moves_listed(table)
    assert count == sum(len(events) for events in legal.values()) == 8 * 63
    assert len(items) == 8
    assert items[0].startswith(f"{NAMES[0]}: Give gift 1, 2, 3, 4, 5, 6, 7, 8 or 9 to {NAMES[1]}, ")
    assert items[0].endswith(f" or {NAMES[7]}.")
    _movers, legal, table = drawn(engine, giving, 3, NAMES)
    count, items = moves_listed(table)
    assert "What you may do (63 moves)" in html.unescape(table)
    assert count == 63
    assert len(items) == 1
    assert items[0].startswith("Give gift 1, 2, 3, 4, 5, 6, 7, 8 or 9 to ")
    assert NAMES[3] not in items[0]
    assert all(NAMES[s] in items[0] for s in range(8) if s != 3)


FOLDED = re.compile(
    r'<details class="moves-list" data-later=""><summary>(What .*? may do \(\d+ moves?\))'
    r'</summary><p class="muted">Listing the moves&#8230;</p></details>'
)


@pytest.mark.parametrize("engine", all_engines(), ids=lambda engine: engine.slug)
def test_a_folded_list_is_the_listed_tables_with_its_moves_left_out(engine):
    """What the replay viewer fetches at each step (``listed=False``) is the listed table
    with only the list's items left out: the same summary (who, how many), the same table
    around it; where nobody may move, the same bytes."""
    players = engine.max_players
    document = simulated_document(
        engine.slug, num_players=players, rng=random.Random(9), simulated=False
    )
    names = NAMES[:players]
    states = list(replay_states(engine, players, document["options"], document["events"]))
    folded_seen = 0
    for state in states[:: max(1, len(states) // 40)]:
        for seat in [None, *range(players)]:
            _movers, legal, listed = drawn(engine, state, seat, names)
            folded = table_html(
                engine, state, seat=seat, players=names, legal=legal, moves_later=True
            )
            if not any(legal.values()):
                assert folded == listed
                continue
            folded_seen += 1
            summary = FOLDED.search(folded)
            assert summary is not None, folded[:300]
            whole = LIST.search(listed)
            assert whole is not None
            assert html.unescape(summary.group(1)) == html.unescape(
                f"What {whole.group(1)} may do ({whole.group(2)} move"
                + ("s)" if whole.group(2) != "1" else ")")
            )
            assert folded[: summary.start()] + folded[summary.end() :] == (
                listed[: whole.start()] + listed[whole.end() :]
            )
            assert "<li>" not in folded[summary.start() : summary.end()]
    assert folded_seen > 10
