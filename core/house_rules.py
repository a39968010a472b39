"""House rules as form fields, built from each game's declared options (``games.base.Option``).

A league's rules and a balance-lab run are picked with the same fields: a checkbox for
a yes-or-no rule, a number box with its range, a list of choices in words, a checkbox
per item of a set (GiftTRAP's packs), "Player 1" for a seat. Every field starts at the
game's default (or the value given), so a form left alone means the standard rules.

A form may hold the fields of several games (a league form, where the game is chosen
in the same form): the fields of each game sit in their own fieldset
(``core/_house_rules.html``), ``core/house_rules.js`` shows the chosen game's, and only
the chosen game's are read and checked. Without the script every game's fieldset is
shown, each titled with its game. A form posted without a game's fieldset (its marker
field, ``rules-<game>``, absent: an older page, a script) means that game's defaults.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django import forms

from core.forms import WholeNumberField
from games.base import InvalidSetup, Option, json_repr, options_resolve

PREFIX = "rules"


def field_name(slug: str, option: str) -> str:
    return f"{PREFIX}-{slug}-{option}"


def marker_name(slug: str) -> str:
    return f"{PREFIX}-{slug}"


def _words(option: Option) -> list[tuple[str, str]]:
    words = option.choice_words or tuple(str(c) for c in option.choices)
    return [(json_repr(c), word) for c, word in zip(option.choices, words, strict=True)]


def _initial(option: Option, value: Any) -> Any:
    """A value as the field shows it."""
    if option.kind == "choice" or option.seat:
        return json_repr(value)
    if option.kind == "list":
        return [json_repr(v) for v in value or []]
    return value


def option_field(option: Option, value: Any) -> forms.Field:
    """The form field of one option, showing ``value``; every field is optional to Django
    (only the chosen game's are read), and :meth:`HouseRulesMixin.house_rules` says what
    is missing."""
    label = option.label or option.name.replace("_", " ").capitalize()
    common: dict[str, Any] = {
        "label": label,
        "help_text": option.hint,
        "required": False,
        "initial": _initial(option, value),
    }
    if option.kind == "bool":
        return forms.BooleanField(**common)
    if option.kind == "choice":
        return forms.ChoiceField(choices=_words(option), **common)
    if option.kind == "list":
        return forms.MultipleChoiceField(
            choices=_words(option), widget=forms.CheckboxSelectMultiple, **common
        )
    low = option.low if option.low is not None else 0
    if option.seat and option.high is not None:
        seats = [(json_repr(s), f"Player {s + 1}") for s in range(low, option.high + 1)]
        common["help_text"] = f"{option.hint} Players are counted in the order they are listed."
        return forms.ChoiceField(choices=seats, **common)
    return WholeNumberField(
        min_value=option.low,
        max_value=option.high,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        **common,
    )


@dataclass
class RulesGroup:
    """One game's fields, for the template: its fieldset, shown when the game is chosen."""

    slug: str
    name: str
    marker: forms.BoundField
    fields: list[forms.BoundField]


class HouseRulesMixin:
    """Adds house-rule fields for some games to a :class:`django.forms.Form`.

    Call :meth:`house_rules_setup` in ``__init__`` after ``super().__init__``; read
    the chosen game's options with :meth:`house_rules` in ``clean`` (it adds field
    errors and returns ``None`` when something is wrong).
    """

    fields: dict[str, forms.Field]
    data: Any
    is_bound: bool
    cleaned_data: dict[str, Any]
    _errors: Any

    if TYPE_CHECKING:  # what the form it is mixed into provides

        def add_error(self, field: str | None, error: Any) -> None: ...

        def __getitem__(self, name: str) -> forms.BoundField: ...

    def house_rules_setup(
        self, engines: Iterable[Any], *, start: Mapping[str, Mapping[str, Any]] | None = None
    ) -> None:
        """Fields for every option of ``engines``, starting at ``start[slug]`` or the defaults."""
        self.rules_engines = {engine.slug: engine for engine in engines}
        filled = self.data.copy() if self.is_bound else None
        for slug, engine in self.rules_engines.items():
            values = {option.name: option.default for option in engine.options}
            values.update((start or {}).get(slug, {}))
            self.fields[marker_name(slug)] = forms.CharField(
                required=False, widget=forms.HiddenInput, initial="1"
            )
            for option in engine.options:
                name = field_name(slug, option.name)
                field = option_field(option, values[option.name])
                self.fields[name] = field
                # A post without the game's fieldset means its standard rules; a field of it
                # that was posted all the same is read (and refused if it is wrong).
                if filled is not None and marker_name(slug) not in filled and name not in filled:
                    _fill(filled, name, field.initial, option)
        if filled is not None:
            self.data = filled

    def house_rules_groups(self) -> list[RulesGroup]:
        return [
            RulesGroup(
                slug=slug,
                name=engine.name,
                marker=self[marker_name(slug)],
                fields=[self[field_name(slug, option.name)] for option in engine.options],
            )
            for slug, engine in self.rules_engines.items()
        ]

    def house_rules_ignore_others(self, slug: str | None) -> None:
        """Forget the errors of the games not chosen: their fields are not read."""
        for other, engine in self.rules_engines.items():
            if other != slug:
                for option in engine.options:
                    (self._errors or {}).pop(field_name(other, option.name), None)

    def house_rules(self, slug: str, *, num_players: int | None = None) -> dict[str, Any] | None:
        """The options of game ``slug`` in full (canonical), or None after adding field errors.

        The setup check runs for ``num_players`` (the balance lab's table) or the
        largest table the game allows (a league: a seat must exist at some table).
        """
        engine = self.rules_engines[slug]
        options: dict[str, Any] = {}
        missing = False
        for option in engine.options:
            name = field_name(slug, option.name)
            value = _read(option, self.cleaned_data.get(name))
            if value is _MISSING:
                if name not in (self._errors or {}):
                    self.add_error(name, _missing_words(option))
                missing = True
                continue
            options[option.name] = value
        if missing:
            return None
        try:
            resolved = options_resolve(engine, options)
            engine.setup(num_players or engine.max_players, resolved)
        except InvalidSetup as exc:
            named = str(exc.detail.get("option", ""))
            option = next((o for o in engine.options if o.name == named), None)
            if option is None:
                self.add_error(None, exc.message)
            else:
                self.add_error(field_name(slug, named), _setup_words(option, exc, num_players))
            return None
        return resolved


class _Missing:
    pass


_MISSING: Any = _Missing()


def _read(option: Option, value: Any) -> Any:
    """A cleaned field's value as the option's JSON value (``_MISSING`` if none was given)."""
    if option.kind == "bool":
        return bool(value)
    if option.kind == "list":
        chosen = set(value or [])
        picked = [c for c in option.choices if json_repr(c) in chosen]
        return picked or _MISSING
    if option.kind == "choice" or option.seat:
        if value in (None, ""):
            return _MISSING
        by_word = {json_repr(c): c for c in option.choices}
        if option.seat:
            return int(value)
        return by_word.get(value, _MISSING)
    if value is None:
        return None if option.kind == "int_or_none" else _MISSING
    return value


def _missing_words(option: Option) -> str:
    if option.kind == "list":
        return "Pick at least one."
    if option.kind == "choice" or option.seat:
        return "Choose one."
    return f"Type a whole number from {option.low} to {option.high}."


def _setup_words(option: Option, exc: InvalidSetup, num_players: int | None) -> str:
    if option.seat and num_players is not None:
        return f"A table of {num_players} has players 1 to {num_players}: choose one of them."
    label = option.label or option.name
    return exc.message.replace(f'Option "{option.name}"', f"“{label}”", 1)


def _fill(data: Any, name: str, initial: Any, option: Option) -> None:
    """Put a field's starting value in posted data that did not show the field."""
    if option.kind == "list":
        if hasattr(data, "setlist"):
            data.setlist(name, list(initial))
        else:
            data[name] = list(initial)
    elif option.kind == "bool":
        if initial:
            data[name] = "on"
        elif hasattr(data, "pop"):
            data.pop(name, None)
    else:
        data[name] = "" if initial is None else str(initial)
