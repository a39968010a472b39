"""The replay page's own part, rendered once per record and kept as the bytes it sends.

Why: the replay page of a long game is mostly the record's (the move list alone is
900 KB for an 8-player GiftTRAP game of 4,620 events), and rebuilding it at every
visit cost two queries, a template of thousands of nodes and a megabyte joined again:
13-20 ms a visit against 2 ms for a bare view of the same bytes (docs/performance.md,
"The replay viewer"). Everything inside the page's ``<main>`` is the same for every
visitor of a finished game, so it is rendered once, kept under the record's token
(``replays.response_cache``: a rename, a correction, a merge or a deletion replaces
it) and put into the page as bytes; only the site's header (who is signed in, the
messages, the log-in link back to this path) is rendered per request.

What is kept holds nothing of the visitor: the table drawn is step 0 as everyone sees
it (the game is over), and the embed snippet's address is written with a marker that
each request replaces with its own scheme and host (``ORIGIN_MARK``), so the same bytes
serve every host and the worker that prepares a record (``replays.viewer_warm``) can
render them without a request.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any

import orjson
from django.conf import settings
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe

from core.games import variant_words
from games.base import and_list
from games.registry import get_engine
from games.voice import points
from replays import response_cache, selectors
from replays.models import Record
from replays.tables import table_stylesheets
from replays.timeline import setup_sentence

EMBED_HEIGHT = 640  # pixels: the table and a few moves at a glance, the rest scrolls


def _origin_mark() -> str:
    """A word no visitor can write into a page (derived from the secret key), standing
    for the scheme and host in the kept bytes. Player names and sentences are the
    visitors', so a fixed word could be typed into one and be replaced by the host."""
    digest = hmac.new(settings.SECRET_KEY.encode(), b"replay-page-origin", hashlib.sha256)
    return "giftboxorigin" + digest.hexdigest()[:24]


ORIGIN_MARK = _origin_mark()


def result_words(record: Record, players: list[str]) -> str:
    """ "Ana wins with 50 points.": the winners and their final score, as the result says."""
    result = record.result or {}
    winners = [s for s in result.get("winners", []) if 0 <= s < len(players)]
    scores = result.get("scores") or []
    if not winners:
        return ""
    verb = "wins" if len(winners) == 1 else "share the win"
    names = and_list(players[s] for s in winners)
    best = scores[winners[0]] if winners[0] < len(scores) else None
    if not isinstance(best, int):
        return f"{names} {verb}."
    each = " each" if len(winners) > 1 and all(scores[s] == best for s in winners) else ""
    if each or len(winners) == 1:
        return f"{names} {verb} with {points(best)}{each}."
    return f"{names} {verb}."


def embed_snippet(origin: str, record: Record, engine: Any) -> str:
    """The ``<iframe>`` a club pastes into its own page to show this record.

    ``origin`` is the scheme and host (``https://example.org``). Only the embed page may
    be framed (``config.csp``): it shows a finished game, as every visitor may see it,
    and links back here.
    """
    src = origin + reverse("record-embed", args=[record.pk])
    title = f"{engine.name} #{record.pk} on giftbox"
    return (
        f'<iframe src="{src}" title="{title}" width="100%" height="{EMBED_HEIGHT}" '
        'style="border: 0; max-width: 960px" loading="lazy"></iframe>'
    )


# Where the move list goes in the rendered part: put in as the cached bytes, never passed
# through the template (joining and encoding a megabyte of HTML again cost more than the
# rest of the page).
MOVES_MARK = mark_safe("<!--giftbox:moves-->")
# Where the sections of the "replay" slot go (``core.sections``: the analysis panel):
# rendered per request, since they show who is signed in and an analysis that may finish
# after the page was kept.
SECTIONS_MARK = mark_safe("<!--giftbox:replay-sections-->")


def _replay_context(record: Record, *, embed: bool) -> dict[str, Any]:
    players = selectors.record_player_names(record)
    engine = get_engine(record.game)
    if record.kind == Record.Kind.RESULT:
        return _result_only_context(record, engine, players, embed=embed)
    parts = selectors.record_replay_page_parts(record.pk, tell=False)
    return {
        "record": record,
        "engine": engine,
        "players": players,
        "seats": list(enumerate(players)),
        "first_text": setup_sentence(engine, players) if parts is None else parts.first_text,
        "moves_mark": MOVES_MARK,
        "sections_mark": SECTIONS_MARK,
        "moves_html": None if parts is None else parts.moves_html,
        "moves_pending": parts is None,
        "moves_count": f"{record.num_events:,}",
        "table": selectors.record_step_table_body(record.pk, step=0, seat=None).decode(),
        "result_words": result_words(record, players),
        "forked_from": (record.meta or {}).get("forked_from"),
        "variant": variant_words(record.game, record.options or {}),
        "embed": embed,
        "embed_snippet": embed_snippet(ORIGIN_MARK, record, engine),
        "last_step": record.num_events,
    }


