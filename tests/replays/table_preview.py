"""Draw one step of a bot game to an HTML file (and a PNG with Chromium) to look at it.

    .venv/bin/python -m tests.replays.table_preview gift_swap --players 3 --seed 1 \
        --step 30 --seat 0 --out /tmp/preview   # writes /tmp/preview.html and .png

For people working on a drawing module; the replay page shows the same HTML.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
from pathlib import Path

import django

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--step", type=int, default=-1, help="events applied; -1: the end")
    parser.add_argument("--seat", type=int, default=None)
    parser.add_argument("--width", type=int, default=1200)
    parser.add_argument("--out", default="/tmp/table-preview")
    args = parser.parse_args()

    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
    django.setup()
    from games.play import self_play
    from games.registry import get_engine
    from tests.replays.tables_check import drawn

    engine = get_engine(args.game)
    events, _ = self_play(engine, args.players, rng=random.Random(args.seed))
    from games.play import replay

    step = len(events) if args.step < 0 else min(args.step, len(events))
    state = replay(engine, args.players, None, events[:step])
    names = ["Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal"][: args.players]
    html = drawn(engine, state, args.seat, names)
    css = [ROOT / "replays/static/replays/table.css"]
    game_css = ROOT / f"replays/static/replays/tables/{args.game}.css"
    if game_css.exists():
        css.append(game_css)
    links = "".join(f'<link rel="stylesheet" href="file://{path}">' for path in css)
    page = (
        f'<!doctype html><meta charset="utf-8"><meta name="viewport" '
        f'content="width=device-width, initial-scale=1">{links}'
        f'<body style="font-family: system-ui, sans-serif; margin: 1rem">'
        f"<p>{args.game}, step {step} of {len(events)}, seat {args.seat}</p>{html}</body>"
    )
    out = Path(args.out)
    out.with_suffix(".html").write_text(page)
    browser = shutil.which("chromium")
    if browser:
        subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--disable-background-networking",
             f"--user-data-dir=/tmp/preview-profile-{os.getpid()}",
             f"--window-size={args.width},1400", f"--screenshot={out.with_suffix('.png')}",
             f"file://{out.with_suffix('.html')}"],
            check=False, capture_output=True, timeout=60,
        )
    print(out.with_suffix(".html"), out.with_suffix(".png") if browser else "(no chromium)")


if __name__ == "__main__":
    main()
