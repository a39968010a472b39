"""Forms of the event pages: a table's scores, entering a player, swapping two seats."""

from __future__ import annotations

from typing import Any

from django import forms

from clubs.forms import UnusualScoresMixin, seats_to_names
from core.errors import ServiceError
from core.forms import WholeNumberField
from core.inputs import whole_number
from events.models import Event
from games.registry import all_engines


class TableResultForm(UnusualScoresMixin, forms.Form):
    """A table's final scores, one per seat, each field named for the player sitting there."""

    def __init__(self, *args: Any, names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names = names
        for seat, name in enumerate(names):
            self.fields[f"score_{seat}"] = WholeNumberField(
                label=f"{name} (seat {seat + 1})",
                error_messages={"required": f"Type {name}'s final score."},
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "-?[0-9]*"}),
            )

    def scores(self) -> list[int]:
        return [self.cleaned_data[f"score_{seat}"] for seat in range(len(self.names))]

    def add_service_error(self, error: ServiceError) -> None:
        seat = error.detail.get("seat")
        if error.code == "result_unusual":
            for seat_index, said in self.unusual_refused(error, self.scores(), self.names).items():
                if 0 <= seat_index < len(self.names):
                    self.add_error(f"score_{seat_index}", said)
            return
        in_range = isinstance(seat, int) and 0 <= seat < len(self.names)
        self.add_error(
            f"score_{seat}" if in_range else None, seats_to_names(error.message, self.names)
        )


class EntryAddForm(forms.Form):
    handle = forms.CharField(max_length=64, label="Player's name")
    checked_in = forms.BooleanField(required=False, initial=True, label="Here now (checked in)")


class SwapForm(forms.Form):
    """Two players seated in the round to exchange seats."""

    first = forms.TypedChoiceField(coerce=int, label="Swap")
    second = forms.TypedChoiceField(coerce=int, label="with")

    def __init__(self, *args: Any, seated: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["first"].choices = seated
        self.fields["second"].choices = seated
        if len(seated) > 1:
            self.fields["second"].initial = seated[1][0]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("first") is not None and data.get("first") == data.get("second"):
            raise forms.ValidationError("Choose two different players.")
        return data


def _game_choices() -> list[tuple[str, str]]:
    return [(engine.slug, engine.name) for engine in all_engines()]


class EventCreateForm(forms.Form):
    """An event's essentials. Its rules variant is the game's usual one, or, when a
    season is chosen, that season's league's (the API takes any options)."""

    name = forms.CharField(max_length=100)
    club = forms.ChoiceField(required=False, label="Club", help_text="Or an open event.")
    season = forms.TypedChoiceField(
        coerce=int,
        required=False,
        empty_value=None,
        label="Count the games in a season",
        help_text="Its league's game and rules are used; the games count in its standings "
        "and the club's ratings.",
    )
    game = forms.ChoiceField(choices=_game_choices)
    format = forms.ChoiceField(choices=Event.Format.choices, initial=Event.Format.SWISS)
    rounds = WholeNumberField(min_value=1, max_value=30, initial=3)
    min_table = WholeNumberField(min_value=1, max_value=64, required=False, label="Smallest table")
    max_table = WholeNumberField(min_value=1, max_value=64, required=False, label="Largest table")
    final_top_table = forms.BooleanField(required=False, label="Last round at a top table")
    starts_at = forms.DateTimeField(
        label="Starts", widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    ends_at = forms.DateTimeField(
        required=False, label="Ends", widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    location = forms.CharField(max_length=200, required=False, label="Where")
    points_per_place = forms.CharField(
        required=False,
        max_length=100,
        label="Points per place",
        help_text="For 1st, 2nd, … separated by commas; empty: n-1 down to 0 at a table of n.",
    )

    def __init__(
        self,
        *args: Any,
        clubs: list[tuple[str, str]],
        seasons: list[tuple[int, str]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].choices = [("", "Open event (no club)"), *clubs]
        self.fields["season"].choices = [("", "None"), *seasons]

    def clean_points_per_place(self) -> list[int]:
        text = self.cleaned_data["points_per_place"]
        parts = [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]
        numbers = [whole_number(part, high=1000) for part in parts]
        if any(n is None for n in numbers):
            raise forms.ValidationError("Whole numbers separated by commas, e.g. 4, 2, 1, 0.")
        return [n for n in numbers if n is not None]
