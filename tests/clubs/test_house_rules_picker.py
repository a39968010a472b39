"""House rules as a typed picker: fields built from each game's declared options."""

from __future__ import annotations

import pytest

from clubs.forms import LeagueCreateForm
from clubs.models import League
from core.house_rules import field_name
from games.registry import all_engines
from tests.clubs.test_pages import browser, club_url

pytestmark = pytest.mark.django_db

LEAGUE = {
    "name": "Trap Cup",
    "points_per_place": "3, 2, 1",
    "tie_rule": "share_best",
    "min_games": "0",
}


def test_the_picker_has_a_field_per_declared_option_of_every_game():
    form = LeagueCreateForm()
    groups = {group.slug: group for group in form.house_rules_groups()}
    assert set(groups) == {engine.slug for engine in all_engines()}
    for engine in all_engines():
        names = [field.name for field in groups[engine.slug].fields]
        assert names == [field_name(engine.slug, option.name) for option in engine.options]
        for field, option in zip(groups[engine.slug].fields, engine.options, strict=True):
            assert field.label == option.label
            assert field.help_text.startswith(option.hint)
    trap = {f.name.rsplit("-", 1)[1]: f for f in groups["gift_trap"].fields}
    assert trap["expert_cards"].widget_type == "checkbox"
    assert trap["packs"].widget_type == "checkboxselectmultiple"
    assert trap["track_length"].field.min_value == 10
    assert trap["track_length"].field.max_value == 100
    assert [w for _, w in trap["first_dealer"].field.choices][:2] == ["Player 1", "Player 2"]
    ranking = next(f for f in groups["gift_economy"].fields if f.name.endswith("-ranking"))
    assert ranking.field.choices[0][1].startswith("Closeness")


def test_the_club_page_shows_the_picker_not_json(world):
    page = browser(world.admin).get(club_url(world)).content.decode()
    assert 'data-house-rules-for="id_game"' in page
    assert 'fieldset class="house-rules" data-game="gift_trap"' in page
    assert "Packs of gift cards in play" in page
    assert 'href="/rules/gift_trap/#options-house-rules" target="_blank"' in page
    assert "/static/core/house_rules.js" in page
    assert '{"max_rounds": 15}' not in page
    assert "JSON" not in page


def test_a_league_is_made_with_the_rules_picked(world):
    response = browser(world.admin).post(
        club_url(world, "league-create"),
        {
            **LEAGUE,
            "game": "gift_trap",
            "rules-gift_trap": "1",
            "rules-gift_trap-expert_cards": "on",
            "rules-gift_trap-packs": ['"blue"', '"red"'],
            "rules-gift_trap-first_dealer": "2",
            "rules-gift_trap-track_length": "30",
            "rules-gift_trap-zone_size": "6",
            "rules-gift_trap-max_rounds": "",
            # Another game's fieldset, sent by a page without its script: not read.
            "rules-secret_santa": "1",
            "rules-secret_santa-deal_fallback": "nonsense",
        },
    )
    assert response.status_code == 302, response.context["league_form"].errors
    league = League.objects.get(slug="trap-cup")
    assert league.options == {
        "expert_cards": True,
        "packs": ["red", "blue"],
        "first_dealer": 2,
        "track_length": 30,
        "zone_size": 6,
        "max_rounds": None,
    }


def test_a_game_posted_without_its_fieldset_gets_the_standard_rules(world):
    response = browser(world.admin).post(
        club_url(world, "league-create"), {**LEAGUE, "game": "gift_swap"}
    )
    assert response.status_code == 302
    assert League.objects.get(slug="trap-cup").options == {
        "start_player": 0,
        "regift_own_row": True,
    }


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("zone_size", "40", "must be at most the track length"),
        ("track_length", "abc", "Enter a whole number"),
        ("max_rounds", "0", "greater than or equal to 1"),
        ("packs", None, "Pick at least one"),
        ("first_dealer", "99", "Select a valid choice"),
    ],
)
def test_invalid_house_rules_are_refused_beside_their_field(world, field, value, words):
    data = {
        **LEAGUE,
        "game": "gift_trap",
        "rules-gift_trap": "1",
        "rules-gift_trap-packs": ['"red"'],
        "rules-gift_trap-first_dealer": "0",
        "rules-gift_trap-track_length": "25",
        "rules-gift_trap-zone_size": "5",
    }
    name = field_name("gift_trap", field)
    if value is None:
        data.pop(name)
    else:
        data[name] = value
    response = browser(world.admin).post(club_url(world, "league-create"), data)
    assert response.status_code == 400
    errors = response.context["league_form"].errors
    assert list(errors) == [name]
    assert words in errors[name][0]
    assert words in response.content.decode()
    assert not League.objects.filter(slug="trap-cup").exists()
