"""Reads for dashboards."""

from __future__ import annotations

from typing import Any

import orjson
from django.db.models import (
    Avg,
    Count,
    Max,
    Min,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    TextField,
)
from django.db.models.functions import Cast

from analytics.models import (
    GameSummary,
    IngestQuarantine,
    PlayerResult,
    RecordAnalysis,
    RecordFacts,
    SimulationJob,
    SkillFigure,
    StatisticsSnapshot,
)
from analytics.stats import counters_merge, side_figures
from core.queries import values_rows
from games import analysis as engine_analysis
from replays.models import Player, Record, Seat
from replays.selectors import RecordRow, record_row_of


def quarantined_records() -> QuerySet[IngestQuarantine]:
    """Records whose ingest failed, oldest first, with their record (game, when stored)."""
    return IngestQuarantine.objects.select_related("record").order_by("record_id")


def game_summary_get(*, game: str) -> GameSummary | None:
    return GameSummary.objects.filter(game=game).first()


def game_final_scores(*, game: str, variant: str | None = None) -> list[tuple[int, int]]:
    """(number of players, final score) for every seat of every record of the game."""
    rows = PlayerResult.objects.filter(game=game)
    if variant is not None:
        rows = rows.filter(variant=variant)
    return list(rows.order_by("id").values_list("num_players", "score"))


def game_variants(*, game: str) -> list[dict[str, Any]]:
    """The rules variants a game's records were played under, most played first.

    Each: its key, how many records, and the options of one of its records (the
    options are the same for every record of a variant).
    """
    rows = (
        PlayerResult.objects.filter(game=game, seat=0)
        .values("variant")
        .annotate(records=Count("id"), sample=Min("record_id"))
        .order_by("-records", "variant")
    )
    samples = dict(
        Record.objects.filter(pk__in=[row["sample"] for row in rows]).values_list("pk", "options")
    )
    return [
        {
            "key": row["variant"],
            "records": row["records"],
            "options": samples.get(row["sample"], {}),
        }
        for row in rows
    ]


def variant_record_ids(*, variant: str) -> QuerySet[PlayerResult]:
    """The ids of the records played under one rules variant (a subquery, not a list)."""
    return PlayerResult.objects.filter(variant=variant, seat=0).values("record")


# What ``replays.selectors.record_row`` reads of a record: its log and its replay facts
# (the largest columns) are never read.
_RECENT_FIELDS = (
    "id", "game", "kind", "options", "meta", "result", "num_events", "played_at",
    "simulated", "created_at",
)  # fmt: skip


def recent_real_records(*, game: str, variant: str | None = None, limit: int = 10) -> list[Record]:
    """The game's latest records of real play (one rules variant's with ``variant``), newest
    first as the records page orders them, for the dashboard's "Recent records" table.

    ``replays.selectors.record_list`` with only the columns the table shows, and the seats
    read in their own order: the seats' default order (by record, then seat) joins the
    records again to sort by the records' order, a third of a first visit's time.
    """
    seats = Seat.objects.select_related("player").order_by("record_id", "seat")
    records = (
        Record.objects.filter(game=game, simulated=False)
        .only(*_RECENT_FIELDS)
        .order_by("-created_at", "-id")
        .prefetch_related(Prefetch("seats", queryset=seats.only("record", "seat", "player__name")))
    )
    if variant is not None:
        records = records.filter(pk__in=variant_record_ids(variant=variant))
    return list(records[:limit])


def recent_real_record_rows(
    *, game: str, variant: str | None = None, limit: int = 10
) -> list[RecordRow]:
    """:func:`recent_real_records` as the table's rows (``replays.selectors.record_row``),
    read as plain rows: the same two queries without model instances, a prefetch and a
    join's objects (most of the read's CPU on a visitor-computed dashboard), each
    compiled once per process (``core.queries``)."""

    def records() -> QuerySet:
        chosen = Record.objects.filter(game=game, simulated=False).order_by("-created_at", "-id")
        if variant is not None:
            chosen = chosen.filter(pk__in=variant_record_ids(variant=variant))
        return chosen.values_list(*_RECENT_FIELDS)[:limit]

    found = values_rows(("recent-real-records", game, variant, limit), records)
    seats: dict[int, list[tuple[int, str]]] = {row[0]: [] for row in found}
    ids = list(seats)

    def pairs() -> QuerySet:
        # Each seat's name looked up by the player's key, not joined: for a few dozen
        # seats PostgreSQL hashed every player of the site to join them (1.4 ms at 3,000
        # players, growing with the club), where a probe per seat takes microseconds.
        name = Player.objects.filter(pk=OuterRef("player_id")).values("name")
        return (
            Seat.objects.filter(record_id__in=ids)
            .order_by("record_id", "seat")
            .values_list("record_id", "seat", Subquery(name))
        )

    if ids:
        for record_id, seat, name in values_rows(("recent-real-seats", len(ids)), pairs, ids):
            seats[record_id].append((seat, name))
    names = ("pk", *_RECENT_FIELDS[1:])
    return [
        record_row_of(**dict(zip(names, row, strict=True)), seats=seats[row[0]]) for row in found
    ]


