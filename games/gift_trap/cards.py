"""The GiftTRAP components: four packs of double-sided gift cards and the GET tokens.

The rulebook names no gifts, so the card texts are our own (interpretation I1
in docs/rules/gift_trap.md); what matters to the rules is that every physical
card has one id and two faces.
"""

from __future__ import annotations

from typing import Final

# Each pack: (id letter, price, 12 double-sided cards as (side a, side b)).
PACKS: Final[dict[str, tuple[str, str, tuple[tuple[str, str], ...]]]] = {
    "yellow": ("y", "$", (
        ("Rubber duck", "Bubble wrap"),
        ("Box of chalk", "Kazoo"),
        ("Fortune cookies", "Glow sticks"),
        ("Yo-yo", "Deck of cards"),
        ("Scented candle", "Bag of marbles"),
        ("Sticker book", "Novelty socks"),
        ("Jar of honey", "Paper lanterns"),
        ("Pocket notebook", "Bouncy ball"),
        ("Hot sauce", "Key ring"),
        ("Bath bomb", "Crossword book"),
        ("Packet of seeds", "Whoopee cushion"),
        ("Lip balm", "Temporary tattoos"),
    )),
    "red": ("r", "$$", (
        ("Board game", "Fancy teapot"),
        ("Cookbook", "Yoga mat"),
        ("Movie tickets", "Bird feeder"),
        ("Houseplant", "Juggling balls"),
        ("Wine glasses", "Jigsaw puzzle"),
        ("Wool scarf", "Headlamp"),
        ("Picnic blanket", "Comic box set"),
        ("Pizza stone", "Hammock"),
        ("Bonsai kit", "Karaoke microphone"),
        ("Sushi dinner", "Umbrella"),
        ("Cocktail shaker", "Magic kit"),
        ("Perfume sampler", "Garden gnome"),
    )),
    "blue": ("b", "$$$", (
        ("Espresso machine", "Telescope"),
        ("Spa day", "Electric guitar"),
        ("Camera drone", "Leather jacket"),
        ("Concert tickets", "Sewing machine"),
        ("Family tent", "Smart watch"),
        ("Road bike", "Record player"),
        ("Kayak", "Cooking class"),
        ("Hot-air balloon ride", "Tailored suit"),
        ("Snowboard", "Tablet"),
        ("Camera", "Bread maker"),
        ("Skydive", "Aquarium"),
        ("Golf clubs", "Virtual-reality headset"),
    )),
    "black": ("k", "$$$$", (
        ("Sports car", "Private island day"),
        ("Diamond ring", "Grand piano"),
        ("Yacht cruise", "Home cinema"),
        ("World tour", "Racehorse"),
        ("Vineyard share", "Helicopter ride"),
        ("Space flight", "Castle weekend"),
        ("Gold bar", "Hot tub"),
        ("Motorhome", "Original painting"),
        ("Safari", "Vintage guitar"),
        ("Swimming pool", "Personal chef for a year"),
        ("Penthouse stay", "Antique clock"),
        ("Jet ski", "Luxury watch"),
    )),
}
PACK_ORDER: Final[tuple[str, ...]] = ("yellow", "red", "blue", "black")
PACK_CARDS: Final[dict[str, tuple[str, ...]]] = {
    pack: tuple(f"gt-{letter}-{i:02d}" for i in range(1, len(cards) + 1))
    for pack, (letter, _price, cards) in PACKS.items()
}
CARD_NAMES: Final[dict[str, tuple[str, str]]] = {
    cid: PACKS[pack][2][i] for pack, ids in PACK_CARDS.items() for i, cid in enumerate(ids)
}
CARD_PACK: Final[dict[str, str]] = {cid: pack for pack, ids in PACK_CARDS.items() for cid in ids}
SIDES: Final = ("a", "b")

TOKENS: Final[tuple[str, ...]] = ("great", "good", "ok", "no_way")
TOKEN_VALUE: Final = {"great": 3, "good": 2, "ok": 1, "no_way": -4}
NO_MATCH_VALUE: Final = -1


def gift_name(card: str, side: str) -> str:
    """The gift shown by the face-up side of a card on the grid."""
    names = CARD_NAMES[card]
    return names[0] if side == "a" else names[1]

