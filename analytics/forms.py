"""The balance lab's form: a table size, the bots, how many games, and any house rules.

The house rules are the game's declared options as fields (``core.house_rules``), so a
rule nobody has played yet can be tried; they start at the rules the lab plays by
default (the standard rules, with ``replays.simulation.SIMULATION_OPTIONS``' round cap).
"""

from __future__ import annotations

from typing import Any

from django import forms

from core.forms import WholeNumberField
from core.house_rules import HouseRulesMixin
from replays.simulation import BOT_MIXES, SIMULATION_OPTIONS

BOT_WORDS = {
    "mixed": "a mix of random and greedy bots",
    "random": "random bots",
    "greedy": "greedy bots",
}


class SimulationForm(HouseRulesMixin, forms.Form):
    players = forms.TypedChoiceField(coerce=int, choices=[], label="Players")
    bots = forms.ChoiceField(
        choices=[(b, BOT_WORDS.get(b, b)) for b in BOT_MIXES],
        initial="mixed",
        label="Bots",
        required=False,  # not given: the mix
    )

    def __init__(self, *args: Any, engine: Any, max_games: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.engine = engine
        players = self.fields["players"]
        assert isinstance(players, forms.TypedChoiceField)
        players.choices = [
            (n, f"{n} players") for n in range(engine.min_players, engine.max_players + 1)
        ]
        self.fields["games"] = WholeNumberField(
            min_value=1,
            max_value=max_games,
            initial=100,
            label="Games",
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        )
        self.house_rules_setup(
            [engine], start={engine.slug: SIMULATION_OPTIONS.get(engine.slug, {})}
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["bots"] = data.get("bots") or "mixed"
        players = data.get("players")
        data["options"] = self.house_rules(self.engine.slug, num_players=players)
        return data
