"""Forms of the event pages: a table's scores, entering a player, swapping two seats."""

from __future__ import annotations

from typing import Any

from django import forms

from clubs.forms import UnusualScoresMixin, seats_to_names
from core.errors import ServiceError
from core.forms import WholeNumberField


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
