"""GiftTRAP in words: each event told to everyone, its maker and another seat; move labels."""

from __future__ import annotations

from games.gift_trap import ENGINE, PACK_CARDS, State
from games.gift_trap.words import SUMMED_FROM, move_sentence, move_words, moves_summary
from games.voice import Voice
from tests.games.words import check_labels, check_sentence

E = ENGINE


def ev(by: int | str, do: str, **fields: object) -> dict:
    return {"by": by, "do": do, **fields}


def told(event: dict, state: State) -> dict[int | None, str]:
    """The sentence for everyone (None) and for each seat, checked by the shared rules."""
    after = E.apply(state, event)
    out: dict[int | None, str] = {}
    for seat in [None, *range(state.n)]:
        text = E.describe(event, seat, state, after)
        visible = [E.event_view(event, seat, state), E.view(state, seat), E.view(after, seat)]
        check_sentence(E, text, state.n, seat, visible, f"{event} to {seat}")
        out[seat] = text
    return out


def chosen(n: int = 3, **options: object) -> State:
    s = E.setup(n, options)
    return E.apply(s, ev(0, "choose_pack", pack="yellow"))


def dealt(n: int = 3, **options: object) -> State:
    """Gifts 1..n+1 are gt-y-01.. side a: Rubber duck, Box of chalk, Fortune cookies, Yo-yo."""
    s = chosen(n, **options)
    cards = [f"gt-y-{i:02d}" for i in range(1, n + 2)]
    return E.apply(s, ev("chance", "deal", cards=cards, sides=["a"] * (n + 1)))


def given(s: State, more: int | None = None) -> State:
    """Seat g gives seat r gift (r - g) % n + 1; seat 0's Give More goes to ``more``."""
    for g in range(s.n):
        for r in range(s.n):
            if g != r:
                extra = {"more": g == 0 and r == more} if s.expert else {}
                s = E.apply(s, ev(g, "give", to=r, gift=(r - g) % s.n + 1, **extra))
    return s


def placed(s: State, get_more: int | None = None) -> State:
    """Everyone: GREAT 1, GOOD 2, OK 3, NO WAY 4; seat 1's Get More under ``get_more``."""
    for seat in range(s.n):
        for token, gift in zip(("great", "good", "ok", "no_way"), (1, 2, 3, 4), strict=True):
            s = E.apply(s, ev(seat, "get", token=token, gift=gift))
        if s.expert:
            s = E.apply(s, ev(seat, "get_more", **{"from": get_more if seat == 1 else None}))
    return s


# -- the catalog --------------------------------------------------------------------------
def test_catalog_names_both_sides_of_every_card():
    catalog = E.card_catalog()
    assert len(catalog) == 48
    assert set(catalog) == {c for ids in PACK_CARDS.values() for c in ids}
    duck = catalog["gt-y-01"]
    assert duck["name"] == "Rubber duck / Bubble wrap"
    assert duck["colour"] == "yellow"
    assert duck["value"] is None
    assert duck["kind"] == "Yellow pack ($)"
    assert "Rubber duck on one side, Bubble wrap on the other" in duck["text"]
    assert catalog["gt-k-01"]["colour"] == "black"
    assert E.card_catalog() is catalog  # cached


# -- each event ----------------------------------------------------------------------------
def test_choose_pack():
    s = E.setup(3, {})
    words = told(ev(0, "choose_pack", pack="red"), s)
    assert words[None] == "{p0} chooses the red pack ($$) for round 1."
    assert words[1] == words[None]
    assert words[0] == "You choose the red pack ($$) for round 1."
    assert E.describe(ev(0, "choose_pack", pack="red"), 1) == "{p0} chooses the red pack ($$)."


def test_deal_names_the_face_up_gifts_in_grid_order():
    s = chosen()
    event = ev(
        "chance",
        "deal",
        cards=["gt-y-01", "gt-y-02", "gt-y-03", "gt-y-04"],
        sides=["b", "a", "a", "b"],
    )
    words = told(event, s)
    assert words[None] == (
        "{p0} deals 4 yellow gifts onto the grid: 1 Bubble wrap, 2 Box of chalk, "
        "3 Fortune cookies and 4 Deck of cards."
    )
    assert words[2] == words[None]  # the grid is public
    assert "Rubber duck" not in words[None]  # the side face down is not named
    assert E.describe(event, 1).startswith("The dealer deals 4 yellow gifts onto the grid: ")


