"""Handles (user and player names) compared as people read them, and look-alikes refused.

"ana", "ana" with a Cyrillic "a", "ana" in fullwidth letters and "ana²" are
different strings that a reader takes for one name. A new handle must therefore be

- in its plain form: Unicode NFKC leaves it unchanged (no fullwidth letters, no
  superscripts, no ligatures: fullwidth "ana" is to be written "ana", "ana²" "ana2");
- of one alphabet among the look-alike ones: Latin, Cyrillic and Greek letters are
  not mixed ("ana" with a Cyrillic "a" mixes it with Latin "na");
- not a look-alike of a handle already in use: :func:`handle_key` (NFKC, case
  folding, then Cyrillic and Greek letters that look Latin mapped to them) is how
  two handles are compared, and callers refuse a new handle whose key is another's.

Only new handles are checked: names already stored keep working as they are.
"""

from __future__ import annotations

import unicodedata

# Cyrillic and Greek letters (after case folding) that are drawn like a Latin one, in
# lower or upper case: a small skeleton map in the spirit of Unicode's confusables.
SKELETON = str.maketrans(
    {
        # Cyrillic
        "\N{CYRILLIC SMALL LETTER A}": "a",
        "\N{CYRILLIC SMALL LETTER VE}": "b",
        "\N{CYRILLIC SMALL LETTER IE}": "e",
        "\N{CYRILLIC SMALL LETTER IO}": "e",
        "\N{CYRILLIC SMALL LETTER ZE}": "3",
        "\N{CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I}": "i",
        "\N{CYRILLIC SMALL LETTER YI}": "i",
        "\N{CYRILLIC SMALL LETTER JE}": "j",
        "\N{CYRILLIC SMALL LETTER KA}": "k",
        "\N{CYRILLIC SMALL LETTER EM}": "m",
        "\N{CYRILLIC SMALL LETTER EN}": "h",
        "\N{CYRILLIC SMALL LETTER O}": "o",
        "\N{CYRILLIC SMALL LETTER ER}": "p",
        "\N{CYRILLIC SMALL LETTER ES}": "c",
        "\N{CYRILLIC SMALL LETTER TE}": "t",
        "\N{CYRILLIC SMALL LETTER U}": "y",
        "\N{CYRILLIC SMALL LETTER HA}": "x",
        "\N{CYRILLIC SMALL LETTER DZE}": "s",
        "\N{CYRILLIC SMALL LETTER KOMI DE}": "d",
        "\N{CYRILLIC SMALL LETTER SHHA}": "h",
        "\N{CYRILLIC SMALL LETTER PALOCHKA}": "l",
        "\N{CYRILLIC SMALL LETTER QA}": "q",
        "\N{CYRILLIC SMALL LETTER WE}": "w",
        "\N{CYRILLIC SMALL LETTER STRAIGHT U}": "y",
        # Greek
        "\N{GREEK SMALL LETTER ALPHA}": "a",
        "\N{GREEK SMALL LETTER BETA}": "b",
        "\N{GREEK SMALL LETTER EPSILON}": "e",
        "\N{GREEK SMALL LETTER ZETA}": "z",
        "\N{GREEK SMALL LETTER ETA}": "n",
        "\N{GREEK SMALL LETTER IOTA}": "i",
        "\N{GREEK SMALL LETTER KAPPA}": "k",
        "\N{GREEK SMALL LETTER MU}": "m",
        "\N{GREEK SMALL LETTER NU}": "v",
        "\N{GREEK SMALL LETTER OMICRON}": "o",
        "\N{GREEK SMALL LETTER RHO}": "p",
        "\N{GREEK SMALL LETTER TAU}": "t",
        "\N{GREEK SMALL LETTER UPSILON}": "u",
        "\N{GREEK SMALL LETTER CHI}": "x",
        "\N{GREEK SMALL LETTER FINAL SIGMA}": "c",
        "\N{GREEK SMALL LETTER SIGMA}": "o",
    }
)

# The alphabets whose letters are confused with each other's.
LOOKALIKE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK"})


def handle_key(name: str) -> str:
    """What two handles are compared by: NFKC, case-folded, look-alike letters made Latin."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return unicodedata.normalize("NFKC", folded).translate(SKELETON)


def _script(char: str) -> str | None:
    if not char.isalpha():
        return None
    try:
        return unicodedata.name(char).split(" ", 1)[0]
    except ValueError:  # a letter without a name (unassigned in this Python's tables)
        return None


def handle_problem(name: str) -> str | None:
    """Why ``name`` may not be a new handle (a sentence for the person), or None if it may."""
    plain = unicodedata.normalize("NFKC", name)
    if plain != name:
        return f"“{name}” is written with special forms of characters; write it as “{plain}”."
    scripts = {_script(char) for char in name} & LOOKALIKE_SCRIPTS
    if len(scripts) > 1:
        alphabets = " and ".join(sorted(script.title() for script in scripts))
        return (
            f"“{name}” mixes {alphabets} letters, which can look the same; "
            "use the letters of one alphabet."
        )
    return None


def handle_lookalike(name: str, existing: str) -> bool:
    """Whether ``name`` would be read as ``existing`` although it is another string."""
    return name != existing and handle_key(name) == handle_key(existing)
