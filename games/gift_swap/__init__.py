"""Gift Swap: swap face-down gifts, keep or open them, and score the best row."""

from games.gift_swap.engine import ENGINE, GiftSwapEngine, State

__all__ = ["ENGINE", "GiftSwapEngine", "State"]