def test_give_is_secret_but_for_its_giver():
    s = dealt()
    event = ev(1, "give", to=2, gift=3)
    words = told(event, s)
    assert words[1] == "You give {p2} gift 3 (Fortune cookies), face down."
    assert words[None] == "{p1} gives {p2} gift 3 (Fortune cookies), face down."
    assert words[2] == "{p1} gives you a GIVE token, face down."
    assert words[0] == "{p1} gives {p2} a GIVE token, face down."
    assert "Fortune" not in words[2]
    assert "3" not in words[0]
    assert E.label(event, 1, s) == "Give gift 3 (Fortune cookies) to {p2}."


def test_give_with_the_give_more_card():
    s = dealt(expert_cards=True)
    event = ev(0, "give", to=1, gift=2, more=True)
    words = told(event, s)
    assert words[0] == "You give {p1} gift 2 (Box of chalk), face down, with the Give More card."
    assert words[1] == "{p0} gives you a GIVE token, face down."
    assert "More" not in words[2]
    assert E.label(event, 0, s) == "Give gift 2 (Box of chalk) to {p1} with Give More."
    assert E.label({**event, "more": False}, 0, s) == "Give gift 2 (Box of chalk) to {p1}."


def test_a_seats_gives_are_labelled_alike_one_by_one_and_all_at_once():
    """``labels`` remembers a give's words across seats and calls; the words are the same
    as ``label``'s, gift names from the grid, and a value that cannot be a key is told
    without the memo."""
    s = dealt(expert_cards=True)
    for seat in range(3):
        moves = E.legal_events(s, seat)
        assert len(moves) > 10
        assert E.labels(moves, seat, s) == [E.label(event, seat, s) for event in moves]
        assert E.labels(moves, seat, s) == E.labels(moves, seat, s)
    odd = ev(0, "give", to=[1], gift={"n": 2})
    assert E.label(odd, 0, s) == "Give gift {'n': 2} to a player."
    assert E.labels([odd], 0, s) == ["Give gift {'n': 2} to a player."]


def test_labels_named_says_each_move_as_told_alone_whatever_its_fields():
    """Every move, well formed or not (an unhashable gift or receiver, Give More as any
    value, a gift off the grid), gets from ``labels_named`` the label ``_move_told`` gives
    it alone; and the memo of gives' words keeps gift 1 apart from gift True and 1.0,
    which are equal keys to a plain memo (a give of gift True, labelled first, was said
    for gift 1 after it)."""
    import random

    from games.gift_trap.words import _move_told, labels_named

    rng = random.Random(4)
    names = {1: "Rubber duck", 2: "Box of chalk", 3: "Yo-yo <&>"}
    values = [1, 2, 3, 9, 0, -1, True, None, "2", [3], {"g": 1}, 2.0]
    kinds = ["give", "give", "give", "get", "gifttrap", "reveal", "choose_pack", "nonsense"]
    events = []
    for _ in range(600):
        event: dict = {"by": rng.choice([0, 1, 2]), "do": rng.choice(kinds)}
        for field in ("gift", "to", "more", "token", "from", "pack"):
            if rng.random() < 0.7:
                event[field] = rng.choice([*values, "yellow", "red_2", False])
        events.append(event)
    for chosen in (names, {}):
        assert labels_named(events, chosen) == [_move_told(e, chosen) for e in events]
    # Gift True and 1.0 were told above: the memo keeps gift 1 apart from them.
    for gift, said in ((True, "gift True"), (1.0, "gift 1.0"), (1, "gift 1")):
        give = {"by": 0, "do": "give", "gift": gift, "to": 2}
        assert labels_named([give], names) == [f"Give {said} (Rubber duck) to {{p2}}."]


def test_get_token_is_secret_but_for_its_owner():
    s = given(dealt())
    event = ev(2, "get", token="no_way", gift=4)
    words = told(event, s)
    assert words[2] == "You put the NO WAY token on gift 4 (Yo-yo)."
    assert words[0] == "{p2} places a GET token face down (1 of 4 placed)."
    assert words[1] == words[0]
    assert "NO WAY" not in words[0]
    assert "Yo-yo" not in words[1]
    assert E.describe(event, 0) == "{p2} places a GET token face down."
    assert E.label(event, 2, s) == "Put NO WAY on gift 4 (Yo-yo)."


def test_get_more_choice_is_secret_until_the_reveal():
    s = given(dealt(expert_cards=True))
    for token, gift in zip(("great", "good", "ok", "no_way"), (1, 2, 3, 4), strict=True):
        s = E.apply(s, ev(1, "get", token=token, gift=gift))
    under = ev(1, "get_more", **{"from": 2})
    words = told(under, s)
    assert words[1] == "You slide the Get More card under {p2}'s GIVE token."
    assert words[0] == "{p1} makes a secret choice with the Get More card."
    assert words[2] == words[0]
    keep = ev(1, "get_more", **{"from": None})
    assert told(keep, s)[1] == "You keep the Get More card in hand this round."
    assert E.label(under, 1, s) == "Put Get More under {p2}'s GIVE token."
    assert E.label(keep, 1, s) == "Keep Get More in hand this round."


