"""The ``<id:...>`` path converter: a record's, a step's or a game's number in a URL.

Django's ``<int:...>`` takes a number of any length. A record id of 400 digits names no
record (the ids are PostgreSQL ``bigint``s, below 2**63), yet it was looked up: the cache
keys built from it ran past 250 characters (Django's ``CacheKeyWarning``, seen under the
API fuzzer) before the database said no. An ``<id:...>`` of more than 18 digits does not
match, so such a path is the plain 404 of a path that names nothing.
"""

from __future__ import annotations

from django.urls.converters import IntConverter

ID_DIGITS = 18  # 10**18 - 1 < 2**63 - 1: every id PostgreSQL can hold that fits here


class IdConverter(IntConverter):
    regex = f"[0-9]{{1,{ID_DIGITS}}}"
