"""A bounded load run on the loopback: concurrent clients mixing uploads, live moves and
replays against gunicorn on PostgreSQL, for a fixed time. Prints p50 and p99 per kind
and overall, and the error count (any answer other than the expected status, or a
failed connection, is an error).

    .venv/bin/python bench/load.py [--clients 50] [--seconds 60] [--workers 3]
        [--database-url postgres://postgres@127.0.0.1:5432/giftbox_load]

The database named by --database-url is DROPPED and created afresh, then migrated.
gunicorn runs the production settings (DEBUG off) with Celery eager, so every upload
also ingests its analytics in the request: the heaviest an upload gets. Each client is
a thread with its own keep-alive connection; each request is one of
  upload         POST /api/records/ of a game nobody uploaded yet (201)
  replay_step    GET /api/records/{id}/steps/{k}/?seat=s of a stored record (200)
  replay_timeline GET /api/records/{id}/timeline/ (200)
  live_open      POST /api/live/ against bots (201), then per turn
  live_view      GET /api/live/{id}/ with the seat token (200) and
  live_move      POST /api/live/{id}/events/ of a legal event (201)
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WEIGHTS = {"upload": 25, "replay": 40, "live": 35}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_recreate(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def documents(count: int, seed: int) -> list[dict]:
    """Finished bot games of every game (generated before the clock starts)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only")
    import django

    django.setup()
    from games.registry import engine_slugs, get_engine
    from replays.simulation import simulated_document

    rng = random.Random(seed)
    games = engine_slugs()
    made = []
    for number in range(count):
        game = games[number % len(games)]
        engine = get_engine(game)
        n = rng.randint(engine.min_players, min(engine.max_players, 4))
        made.append(simulated_document(game, num_players=n, rng=rng, simulated=False))
    return made


