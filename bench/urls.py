"""The product's URLs plus ``/bench/bare/<key>/``: a bare Django view, the reference.

The bare view returns bytes saved beforehand (``BENCH_BODIES``/<key>), read
once per process: the cost of Django's request cycle and nothing else, so a
product endpoint's figure can be put against the same body in the same run.
"""

from __future__ import annotations

import os
from pathlib import Path

from django.http import HttpResponse
from django.urls import include, path

_BODIES: dict[str, tuple[bytes, str]] = {}


def bare(request, key: str) -> HttpResponse:
    if key not in _BODIES:
        folder = Path(os.environ.get("BENCH_BODIES", "/tmp"))
        body = (folder / key).read_bytes()
        kind = "text/html; charset=utf-8" if key.endswith(".html") else "application/json"
        _BODIES[key] = (body, kind)
    body, kind = _BODIES[key]
    return HttpResponse(body, content_type=kind)


urlpatterns = [path("bench/bare/<str:key>/", bare), path("", include("config.urls"))]
