"""The hostile-input suite's catalogue: every route of the URLconf, and what to throw at it.

Every route of ``config.urls`` must be described in ``ENDPOINTS`` (or named in
``NOT_OURS`` with the reason): a new endpoint without an entry fails the suite by
name, so nobody adds one that the hostile inputs never reach.

For each endpoint the suite sends hostile requests (a dozen classes: deep nesting,
invalid UTF-8, NUL in bodies, query strings and paths, huge numbers, Unicode digits
in integer parameters, integers past a 32-bit column, wrong JSON types, bodies past
the size limit, unknown content types, path-traversal-ish ids) and checks that the
answer is never a 5xx, that an API answer of 4xx is in the error shape
``{"code", "message", "detail"}``, and that no row changed.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from django.urls import URLPattern, URLResolver, get_resolver

INT32_PAST = 2**31  # one past the largest value a 32-bit integer column holds
DEEP = 5_000  # nesting that overflowed the standard library's parser
MIDDLE_DEEP = 1_000  # deeper than any document needs, shallower than orjson's own limit

# Routes that are Django's own, not this product's: the admin (staff only, Django's forms).
NOT_OURS = {"admin/": "Django's admin site (staff only)"}


def routes() -> list[str]:
    """Every route of the URLconf, as its pattern text (``api/records/<int:record_id>/``)."""
    found: list[str] = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            text = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                if text in NOT_OURS:
                    continue
                walk(pattern.url_patterns, text)
            elif isinstance(pattern, URLPattern):
                found.append(text)

    walk(get_resolver().url_patterns, "")
    return found


@dataclass
class Endpoint:
    """One route: how to fill its path, what it reads, and what writing it takes.

    ``json``: a function of the world returning a valid body for a JSON write (the
    hostile classes vary it); ``strings`` and ``ints``: the body fields that are text
    and whole numbers (dotted paths, ``[0]`` for a list's first item); ``query_ints``
    and ``query_texts``: query parameters the endpoint reads.
    """

    route: str
    methods: tuple[str, ...] = ("GET",)
    api: bool = False
    json: Callable[[dict[str, Any]], Any] | None = None
    strings: tuple[str, ...] = ()
    ints: tuple[str, ...] = ()
    wide_ints: tuple[str, ...] = ()  # whole numbers wider than 32 bits, but still bounded
    empty_body_ok: bool = False  # every field is optional: an empty body is a fine request
    query_ints: tuple[str, ...] = ()
    query_texts: tuple[str, ...] = ()
    form: Callable[[dict[str, Any]], dict[str, str]] | None = None
    form_ints: tuple[str, ...] = ()
    form_texts: tuple[str, ...] = ()
    kind: str = "json"  # "json", "bulk" (NDJSON or a JSON array), "import" (NDJSON)
    seat_token: bool = False
    extra_path: dict[str, str] = field(default_factory=dict)


def _document(world: dict[str, Any]) -> dict[str, Any]:
    return dict(world["document"])


def _league(world: dict[str, Any]) -> dict[str, Any]:
    return {
        "club": world["club_slug"],
        "name": "Winter",
        "slug": "winter-two",
        "game": "secret_santa",
        "points_per_place": [3, 2, 1],
        "min_games": 0,
    }


RECORD_FILTER_TEXTS = ("game", "player", "played_after", "played_before", "winner")

ENDPOINTS: list[Endpoint] = [
    # --- the record API ------------------------------------------------------------------
    Endpoint("api/games/", api=True),
    Endpoint("api/games/<slug:slug>/", api=True, extra_path={"slug": "secret_santa"}),
    Endpoint(
        "api/records/",
        ("GET", "POST"),
        api=True,
        json=_document,
        strings=("meta.club", "players[0]", "game"),
        query_ints=("players", "page_size"),
        query_texts=(*RECORD_FILTER_TEXTS, "cursor"),
    ),
    Endpoint("api/records/bulk/", ("POST",), api=True, kind="bulk", json=_document),
    Endpoint("api/imports/", ("POST",), api=True, kind="import", json=_document),
    Endpoint("api/imports/<id:job_id>/", api=True),
    Endpoint(
        "api/records/export/",
        api=True,
        query_ints=("players",),
        query_texts=RECORD_FILTER_TEXTS,
    ),
    Endpoint("api/records/<id:record_id>/", api=True),
    Endpoint("api/records/<id:record_id>/steps/<id:step>/", api=True, query_ints=("seat",)),
    Endpoint("api/records/<id:record_id>/timeline/", api=True, query_ints=("seat",)),
    Endpoint(
        "api/records/<id:record_id>/fork/",
        ("POST",),
        api=True,
        json=lambda w: {"step": 1, "seats": ["person", "greedy", "greedy"]},
        strings=("seats[1]",),
        ints=("step",),
        wide_ints=("seed",),
    ),
    Endpoint(
        "api/live/",
        ("POST",),
        api=True,
        json=lambda w: {
            "game": "secret_santa",
            "players": ["Ana", "Ben", "Cleo"],
            "bots": {"1": "greedy"},
        },
        strings=("meta.club", "players[0]", "bots.1"),
        wide_ints=("seed",),
    ),
    Endpoint("api/live/<id:live_id>/", api=True, seat_token=True),
    Endpoint(
        "api/live/<id:live_id>/events/",
        ("POST",),
        api=True,
        seat_token=True,
        json=lambda w: {"step": w["live_step"], "event": dict(w["live_event"])},
        strings=("event.do",),
        ints=("step", "event.by"),
    ),
    Endpoint("api/schema/giftlog/", api=True),
    Endpoint("api/schema/", api=True),
    Endpoint("api/docs/", api=True),
    # --- accounts --------------------------------------------------------------------------
    Endpoint(
        "api/tokens/", ("GET", "POST"), api=True, json=lambda w: {"name": "bot"}, strings=("name",)
    ),
    Endpoint("api/tokens/<int:token_id>/", ("DELETE",), api=True),
    # --- clubs -----------------------------------------------------------------------------
    Endpoint(
        "api/clubs/",
        ("GET", "POST"),
        api=True,
        json=lambda w: {"name": "Other club", "slug": "other-club", "description": ""},
        strings=("name", "slug", "description"),
    ),
    Endpoint(
        "api/clubs/join/", ("POST",), api=True, json=lambda w: {"key": "nokey"}, strings=("key",)
    ),
    Endpoint("api/clubs/<slug:slug>/", api=True),
    Endpoint("api/clubs/<slug:slug>/members/", api=True),
    Endpoint(
        "api/clubs/<slug:slug>/members/<str:username>/",
        ("PATCH", "DELETE"),
        api=True,
        json=lambda w: {"role": "member"},
        strings=("role",),
        extra_path={"username": "ben"},
    ),
    Endpoint(
        "api/clubs/<slug:slug>/invitations/",
        ("GET", "POST"),
        api=True,
        json=lambda w: {"role": "member", "max_uses": 3},
        strings=("role", "expires_at"),
        ints=("max_uses",),
        empty_body_ok=True,
    ),
    Endpoint(
        "api/clubs/<slug:slug>/invitations/<int:invitation_id>/revoke/",
        ("POST",),
        api=True,
        json=lambda w: {"reason": "sent to the wrong group"},
        strings=("reason",),
        empty_body_ok=True,
    ),
    Endpoint(
        "api/leagues/",
        ("GET", "POST"),
        api=True,
        json=_league,
        strings=("name", "slug", "game", "options.x"),
        ints=("min_games", "points_per_place[0]"),
        query_texts=("club",),
    ),
    Endpoint("api/leagues/<int:league_id>/", api=True),
    Endpoint(
        "api/leagues/<int:league_id>/seasons/",
        ("GET", "POST"),
        api=True,
        json=lambda w: {"name": "Spring", "starts_on": "2026-03-01", "ends_on": "2026-05-31"},
        strings=("name", "starts_on"),
    ),
    Endpoint("api/seasons/<int:season_id>/", api=True),
    Endpoint(
        "api/seasons/<int:season_id>/entries/",
        ("GET", "POST"),
        api=True,
        json=lambda w: {"document": dict(w["season_document"]), "guests": []},
        strings=("document.meta.club", "document.players[0]"),
        ints=("guests[0]", "record"),
    ),
    Endpoint(
        "api/seasons/<int:season_id>/entries/<int:entry_id>/void/",
        ("POST",),
        api=True,
        json=lambda w: {"reason": "typo"},
        strings=("reason",),
    ),
    Endpoint(
        "api/seasons/<int:season_id>/entries/<int:entry_id>/unvoid/",
        ("POST",),
        api=True,
        json=lambda w: {"reason": "typo"},
        strings=("reason",),
    ),
    Endpoint("api/seasons/<int:season_id>/standings/", api=True),
    Endpoint(
        "api/records/<int:record_id>/result/",
        ("PATCH",),
        api=True,
        json=lambda w: {"scores": [1, 2, 3], "reason": "typo"},
        strings=("reason",),
        ints=("ranks[0]",),
        extra_path={"record_id": "result_record"},
    ),
    # --- events ----------------------------------------------------------------------------
    Endpoint(
        "api/events/",
        ("GET", "POST"),
        api=True,
        json=lambda w: {
            "name": "Cup",
            "slug": "cup",
            "game": "secret_santa",
            "starts_at": "2026-05-01T19:00:00+00:00",
            "rounds": 2,
        },
        strings=("name", "slug", "game", "starts_at", "location"),
        ints=("rounds", "min_table", "points_per_place[0]"),
    ),
    Endpoint(
        "api/events/<int:event_id>/",
        ("GET", "PATCH", "DELETE"),
        api=True,
        json=lambda w: {"status": "open"},
        strings=("status",),
    ),
    Endpoint("api/events/<int:event_id>/finish/", ("POST",), api=True),
    Endpoint(
        "api/events/<int:event_id>/entries/",
        ("GET", "POST"),
        api=True,
        json=lambda w: {"handle": "Zed"},
        strings=("handle",),
        empty_body_ok=True,
    ),
    Endpoint(
        "api/events/<int:event_id>/entries/<int:entry_id>/",
        ("DELETE",),
        api=True,
        extra_path={"entry_id": "event_entry_id"},
    ),
    Endpoint(
        "api/events/<int:event_id>/entries/<int:entry_id>/check-in/",
        ("POST",),
        api=True,
        json=lambda w: {"checked_in": True},
        empty_body_ok=True,
        extra_path={"entry_id": "event_entry_id"},
    ),
    Endpoint(
        "api/events/<int:event_id>/entries/<int:entry_id>/drop/",
        ("POST",),
        api=True,
        extra_path={"entry_id": "event_entry_id"},
    ),
    Endpoint(
        "api/events/<int:event_id>/rounds/",
        ("GET", "POST"),
        api=True,
        json=lambda w: {"seed": 1},
        ints=("seed",),
        empty_body_ok=True,
    ),
    Endpoint("api/events/<int:event_id>/rounds/<int:number>/finish/", ("POST",), api=True),
    Endpoint(
        "api/events/<int:event_id>/rounds/<int:number>/swap/",
        ("POST",),
        api=True,
        json=lambda w: {"first": w["event_entry_id"], "second": w["event_entry_id"]},
        ints=("first", "second"),
    ),
    Endpoint("api/events/<int:event_id>/rounds/<int:number>/tables/<int:table>/", api=True),
    Endpoint(
        "api/events/<int:event_id>/rounds/<int:number>/tables/<int:table>/result/",
        ("POST",),
        api=True,
        json=lambda w: {"scores": [1, 2, 3, 4, 5]},
        ints=("scores[0]", "ranks[0]"),
    ),
    Endpoint(
        "api/events/<int:event_id>/rounds/<int:number>/tables/<int:table>/confirm/",
        ("POST",),
        api=True,
    ),
    Endpoint("api/events/<int:event_id>/standings/", api=True, query_ints=("after_round",)),
    # --- analytics -------------------------------------------------------------------------
    Endpoint(
        "api/leaderboards/",
        api=True,
        query_ints=("season", "limit", "offset"),
        query_texts=("game", "club"),
    ),
    Endpoint("api/head-to-head/", api=True, query_texts=("game", "a", "b")),
    Endpoint(
        "api/games/<slug:slug>/statistics/",
        api=True,
        query_ints=("players",),
        query_texts=("real", "variant", "club", "from", "to"),
        extra_path={"slug": "secret_santa"},
    ),
    Endpoint(
        "api/simulations/",
        ("POST",),
        api=True,
        json=lambda w: {"game": "secret_santa", "players": 3, "games": 1},
        strings=("game", "bots"),
        ints=("players", "games"),
    ),
    Endpoint("api/simulations/<int:job_id>/", api=True, extra_path={"job_id": "simulation_id"}),
    Endpoint(
        "api/records/<int:record_id>/analysis/",
        ("GET", "POST"),
        api=True,
        json=lambda w: {"seed": 1},
        ints=("seed",),
        empty_body_ok=True,  # no body: the default settings
        query_ints=("playouts", "seed"),
    ),
    Endpoint("^api/", api=True),
    # --- pages -----------------------------------------------------------------------------
    Endpoint("", query_texts=("q",)),
    Endpoint(
        "games/<slug:slug>/",
        query_ints=("players", "job"),
        query_texts=("real", "variant", "club", "from", "to"),
        extra_path={"slug": "secret_santa"},
    ),
    Endpoint("leaderboards/", query_ints=("season",), query_texts=("game", "club")),
    Endpoint("head-to-head/", query_texts=("game", "a", "b")),
    Endpoint(
        "games/<slug:slug>/simulations/",
        ("POST",),
        form=lambda w: {"players": "3", "games": "1", "bots": "mixed"},
        form_ints=("players", "games"),
        form_texts=("bots", "rules-secret_santa-deal_fallback"),
        extra_path={"slug": "secret_santa"},
    ),
    Endpoint("records/", query_ints=("players", "page"), query_texts=RECORD_FILTER_TEXTS),
    Endpoint("upload/"),
    Endpoint("records/<id:record_id>/", query_ints=("seat",)),
    Endpoint("rules/"),
    Endpoint("rules/<slug:slug>/", extra_path={"slug": "secret_santa"}),
    Endpoint("rules/<slug:slug>/notes/", extra_path={"slug": "secret_santa"}),
    Endpoint("records/<id:record_id>/embed/", query_ints=("seat",)),
    Endpoint("records/<id:record_id>/steps/<id:step>/table/", query_ints=("seat",)),
    Endpoint(
        "clubs/join/<str:key>/",
        ("GET", "POST"),
        form=lambda w: {"account": "new"},
        form_texts=("account",),
        extra_path={"key": "nokey"},
    ),
    Endpoint(
        "clubs/",
        ("GET", "POST"),
        form=lambda w: {"name": "Another", "slug": "another", "description": ""},
        form_texts=("name", "slug"),
    ),
    Endpoint("clubs/<slug:slug>/", query_texts=("league",)),
    Endpoint("clubs/<slug:slug>/leave/", ("POST",), form=None),
    Endpoint(
        "clubs/<slug:slug>/settings/",
        ("POST",),
        form=lambda w: {"analyse_league_games": "on"},
        form_texts=("analyse_league_games",),
    ),
    Endpoint(
        "clubs/<slug:slug>/invite/",
        ("POST",),
        form=lambda w: {"role": "member", "max_uses": "2", "days": "3"},
        form_ints=("max_uses", "days"),
        form_texts=("role",),
    ),
    Endpoint("clubs/<slug:slug>/invitations/<int:invitation_id>/revoke/", ("POST",), form=None),
    Endpoint(
        "clubs/<slug:slug>/leagues/new/",
        ("POST",),
        form=lambda w: {
            "name": "Spring",
            "slug": "spring",
            "game": "secret_santa",
            "points_per_place": "3, 2, 1",
            "tie_rule": "share_best",
            "min_games": "0",
            "rules-secret_santa": "1",
            "rules-secret_santa-deal_fallback": '"guest"',
        },
        form_ints=("min_games",),
        form_texts=("name", "slug", "points_per_place", "rules-secret_santa-deal_fallback"),
    ),
    Endpoint(
        "clubs/<slug:slug>/seasons/new/",
        ("POST",),
        form=lambda w: {
            "league": str(w["league_id"]),
            "name": "Later",
            "starts_on": "2027-01-01",
            "ends_on": "2027-02-01",
        },
        form_ints=("league",),
        form_texts=("name", "starts_on"),
    ),
    Endpoint("clubs/<slug:slug>/leagues/<slug:league_slug>/", query_ints=("season",)),
    Endpoint(
        "clubs/<slug:slug>/leagues/<slug:league_slug>/record/",
        ("GET", "POST"),
        form=lambda w: {
            "played_at": "2026-01-10T20:00",
            "player_0": "x",
            "score_0": "1",
            "score_1": "2",
            "score_2": "3",
            "duration_minutes": "30",
        },
        form_ints=("score_0", "duration_minutes"),
        form_texts=("player_0", "guest_1", "played_at"),
    ),
    Endpoint(
        "clubs/<slug:slug>/leagues/<slug:league_slug>/games/<int:entry_id>/void/",
        ("POST",),
        form=lambda w: {"reason": "x"},
        form_texts=("reason",),
    ),
    Endpoint(
        "clubs/<slug:slug>/leagues/<slug:league_slug>/games/<int:entry_id>/correct/",
        ("GET", "POST"),
        form=lambda w: {"score_0": "30", "score_1": "3", "score_2": "2", "reason": "x"},
        form_ints=("score_0",),
        form_texts=("reason",),
    ),
    Endpoint("players/<str:handle>/", extra_path={"handle": "Ana"}),
    Endpoint("events/"),
    Endpoint(
        "events/new/",
        ("GET", "POST"),
        form=lambda w: {
            "name": "Later night",
            "club": "hostile",
            "game": "secret_santa",
            "format": "swiss",
            "rounds": "2",
            "starts_at": "2026-05-01T19:00",
        },
        form_ints=("rounds", "min_table", "season"),
        form_texts=("name", "club", "starts_at", "points_per_place"),
    ),
    Endpoint("events/<int:event_id>/", ("GET", "POST"), form=None),
    Endpoint("events/link/<str:key>/"),
    Endpoint(
        "events/<int:event_id>/organise/",
        ("GET", "POST"),
        form=lambda w: {"action": "check_in", "entry": str(w["event_entry_id"])},
        form_ints=("entry",),
        form_texts=("action",),
    ),
    Endpoint("events/<int:event_id>/standings/", query_ints=("after_round",)),
    Endpoint("events/<int:event_id>/rounds/<int:number>/slips/"),
    Endpoint(
        "events/<int:event_id>/rounds/<int:number>/tables/<int:table>/",
        ("GET", "POST"),
        form=lambda w: {"action": "submit", "score_0": "1", "score_1": "2", "score_2": "3"},
        form_ints=("score_0",),
        form_texts=("action",),
    ),
    Endpoint("clubs/<slug:slug>/events.ics"),
    Endpoint("players/<str:handle>/events.ics", extra_path={"handle": "Ana"}),
    Endpoint("live/<id:live_id>/"),
    Endpoint("live/<id:live_id>/table/", seat_token=True),
    Endpoint(
        "accounts/login/",
        ("GET", "POST"),
        form=lambda w: {"username": "nobody", "password": "wrong"},
        form_texts=("username", "password", "next"),
        query_texts=("next",),
    ),
    Endpoint("accounts/logout/", ("POST",), form=None),
    Endpoint(
        "accounts/signup/",
        ("GET",),
        query_texts=("next",),
    ),
    Endpoint(
        "accounts/password-reset/",
        ("GET", "POST"),
        form=lambda w: {"email": "nobody@example.org"},
        form_texts=("email",),
    ),
    Endpoint("accounts/password-reset/sent/"),
    Endpoint(
        "accounts/reset/<uidb64>/<token>/",
        extra_path={"uidb64": "MQ", "token": "set-password"},
    ),
    Endpoint("accounts/reset/done/"),
    Endpoint(
        "accounts/tokens/",
        ("GET", "POST"),
        form=lambda w: {"name": "x"},
        form_texts=("name",),
    ),
    Endpoint("accounts/tokens/<int:token_id>/revoke/", ("POST",), form=None),
]

BY_ROUTE = {endpoint.route: endpoint for endpoint in ENDPOINTS}

# Path parameters: the world key that fills them when the endpoint does not say.
PATH_VALUES = {
    "record_id": "record_id",
    "step": "step",
    "live_id": "live_id",
    "job_id": "job_id",
    "slug": "club_slug",
    "league_slug": "league_slug",
    "league_id": "league_id",
    "season_id": "season_id",
    "entry_id": "entry_id",
    "event_id": "event_id",
    "number": "round_number",
    "table": "table_number",
    "invitation_id": "invitation_id",
    "username": "username",
    "token_id": "token_id",
    "handle": "handle",
    "key": "key",
    "uidb64": "uidb64",
    "token": "token",
}


def path_names(route: str) -> list[tuple[str, str]]:
    """(converter, name) of each ``<...>`` of a route, in order."""
    out = []
    for part in route.split("<")[1:]:
        inner = part.split(">", 1)[0]
        converter, _, name = inner.rpartition(":")
        out.append((converter or "str", name))
    return out


def path_fill(endpoint: Endpoint, world: dict[str, Any], **override: str) -> str:
    """The endpoint's URL with real ids (from the world), some replaced by ``override``."""
    route = endpoint.route
    if route == "^api/":
        return "/api/no-such-endpoint/"
    url = route
    for converter, name in path_names(route):
        if name in override:
            value = override[name]
        else:
            given = endpoint.extra_path.get(name)
            value = str(world.get(given, given)) if given else str(world[PATH_VALUES[name]])
        spelled = f"<{converter}:{name}>" if f"<{converter}:{name}>" in url else f"<{name}>"
        url = url.replace(spelled, value)
    return "/" + url


# --- the hostile values --------------------------------------------------------------------

UNICODE_DIGITS = ("²", "٣", "\uff11", "①")  # superscript, Arabic-Indic, fullwidth, circled
HOSTILE_INTS = (
    *UNICODE_DIGITS,
    str(INT32_PAST),
    str(2**63),
    "9" * 5_000,
    "-1",
    "1.5",
    "0x10",
    "1e3",
)
HOSTILE_TEXTS = ("%00", "a%00b", "%ED%A0%80", "%FF", "..%2F..%2Fetc%2Fpasswd", "x" * 3_000)
HOSTILE_PATH_INTS = (str(INT32_PAST), str(2**63), "9" * 400)
HOSTILE_PATH_TEXTS = ("%00", "..%2F..", "%2E%2E", "%C2%B2", "%ED%A0%80", "a" * 2_000, "%20")


def _nested(depth: int) -> str:
    """JSON text of arrays nested ``depth`` deep (spelled out: too deep to encode)."""
    return "[" * depth + "1" + "]" * depth


def _set(document: Any, path: str, value: Any) -> Any:
    """A copy of ``document`` with the dotted ``path`` set to ``value`` (creating objects)."""
    document = json.loads(json.dumps(document))
    parts: list[str | int] = []
    for piece in path.split("."):
        if "[" in piece:
            name, index = piece[:-1].split("[")
            parts.extend([name, int(index)])
        else:
            parts.append(piece)
    target = document
    for part, following in itertools.pairwise(parts):
        if isinstance(part, int):
            while len(target) <= part:
                target.append(0)
            target = target[part]
            continue
        if part not in target or not isinstance(target[part], dict | list):
            target[part] = [] if isinstance(following, int) else {}
        target = target[part]
    last = parts[-1]
    if isinstance(last, int):
        while len(target) <= last:
            target.append(0)
    target[last] = value
    return document


def _raw_with(document: Any, path: str, token: str) -> bytes:
    """JSON of ``document`` with the value at ``path`` spelled ``token`` literally."""
    marker = "HOSTILE-MARKER-7f3a"
    text = json.dumps(_set(document, path, marker))
    return text.replace(json.dumps(marker), token).encode()


@dataclass
class Case:
    """One hostile request; ``must_refuse``: a 2xx is wrong too (not only a 5xx)."""

    label: str
    method: str
    path: str
    body: bytes | None = None
    content_type: str | None = None
    form: dict[str, str] | None = None
    must_refuse: bool = True
    headers: dict[str, str] = field(default_factory=dict)


def _json_bodies(endpoint: Endpoint, world: dict[str, Any]) -> Iterator[tuple[str, bytes, str]]:
    """(label, body, content type) of every hostile JSON body for a write endpoint."""
    assert endpoint.json is not None
    base = endpoint.json(world)
    ct = "application/json"
    yield "deep array", b"[" * DEEP + b"1" + b"]" * DEEP, ct
    yield "deep object", b'{"a":' * DEEP + b"1" + b"}" * DEEP, ct
    yield "deep unterminated", b"[" * (DEEP * 4), ct
    first_string = endpoint.strings[0] if endpoint.strings else "meta.x"
    yield "deep in a field", _raw_with(base, first_string, _nested(DEEP)), ct
    yield "middle deep", _raw_with(base, first_string, _nested(MIDDLE_DEEP)), ct
    yield "300 deep", _raw_with(base, first_string, _nested(300)), ct
    yield (
        "invalid UTF-8",
        _raw_with(base, first_string, '"caf\xe9"').replace("é".encode(), b"\xe9"),
        ct,
    )
    yield "invalid UTF-8 bytes", json.dumps(base).encode()[:-1] + b',"x":"\xff\xfe"}', ct
    yield "raw NUL byte", _raw_with(base, first_string, '"a\x00b"'), ct
    yield "lone surrogate", _raw_with(base, first_string, '"\\ud800"'), ct
    for name in endpoint.strings or ("meta.x",):
        yield f"NUL escape in {name}", _raw_with(base, name, '"a\\u0000b"'), ct
    for name in endpoint.ints:
        yield f"2**31 in {name}", _raw_with(base, name, str(INT32_PAST)), ct
    for name in (*endpoint.ints, *endpoint.wide_ints):
        yield f"5000 digits in {name}", _raw_with(base, name, "9" * 5_000), ct
        yield f"Unicode digit in {name}", _raw_with(base, name, '"²"'), ct
        yield f"-2**63-1 in {name}", _raw_with(base, name, str(-(2**63) - 1)), ct
    yield "5000-digit number", _raw_with(base, first_string, "9" * 5_000), ct
    yield "1e999", _raw_with(base, first_string, "1e999"), ct
    yield "NaN", _raw_with(base, first_string, "NaN"), ct
    for label, raw in (
        ("array of nulls", b"[null, null]"),
        ("null", b"null"),
        ("string", b'"text"'),
        ("number", b"7"),
        *([] if endpoint.empty_body_ok else [("empty", b"")]),
        ("whitespace", b"   "),
        ("truncated", json.dumps(base).encode()[:-3]),
        ("two documents", json.dumps(base).encode() * 2),
    ):
        yield label, raw, ct
    yield "utf-16 declared", json.dumps(base).encode(), "application/json; charset=utf-16"


def cases_for(endpoint: Endpoint, world: dict[str, Any]) -> list[Case]:
    """Every hostile request for one endpoint."""
    out: list[Case] = []
    url = path_fill(endpoint, world)
    headers = {}
    if endpoint.seat_token:
        headers["HTTP_AUTHORIZATION"] = f"Seat {world['seat_token']}"
    read = "GET" in endpoint.methods
    # Path parameters: ids past the column, text that is no id.
    for converter, name in path_names(endpoint.route):
        values = HOSTILE_PATH_INTS if converter in ("int", "id") else HOSTILE_PATH_TEXTS
        for value in values:
            for method in endpoint.methods:
                out.append(
                    Case(
                        f"{method} path {name}={value[:20]}",
                        method,
                        path_fill(endpoint, world, **{name: value}),
                        body=b"{}" if method in ("POST", "PATCH") and endpoint.api else None,
                        content_type="application/json",
                        form={} if endpoint.form and method == "POST" else None,
                        must_refuse=False,
                        headers=headers,
                    )
                )
    # Query strings.
    if read:
        for name in endpoint.query_ints:
            for value in HOSTILE_INTS:
                out.append(
                    Case(
                        f"GET ?{name}={value[:20]}",
                        "GET",
                        f"{url}?{name}={quote(value)}",
                        must_refuse=False,
                        headers=headers,
                    )
                )
        for name in endpoint.query_texts:
            for value in HOSTILE_TEXTS:
                out.append(
                    Case(
                        f"GET ?{name}={value[:20]}",
                        "GET",
                        f"{url}?{name}={value}",
                        must_refuse=False,
                        headers=headers,
                    )
                )
        # Any endpoint, whatever it reads: a parameter it does not know, NUL, bad bytes.
        for query in ("a=%00", "%00=1", "a=%FF", "a=%ED%A0%80"):
            out.append(
                Case(f"GET ?{query}", "GET", f"{url}?{query}", must_refuse=False, headers=headers)
            )
    # JSON bodies.
    writes = [m for m in endpoint.methods if m in ("POST", "PATCH", "PUT")]
    if endpoint.api and writes and endpoint.json is not None:
        method = writes[0]
        if endpoint.kind in ("bulk", "import"):
            out.extend(_stream_cases(endpoint, world, url, method))
        else:
            for label, body, ct in _json_bodies(endpoint, world):
                out.append(Case(label, method, url, body=body, content_type=ct, headers=headers))
            base = json.dumps(endpoint.json(world)).encode()
            for ct in (
                "text/plain",
                "application/xml",
                "application/x-www-form-urlencoded",
                "multipart/form-data; boundary=xyz",
                "application/x-ndjson",
                "",
            ):
                out.append(
                    Case(
                        f"content type {ct or 'none'}",
                        method,
                        url,
                        body=base,
                        content_type=ct,
                        headers=headers,
                    )
                )
            out.append(
                Case(
                    "oversized",
                    method,
                    url,
                    body=_oversized(base),
                    content_type="application/json",
                    headers=headers,
                )
            )
    # Form bodies (pages).
    if not endpoint.api and "POST" in endpoint.methods:
        base_form = endpoint.form(world) if endpoint.form else {}
        for name in endpoint.form_ints:
            for value in HOSTILE_INTS:
                out.append(
                    Case(
                        f"form {name}={value[:20]}",
                        "POST",
                        url,
                        form={**base_form, name: value},
                        must_refuse=False,
                    )
                )
        for name in endpoint.form_texts:
            for value in ("a\x00b", "x" * 3_000, _nested(DEEP)):
                out.append(
                    Case(
                        f"form {name}={value[:12]!r}",
                        "POST",
                        url,
                        form={**base_form, name: value},
                        must_refuse=False,
                    )
                )
        out.append(
            Case(
                "form body with NUL bytes",
                "POST",
                url,
                body=b"a=\x00&b=%00%FF",
                content_type="application/x-www-form-urlencoded",
                must_refuse=False,
            )
        )
        out.append(
            Case(
                "oversized form",
                "POST",
                url,
                body=b"a=" + b"x" * OVERSIZED,
                content_type="application/x-www-form-urlencoded",
                must_refuse=False,
            )
        )
    return out


# The suite lowers the size limit to this, so that an oversized body is cheap to send.
SIZE_LIMIT = 64 * 1024
OVERSIZED = SIZE_LIMIT + 1024


def _oversized(base: bytes) -> bytes:
    """A well-formed document past the size limit (the size is what is wrong)."""
    padding = b" " * (OVERSIZED - len(base))
    return base[:1] + padding + base[1:]


def _stream_cases(endpoint: Endpoint, world: dict[str, Any], url: str, method: str) -> list[Case]:
    """Bulk and import bodies: hostile lines, hostile whole bodies, past the size limit."""
    out: list[Case] = []
    for label, body, ct in _json_bodies(endpoint, world):
        params = ct.partition(";")[2]
        ndjson = "application/x-ndjson" + (f";{params}" if params else "")
        if body.strip() == b"":
            out.append(Case(f"NDJSON {label}", method, url, body=body, content_type=ndjson))
            continue
        line = body.replace(b"\n", b" ")
        out.append(
            Case(f"NDJSON line {label}", method, url, body=line + b"\n", content_type=ndjson)
        )
        out.append(Case(f"JSON {label}", method, url, body=body, content_type=ct))
    good = json.dumps(endpoint.json(world)).encode()
    out.append(
        Case(
            "NDJSON oversized",
            method,
            url,
            body=(good + b"\n") * (OVERSIZED // len(good) + 1) + b"\n" * OVERSIZED,
            content_type="application/x-ndjson",
        )
    )
    out.append(
        Case(
            "JSON array oversized",
            method,
            url,
            body=b"[" + b",".join([good] * (OVERSIZED // len(good) + 1)) + b"]",
            content_type="application/json",
        )
    )
    out.append(
        Case(
            "NDJSON one oversized line",
            method,
            url,
            body=_oversized(good) + b"\n",
            content_type="application/x-ndjson",
        )
    )
    for ct in ("text/plain", "application/xml", "multipart/form-data; boundary=xyz", ""):
        out.append(
            Case(f"content type {ct or 'none'}", method, url, body=good + b"\n", content_type=ct)
        )
    return out
