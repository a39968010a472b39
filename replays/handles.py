"""New player names: refused when they are look-alikes of a name or of an existing player.

The rules are ``core.handles``'; this module adds the one question only the database
answers: does a new name read as a player that already exists? Uploads, bulk
imports and live games ask it before a name becomes a player.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from core.errors import BadRequest
from core.handles import handle_key, handle_lookalike, handle_problem
from replays.models import Player


def player_name_problems(names: Iterable[str]) -> dict[str, str]:
    """The names among ``names`` that may not become new players, each with the reason.

    A name already stored is always fine (stored records keep working). A new one
    must pass :func:`core.handles.handle_problem` (plain form, one alphabet) and must
    not read as an existing player's name in another alphabet ("ace" written in Cyrillic
    letters beside the Latin "ace"); a difference of case alone is allowed, as every
    search ignores case.
    """
    wanted = set(names)
    if not wanted:
        return {}
    new = wanted - set(Player.objects.filter(name__in=wanted).values_list("name", flat=True))
    problems = {}
    suspects = {}
    for name in new:
        problem = handle_problem(name)
        if problem is not None:
            problems[name] = problem
        elif handle_key(name) != name.casefold():
            suspects[name] = handle_key(name)
    if suspects:
        query = Q()
        for key in set(suspects.values()):
            query |= Q(name__iexact=key)
        existing = list(Player.objects.filter(query).values_list("name", flat=True))
        for name in suspects:
            same = [other for other in existing if handle_lookalike(name, other)]
            if same:
                problems[name] = (
                    f"“{name}” looks like the player “{same[0]}” but is written with other "
                    f"letters; write “{same[0]}” if that is who played."
                )
    return problems


def player_names_error(names: list[str], problems: dict[str, str]) -> BadRequest | None:
    """The 400 ``invalid_envelope`` (field ``players``) for the first seat whose name is
    in ``problems``, or None."""
    for seat, name in enumerate(names):
        if name in problems:
            return BadRequest(
                "invalid_envelope",
                f"Player name at seat {seat + 1}: {problems[name]}",
                field="players",
                seat=seat,
                name=name,
            )
    return None


def player_names_check(names: list[str]) -> None:
    """Raise :func:`player_names_error` for the first name that may not become a player."""
    error = player_names_error(names, player_name_problems(names))
    if error is not None:
        raise error
