"""Gift Gift Gone: collect three of a gift to claim it, swap and steal claimed gifts,
trade blind; first to 50 points on the table (60 with 2-3 players) wins.

Rulings and the event vocabulary: docs/rules/gift_gift_gone.md.
"""

from games.gift_gift_gone.engine import GGGState, GiftGiftGoneEngine

ENGINE = GiftGiftGoneEngine()

__all__ = ["ENGINE", "GGGState", "GiftGiftGoneEngine"]