def variant_players(*, game: str, variant: str) -> list[dict[str, Any]]:
    """The players table of one variant in real play: games, wins, average score (one
    GROUP BY); bot play and bots left out, as in the game's summary."""
    rows = (
        PlayerResult.objects.filter(game=game, variant=variant, record__simulated=False)
        .exclude(player__kind=Player.Kind.BOT)
        .values("player__name")
        .annotate(games=Count("id"), wins=Count("id", filter=Q(won=True)), average=Avg("score"))
        .order_by("-wins", "-average", "player__name")
    )
    return [
        {
            "player": row["player__name"],
            "games": row["games"],
            "wins": row["wins"],
            "average_score": round(float(row["average"]), 2),
        }
        for row in rows
    ]


def game_record_counts(*, simulated: bool = False) -> dict[str, int]:
    """Records per game: real play, or with ``simulated`` bot play."""
    rows = Record.objects.filter(simulated=simulated).values("game").annotate(n=Count("id"))
    rows = rows.order_by()
    return {row["game"]: row["n"] for row in rows}


# Statistics


def game_statistics(
    *,
    game: str,
    players: int | None = None,
    real: bool | None = None,
    variant: str | None = None,
    club: str | None = None,
    month_from: str | None = None,
    month_to: str | None = None,
) -> dict[str, Any]:
    """A game's statistics for a filter, real and simulated play apart.

    Reads only snapshots: without a club or date filter, the all-clubs/all-months rows
    (one per table size, variant and side); with one, the month rows of that filter.
    ``real``: True = only real play, False = only simulated, None = both sides.
    """
    everything = StatisticsSnapshot.ALL
    scoped = bool(club or month_from or month_to)
    where: list[tuple[str, Any]] = []  # (lookup, value), in the order the SQL takes them
    if scoped:
        where += [("club", club or None), ("month__gte", month_from or None)]
        where += [("month__lte", month_to or None)]
    else:
        where += [("club", everything), ("month", everything)]
    where += [("num_players", players or None), ("variant", variant or None)]
    where = [(lookup, value) for lookup, value in where if value is not None]

    def build() -> QuerySet:
        rows = StatisticsSnapshot.objects.filter(game=game)
        if scoped:
            rows = rows.exclude(month=everything)
        for lookup, value in where:
            rows = rows.filter(**{lookup: value})
        if real is not None:  # in the SQL's text ("NOT simulated"), not a parameter
            rows = rows.filter(simulated=not real)
        # The counters as the database's text, parsed by orjson: a filter over months
        # reads hundreds of rows, and JSONField's json.loads was a third of reading them.
        return rows.values_list("simulated", "num_players", Cast("counters", TextField()))

    # Compiled once per shape of filter (which lookups), whatever their values.
    shape = ("statistics-rows", scoped, tuple(lookup for lookup, _ in where), real)
    params = [game, *([everything] if scoped else []), *(value for _, value in where)]
    grouped: dict[bool, dict[int, list[dict[str, Any]]]] = {False: {}, True: {}}
    for simulated, n, counters in values_rows(shape, build, params):
        grouped[simulated].setdefault(n, []).append(orjson.loads(counters))
    sides = {}
    for simulated, name in ((False, "real"), (True, "simulated")):
        if real is not None and real == simulated:
            continue
        by_size = {n: counters_merge(many) for n, many in grouped[simulated].items()}
        sides[name] = side_figures(by_size)
    return {
        "game": game,
        "filters": {
            "players": players,
            "real": real,
            "variant": variant,
            "club": club,
            "from": month_from,
            "to": month_to,
        },
        **sides,
    }


