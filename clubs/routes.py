"""Slugs that the site's own addresses would shadow, found in the URLconf itself.

A club slugged ``join`` gets the address ``/clubs/join/``, but ``/clubs/join/<key>/``
is the invitation page, so its sub-pages cannot be reached; a league slugged ``new``
is shadowed by ``/clubs/<slug>/leagues/new/``. Rather than keep a list of such words
by hand, :func:`slug_shadowed` builds every address that takes a club (``slug``) or
a league (``league_slug``) slug, with the candidate slug in it, and asks the
resolver whether it still leads to that page: a route added later is covered too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.urls import NoReverseMatch, Resolver404, URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter

CLUB = "slug"
LEAGUE = "league_slug"


def _patterns(patterns: list[Any]) -> Iterator[URLPattern]:
    """Every named pattern outside namespaces (the admin's), flattened."""
    for entry in patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace is None:
                yield from _patterns(entry.url_patterns)
        elif isinstance(entry, URLPattern) and entry.name:
            yield entry


def _sample(converter: Any) -> str:
    return "1" if isinstance(converter, IntConverter) else "x"


def slug_shadowed(kind: str, slug: str) -> str | None:
    """An address of the club (``kind`` = ``CLUB``) or league (``LEAGUE``) slugged ``slug``
    that another page would answer instead, or None when every one of them works."""
    resolver = get_resolver()
    for pattern in _patterns(resolver.url_patterns):
        converters = getattr(pattern.pattern, "converters", {})
        if kind not in converters:
            continue
        kwargs = {name: _sample(conv) for name, conv in converters.items()}
        kwargs[kind] = slug
        try:
            path = resolver.reverse(pattern.name, **kwargs)
        except NoReverseMatch:
            continue  # the slug does not fit the converter: the caller's validation says so
        try:
            match = resolver.resolve("/" + path.lstrip("/"))
        except Resolver404:
            return "/" + path.lstrip("/")
        if match.url_name != pattern.name or match.kwargs != {
            name: conv.to_python(kwargs[name]) for name, conv in converters.items()
        }:
            return "/" + path.lstrip("/")
    return None
