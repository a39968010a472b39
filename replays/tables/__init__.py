"""Drawing a game's table as HTML: one drawing module per game, a generic fallback.

``replays/tables/<slug>.py`` defines ``draw(table: Table) -> Html`` and
``target(event, view) -> str | None``. A game without a module is drawn by
:mod:`replays.tables.generic`, so a new engine shows up on the pages at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib import import_module
from types import ModuleType
from typing import Any

from games.base import CHANCE, Engine, and_list
from games.play import waiting_for
from games.registry import get_engine
from replays.tables.kit import Html, Table, el, esc


@cache
def _module(game: str) -> ModuleType:
    try:
        return import_module(f"replays.tables.{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"replays.tables.{game}":
            raise
        return import_module("replays.tables.generic")


def table_modules_load() -> list[ModuleType]:
    """Every game's drawing module, imported now (a server's start-up, before its workers
    fork: ``config.preload``), not on the first table a worker draws."""
    from games.registry import engine_slugs

    return [_module(slug) for slug in engine_slugs()]


def table_stylesheets(game: str) -> list[str]:
    """Static paths of the stylesheets a page drawing this game's table loads."""
    from django.contrib.staticfiles import finders

    sheets = ["replays/table.css"]
    if finders.find(f"replays/tables/{game}.css"):
        sheets.append(f"replays/tables/{game}.css")
    return sheets


def table_build(
    *,
    game: str,
    view: dict[str, Any],
    seat: int | None,
    players: list[str],
    to_move: list[Any],
    waiting_for: list[Any],
    scores: list[int] | None,
    is_over: bool,
    result: dict[str, Any] | None,
) -> Table:
    return Table(
        game=game,
        view=view,
        seat=seat,
        players=players,
        catalog=get_engine(game).card_catalog(),
        to_move=to_move,
        waiting_for=waiting_for,
        scores=scores,
        is_over=is_over,
        result=result,
    )


def table_html(
    engine: Engine,
    state: Any,
    *,
    seat: int | None,
    players: list[str],
    moves: Sequence[tuple[int, str]] | None = None,
    legal: Mapping[int, list[dict[str, Any]]] | None = None,
    moves_later: bool = False,
) -> str:
    """A state drawn for one viewer: only its ``view`` reaches the drawing module.

    ``moves`` (``(seat, label)`` of each legal move, see
    ``replays.timeline.step_move_words``) are listed in words under the turn line: what
    the players to move may do. ``legal``: seats'
    legal events in ``state``, when the caller has them (``games.play.waiting_for``).
    ``moves_later``: no ``moves``; the list is drawn folded and empty, its summary counting
    ``legal``'s moves, for the replay viewer to fetch the listed table when it is opened
    (``folded_moves_list``).
    """
    over = engine.is_over(state)
    shown = seat is None or engine.scores_public or over
    table = table_build(
        game=engine.slug,
        view=engine.view(state, seat),
        seat=seat,
        players=players,
        to_move=engine.to_move(state),
        waiting_for=waiting_for(engine, state, legal),
        scores=engine.scores(state) if shown else None,
        is_over=over,
        result=engine.result(state).to_json() if over else None,
    )
    if moves_later:
        if legal is None:
            raise ValueError("a list of moves drawn later counts the legal moves: pass them")
        listing = folded_moves_list(table, legal)
    elif moves:
        count = None
        if legal is not None:
            count = sum(len(legal.get(s, ())) for s in dict.fromkeys(s for s, _ in moves))
        listing = _moves_list(table, moves, count)
    else:
        listing = Html("")
    return str(table_draw(table, listing))


def table_draw(table: Table, listing: Html) -> Html:
    """The table drawn by the game's module, under a line saying whose turn it is and the
    list of moves (listed, folded to be fetched later, or none)."""
    turn = el("p", turn_sentence(table), cls="turn")
    return el("div", turn, listing, _module(table.game).draw(table))


def _moves_summary(table: Table, seats: Sequence[int], number: int) -> Html:
    """'What Ben may do (6 moves)'."""
    who = "you" if list(seats) == [table.seat] else and_list([table.name(s) for s in seats])
    said = f"{number} move" + ("s" if number != 1 else "")
    return el("summary", f"What {who} may do ({said})")