def game_ingest_follows(*, game: str, stored_since: Any) -> bool:
    """Whether records of ``game`` stored since ``stored_since`` still wait for their ingest.

    One indexed probe (``game``, ``created_at``): a quarantined record waits for its retry,
    not for an ingest already queued, so it does not count.
    """
    return Record.objects.filter(
        game=game,
        created_at__gte=stored_since,
        player_results__isnull=True,
        ingest_quarantine__isnull=True,
    ).exists()


def game_statistics_version(*, game: str) -> str:
    """Changes whenever a snapshot of the game does: rows, and the last time one changed."""

    def build() -> QuerySet:
        rows = StatisticsSnapshot.objects.filter(game=game).order_by().values("game")
        rows = rows.annotate(n=Count("id"), total=Sum("records"), last=Max("updated_at"))
        return rows.values_list("n", "total", "last")

    # Every visit of a dashboard asks (is the cached page current?): compiled once.
    found = values_rows(("statistics-version", game), build)
    n, total, last = found[0] if found else (0, 0, None)
    return f"{n}.{total or 0}.{last.isoformat() if last else '-'}"


def game_statistics_clubs(*, game: str) -> list[str]:
    """The clubs a game's records name (for the dashboard's club filter)."""
    return sorted(
        set(
            StatisticsSnapshot.objects.filter(game=game)
            .exclude(club=StatisticsSnapshot.ALL)
            .exclude(club="")
            .values_list("club", flat=True)
        )
    )


def game_statistics_variants(*, game: str) -> list[dict[str, Any]]:
    """The rules variants a game's statistics know, most played first, with their options.

    From the all-clubs snapshots (a few rows) and one record per variant, so it
    costs the same at 100 records as at 100,000.
    """
    rows = (
        StatisticsSnapshot.objects.filter(
            game=game, club=StatisticsSnapshot.ALL, month=StatisticsSnapshot.ALL
        )
        .values("variant")
        .annotate(records=Sum("records"))
        .order_by("-records", "variant")
    )
    return [
        {
            "key": row["variant"],
            "records": row["records"],
            "options": variant_options(game=game, variant=row["variant"]),
        }
        for row in rows
    ]


# A variant's key is a hash of its options (replays.giftlog.options_key), so the options
# read for a key never change: kept in the process, a dashboard computed again reads none.
_VARIANT_OPTIONS: dict[tuple[str, str], dict[str, Any]] = {}
_VARIANT_OPTIONS_KEPT = 1024


def variant_options(*, game: str, variant: str) -> dict[str, Any]:
    """The options of one rules variant of ``game`` (those of any one of its records)."""
    found = _VARIANT_OPTIONS.get((game, variant))
    if found is not None:
        return found
    # [:1] without an order: the (game, variant) index finds any one row at once,
    # where .first() would order by id and walk the records.
    sample = list(
        RecordFacts.objects.filter(game=game, variant=variant)
        .order_by()
        .values_list("record__options", flat=True)[:1]
    )
    if not sample:
        return {}
    if len(_VARIANT_OPTIONS) >= _VARIANT_OPTIONS_KEPT:
        _VARIANT_OPTIONS.clear()
    _VARIANT_OPTIONS[(game, variant)] = sample[0]
    return sample[0]


def game_statistics_choices(*, game: str) -> tuple[list[dict[str, Any]], list[str]]:
    """What the dashboard's form offers: :func:`game_statistics_variants` and
    :func:`game_statistics_clubs` together, from one read of the snapshots' scopes.

    A first visit of a dashboard is mostly round trips to the database on a busy
    machine: one query for both (a few hundred short rows), and each variant's options
    from :func:`variant_options`.
    """
    records: dict[str, int] = {}
    clubs: set[str] = set()
    everything = StatisticsSnapshot.ALL
    scopes = values_rows(
        ("statistics-scopes", game),
        lambda: StatisticsSnapshot.objects.filter(game=game).values_list(
            "variant", "club", "month", "records"
        ),
    )
    for variant, club, month, count in scopes:
        if club == everything and month == everything:
            records[variant] = records.get(variant, 0) + count
        elif club not in (everything, ""):
            clubs.add(club)
    variants = [
        {"key": key, "records": count, "options": variant_options(game=game, variant=key)}
        for key, count in sorted(records.items(), key=lambda item: (-item[1], item[0]))
    ]
    return variants, sorted(clubs)


