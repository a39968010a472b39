"""manage.py simulate <game> --games N [--players P] [--seed S] [--bots mixed]."""

from __future__ import annotations

import json
import sys
import time

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.base import InvalidSetup
from games.registry import UnknownGame, engine_slugs, get_engine
from replays.simulation import BOT_MIXES, records_simulate


def progress_line(done: int, total: int, started: float, width: int = 30) -> str:
    filled = int(width * done / total) if total else width
    elapsed = time.monotonic() - started
    rate = done / elapsed if elapsed > 0 else 0.0
    return f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total}  {rate:.1f} games/s"


class Command(BaseCommand):
    help = (
        "Let bots play games and store them as records, exactly as uploads are stored, "
        "marked simulated (bot play)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", help=f"engine slug: {', '.join(engine_slugs())}")
        parser.add_argument("--games", type=int, default=10, help="how many games (default 10)")
        parser.add_argument(
            "--players", type=int, default=None, help="table size (default: random)"
        )
        parser.add_argument("--seed", type=int, default=None, help="seed for a repeatable run")
        parser.add_argument("--bots", choices=BOT_MIXES, default="mixed")
        parser.add_argument(
            "--options",
            dest="game_options",
            default="{}",
            help=(
                "game options as JSON, e.g. '{\"expert_cards\": true}' (default: the game's "
                "defaults; GiftTRAP simulations stop after 30 rounds unless max_rounds is given)"
            ),
        )
        parser.add_argument(
            "--demo",
            action="store_true",
            help=(
                'store the games as the demo data (meta.source "demo data"), played over '
                "the last 120 days; like every simulation they are simulated bot play, so "
                "no rating, leaderboard or real-play figure counts them (what demo_data does)"
            ),
        )

    def handle(
        self,
        *args,
        game: str,
        games: int,
        players: int | None,
        seed: int | None,
        bots: str,
        game_options: str,
        demo: bool = False,
        **options,
    ) -> None:
        try:
            engine = get_engine(game)
        except UnknownGame as exc:
            raise CommandError(str(exc)) from None
        if games < 1:
            raise CommandError("--games must be at least 1.")
        if players is not None and not engine.min_players <= players <= engine.max_players:
            raise CommandError(
                f"{engine.name} is played by {engine.min_players} to {engine.max_players} players."
            )
        try:
            variant = json.loads(game_options)
        except json.JSONDecodeError as exc:
            raise CommandError(f"--options is not JSON: {exc.msg}") from None
        try:
            engine.setup(players or engine.min_players, variant)
        except InvalidSetup as exc:
            raise CommandError(exc.message) from None
        started = time.monotonic()
        interactive = sys.stdout.isatty()
        stored = 0
        try:
            for done, (_, created) in enumerate(
                records_simulate(
                    game,
                    games=games,
                    num_players=players,
                    seed=seed,
                    bots=bots,
                    options=variant,
                    demo=demo,
                ),
                start=1,
            ):
                stored += created
                if interactive or done == games or done % max(1, games // 10) == 0:
                    end = "\n" if done == games or not interactive else "\r"
                    self.stdout.write(progress_line(done, games, started), ending=end)
                    self.stdout.flush()
        except InvalidSetup as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"{stored} new {engine.name} record{'s' if stored != 1 else ''} stored "
                f"({games - stored} already present) in {time.monotonic() - started:.1f}s."
            )
        )
