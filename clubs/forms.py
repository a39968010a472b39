"""The forms of the club pages: they check the shape of what was typed; services check the rest.

A service's refusal (a :class:`ServiceError` with ``detail.field``) is put back
on the form by :func:`add_service_error`, on the field it names when the form
has it, so the person sees the message next to what they typed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.text import slugify

from clubs.models import League, Membership
from core.errors import ServiceError
from core.forms import WholeNumberField
from core.house_rules import PREFIX, HouseRulesMixin
from core.inputs import INT32_MAX, whole_number
from games.registry import all_engines, get_engine

TIE_RULE_WORDS = {
    League.TieRule.SHARE_BEST: "Tied players all get the points of the best place they share",
    League.TieRule.SPLIT: "Tied players split the points of the places they cover",
}
TIE_BREAK_WORDS = {
    "wins": "more wins",
    "average_score": "higher average score",
    "head_to_head": "ahead more often in games between them",
}
GUEST_NAME_MAX = 64
SEATS_IN_WORDS = re.compile(r"\b[Ss]eats? (\d+(?:(?:, | and )\d+)*)")


def seats_to_names(message: str, names: list[str]) -> str:
    """A service's message with its seats ("seat 2", "Seats 1 and 3") told by name.

    Seats in a message are numbered from 1; a number past ``names`` is left alone.
    """

    def named(match: re.Match[str]) -> str:
        numbers = [int(n) for n in re.findall(r"\d+", match.group(1))]
        if not all(1 <= n <= len(names) for n in numbers):
            return match.group(0)
        people = [names[n - 1] for n in numbers]
        return people[0] if len(people) == 1 else ", ".join(people[:-1]) + " and " + people[-1]

    return SEATS_IN_WORDS.sub(named, message)


class UnusualScoresMixin:
    """Scores that look unusual are confirmed by a second press, for exactly these scores.

    The service refuses them once (422 ``result_unusual``); the form then shows
    why with a button whose value is the scores as typed, and a submit with that
    value confirms them. Changing a score asks again.
    """

    unusual: str = ""
    data: Any

    @staticmethod
    def scores_key(scores: list[int]) -> str:
        return ",".join(str(score) for score in scores)

    def unusual_confirmed(self, scores: list[int]) -> bool:
        return str(self.data.get("confirm_unusual", "")) == self.scores_key(scores)

    def unusual_refused(
        self, error: ServiceError, scores: list[int], names: list[str]
    ) -> dict[int, str]:
        """Remember the refusal; per unusual seat (index), the sentence beside its score."""
        self.unusual = self.scores_key(scores)
        low, high = error.detail.get("usual", [None, None])
        return {
            item["seat"]: f"{names[item['seat']]}'s {item['score']} looks unusual: a "
            f"{len(scores)}-player game usually ends with scores from {low} to {high}. "
            "Is it right?"
            for item in error.detail.get("unusual", [])
            if isinstance(item.get("seat"), int) and 0 <= item["seat"] < len(names)
        }


def add_service_error(form: forms.Form, error: ServiceError, *, fields: dict[str, str]) -> None:
    """Show ``error`` on the form field its ``detail.field`` maps to (or above the form)."""
    service_field = str(error.detail.get("field", ""))
    target = fields.get(service_field) or fields.get(service_field.split(".")[0])
    form.add_error(target if target in form.fields else None, error.message)


class ClubCreateForm(forms.Form):
    name = forms.CharField(max_length=100)
    slug = forms.SlugField(
        max_length=64,
        required=False,
        label="Web address",
        help_text="Letters, digits and hyphens, for /clubs/…/; made from the name if left empty.",
    )
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("slug") and data.get("name"):
            data["slug"] = slugify(data["name"])[:64]
            if not data["slug"]:
                self.add_error("slug", "Choose a web address made of letters and digits.")
        return data


class InvitationForm(forms.Form):
    role = forms.ChoiceField(
        choices=[(Membership.Role.MEMBER, "Member"), (Membership.Role.ADMIN, "Admin")],
        initial=Membership.Role.MEMBER,
        label="Joins as",
    )
    max_uses = WholeNumberField(
        min_value=1, required=False, label="How many people may use it", help_text="Empty: any."
    )
    days = WholeNumberField(
        min_value=1, max_value=365, required=False, label="Valid for (days)", initial=14
    )


def _game_choices() -> list[tuple[str, str]]:
    return [(engine.slug, engine.name) for engine in all_engines()]


class LeagueCreateForm(HouseRulesMixin, forms.Form):
    """A league's name, game and scoring; its house rules are picked with fields built
    from every game's declared options (``core.house_rules``), the chosen game's read."""

    name = forms.CharField(max_length=100)
    slug = forms.SlugField(
        max_length=64,
        required=False,
        label="Web address",
        help_text="Made from the name if left empty.",
    )
    game = forms.ChoiceField(choices=_game_choices)
    points_per_place = forms.CharField(
        initial="3, 2, 1, 0",
        label="Points per place",
        help_text="For 1st, 2nd, 3rd… separated by commas; later places get 0.",
    )
    tie_rule = forms.ChoiceField(
        choices=list(TIE_RULE_WORDS.items()), widget=forms.RadioSelect, initial="share_best"
    )
    min_games = WholeNumberField(min_value=0, initial=0, label="Games needed to be ranked")
    tie_breaks = forms.MultipleChoiceField(
        choices=list(TIE_BREAK_WORDS.items()),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label="Equal points: ahead is who has",
        help_text="Checked ones apply in this order.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.house_rules_setup(all_engines())
        self.league_fields = [name for name in self.fields if not name.startswith(PREFIX + "-")]

    def __iter__(self) -> Iterator[forms.BoundField]:
        """The league's own fields; its house rules are shown by ``core/_house_rules.html``."""
        return (self[name] for name in self.league_fields)

    def clean_points_per_place(self) -> list[int]:
        text = self.cleaned_data["points_per_place"]
        parts = [part for part in text.replace(";", ",").split(",") if part.strip()]
        points = [whole_number(part, low=-INT32_MAX) for part in parts]
        if None in points:
            raise forms.ValidationError("Type whole numbers separated by commas, e.g. 3, 2, 1, 0.")
        points = [point for point in points if point is not None]
        if not points:
            raise forms.ValidationError("Give the points of at least the first place.")
        return points

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("slug") and data.get("name"):
            data["slug"] = slugify(data["name"])[:64]
            if not data["slug"]:
                self.add_error("slug", "Choose a web address made of letters and digits.")
        game = data.get("game")
        self.house_rules_ignore_others(game)
        if game:
            data["options"] = self.house_rules(game)
        return data


