"""The bulk import's check pool ends with the process it belongs to, however that ends.

A server stopped by SIGTERM (Django's runserver, as ``bin/serve`` runs it) or killed
left the pool's children and their forkserver running with no owner: each child waits
on a queue whose writing end every child holds, so none ever saw its end.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

OWNER = """
import os, time
import django
django.setup()
from multiprocessing import forkserver
from replays.bulk import validation_pool
pool = validation_pool()
for future in [pool.submit(os.getpid) for _ in range(4)]:
    future.result()
children = list(pool._processes)  # the pool's children (the executor's own table)
print(forkserver._forkserver._forkserver_pid, *children, flush=True)
time.sleep(120)
"""


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting to be reaped is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_the_pool_and_its_forkserver_end_when_their_owner_is_killed():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.test_settings",
        "SECRET_KEY": os.environ.get("SECRET_KEY", "pool-owner-test"),
        "IMPORT_WORKERS": "2",
        "PYTHONPATH": str(ROOT),
    }
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        pids = [int(word) for word in owner.stdout.readline().split()]
        assert len(pids) >= 2, "the forkserver and at least one child"
        assert all(running(pid) for pid in pids)
    finally:
        owner.send_signal(signal.SIGKILL)  # no atexit, no shutdown: as an OOM kill
        owner.wait()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(running(pid) for pid in pids):
        time.sleep(0.2)
    assert not [pid for pid in pids if running(pid)], "the pool outlived its owner"
