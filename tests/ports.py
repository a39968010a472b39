"""Ports on the loopback for tests: one nothing listens on."""

from __future__ import annotations

import socket


def closed_port() -> int:
    """A port on which nothing listens now: a connection is refused at once (a server the
    test starts may bind it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
