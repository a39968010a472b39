"""Gift Economy: see ``engine.py`` and ``docs/rules/gift_economy.md``."""

from games.gift_economy.engine import ENGINE, GiftEconomyEngine

__all__ = ["ENGINE", "GiftEconomyEngine"]
