"""The content security policy every page is served with.

Django 5.2 has no CSP of its own (6.0 adds one); this middleware is the few lines we
need, so there is no django-csp dependency. The policy allows scripts only from our own
origin: no inline code, no ``eval`` (plotly.js 3+/4 draws SVG charts without it; its
one ``new Function`` is a fallback behind ``globalThis`` and its ``eval`` serves only
map traces, which we do not draw). Styles allow ``'unsafe-inline'`` because plotly.js
injects ``<style>`` rules and sets ``style=`` on the SVG it builds, and Swagger UI does
the same; style injection cannot run code, so the script policy still holds.

Pages are not framed (``frame-ancestors 'none'``), except views marked with
``xframe_options_exempt`` (the replay embed), which any site may frame: that is what an
embed is for.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"

DIRECTIVES: dict[str, str] = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self' 'unsafe-inline'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def csp_header(*, frameable: bool) -> str:
    """The policy as a header value; ``frameable`` for the embed page."""
    directives = dict(DIRECTIVES)
    if frameable:
        directives["frame-ancestors"] = getattr(settings, "CSP_EMBED_FRAME_ANCESTORS", "*")
    return "; ".join(f"{name} {value}" for name, value in directives.items())


class ContentSecurityPolicyMiddleware:
    """Adds the policy to every response that does not set its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.default = csp_header(frameable=False)
        self.embed = csp_header(frameable=True)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if HEADER not in response:
            frameable = getattr(response, "xframe_options_exempt", False)
            response[HEADER] = self.embed if frameable else self.default
        return response
