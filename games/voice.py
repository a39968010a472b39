"""Sentences in the viewer's voice: "you" for the seat whose view it is, names for the others.

A game's ``words`` module tells every event to one viewer: ``seat=None`` (everyone, a
spectator, a finished game's replay) or one seat. In a seat's own view the sentences speak
to that seat ("you keep your new card"), as the deal always did ("you get ..."); every
other seat is a placeholder ``{p1}`` that the service fills with the player's name, in the
third person ("{p1} keeps their new card"). :class:`Voice` words the seats of one sentence
so that a verb always agrees with its subject, and :func:`final_scores` words the end of
every game the same way, so a reader (and a test) finds each seat's final score in it.

Pure Python, not compiled (sentences are not on the replay path).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from games.base import and_list, seat_ref

#: Verbs whose "you" form is not their third-person form less an "s".
_IRREGULAR = {"is": "are", "has": "have", "does": "do", "goes": "go", "was": "were"}
#: Words before a verb that stay as they are ("also takes" -> "also take").
_ADVERBS = frozenset({"also", "secretly", "now", "then", "still", "only", "just", "first"})


def plain(verb: str) -> str:
    """A third-person verb in the form "you" takes: "takes" -> "take", "passes" -> "pass".

    A phrase changes its first word that is not an adverb ("also takes" -> "also take");
    a word not ending in "s" ("must", "may", "had") stays as it is.
    """
    words = verb.split(" ")
    for index, word in enumerate(words):
        if word in _ADVERBS:
            continue
        words[index] = _plain_word(word)
        break
    return " ".join(words)


def _plain_word(word: str) -> str:
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if not word.endswith("s") or word.endswith("ss"):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zes")):
        return word[:-2]
    return word[:-1]


def capital(text: str) -> str:
    """The sentence with its first letter in capitals ("you take" -> "You take")."""
    return text[:1].upper() + text[1:]


def is_seat(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


class Voice:
    """How one viewer's sentences name seats: ``viewer`` is "you", the others placeholders.

    ``viewer=None`` is everyone's view: every seat is a placeholder. A value that is not a
    seat number is "a player" (a malformed or hidden event still reads as a sentence).
    """

    def __init__(self, viewer: int | None) -> None:
        self.viewer = viewer if is_seat(viewer) else None

    def mine(self, seat: Any) -> bool:
        """Is ``seat`` the viewer?"""
        return self.viewer is not None and seat == self.viewer

    def who(self, seat: Any) -> str:
        """The seat as a subject or an object: "you", "{p1}"."""
        if self.mine(seat):
            return "you"
        return seat_ref(seat) if is_seat(seat) else "a player"

    def whose(self, seat: Any) -> str:
        """The seat's possessive: "your", "{p1}'s"."""
        if self.mine(seat):
            return "your"
        return f"{seat_ref(seat)}'s" if is_seat(seat) else "a player's"

    def their(self, seat: Any) -> str:
        """The possessive pronoun for a seat already named: "your", "their"."""
        return "your" if self.mine(seat) else "their"

    def them(self, seat: Any) -> str:
        """The object pronoun for a seat already named: "you", "them"."""
        return "you" if self.mine(seat) else "them"

    def themselves(self, seat: Any) -> str:
        return "yourself" if self.mine(seat) else "themselves"

    def verb(self, seat: Any, verb: str) -> str:
        """``verb`` (third person, "takes") agreeing with the seat: "take" for the viewer."""
        return plain(verb) if self.mine(seat) else verb

    def does(self, seat: Any, verb: str) -> str:
        """The seat and its verb: "you take", "{p1} takes"."""
        return f"{self.who(seat)} {self.verb(seat, verb)}"

    def group(self, seats: Iterable[Any]) -> list[int]:
        return [s for s in seats if is_seat(s)]

    def names(self, seats: Sequence[Any]) -> str:
        """Several seats: "{p0} and you", "{p0}, {p1} and {p2}"."""
        return and_list(self.who(s) for s in seats)

    def many(self, seats: Sequence[Any], verb: str, plural: str) -> str:
        """Seats and the verb agreeing with them: "{p1} holds", "you hold", "{p0} and {p2} hold"."""
        if len(seats) == 1:
            return self.does(seats[0], verb)
        return f"{self.names(seats)} {plural}"


def points(value: int) -> str:
    """ "1 point", "-1 point", "7 points"."""
    return f"{value} point" if abs(value) == 1 else f"{value} points"


def final_scores(
    voice: Voice, scores: Sequence[Any], how: Sequence[str] = (), *, rule: str = ""
) -> str:
    """ "final scores (points on the table minus cards in hand): you 50 (61 minus 11), {p1} 21".

    Every game's last sentence ends with this clause, in seat order, so each seat's final
    score stands right after its name; ``how`` (one note per seat, "" for none) says how it
    was counted. A reader checks the sum; a test finds the score after the name.
    """
    parts = []
    for seat, score in enumerate(scores):
        note = how[seat] if seat < len(how) and how[seat] else ""
        parts.append(f"{voice.who(seat)} {score}" + (f" ({note})" if note else ""))
    label = "final score" if len(parts) == 1 else "final scores"
    if rule:
        label += f" ({rule})"
    return f"{label}: {', '.join(parts)}"


def signed(value: int) -> str:
    """ "+3", "-4", "0"."""
    return f"+{value}" if value > 0 else str(value)


def minus(value: int) -> str:
    """A subtraction's second term as read aloud: "minus 11", "plus 2" (for a negative)."""
    return f"minus {value}" if value >= 0 else f"plus {-value}"
