"""A game dashboard's statistics part: computed from the snapshots, kept rendered.

The figures, charts and tables of ``/games/<slug>/`` depend only on the game's
statistics snapshots and the filter, never on the visitor, so they are computed
and rendered once per snapshot version and kept in Django's cache. The ingest task
renders the pages itself once its transaction committed (:func:`dashboard_warm`, from
``analytics.tasks``; a task of its own waited behind every queued ingest of a bulk
import): the default view, real and bot play, and the filtered views visitors asked
for lately, so the first visitor after a record lands reads it from the cache too
instead of paying for eleven charts (docs/performance.md, "Dashboards").
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from analytics import selectors, stat_charts
from core.chartkit import chart_html
from core.games import variant_words
from games.registry import get_engine
from replays.record_table import record_table_html


def _key_figures(figures: dict[str, Any]) -> list[dict[str, Any]]:
    """The table at the top: one row per figure, a column per side (real, simulated)."""

    def pct(v: float | None) -> str:
        return "-" if v is None else f"{round(100 * v)}%"

    def med(box: dict[str, Any] | None, unit: str) -> str:
        return "-" if not box else f"{box['median']:g} {unit}"

    sides = [figures.get("real"), figures.get("simulated")]
    rows = [
        ("Games", "games", lambda s: str(s["records"])),
        ("Shared wins (ties)", "Drawishness", lambda s: pct(s["tie_rate"])),
        ("Typical length", "Duration Moves", lambda s: med(s["length"], "events")),
        ("Typical rounds", "Duration Turns", lambda s: med(s["rounds"], "rounds")),
        ("Lead changes per game", "Lead Change", lambda s: med(s["lead_changes"], "")),
        (
            "Decided (on average) after",
            "Decisiveness Moves",
            lambda s: (
                pct(s["decisiveness_mean"])
                + (" of the game" if s["decisiveness_mean"] is not None else "")
            ),
        ),
    ]
    return [
        {
            "label": label,
            "ludii": ludii,
            "values": [get(s) if s and s["records"] else "-" for s in sides],
        }
        for label, ludii, get in rows
    ]


def _balance_rows(figures: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for key in ("real", "simulated"):
        side = figures.get(key)
        if not side:
            continue
        for n, size in sorted(side["by_players"].items(), key=lambda kv: int(kv[0])):
            favoured = max(size["seats"], key=lambda s: s["win_rate"])
            rows.append(
                {
                    "play": "real play" if key == "real" else "simulated play",
                    "players": n,
                    "games": size["records"],
                    "balance": "-" if size["balance"] is None else f"{size['balance']:.2f}",
                    "best_seat": f"seat {favoured['seat']} ({round(100 * favoured['win_rate'])}%)",
                    "verdict": favoured["verdict"],
                }
            )
    return rows


def _charts(figures: dict[str, Any], name: str, has_cards: bool) -> list[dict[str, Any]]:
    """Each dashboard section: a heading, words for a club organiser, the chart."""
    box = stat_charts.box_chart
    sections = [
        (
            "Table sizes",
            "How often each table size was played, real and simulated apart.",
            stat_charts.games_by_players_chart(figures, name),
        ),
        (
            "Seat advantage",
            "Is it better to start? Compare each bar with the dashed fair line; only a whisker "
            "that misses the line is a real advantage; long whiskers mean more games are needed.",
            stat_charts.seat_advantage_chart(figures, name),
        ),
        (
            "Final scores",
            "The spread of everyone's final score at each table size. The box is "
            "the middle half of the scores, the diamond the median.",
            box(
                figures,
                chart_id="scores",
                key="scores",
                game_name=name,
                title="Final scores",
                y_title="final score (points)",
                unit="points",
                description="One box per table size and kind of play, side by side.",
            ),
        ),
        (
            "Winning scores",
            "What it takes to win: the winners' scores only. A club can use the "
            "median as a target for new players.",
            box(
                figures,
                chart_id="winning-scores",
                key="winning_scores",
                game_name=name,
                title="Winning scores",
                y_title="winner's score (points)",
                unit="points",
                description="Scores of the winners only, by table size.",
            ),
        ),
        (
            "Game length",
            "How many moves (events) a game takes. Longer boxes mean less predictable evenings.",
            box(
                figures,
                chart_id="length",
                key="length",
                game_name=name,
                title="Game length",
                y_title="events per game",
                unit="events",
                description="Events per game, including deals and shuffles.",
            ),
        ),
        (
            "Rounds",
            "How many rounds a game lasts, where the game is played in rounds.",
            box(
                figures,
                chart_id="rounds",
                key="rounds",
                game_name=name,
                title="Rounds per game",
                y_title="rounds",
                unit="rounds",
                description="Rounds played per game.",
            ),
        ),
        (
            "Lead changes",
            "How often the leader changes during a game: more changes, more suspense.",
            box(
                figures,
                chart_id="lead-changes",
                key="lead_changes",
                game_name=name,
                title="Lead changes per game",
                y_title="times the lead changed",
                unit="lead changes",
                description="Changes of the leading seat(s), per game.",
            ),
        ),
        (
            "When is it decided?",
            "The point from which the eventual winner stayed ahead.",
            stat_charts.decisiveness_chart(figures, name),
        ),
        (
            "Moves players make",
            "Which moves are used, and how often. A move nobody makes may be "
            "a rule nobody needs (or nobody understands).",
            stat_charts.event_types_chart(figures, name),
        ),
    ]
    if has_cards:
        sections += [
            (
                "Cards that end in winning hands",
                "Players who finished the game with this card, against those who did not.",
                stat_charts.card_impact_chart(figures, name, ended=True),
            ),
            (
                "Cards held along the way",
                "Players who held this card at some point in the game.",
                stat_charts.card_impact_chart(figures, name, ended=False),
            ),
        ]
    return [
        {"heading": h, "words": w, "chart": c, "id": c["id"], "html": chart_html(c)}
        for h, w, c in sections
        if c is not None and c["figure"]["data"]
    ]


# One entry per (game, filter), holding the snapshot version it was computed at: a new
# version replaces the entry instead of adding one, so the cache holds one copy of each
# page however many records land, and an entry may live long (a quiet game's dashboard
# stays warm overnight).
STATISTICS_CACHE_SECONDS = 24 * 3600


def _cache_key(slug: str, filters: dict[str, Any]) -> str:
    scope = ":".join(
        [slug, *(f"{k}={filters[k]}" for k in sorted(filters) if filters[k] is not None)]
    )
    return "dashboard:" + hashlib.sha256(scope.encode()).hexdigest()  # any cache backend


def statistics_context(engine: Any, filters: dict[str, Any]) -> dict[str, Any]:
    """The dashboard's statistics part for ``filters``, from the cache when it is current.

    Current means computed at the game's present snapshot version (how many rows, when
    one last changed): a record that lands changes the version, so a stale entry is
    never shown; the cache only saves recomputing the same figures and charts.
    """
    slug = engine.slug
    version = selectors.game_statistics_version(game=slug)
    key = _cache_key(slug, filters)
    _asked_note(slug, filters, key)
    cached = cache.get(key)
    if cached is not None and cached[0] == version:
        return cached[1]
    context = _statistics_compute(engine, filters, version=version)
    cache.set(key, (version, context), STATISTICS_CACHE_SECONDS)
    return context


# The filtered views a warm-up renders besides the default: real play and bot play
# (the form's "Play" choice), and the filters visitors asked for lately (at most
# WARM_ASKED, each asked within WARM_ASKED_SECONDS), most recent first.
WARM_ALWAYS: tuple[dict[str, Any], ...] = ({"real": True}, {"real": False})
WARM_ASKED = 12
WARM_ASKED_SECONDS = 7 * 24 * 3600
ASKED_NOTE_SECONDS = 600  # a filter asked again is noted again after this long


def _asked_key(slug: str) -> str:
    return f"dashboard-asked:{slug}"


def _asked_note(slug: str, filters: dict[str, Any], key: str) -> None:
    """Remember that a visitor asked for this filtered view (for :func:`dashboard_warm`).

    One cache read per filtered visit; a write only when the filter is new or was
    last noted more than ``ASKED_NOTE_SECONDS`` ago. Two visits noting at once may
    lose one note: the view is then computed by its next visitor, as before.
    """
    scoped = {k: v for k, v in filters.items() if v is not None}
    if not scoped:
        return
    asked = cache.get(_asked_key(slug)) or {}
    now = time.time()
    noted = asked.get(key)
    if noted is not None and now - noted[1] < ASKED_NOTE_SECONDS:
        return
    asked[key] = (scoped, now)
    newest = sorted(asked.items(), key=lambda item: item[1][1], reverse=True)[:WARM_ASKED]
    cache.set(_asked_key(slug), dict(newest), WARM_ASKED_SECONDS)


def dashboard_warm_filters(*, game: str) -> list[dict[str, Any]]:
    """The filters a warm-up renders: the default, real or bot play, and those asked lately."""
    chosen: dict[str, dict[str, Any]] = {}
    for filters in ({}, *WARM_ALWAYS):
        chosen.setdefault(_cache_key(game, filters), filters)
    cutoff = time.time() - WARM_ASKED_SECONDS
    asked = cache.get(_asked_key(game)) or {}
    for key, (filters, when) in sorted(asked.items(), key=lambda item: -item[1][1]):
        if when >= cutoff:
            chosen.setdefault(key, filters)
    return list(chosen.values())


def dashboard_warm(*, game: str) -> None:
    """Compute the dashboard of ``game`` now, so its next visitors read it cached: the
    default view, real play and bot play, and the filtered views visitors asked for
    lately (a filtered view otherwise went cold at every ingest).

    The ingest tasks call it after a record's snapshots are committed: the cost of the
    charts falls on the worker, not on the first person to open the page.
    """
    engine = get_engine(game)
    for filters in dashboard_warm_filters(game=game):
        statistics_context(engine, filters)


def _records_key(slug: str, variant: str | None) -> str:
    return f"dashboard-records:{slug}:{variant or '*'}"


def _records_html(slug: str, variant: str | None, version: str | None) -> str:
    """The "Recent records" table, shared by every filter of the game at one version.

    It depends on the game and the rules variant only, not on the other filters, so a
    filtered view computed after the default one (by the ingest task or a visitor) at
    the same snapshot version reads it instead of rendering it again (about 40% of a
    cold visit's CPU). Kept with the version, as the statistics part: never older.
    """
    key = _records_key(slug, variant)
    if version is not None:
        cached = cache.get(key)
        if cached is not None and cached[0] == version:
            return str(cached[1])
    rows = selectors.recent_real_record_rows(game=slug, variant=variant)
    # analytics/_records.html, its table built without the template engine (a visitor's
    # first visit after every new record renders it): the same bytes.
    if rows:
        html = mark_safe(record_table_html(rows) + "\n")  # escaped by record_table_html
    else:
        html = render_to_string("analytics/_records.html", {"rows": rows})
    if version is not None:
        cache.set(key, (version, html), STATISTICS_CACHE_SECONDS)
    return html


def _statistics_compute(
    engine: Any, filters: dict[str, Any], *, version: str | None = None
) -> dict[str, Any]:
    slug = engine.slug
    filters = dict(filters)
    found, clubs = selectors.game_statistics_choices(game=slug)
    variants = [
        {**v, "words": variant_words(slug, v["options"]) or "the standard rules"} for v in found
    ]
    if filters.get("variant") and filters["variant"] not in {v["key"] for v in variants}:
        filters.pop("variant")
    figures = selectors.game_statistics(game=slug, **filters)
    chosen = next((v for v in variants if v["key"] == filters.get("variant")), None)
    name = f"{engine.name} ({chosen['words']})" if chosen else engine.name
    has_cards = slug != "gift_trap"
    context = {
        "variants": variants,
        "chosen": chosen,
        "filters": filters,
        "clubs": clubs,
        "real_choice": {True: "real", False: "simulated"}.get(filters.get("real"), ""),
        "key_figures": _key_figures(figures),
        "balance_rows": _balance_rows(figures),
        "sections": _charts(figures, name, has_cards),
        "has_cards": has_cards,
        "any_records": any(figures.get(k, {}).get("records") for k in ("real", "simulated")),
    }
    # The charts and tables hold nothing of the visitor's: rendered once, kept as HTML.
    context["statistics_html"] = render_to_string(
        "analytics/_statistics.html", {**context, "engine": engine}
    )
    # Real play only, as every figure of "real play": the list links to the simulated.
    context["records_html"] = _records_html(slug, chosen["key"] if chosen else None, version)
    # A record's ingest updates its game summary and its snapshots in one transaction,
    # so the version above covers the summary too.
    context["summary"] = selectors.game_summary_get(game=slug)
    context["variant_players"] = (
        selectors.variant_players(game=slug, variant=chosen["key"]) if chosen else None
    )
    for bulky in ("sections", "key_figures", "balance_rows"):
        context.pop(bulky)
    return context
