"""Each game's house rules explained to players, for the rules pages.

The options are declared by the engines (``games.<slug>.options.OPTIONS``), with the
short words every page shares: the option's ``label`` (the title here and on the
house-rules picker), each value's ``choice_words`` and whether it is a ``seat``. This
module adds only what the rules page says at more length: what the rule decides
(``text``), what each value means, and what a number counts (``unit``). Nothing here
repeats the engine's words (a test checks it). Every declared option must have its
explanation here (a test checks that too); one without it still shows, under its
one-line hint, so a new option is never missing from the page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.base import Option


@dataclass(frozen=True)
class OptionWords:
    """The rules page's longer words for one option; its short words are the engine's."""

    text: str  # what the rule decides
    # JSON value -> what it means, after the value's short words (``Option.choice_words``).
    # For "bool", "choice" and "list" options.
    meanings: dict[Any, str] = field(default_factory=dict)
    unit: str = ""  # what an int counts ("spaces", "rounds")


WHO_STARTS = OptionWords(
    text=(
        "The rulebook lets a player chosen at the table start (see Setting up). The club "
        "records which seat that was; play then goes to the left."
    ),
)

WORDS: dict[str, dict[str, OptionWords]] = {
    "gift_swap": {
        "start_player": WHO_STARTS,
        "regift_own_row": OptionWords(
            text=(
                "Whether a Regift card may be swapped with a face-down card in your own row. "
                "Nothing leaves your row, but you then Keep or Open the card you got, and "
                "opening it turns a second card of yours face up, so your row may be all "
                "face up sooner."
            ),
            meanings={
                True: (
                    "a Regift may take any face-down card, your own included (the card says "
                    "“any facedown gift”)."
                ),
                False: (
                    "a Regift must take a card from an opponent's row or from the set-aside cards."
                ),
            },
        ),
    },
    "secret_santa": {
        "deal_fallback": OptionWords(
            text=(
                "While dealing, a card that would be a player's third of one colour goes to "
                "the next player who can take it. Rarely, nobody who still needs cards can: "
                "this rule says where the card goes then."
            ),
            meanings={
                "guest": (
                    "the card joins the guest's cards, so with 3 or 4 players nobody ever "
                    "holds three of one colour."
                ),
                "first_with_room": (
                    "the player it was meant for takes it as a third card of that colour "
                    "(how games recorded before this rule were dealt)."
                ),
            },
        ),
    },
    "gift_economy": {
        "start_player": OptionWords(
            text=(
                "The player whose birthday is farthest away starts and is dealt the first "
                "card. The club records which seat that was; play then goes to the left."
            ),
        ),
        "ranking": OptionWords(
            text=(
                "If nobody holds exactly 12 of each resource when the deck runs out, hands are "
                "compared by a score out of 48, up to 12 for each resource. This rule says how "
                "a resource is counted. Whatever the choice, equal scores go to the player "
                "with more cards."
            ),
            meanings={
                "closeness": (
                    "12 minus how far the resource is from 12, over or under: 11 or 13 points "
                    "score 11, 0 scores 0, 25 scores -1."
                ),
                "closeness_floored": (
                    "the same, but a resource never scores less than 0 (24 points or more score 0)."
                ),
                "capped": (
                    "points count up to 12 and extra points are ignored (25 points score 12)."
                ),
                "exact": "12 for a resource at exactly 12, otherwise 0.",
                "goal_only": (
                    "no partial scores: everyone is tied, so the player with the most cards wins."
                ),
            },
        ),
    },
    "gift_gift_gone": {
        "turn_actions": OptionWords(
            text="How many actions a turn may hold.",
            meanings={
                "one_of_each": (
                    "up to one of each kind (draw and discard; claim, add or swap; trade), in "
                    "any order, so you may draw and then claim in the same turn. Say “pass” "
                    "when you are done."
                ),
                "one": (
                    "exactly one action per turn (draw and discard, or claim, add or swap, or "
                    "trade); the turn ends with it."
                ),
            },
        ),
        "give_frozen_in_swap": OptionWords(
            text=(
                "Whether you may give away your own frozen gift (all six cards on the table) "
                "as the payment when you swap for another player's gift."
            ),
            meanings={
                True: ("a frozen gift cannot be taken, but its owner may still give it away."),
                False: "a frozen gift never moves.",
            },
        ),
    },
    "gift_trap": {
        "expert_cards": OptionWords(
            text="Whether the table plays with the Expert Strategy Cards (see above).",
            meanings={
                True: "everyone has a Give More, a Get More and a GiftTRAP card.",
                False: "the game as in the basic rules.",
            },
        ),
        "packs": OptionWords(
            text=(
                "Which packs of gift cards the dealer may choose from; the others stay in the "
                "box (for example to leave out gifts not suited to a young table)."
            ),
            meanings={
                "yellow": "the cheapest gifts.",
                "red": "modest gifts.",
                "blue": "dear gifts.",
                "black": "the dearest gifts.",
            },
        ),
        "first_dealer": OptionWords(
            text=(
                "Who deals the first round: they pick the first pack and reveal first. The deal "
                "passes to the left each round."
            ),
        ),
        "track_length": OptionWords(
            text=(
                "How many spaces there are from GO to GIFTED on both tracks. A longer track "
                "makes a longer game."
            ),
            unit="spaces",
        ),
        "zone_size": OptionWords(
            text=(
                "How many spaces at the end of each track, GIFTED included, make the Gifted "
                "Zone (5 on a 25-space track: spaces 21 to 25). At most the track length."
            ),
            unit="spaces",
        ),
        "max_rounds": OptionWords(
            text=(
                "A limit on the number of rounds, for a table with a fixed time: after that "
                "round the game ends even if nobody is Gifted, and the best placed player "
                "wins."
            ),
            unit="rounds",
        ),
    },
}


def _fallback(option: Option) -> OptionWords:
    return OptionWords(text=option.hint or option.description)


def _title(option: Option) -> str:
    return option.label or option.name.replace("_", " ").capitalize()


def _short(option: Option, value: Any) -> str | None:
    """The engine's short words for a listed value (``Option.choice_words``), if any."""
    values = (True, False) if option.kind == "bool" else option.choices
    for known, word in zip(values, option.choice_words, strict=False):
        if value == known and type(value) is type(known):
            return word
    return None