def simulation_jobs_recent(*, game: str, limit: int = 5) -> list[Any]:
    return list(SimulationJob.objects.filter(game=game).order_by("-id")[:limit])


# --- analysis of games ------------------------------------------------------------


def record_analysis_find(
    *, record_id: int, version: str, settings_hash: str, fallback: bool = True
) -> RecordAnalysis | None:
    """The analysis of a record with these settings and this version of the code.

    With ``fallback``, when there is none: the latest finished one of any version or
    settings (a deploy makes a new version; the old analysis is still worth showing,
    marked not current), else the latest of any kind.
    """
    rows = RecordAnalysis.objects.filter(record_id=record_id)
    exact = rows.filter(version=version, settings_hash=settings_hash).first()
    if exact is not None or not fallback:
        return exact
    done = rows.filter(status=RecordAnalysis.Status.DONE).order_by("-finished_at", "-id").first()
    return done or rows.order_by("-created_at", "-id").first()


def record_analysis_status(*, record_id: int) -> str | None:
    """Whether a record has any analysis (its latest status), for the replay page: one
    indexed read, so the page only asks the API when there is something to fetch."""
    return (
        RecordAnalysis.objects.filter(record_id=record_id)
        .order_by("-created_at", "-id")
        .values_list("status", flat=True)
        .first()
    )


def _player_analysed(player: Player, limit: int) -> list[tuple[RecordAnalysis, int]]:
    """The player's most recently played games with a finished analysis, newest first,
    each with the seat they played: one analysis a record (the latest finished)."""
    seats = dict(
        Seat.objects.filter(player=player, record__analyses__status=RecordAnalysis.Status.DONE)
        .order_by()
        .values_list("record_id", "seat")
        .distinct()
    )
    if not seats:
        return []
    rows = (
        RecordAnalysis.objects.filter(record_id__in=list(seats), status=RecordAnalysis.Status.DONE)
        .select_related("record")
        .order_by("record_id", "-finished_at", "-id")
    )
    latest: dict[int, RecordAnalysis] = {}
    for row in rows:
        latest.setdefault(row.record_id, row)
    ordered = sorted(
        latest.values(),
        key=lambda row: (row.record.played_at or row.record.created_at, row.record_id),
        reverse=True,
    )
    return [(row, seats[row.record_id]) for row in ordered[:limit]]


def player_analysis(*, player: Player, games: int = 50, mistakes: int = 10) -> dict[str, Any]:
    """A player's analysed games (newest first), and their biggest mistakes among them.

    Each game: the record, when it was played, the seat, their decision quality (the
    average win share lost per decision: 0 is perfect), luck (the sum of chance's swings
    for them), and their marks. Mistakes: their marked decisions with the largest loss,
    each with the step before the move (for the "find the better move" link).
    """
    rows = []
    found = []
    for analysis, seat in _player_analysed(player, games):
        result = analysis.result or {}
        players = result.get("players") or []
        if seat >= len(players):
            continue
        mine = players[seat]
        record = analysis.record
        rows.append(
            {
                "record": record,
                "seat": seat,
                "played": record.played_at or record.created_at,
                "decision_quality": mine.get("decision_quality"),
                "decisions": mine.get("decisions", 0),
                "luck": mine.get("luck"),
                "marks": mine.get("marks") or {},
            }
        )
        for stored in result.get("decisions") or []:
            if stored.get("seat") != seat or not stored.get("mark"):
                continue
            # Read back by the analysis's own reader: the stored shape is its business.
            decision = engine_analysis.Decision.from_json(stored)
            found.append({"record": record, "seat": seat, "decision": decision})
    found.sort(key=lambda item: (-item["decision"].loss, -item["record"].pk))
    return {"games": rows, "mistakes": found[:mistakes]}


def skill_figures(*, game: str) -> list[SkillFigure]:
    """How often the better-deciding player wins in ``game``: a row per table size and
    real or bot play (``analytics.skill_figures_refresh`` keeps them)."""
    return list(SkillFigure.objects.filter(game=game).order_by("num_players", "simulated"))