class Client:
    """One simulated user: a keep-alive connection and a live game of its own."""

    def __init__(self, port: int, shared: Shared, rng: random.Random) -> None:
        self.port = port
        self.shared = shared
        self.rng = rng
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.live: dict | None = None

    def request(self, kind: str, method: str, path: str, expect: int, body=None, token=None):
        headers = {"Accept": "application/json", "Host": "127.0.0.1"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Seat {token}"
        started = time.perf_counter()
        try:
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            payload = response.read()
            status = response.status
        except (OSError, http.client.HTTPException) as exc:
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            self.shared.record(kind, time.perf_counter() - started, f"{method} {path}: {exc!r}")
            return None
        elapsed = time.perf_counter() - started
        if status != expect:
            self.shared.record(kind, elapsed, f"{method} {path}: {status} {payload[:200]!r}")
            return None
        self.shared.record(kind, elapsed, None)
        return json.loads(payload) if payload else {}

    def upload(self) -> None:
        document = self.shared.next_document()
        if document is None:
            return self.replay()
        answer = self.request("upload", "POST", "/api/records/", 201, body=document)
        if answer:
            self.shared.add_record(answer["id"], len(document["events"]), len(document["players"]))
        return None

    def replay(self) -> None:
        record_id, events, players = self.shared.some_record(self.rng)
        if self.rng.random() < 0.7:
            step = self.rng.randint(0, events)
            seat = self.rng.randrange(players)
            path = f"/api/records/{record_id}/steps/{step}/?seat={seat}"
            self.request("replay_step", "GET", path, 200)
        else:
            self.request("replay_timeline", "GET", f"/api/records/{record_id}/timeline/", 200)

    def play(self) -> None:
        if self.live is None:
            game = self.rng.choice(["secret_santa", "gift_swap", "gift_economy", "gift_trap"])
            players = ["load", "bot-1", "bot-2"]
            body = {"game": game, "players": players, "bots": {"1": "greedy", "2": "random"}}
            answer = self.request("live_open", "POST", "/api/live/", 201, body=body)
            if answer:
                self.live = {"id": answer["id"], "token": answer["seat_tokens"][0]}
            return
        live_id, token = self.live["id"], self.live["token"]
        view = self.request("live_view", "GET", f"/api/live/{live_id}/", 200, token=token)
        if view is None or view["status"] != "live" or not view["legal_events"]:
            if view is None or view["status"] != "live":
                self.live = None
            return
        event = self.rng.choice(view["legal_events"])
        body = {"step": view["step"], "event": event}
        path = f"/api/live/{live_id}/events/"
        self.request("live_move", "POST", path, 201, body=body, token=token)

    def run(self, until: float) -> None:
        kinds = list(WEIGHTS)
        weights = list(WEIGHTS.values())
        while time.monotonic() < until:
            kind = self.rng.choices(kinds, weights)[0]
            {"upload": self.upload, "replay": self.replay, "live": self.play}[kind]()
        self.connection.close()


class Shared:
    def __init__(self, docs: list[dict]) -> None:
        self.lock = threading.Lock()
        self.docs = docs
        self.records: list[tuple[int, int, int]] = []
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []

    def next_document(self) -> dict | None:
        with self.lock:
            return self.docs.pop() if self.docs else None

    def add_record(self, record_id: int, events: int, players: int) -> None:
        with self.lock:
            self.records.append((record_id, events, players))

    def some_record(self, rng: random.Random) -> tuple[int, int, int]:
        with self.lock:
            return rng.choice(self.records)

    def record(self, kind: str, seconds: float, error: str | None) -> None:
        with self.lock:
            self.latencies[kind].append(seconds)
            if error:
                self.errors.append(f"{kind}: {error}")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--worker-class", default="sync", help="gunicorn's (the image's: sync)")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/giftbox_load")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    print(f"load: preparing {args.database_url} (dropped and migrated)", flush=True)
    database_recreate(args.database_url)
    env = {
        **os.environ,
        "DATABASE_URL": args.database_url,
        "SECRET_KEY": "bench-only-secret-key",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_COOKIES": "0",
        "ALLOW_ANONYMOUS_UPLOADS": "1",
        "THROTTLE_ANON": "1000000/min",
        "CELERY_BROKER_URL": "",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--verbosity", "0"], cwd=ROOT, env=env, check=True
    )
    os.environ.update({"DATABASE_URL": args.database_url, "SECRET_KEY": env["SECRET_KEY"]})
    docs = documents(args.clients * 40 + 50, args.seed)
    seeds, docs = docs[:30], docs[30:]

    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(args.workers),
            "--worker-class",
            args.worker_class,
            "--backlog",
            "2048",
            "--timeout",
            "120",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                probe = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                probe.request("GET", "/api/games/", headers={"Host": "127.0.0.1"})
                if probe.getresponse().status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                print("load: gunicorn did not start", file=sys.stderr)
                return 2
            time.sleep(0.2)
        shared = Shared(docs)
        warm = Client(port, shared, random.Random(0))
        for document in seeds:  # something to replay from the first second
            answer = warm.request("seed", "POST", "/api/records/", 201, body=document)
            if answer:
                shared.add_record(answer["id"], len(document["events"]), len(document["players"]))
        shared.latencies.pop("seed", None)
        if shared.errors:
            print("load: seeding failed:", shared.errors[:3], file=sys.stderr)
            return 2
        print(
            f"load: {args.clients} clients for {args.seconds:.0f} s against gunicorn "
            f"({args.workers} {args.worker_class} workers) on PostgreSQL",
            flush=True,
        )
        until = time.monotonic() + args.seconds
        started = time.monotonic()
        threads = [
            threading.Thread(
                target=Client(port, shared, random.Random(args.seed * 1000 + n)).run, args=(until,)
            )
            for n in range(args.clients)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        took = time.monotonic() - started
    finally:
        server.terminate()
        server.wait(timeout=30)

    everything = [v for values in shared.latencies.values() for v in values]
    print(f"\n{'kind':<16}{'requests':>9}{'p50 ms':>10}{'p99 ms':>10}")
    for kind in sorted(shared.latencies):
        values = shared.latencies[kind]
        print(
            f"{kind:<16}{len(values):>9}{percentile(values, 0.5) * 1000:>10.1f}"
            f"{percentile(values, 0.99) * 1000:>10.1f}"
        )
    print(
        f"{'overall':<16}{len(everything):>9}{percentile(everything, 0.5) * 1000:>10.1f}"
        f"{percentile(everything, 0.99) * 1000:>10.1f}"
    )
    print(
        f"\n{len(everything) / took:.1f} requests/s over {took:.1f} s; errors: {len(shared.errors)}"
    )
    for error in shared.errors[:10]:
        print("  ", error)
    return 1 if shared.errors else 0


if __name__ == "__main__":
    sys.exit(main())
