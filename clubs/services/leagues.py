"""Writes: leagues (points, tie rules, tie-breaks) and their seasons."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from clubs.models import Club, League, Season
from clubs.routes import LEAGUE, slug_shadowed
from clubs.services.access import (
    require_admin,
)
from core.errors import BadRequest, Conflict
from core.games import game_rules_resolve

# --- leagues and seasons --------------------------------------------------------


def _league_rules_check(
    *, points_per_place: Any, tie_rule: str, min_games: Any, tie_breaks: Any
) -> None:
    if (
        not isinstance(points_per_place, list)
        or not points_per_place
        or not all(isinstance(p, int) and not isinstance(p, bool) for p in points_per_place)
    ):
        raise BadRequest(
            "invalid_request",
            "points_per_place must be a non-empty list of whole numbers, e.g. [3, 2, 1, 0].",
            field="points_per_place",
        )
    if tie_rule not in League.TieRule.values:
        raise BadRequest(
            "invalid_request",
            f"tie_rule must be one of {League.TieRule.values}.",
            field="tie_rule",
        )
    if not isinstance(min_games, int) or isinstance(min_games, bool) or min_games < 0:
        raise BadRequest("invalid_request", "min_games must be 0 or more.", field="min_games")
    if (
        not isinstance(tie_breaks, list)
        or any(t not in League.TIE_BREAKS for t in tie_breaks)
        or len(set(tie_breaks)) != len(tie_breaks)
    ):
        raise BadRequest(
            "invalid_request",
            f"tie_breaks must list distinct names from {list(League.TIE_BREAKS)}.",
            field="tie_breaks",
        )


@transaction.atomic
def league_create(
    *,
    club: Club,
    user: AbstractBaseUser | None,
    name: str,
    slug: str,
    game: str,
    options: dict[str, Any] | None = None,
    points_per_place: list[int],
    tie_rule: str = League.TieRule.SHARE_BEST,
    min_games: int = 0,
    tie_breaks: list[str] | None = None,
) -> League:
    """A league of one game and one variant: ``options`` are stored in full (defaults filled)."""
    require_admin(club=club, user=user)
    engine, resolved = game_rules_resolve(game, options)
    tie_breaks = list(tie_breaks or [])
    _league_rules_check(
        points_per_place=points_per_place,
        tie_rule=tie_rule,
        min_games=min_games,
        tie_breaks=tie_breaks,
    )
    shadowed = slug_shadowed(LEAGUE, slug)
    if shadowed is not None:
        raise BadRequest(
            "slug_reserved",
            f"“{slug}” is part of the site's own addresses ({shadowed}); choose another slug.",
            field="slug",
        )
    if League.objects.filter(club=club, slug=slug).exists():
        raise Conflict("slug_taken", f"{club.name} already has a league {slug!r}.", field="slug")
    return League.objects.create(
        club=club,
        name=name,
        slug=slug,
        game=engine.slug,
        options=resolved,
        points_per_place=list(points_per_place),
        tie_rule=tie_rule,
        min_games=min_games,
        tie_breaks=tie_breaks,
        created_by=user,
    )


@transaction.atomic
def season_create(
    *, league: League, user: AbstractBaseUser | None, name: str, starts_on: date, ends_on: date
) -> Season:
    require_admin(club=league.club, user=user)
    if ends_on < starts_on:
        raise BadRequest(
            "invalid_request", "A season ends on or after the day it starts.", field="ends_on"
        )
    return Season.objects.create(league=league, name=name, starts_on=starts_on, ends_on=ends_on)