def _value(words: OptionWords, option: Option, value: Any) -> str:
    """One value as a player says it: "Allowed", "seat 1", "25 spaces", "no limit"."""
    if value is None:
        return "no limit"
    if isinstance(value, list):
        return ", ".join(_value(words, option, item) for item in value) or "none"
    short = _short(option, value)
    if short is not None:
        return short
    if option.seat and isinstance(value, int):
        return f"seat {value + 1}" + (" (the first player listed)" if value == 0 else "")
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, int) and words.unit:
        return f"{value} {words.unit}"
    return str(value).replace("_", " ")


def _allowed(words: OptionWords, option: Option) -> str:
    """What a table may choose, for options without a list of values."""
    if option.seat:
        return "Any seat at the table."
    unit = f" {words.unit}" if words.unit else ""
    if option.kind == "int":
        return f"Any whole number from {option.low} to {option.high}{unit}."
    if option.kind == "int_or_none":
        return f"No limit, or a number from {option.low} to {option.high}{unit}."
    return ""


def house_rules(game: str, options: tuple[Option, ...]) -> list[dict[str, Any]]:
    """Each declared option, as the rules page shows it."""
    shown = []
    for option in options:
        words = WORDS.get(game, {}).get(option.name) or _fallback(option)
        listed = option.kind in ("bool", "choice", "list")
        values = [True, False] if option.kind == "bool" else list(option.choices) if listed else []
        default = option.default if isinstance(option.default, list) else [option.default]
        shown.append(
            {
                "name": option.name,
                "anchor": "option-" + option.name.replace("_", "-"),
                "title": _title(option),
                "text": words.text,
                "default": _value(words, option, option.default),
                "several": option.kind == "list",
                "values": [
                    {
                        "label": _value(words, option, value),
                        "meaning": words.meanings.get(value, ""),
                        "default": value in default,
                    }
                    for value in values
                ],
                "allowed": "" if listed else _allowed(words, option),
            }
        )
    return shown