class SeasonCreateForm(forms.Form):
    league = forms.ChoiceField(choices=[])
    name = forms.CharField(max_length=100, initial="")
    starts_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label="Starts on")
    ends_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label="Ends on")

    def __init__(self, *args: Any, leagues: list[League], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        league_field = self.fields["league"]
        assert isinstance(league_field, forms.ChoiceField)
        league_field.choices = [(league.slug, league.name) for league in leagues]


class VoidForm(forms.Form):
    reason = forms.CharField(max_length=500, label="Why is this game voided?")


class TableGameForm(UnusualScoresMixin, forms.Form):
    """One row per possible seat: a member (or a guest's name) and the final score.

    Empty rows are skipped, so a three-player game leaves the last rows blank.
    """

    played_at = forms.DateTimeField(
        label="Played",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"],
    )
    duration_minutes = WholeNumberField(
        min_value=1,
        max_value=24 * 60,
        required=False,
        label="Minutes played (optional)",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(
        self, *args: Any, game: str, members: list[tuple[str, str]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        engine = get_engine(game)
        self.min_players, self.max_players = engine.min_players, engine.max_players
        self.member_handles = {handle for handle, _ in members}
        choices = [("", "—"), *members]
        self.seat_names = []
        for seat in range(self.max_players):
            self.fields[f"player_{seat}"] = forms.ChoiceField(
                choices=choices, required=False, label=f"Player {seat + 1}"
            )
            self.fields[f"guest_{seat}"] = forms.CharField(
                max_length=GUEST_NAME_MAX,
                required=False,
                label=f"or guest {seat + 1}",
                widget=forms.TextInput(
                    attrs={"placeholder": "guest's name", "autocomplete": "off"}
                ),
            )
            self.fields[f"score_{seat}"] = WholeNumberField(
                required=False,
                label=f"Score {seat + 1}",
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "-?[0-9]*"}),
            )
            self.seat_names.append((f"player_{seat}", f"guest_{seat}", f"score_{seat}"))
        if not self.is_bound:
            self.initial.setdefault(
                "played_at", timezone.localtime().replace(second=0, microsecond=0)
            )

    def seat_rows(self) -> list[tuple[forms.BoundField, forms.BoundField, forms.BoundField]]:
        return [(self[p], self[g], self[s]) for p, g, s in self.seat_names]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        seats: list[dict[str, Any]] = []
        seen: set[str] = set()
        for number, (player_key, guest_key, score_key) in enumerate(self.seat_names, start=1):
            handle = data.get(player_key) or ""
            guest = (data.get(guest_key) or "").strip()
            score = data.get(score_key)
            if not handle and not guest:
                if score is not None:
                    self.add_error(player_key, f"Who scored {score} in row {number}?")
                continue
            if handle and guest:
                self.add_error(guest_key, f"Row {number}: pick a member or type a guest, not both.")
                continue
            if guest and guest in self.member_handles:
                self.add_error(guest_key, f"{guest} is a member: pick them from the list.")
                continue
            name = handle or guest
            if name in seen:
                self.add_error(player_key if handle else guest_key, f"{name} is listed twice.")
                continue
            seen.add(name)
            if score is None:
                self.add_error(score_key, f"Type {name}'s final score.")
                continue
            seats.append({"row": number - 1, "name": name, "guest": bool(guest), "score": score})
        if not self.errors and not self.min_players <= len(seats) <= self.max_players:
            filled = "1 is filled in" if len(seats) == 1 else f"{len(seats)} are filled in"
            self.add_error(
                None,
                f"This game needs {self.min_players} to {self.max_players} players; {filled}.",
            )
        data["seats"] = seats
        return data

    def scores(self) -> list[int]:
        return [seat["score"] for seat in self.cleaned_data.get("seats") or []]

    def add_service_error(self, error: ServiceError) -> None:
        """Put a refusal of the stored record next to the row or field it is about.

        Seats in its message are told by name. Unusual scores are marked on each
        unusual seat's score, and the form offers to confirm them.
        """
        field = str(error.detail.get("field", ""))
        seat = error.detail.get("seat")
        seats = self.cleaned_data.get("seats") or []
        names = [item["name"] for item in seats]
        if error.code == "result_unusual":
            for seat_index, said in self.unusual_refused(error, self.scores(), names).items():
                if 0 <= seat_index < len(seats):
                    self.add_error(f"score_{seats[seat_index]['row']}", said)
            return
        row = seats[seat]["row"] if isinstance(seat, int) and 0 <= seat < len(seats) else None
        if field.startswith("result.duration"):
            target: str | None = "duration_minutes"
        elif error.code in {"outside_season", "played_at_missing", "no_season"}:
            target = "played_at"
        elif row is not None and field.startswith("result"):
            target = f"score_{row}"
        elif row is not None:
            target = f"player_{row}"
        else:
            target = None
        self.add_error(target, seats_to_names(error.message, names))

    def document(self, *, game: str, options: dict[str, Any]) -> tuple[dict[str, Any], list[int]]:
        """The result-only giftlog this form describes, and its guest seats."""
        seats = self.cleaned_data["seats"]
        result: dict[str, Any] = {"scores": [seat["score"] for seat in seats]}
        if self.cleaned_data.get("duration_minutes"):
            result["duration_minutes"] = self.cleaned_data["duration_minutes"]
        document = {
            "format": "giftlog/1",
            "game": game,
            "options": options,
            "players": [seat["name"] for seat in seats],
            "meta": {"played_at": self.cleaned_data["played_at"].isoformat()},
            "result": result,
        }
        return document, [n for n, seat in enumerate(seats) if seat["guest"]]


class ResultCorrectionForm(UnusualScoresMixin, forms.Form):
    """The corrected final scores of a result-only record, one per seat, and why."""

    reason = forms.CharField(
        max_length=500,
        required=False,
        label="What was wrong? (optional)",
        help_text="Kept in the club's audit log with the old and new scores.",
    )

    def __init__(self, *args: Any, names: list[str], scores: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names = names
        for seat, (name, score) in enumerate(zip(names, scores, strict=True)):
            self.fields[f"score_{seat}"] = WholeNumberField(
                label=f"{name} (seat {seat + 1})",
                initial=score,
                error_messages={"required": f"Type {name}'s final score."},
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "-?[0-9]*"}),
            )
        self.order_fields([*(f"score_{seat}" for seat in range(len(names))), "reason"])

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
        target = f"score_{seat}" if in_range else None
        self.add_error(target, seats_to_names(error.message, self.names))