def folded_moves_list(table: Table, legal: Mapping[int, list[dict[str, Any]]]) -> Html:
    """The list of moves as the replay viewer first shows it: folded, with the summary the
    listed one has (the same seats, the same count) and nothing in it yet.

    Why: most visitors never open it, and its words were a quarter of drawing everyone's
    table at a step's first visit (docs/performance.md). The viewer asks for the listed
    table (``?moves=listed``) when the list is opened, and keeps asking for it while the
    list stays open. A seat with no legal move is not named, as in the listed one."""
    seats = [seat for seat, events in legal.items() if events]
    if not seats:
        return Html("")
    return el(
        "details",
        _moves_summary(table, seats, sum(len(legal[s]) for s in seats)),
        el("p", "Listing the moves\u2026", cls="muted"),
        cls="moves-list",
        data_later=True,
    )


def _moves_list(
    table: Table, moves: Sequence[tuple[int, str]], count: int | None = None
) -> Html:
    """'What Ben may do (6 moves)': each legal move in words, folded away; ``count``, the
    number of moves, when a seat's are summed up in one sentence (``table_summarizer``).

    The items are written with f-strings, each escaped once (``kit.esc``): a seat whose
    moves are not summed up is listed move by move, and a long list was the most markup
    of a step's first visit (everyone's 504 in GiftTRAP's giving, before they were summed up).
    """
    seats = list(dict.fromkeys(seat for seat, _ in moves))
    number = len(moves) if count is None else count
    # Each seat's name and each label escaped once: in a giving, the eight seats' moves
    # are the same few labels (escaping is per character, so the parts escaped apart
    # read as the whole escaped at once).
    prefixes = {s: f"<li>{esc(table.name(s))}: " if len(seats) > 1 else "<li>" for s in seats}
    items = "".join([f"{prefixes[seat]}{esc(label)}</li>" for seat, label in moves])
    return el(
        "details",
        _moves_summary(table, seats, number),
        Html(f"<ul>{items}</ul>"),
        cls="moves-list",
    )


def table_target(game: str, event: dict[str, Any], view: dict[str, Any]) -> str | None:
    """The ``data-key`` of the drawn element a legal event acts on, if any."""
    target = table_targeter(game)
    return target(event, view) if target is not None else None


def table_targeter(game: str) -> Callable[[dict[str, Any], dict[str, Any]], str | None] | None:
    """The game's ``target(event, view)``, looked up once for a whole list of moves."""
    return getattr(_module(game), "target", None)


def table_summarizer(game: str) -> Callable[[Sequence[Mapping[str, Any]]], str | None] | None:
    """The game's ``moves_summary(events)``, if its drawing module has one: a seat's legal
    moves said in one sentence when there are many (``replays.timeline.step_move_words``)."""
    return getattr(_module(game), "moves_summary", None)


def target_reads_view(game: str) -> bool:
    """Whether the game's ``target`` reads the mover's view: a module whose targets are
    the event's own fields says ``TARGET_READS_VIEW = False``, and a step's moves then
    build no view per mover for them (eight in GiftTRAP's giving).
    ``tests/replays/test_table_targets.py`` checks such a module's targets ignore it."""
    return bool(getattr(_module(game), "TARGET_READS_VIEW", True))


def turn_sentence(table: Table) -> str:
    """'Ben to move.', 'Your move.', 'Ana and Cy choose.', 'Cards are being dealt.'..."""
    if table.is_over:
        return _result_sentence(table)
    seats = [actor for actor in table.waiting_for if actor != CHANCE]
    if not seats:
        if CHANCE in table.waiting_for:
            return "Next, chance acts: cards are shuffled, dealt or picked at random."
        return "Nobody is to move."
    if table.seat is not None and table.seat in seats:
        others = [table.name(s) for s in seats if s != table.seat]
        return "Your move." if not others else f"Your move (also waiting for {and_list(others)})."
    names = [table.name(s) for s in seats]
    return f"{and_list(names)} to move." if len(names) == 1 else f"Waiting for {and_list(names)}."


def _result_sentence(table: Table) -> str:
    result = table.result or {}
    winners = [table.name(s) for s in result.get("winners", [])]
    scores = result.get("scores") or []
    parts = ", ".join(f"{table.name(s)} {score}" for s, score in enumerate(scores))
    verb = "wins" if len(winners) == 1 else "share the win"
    return f"Game over: {and_list(winners)} {verb}. Final scores: {parts}."
