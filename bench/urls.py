"""The product's URLs plus ``/bench/bare/<key>/``: a bare Django view, the reference.

The bare view returns bytes saved beforehand (``BENCH_BODIES``/<key>), read
once per process: the cost of Django's request cycle and nothing else, so a
product endpoint's figure can be put against the same body in the same run.

The bodies a process read are kept up to ``KEPT_BYTES`` in all, least recently used out
(the product's own store of bodies, ``replays.response_cache.LocalBodies``; a body over a
quarter of it, none here, would be read from its file at every ask). Kept without a
bound, the viewer group's 2,304 never-asked steps left about 50 MB of bodies in each web
worker, the very processes whose answers the bench times: the product's first visits
there got slower as the heap grew (p50 1.26-1.90 ms against 1.07-1.65 with the bound, in
runs of the same code), a cost no server of the product carries.
"""

from __future__ import annotations

import os
from pathlib import Path

from django.http import HttpResponse
from django.urls import include, path

from replays.response_cache import LocalBodies

KEPT_BYTES = 8 << 20  # a timeline of the longest game is about 1.1 MB, a table 30-40 KB
_BODIES = LocalBodies(KEPT_BYTES)


def bare(request, key: str) -> HttpResponse:
    body = _BODIES.get(key)
    if body is None:
        body = (Path(os.environ.get("BENCH_BODIES", "/tmp")) / key).read_bytes()
        _BODIES.put(key, body)
    kind = "text/html; charset=utf-8" if key.endswith(".html") else "application/json"
    return HttpResponse(body, content_type=kind)


urlpatterns = [path("bench/bare/<str:key>/", bare), path("", include("config.urls"))]