def _result_only_context(
    record: Record, engine: Any, players: list[str], *, embed: bool
) -> dict[str, Any]:
    """A game played at a real table: who played, the final scores and ranks, no table."""
    result = record.result or {}
    scores, ranks = result.get("scores") or [], result.get("ranks") or []
    standings = sorted(
        (
            {"rank": ranks[seat], "name": name, "score": scores[seat], "won": ranks[seat] == 1}
            for seat, name in enumerate(players)
            if seat < len(scores) and seat < len(ranks)
        ),
        key=lambda row: (row["rank"], row["name"]),
    )
    return {
        "record": record,
        "engine": engine,
        "players": players,
        "seats": list(enumerate(players)),
        "result_only": True,
        "standings": standings,
        "duration_minutes": (result.get("details") or {}).get("duration_minutes"),
        "not_replayable": selectors.NOT_REPLAYABLE,
        "sections_mark": SECTIONS_MARK,
        "result_words": result_words(record, players),
        "variant": variant_words(record.game, record.options or {}),
        "embed": embed,
        "embed_snippet": embed_snippet(ORIGIN_MARK, record, engine),
    }


def _body_build(record_id: int, *, embed: bool) -> bytes:
    """The page's own part rendered, with a first line saying what the page around it
    needs (the game, and whether it is a result only)."""
    record = selectors.record_get(record_id=record_id, log=False)
    context = _replay_context(record, embed=embed)
    html = render_to_string("replays/_replay_body.html", context).encode()
    moves = context.get("moves_html")
    if moves is not None:
        head, mark, tail = html.partition(MOVES_MARK.encode())
        if mark:
            html = b"".join((head, moves, tail))
    about = {
        "game": record.game,
        "result_only": record.kind == Record.Kind.RESULT,
        "moves_pending": context.get("moves_pending", False),
    }
    return orjson.dumps(about) + b"\n" + html


def _whole(body: bytes) -> bool:
    """Whether a page's own part holds its move list (see ``replay_page_body``)."""
    about, _, _ = body.partition(b"\n")
    return not orjson.loads(about).get("moves_pending")


@dataclass(frozen=True)
class ReplayPageBody:
    """A replay page's own part: its game, whether it is a result only, and its bytes
    (the embed snippet's address still the ``ORIGIN_MARK``)."""

    game: str
    result_only: bool
    html: bytes

    def for_origin(self, origin: str, sections: str = "") -> bytes:
        """The bytes with this request's scheme and host in the embed snippet (escaped
        as the template escaped the rest of the snippet) and the replay slot's sections
        rendered for this request (``sections``, already escaped by their templates)."""
        html = self.html.replace(ORIGIN_MARK.encode(), escape(origin).encode())
        return html.replace(SECTIONS_MARK.encode(), sections.encode(), 1)

    @property
    def stylesheets(self) -> list[str]:
        return [] if self.result_only else table_stylesheets(self.game)


def replay_page_body(record_id: int, *, embed: bool) -> ReplayPageBody:
    """The replay page's own part for ``record_id`` (the embed's if ``embed``), rendered
    on its first visit or by the record's preparation and then read from the cache under
    the record's token. A record that does not exist raises ``NotFound`` and nothing is
    kept.

    A long game visited before its preparation told it gets its page at once, with its
    move list to come (``selectors.record_replay_page_parts``): the viewer fills the list
    from the timeline it fetches (``replays/static/replays/viewer.js``). Such a page is
    not kept, so a visit after the telling gets the whole page, and keeps it.
    """
    token_name, variant = response_cache.record_target(
        record_id, response_cache.page_body_variant(embed=embed)
    )
    body = response_cache.cached_body(
        token_name, variant, lambda: _body_build(record_id, embed=embed), keep=_whole
    )
    about, _, html = body.partition(b"\n")
    header = orjson.loads(about)
    return ReplayPageBody(game=header["game"], result_only=header["result_only"], html=html)


def request_origin(request: HttpRequest) -> str:
    """``https://host``: the scheme and host of this request, as ``build_absolute_uri`` has them."""
    return request.build_absolute_uri("/")[:-1]