def test_reveal_gets_turns_over_all_four_tokens_for_everyone():
    s = placed(given(dealt(expert_cards=True)), get_more=0)
    event = ev(0, "reveal_gets")
    words = told(event, s)
    assert words[2] == (
        "{p0} turns over their GET tokens: GREAT on gift 1 (Rubber duck), GOOD on gift 2 "
        "(Box of chalk), OK on gift 3 (Fortune cookies) and NO WAY on gift 4 (Yo-yo), "
        "keeping Get More in hand."
    )
    assert words[1] == words[None] == words[2]
    assert words[0].startswith("You turn over your GET tokens: GREAT on gift 1 (Rubber duck)")
    assert E.describe(event, 2) == "{p0} turns over the four GET tokens."
    assert E.label(event, 0, s) == "Turn over your GET tokens."


def test_reveal_scores_one_gift_for_giver_and_receiver():
    s = placed(given(dealt(expert_cards=True), more=1), get_more=0)
    s = E.apply(s, ev(0, "reveal_gets"))
    s = E.apply(s, ev(0, "reveal", **{"from": 1}))
    s = E.apply(s, ev(0, "reveal", **{"from": 2}))
    s = E.apply(s, ev(1, "reveal_gets"))
    event = ev(1, "reveal", **{"from": 0})  # seat 0 gave seat 1 gift 2 with Give More
    words = told(event, s)
    assert words[2] == (
        "{p1} turns over gift 2 (Box of chalk) from {p0}, a GOOD match: "
        "{p0} moves 4 up the GIVE track (doubled by Give More), "
        "and {p1} moves 4 up the GET track (doubled by Get More)."
    )
    assert words[None] == words[2]
    assert words[0] == (
        "{p1} turns over gift 2 (Box of chalk) from you, a GOOD match: "
        "you move 4 up the GIVE track (doubled by Give More), "
        "and {p1} moves 4 up the GET track (doubled by Get More)."
    )
    assert E.describe(event, 2) == "{p1} turns over the GIVE token from {p0}."
    assert E.label(event, 1, s) == "Turn over the GIVE token from {p0}."


def test_reveal_at_go_and_the_end_of_the_round_are_said():
    s = placed(given(dealt()))
    text = ""
    for r in range(3):
        s = E.apply(s, ev(r, "reveal_gets"))
        for g in range(3):
            if g != r:
                before, event = s, ev(r, "reveal", **{"from": g})
                s = E.apply(s, event)
                text = E.describe(event, 1, before, s)
                if (r, g) == (0, 1):  # Ben gave Ana gift 3: her OK
                    assert text == (
                        "{p0} turns over gift 3 (Fortune cookies) from you, an OK match: "
                        "you move 1 up the GIVE track, and {p0} moves 1 up the GET track."
                    )
                if (r, g) == (1, 0):  # Ana gave Ben gift 2, his GOOD
                    assert "a GOOD match" in text
    assert text.endswith("; that ends round 1.")


def test_a_loss_held_at_go_says_so():
    s = given(dealt())
    for seat in range(3):
        for token, gift in zip(("great", "good", "ok", "no_way"), (4, 1, 2, 3), strict=True):
            s = E.apply(s, ev(seat, "get", token=token, gift=gift))
    s = E.apply(s, ev(0, "reveal_gets"))
    event = ev(0, "reveal", **{"from": 1})  # gift 3: Ana's NO WAY, both at GO
    words = told(event, s)
    assert words[2] == (
        "{p0} turns over gift 3 (Fortune cookies) from {p1}, a NO WAY: "
        "{p1}'s GIVE marker stays at GO, the start, and {p0}'s GET marker stays at GO, the start."
    )
    assert words[0] == (
        "You turn over gift 3 (Fortune cookies) from {p1}, a NO WAY: "
        "{p1}'s GIVE marker stays at GO, the start, and your GET marker stays at GO, the start."
    )


def test_gifttrap_is_shouted_for_all():
    s = dealt(expert_cards=True)
    event = ev(2, "gifttrap", gift=1)
    words = told(event, s)
    assert words[0] == (
        "{p2} shouts GiftTRAP and blocks gift 1 (Rubber duck) for the rest of the round."
    )
    assert words[None] == words[1] == words[0]
    assert words[2] == (
        "You shout GiftTRAP and block gift 1 (Rubber duck) for the rest of the round."
    )
    assert E.label(event, 2, s) == "Play GiftTRAP on gift 1 (Rubber duck)."


