"""Building blocks of the API's OpenAPI schema that several apps' views declare alike.

The schema says exactly what the server takes: a query parameter's schema names its
real range (``players=0`` is refused, so the minimum is 1), and the words a game is
known by are an enum. The fuzz test (tests/fuzz/test_api_schemathesis.py) holds every
operation to it: a value the schema allows must not be refused as malformed, and a
value it forbids must be refused.
"""

from __future__ import annotations

from typing import Any

from games.registry import all_engines


def game_slugs() -> list[str]:
    return [engine.slug for engine in all_engines()]


def game_words() -> list[str]:
    """What a query's ``game`` may say: a slug (``gift_swap``) or a name ("Gift Swap")."""
    words: list[str] = []
    for engine in all_engines():
        words += [engine.slug, engine.name]
    return words


def integer(minimum: int, maximum: int, **extra: Any) -> dict[str, Any]:
    """A whole number from ``minimum`` to ``maximum`` (ASCII digits in a query string)."""
    return {"type": "integer", "minimum": minimum, "maximum": maximum, **extra}


def optional(schema: dict[str, Any]) -> dict[str, Any]:
    """A filter where an empty value means "no filter" (a form sends every field)."""
    return {"anyOf": [schema, {"type": "string", "maxLength": 0}]}


def game_query(*, blank: bool) -> dict[str, Any]:
    """``game=``: a slug or a name; ``blank``: an empty value is no filter."""
    return {"type": "string", "enum": ["", *game_words()] if blank else game_words()}


# An ISO 8601 date (2026-11-28) or date-time (2026-11-28T19:30:00Z, offset optional);
# days past a month's end are left out (a leap day aside, they are refused).
_YEAR = r"(?:[1-9]\d{3})"
_MONTH_DAY = (
    r"(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])"
    r"|(?:0[13-9]|1[0-2])-(?:29|30)"
    r"|(?:0[13578]|1[02])-31)"
)
_OFFSET = r"(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)"
_TIME = rf"(?:[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{{1,6}})?)?{_OFFSET}?)?"
MOMENT_PATTERN = rf"^(?:{_YEAR}-{_MONTH_DAY}{_TIME})?$"


def moment_query() -> dict[str, Any]:
    """A date or date-time filter; empty is no filter."""
    return {"type": "string", "pattern": MOMENT_PATTERN}


def name_query() -> dict[str, Any]:
    """A player name filter (any case; empty is no filter)."""
    return {"type": "string", "maxLength": 64}
