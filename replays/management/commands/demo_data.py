"""manage.py demo_data: bot games for every game, once (skipped if records exist).

The demo data is simulated bot play (``meta.simulated``, ``meta.source`` "demo data",
players ``bot-ana``, ``bot-ben``... of kind bot): the dashboards show it under
"simulated", the lists mark it, and no rating, leaderboard or standing counts it.
"""

from __future__ import annotations

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from games.registry import engine_slugs
from replays.models import Record


class Command(BaseCommand):
    help = (
        "Store bot games of every game that has no records yet, as the demo data: marked "
        "simulated, so the dashboards and the replay viewer have something to show while "
        "ratings and leaderboards wait for games people play."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=30, help="games per game (default 30)")

    def handle(self, *args, games: int, **options) -> None:
        for slug in engine_slugs():
            if Record.objects.filter(game=slug).exists():
                self.stdout.write(f"{slug}: records present, nothing to add")
                continue
            self.stdout.write(f"{slug}: simulating {games} games")
            call_command("simulate", slug, games=games, seed=2026, demo=True, stdout=self.stdout)
