"""Writes for clubs: membership, invitations, leagues, seasons, entries, voids, corrections.

Every function is keyword-only and runs in one transaction; permission checks
live here (not in views) and raise :class:`Forbidden` / :class:`NotFound`, so
the API, the pages and the shell refuse the same things. A refusal changes
nothing. One module per subject: ``access`` (who may do what, the audit log),
``clubs`` (clubs, invitations, members), ``leagues`` (leagues and seasons) and
``entries`` (games entered in a season, voids, corrections); callers import them
from here.
"""

from clubs.services.access import member_player, require_admin
from clubs.services.clubs import (
    INVITATION_NOT_FOUND,
    club_create,
    club_join,
    club_settings_update,
    invitation_create,
    invitation_key_hash,
    invitation_refusal,
    invitation_revoke,
    membership_remove,
    membership_role_change,
)
from clubs.services.entries import (
    CorrectionAccess,
    club_record_add,
    correction_access,
    correction_window,
    record_unvoid,
    record_void,
    result_correct,
    season_entry_submit,
    season_entry_submit_document,
)
from clubs.services.leagues import league_create, season_create

__all__ = [
    "INVITATION_NOT_FOUND",
    "CorrectionAccess",
    "club_create",
    "club_join",
    "club_record_add",
    "club_settings_update",
    "correction_access",
    "correction_window",
    "invitation_create",
    "invitation_key_hash",
    "invitation_refusal",
    "invitation_revoke",
    "league_create",
    "member_player",
    "membership_remove",
    "membership_role_change",
    "record_unvoid",
    "record_void",
    "require_admin",
    "result_correct",
    "season_create",
    "season_entry_submit",
    "season_entry_submit_document",
]
