"""Upload and replay costs through the API, per game: the figures that grow with data.

    DEBUG=1 .venv/bin/python bench/api.py [--games 20]

Runs against a throw-away SQLite database (or DATABASE_URL's server, in a test
database) with Django's test client: upload = envelope check + full rules
replay + store + outbox; step = replay to the middle and the last step.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")

import django

django.setup()

from django.test.runner import DiscoverRunner  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from games.registry import all_engines  # noqa: E402
from replays.simulation import simulated_document  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="records per game")
    args = parser.parse_args()
    setup_test_environment()
    runner = DiscoverRunner(verbosity=0)
    old = runner.setup_databases()
    try:
        client = APIClient()
        print(
            f"{'game':<16}{'events':>8}{'upload ms':>11}{'events/s':>10}"
            f"{'mid step ms':>13}{'last step ms':>14}"
        )
        for engine in all_engines():
            rng = random.Random(7)
            uploads, mids, lasts, lengths = [], [], [], []
            for _ in range(args.games):
                n = rng.randint(engine.min_players, engine.max_players)
                document = simulated_document(engine.slug, num_players=n, rng=rng)
                started = time.perf_counter()
                response = client.post("/api/records/", document, format="json")
                uploads.append(time.perf_counter() - started)
                assert response.status_code == 201, response.content[:300]
                record_id, last = response.json()["id"], len(document["events"])
                lengths.append(last)
                for step, bucket in ((last // 2, mids), (last, lasts)):
                    started = time.perf_counter()
                    assert client.get(f"/api/records/{record_id}/steps/{step}/").status_code == 200
                    bucket.append(time.perf_counter() - started)
            mean_events = statistics.mean(lengths)
            upload = statistics.mean(uploads)
            print(
                f"{engine.slug:<16}{mean_events:>8.0f}{upload * 1000:>11.1f}"
                f"{sum(lengths) / sum(uploads):>10,.0f}{statistics.mean(mids) * 1000:>13.1f}"
                f"{statistics.mean(lasts) * 1000:>14.1f}"
            )
    finally:
        runner.teardown_databases(old)


if __name__ == "__main__":
    main()
