"""The rules pages speak to players: how to play, and every house rule in plain words.

The maintainers' notes (file names, test names, card ids, option names) stay in
``docs/rules/<slug>.md``, shown apart as the fine print.
"""

from __future__ import annotations

import html
import re
from dataclasses import fields

import pytest

from games.registry import all_engines
from replays.house_rules import WORDS, OptionWords

pytestmark = pytest.mark.django_db

ENGINES = all_engines()


def visible_text(page: str) -> str:
    """The words a reader sees in the page's main part (no tags, no link targets)."""
    main = page.split("<main>", 1)[1].split("</main>", 1)[0]
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", main)))


@pytest.fixture(params=ENGINES, ids=lambda e: e.slug)
def engine(request):
    return request.param


def test_a_rules_page_tells_how_to_play(client, engine):
    page = client.get(f"/rules/{engine.slug}/").content.decode()
    text = visible_text(page)
    assert f"How to play {engine.name}" in text
    for heading in ("Setting up", "How it ends", "Scoring"):
        assert any(h in text for h in (heading, heading.replace("it ends", "a round ends"))), (
            heading
        )
    assert "turn" in text.lower()
    assert f"{engine.min_players}" in text
    assert f"{engine.max_players} players" in text


def test_a_rules_page_has_no_developer_words(client, engine):
    """No file paths, module or test names, card ids, option names or code."""
    page = client.get(f"/rules/{engine.slug}/").content.decode()
    main = page.split("<main>", 1)[1].split("</main>", 1)[0]
    text = visible_text(page)
    assert "<code>" not in main
    assert re.search(r"\.(py|md)\b", text) is None
    for word in ("games/", "docs/", "tests/", "test_", "engine", "seat 0", "null", "giftlog"):
        assert word not in text, word
    assert re.search(r"\b[a-z]+_[a-z_]+\b", text) is None, "no snake_case names"
    assert re.search(r"\bI\d+\b", text) is None, "no interpretation numbers"
    ids = [card for card in engine.card_catalog() if "-" in card]
    assert ids
    found = [card for card in ids if re.search(rf"(?<![\w-]){re.escape(card)}(?![\w-])", text)]
    assert found == []


def values_of(option):
    return [True, False] if option.kind == "bool" else list(option.choices)


def test_every_declared_option_is_explained_in_words(client, engine):
    page = client.get(f"/rules/{engine.slug}/").content.decode()
    assert 'id="options-house-rules"' in page, "the replay's 'what they mean' link lands here"
    words = WORDS[engine.slug]
    assert set(words) == {option.name for option in engine.options}, (
        "every declared option has player words, and no words for an option that is gone"
    )
    for option in engine.options:
        anchor = "option-" + option.name.replace("_", "-")
        section = page.split(f'id="{anchor}"', 1)[1].split("</section>", 1)[0]
        said = visible_text(f"<main>{section}</main>")
        assert option.label in said
        assert len(words[option.name].text) > 30
        if option.kind in ("bool", "choice", "list"):
            assert set(words[option.name].meanings) == set(values_of(option))
            for value, label in zip(values_of(option), option.choice_words, strict=True):
                assert label in said, (option.name, value)
                assert words[option.name].meanings[value] in said, (option.name, value)
            assert ("normally:" if option.kind == "list" else "(normal)") in said
        else:
            assert not words[option.name].meanings
            assert "Normally:" in said


def test_the_titles_and_value_labels_are_the_engines_words(client, engine):
    """One source for the short words: the page shows each option's ``label`` as its title
    and each value's ``choice_words``, the same words as the house-rules picker, and the
    page's own words hold only what the engine does not say (no title, label or seat)."""
    assert {f.name for f in fields(OptionWords)} == {"text", "meanings", "unit"}
    for words in WORDS[engine.slug].values():
        assert all(isinstance(meaning, str) for meaning in words.meanings.values())
    page = client.get(f"/rules/{engine.slug}/").content.decode()
    for option in engine.options:
        anchor = "option-" + option.name.replace("_", "-")
        section = page.split(f'id="{anchor}"', 1)[1].split("</section>", 1)[0]
        title = re.search(r"<h3>(.*?)</h3>", section, re.S)
        assert title is not None, option.name
        assert html.unescape(title.group(1)).strip() == option.label, option.name
        shown = [html.unescape(s) for s in re.findall(r"<li><strong>(.*?)</strong>", section)]
        if option.kind in ("bool", "choice", "list"):
            assert shown == list(option.choice_words), option.name
        else:
            assert shown == []


def test_the_fine_print_keeps_the_maintainers_notes(client, engine):
    page = client.get(f"/rules/{engine.slug}/").content.decode()
    assert f'href="/rules/{engine.slug}/notes/"' in page
    assert "Read the fine print" in page
    notes = client.get(f"/rules/{engine.slug}/notes/")
    assert notes.status_code == 200
    text = notes.content.decode()
    assert "Interpretations" in text or "Rulings" in text
    assert "how to play" in text.lower(), "the notes point players back to the rules"


def test_the_house_rules_show_seats_from_one_and_limits_in_words(client):
    page = visible_text(client.get("/rules/gift_trap/").content.decode())
    assert "Normally: seat 1 (the first player listed)" in page
    assert "Normally: no limit" in page
    assert "Normally: 25 spaces" in page
    assert "Any of these together; normally: Yellow ($), Red ($$), Blue ($$$), Black ($$$$)" in page
