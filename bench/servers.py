"""Processes the bench starts and stops: gunicorn, a Celery worker; an HTTP client.

Load comes from a second process (``wrk`` when installed, else a Python client
with threads), so the server's two cores are not shared with the client's loop
more than they must be.
"""

from __future__ import annotations

import gc
import http.client
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Self

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A web server of the bench in a child process on a free port, up once it answers.

    Subclasses say what to run (``command``) and with which settings; starting, the
    wait for ``/api/games/`` to answer and stopping are the same for every server.
    """

    name = "server"

    def __init__(self, env: dict[str, str]) -> None:
        self.port = free_port()
        self.env = env
        self.process: subprocess.Popen | None = None

    def command(self) -> list[str]:
        raise NotImplementedError

    def __enter__(self) -> Self:
        self.process = subprocess.Popen(
            self.command(),
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                status, _ = get(self.port, "/api/games/")
                if status == 200:
                    return self
            except OSError:
                time.sleep(0.2)
        self.__exit__()
        raise RuntimeError(f"{self.name} did not start")

    def __exit__(self, *exc: object) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
            self.process = None


class Gunicorn(Server):
    """gunicorn with config/gunicorn.py and the bench's bare views, on a free port."""

    name = "gunicorn"

    def __init__(self, env: dict[str, str], *, workers: int = 2) -> None:
        super().__init__(env)
        self.env = {
            **env,
            "DJANGO_SETTINGS_MODULE": "bench.settings",
            "WEB_CONCURRENCY": str(workers),
            "GUNICORN_BIND": f"127.0.0.1:{self.port}",
            "GUNICORN_ACCESSLOG": "",
        }

    def command(self) -> list[str]:
        # With BENCH_PROBE (a folder), each request is probed: ``bench.tail``.
        config = "bench/gunicorn_probe.py" if self.env.get("BENCH_PROBE") else "config/gunicorn.py"
        return [sys.executable, "-m", "gunicorn", "-c", config, "config.wsgi"]


class CeleryWorker:
    """A Celery worker on ``queues``: one process (``--pool=solo``), or, given
    ``concurrency``, the prefork pool compose runs (``--concurrency`` processes)."""

    def __init__(self, env: dict[str, str], queues: str, *, concurrency: int | None = None) -> None:
        self.env = {**env, "DJANGO_SETTINGS_MODULE": "config.settings"}
        self.queues = queues
        self.concurrency = concurrency
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> CeleryWorker:
        pool = (
            ["--pool=solo"]
            if self.concurrency is None
            else ["--pool=prefork", f"--concurrency={self.concurrency}"]
        )
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                *pool,
                "--without-gossip",
                "--without-mingle",
                "--loglevel=WARNING",
                "-Q",
                self.queues,
            ],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its pool's children are stopped with it
        )
        time.sleep(4)  # connected and consuming
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def get(
    port: int, path: str, *, timeout: float = 30, headers: dict[str, str] | None = None
) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"Host": "127.0.0.1", **(headers or {})})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def post(port: int, path: str, body: bytes, content_type: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    try:
        connection.request(
            "POST", path, body=body, headers={"Content-Type": content_type, "Host": "127.0.0.1"}
        )
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def timed_get(port: int, path: str, headers: dict[str, str] | None = None) -> float:
    """Seconds until ``path`` answered 200 (anything else raises), the bench's own
    garbage collector paused meanwhile: a full collection of this process's heap (the
    corpus, the samples) took 10-30 ms and landed in whichever request it fell in, the
    product's or the bare view's. Collections due run after the request, untimed."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        started = time.perf_counter()
        status, _ = get(port, path, headers=headers)
        taken = time.perf_counter() - started
    finally:
        if enabled:
            gc.enable()
    if status != 200:
        raise RuntimeError(f"{path} answered {status}")
    return taken


def latencies(port: int, paths: list[str], *, rounds: int) -> list[float]:
    """Sequential requests, ``rounds`` times over ``paths``: each one's seconds."""
    return [timed_get(port, path) for _ in range(rounds) for path in paths]


def workers_warm(
    port: int,
    paths: list[str],
    *,
    workers: int = 2,
    rounds: int = 3,
    headers: dict[str, str] | None = None,
) -> None:
    """Ask ``paths`` from ``workers`` clients at once, ``rounds`` times, so that every
    worker process has served them once (its imports, templates and memos made).

    Sequential requests mostly reach the one worker waiting in ``accept``: a figure
    taken after them met the other worker's first request of its life in its samples
    (300 ms for a dashboard, against 13 ms), a cost a server pays once, not per visit.
    """
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(workers) as pool:
        for _ in range(rounds):
            list(pool.map(lambda path: get(port, path, headers=headers), paths * workers))


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def throughput(port: int, path: str, *, seconds: float, connections: int = 8) -> float:
    """Requests per second at ``path`` (wrk if installed; else threads in a subprocess)."""
    url = f"http://127.0.0.1:{port}{path}"
    if shutil.which("wrk"):
        out = subprocess.run(
            ["wrk", "-t2", f"-c{connections}", f"-d{max(1, int(seconds))}s", url],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        match = re.search(r"Requests/sec:\s+([\d.]+)", out)
        non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        if non_2xx:
            raise RuntimeError(f"{path}: {non_2xx.group(1)} answers were not 200")
        return float(match.group(1)) if match else 0.0
    code = (
        "import sys,threading,time,http.client\n"
        "port,path,secs,n=int(sys.argv[1]),sys.argv[2],float(sys.argv[3]),int(sys.argv[4])\n"
        "count=[0]*n\nend=time.monotonic()+secs\n"
        "def run(i):\n"
        "    while time.monotonic()<end:\n"
        "        c=http.client.HTTPConnection('127.0.0.1',port);c.request('GET',path)\n"
        "        c.getresponse().read();c.close();count[i]+=1\n"
        "ts=[threading.Thread(target=run,args=(i,)) for i in range(n)]\n"
        "[t.start() for t in ts];[t.join() for t in ts];print(sum(count)/secs)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(port), path, str(seconds), str(connections)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return float(out.strip())


def tree_peak_rss(process: subprocess.Popen, *, interval: float = 0.05) -> int:
    """Peak resident memory (bytes) of a process and its descendants, polled until it exits."""
    peak = 0
    while process.poll() is None:
        peak = max(peak, _tree_rss(process.pid))
        time.sleep(interval)
    return peak


def _tree_rss(pid: int) -> int:
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        ppid = int(fields.get("PPid", "0").strip() or 0)
        children.setdefault(ppid, []).append(int(entry))
        rss[int(entry)] = int(fields.get("VmRSS", "0 kB").split()[0] or 0) * 1024
    total, stack = 0, [pid]
    while stack:
        current = stack.pop()
        total += rss.get(current, 0)
        stack.extend(children.get(current, []))
    return total


def median(values: list[float]) -> float:
    return statistics.median(values)


def in_thread(target, *args) -> threading.Thread:
    thread = threading.Thread(target=target, args=args, daemon=True)
    thread.start()
    return thread