def test_a_trapped_gift_moves_nobody():
    s = placed(given(dealt(expert_cards=True)))
    s = E.apply(s, ev(2, "gifttrap", gift=3))
    s = E.apply(s, ev(0, "reveal_gets"))
    words = told(ev(0, "reveal", **{"from": 1}), s)
    assert words[1] == (
        "{p0} turns over gift 3 (Fortune cookies) from you, but it is GiftTRAPped so nobody moves."
    )


def test_a_marker_at_the_end_of_its_track_is_told_in_words():
    """Not "GET 0 for jo (stops at GIFTED)": the marker stays at the end, or moves part way."""
    me = Voice(1)
    assert move_sentence(me, "GET", 1, "good", 0, False) == (
        "your GET marker stays at the end of the track"
    )
    assert move_sentence(me, "GET", 0, "great", 1, False) == (
        "{p0} moves 1 up the GET track, to the end of the track (3 called for)"
    )
    assert move_sentence(me, "GIVE", 1, "no_way", -1, False) == (
        "you move 1 back down the GIVE track, back to GO, the start (4 called for)"
    )
    assert move_sentence(Voice(None), "GIVE", 2, "great", 6, True) == (
        "{p2} moves 6 up the GIVE track (doubled by Give More)"
    )
    # The drawn table's short form says the same in its own words.
    assert move_words("GET", "Jo", "good", 0, False) == (
        "GET 0 for Jo (already at the end of the track)"
    )
    assert move_words("GIVE", "Jo", "no_way", 0, False) == (
        "GIVE 0 for Jo (already at GO, the start)"
    )


# -- labels ----------------------------------------------------------------------------------
def test_choose_pack_labels():
    s = E.setup(3, {"packs": ["red", "black"]})
    labels = [E.label(e, 0, s) for e in E.legal_events(s, 0)]
    assert labels == ["Deal from the red pack ($$).", "Deal from the black pack ($$$$)."]


def test_every_move_in_each_step_has_its_own_label():
    s = dealt(4, expert_cards=True)
    check_labels(E, s, 4, 0)
    s = given(s)
    check_labels(E, s, 4, 1)
    s = placed(s)
    check_labels(E, s, 4, 2)
    s = E.apply(s, ev(0, "reveal_gets"))
    check_labels(E, s, 4, 3)
    labels = {E.label(e, 0, s) for e in E.legal_events(s, 0)}
    assert "Turn over the GIVE token from {p3}." in labels
    assert "Play GiftTRAP on gift 5 (Scented candle)." in labels


def test_a_seats_many_moves_are_summed_up_only_when_they_are_every_pairing():
    """``moves_summary`` says a giving's moves (every gift to every other seat, with or
    without Give More) and a GET step's (every token on every gift) in one sentence, each
    choice once; a set missing one pairing, or holding another kind of move, is not summed
    up (the sentence would say a move the seat does not have)."""
    s = dealt(4, expert_cards=True)
    moves = E.legal_events(s, 0)
    gives = [event for event in moves if event["do"] == "give"]
    assert len(gives) == 5 * 3 * 2  # gifts on the grid x other seats x with/without Give More
    assert len(moves) == len(gives) + 5  # and the GiftTRAP card on any gift
    assert moves_summary(moves) == (
        "Give gift 1, 2, 3, 4 or 5 to {p1}, {p2} or {p3}, with or without Give More; "
        "or play GiftTRAP on gift 1, 2, 3, 4 or 5."
    )
    assert moves_summary(list(reversed(moves))) == (
        "Play GiftTRAP on gift 1, 2, 3, 4 or 5; or give gift 1, 2, 3, 4 or 5 to {p1}, {p2} "
        "or {p3}, with or without Give More."
    )
    plain = [event for event in gives if not event["more"]]
    assert moves_summary(plain) == "Give gift 1, 2, 3, 4 or 5 to {p1}, {p2} or {p3}."
    assert moves_summary(moves[1:]) is None
    assert moves_summary(plain[: SUMMED_FROM - 1]) is None
    assert moves_summary([*plain, ev(0, "get_more", **{"from": 1})]) is None
    assert moves_summary([*plain[1:], {**plain[0], "note": "x"}]) is None
    assert moves_summary([*plain[1:], {**plain[0], "gift": "1"}]) is None
    assert moves_summary([*plain, plain[0]]) is None
    gets = E.legal_events(given(dealt(4)), 1)
    assert {event["do"] for event in gets} == {"get"}
    assert moves_summary(gets) == "Put GREAT, GOOD, OK or NO WAY on gift 1, 2, 3, 4 or 5."
    assert moves_summary([e for e in gets if e["token"] != "ok"]) == (
        "Put GREAT, GOOD or NO WAY on gift 1, 2, 3, 4 or 5."
    )
    assert moves_summary(gets[:-1]) is None
