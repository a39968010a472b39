"""The clubs API (included before ``api/``'s catch-all) and the join-by-link page."""

from django.urls import path

from clubs import game_pages, pages
from clubs.api import views as api

api_urlpatterns = [
    path("clubs/", api.ClubListView.as_view(), name="club-list"),
    path("clubs/join/", api.ClubJoinView.as_view(), name="club-join"),
    path("clubs/<slug:slug>/", api.ClubDetailView.as_view(), name="club-detail"),
    path("clubs/<slug:slug>/members/", api.ClubMemberListView.as_view(), name="club-members"),
    path(
        "clubs/<slug:slug>/members/<str:username>/",
        api.ClubMemberView.as_view(),
        name="club-member",
    ),
    path(
        "clubs/<slug:slug>/invitations/",
        api.InvitationCreateView.as_view(),
        name="club-invitations",
    ),
    path(
        "clubs/<slug:slug>/invitations/<int:invitation_id>/revoke/",
        api.InvitationRevokeView.as_view(),
        name="club-invitation-revoke",
    ),
    path("leagues/", api.LeagueListView.as_view(), name="league-list"),
    path("leagues/<int:league_id>/", api.LeagueDetailView.as_view(), name="league-detail"),
    path(
        "leagues/<int:league_id>/seasons/", api.LeagueSeasonsView.as_view(), name="league-seasons"
    ),
    path("seasons/<int:season_id>/", api.SeasonDetailView.as_view(), name="season-detail"),
    path(
        "seasons/<int:season_id>/entries/", api.SeasonEntriesView.as_view(), name="season-entries"
    ),
    path(
        "seasons/<int:season_id>/entries/<int:entry_id>/void/",
        api.EntryVoidView.as_view(),
        name="season-entry-void",
    ),
    path(
        "seasons/<int:season_id>/entries/<int:entry_id>/unvoid/",
        api.EntryUnvoidView.as_view(),
        name="season-entry-unvoid",
    ),
    path(
        "seasons/<int:season_id>/standings/",
        api.SeasonStandingsView.as_view(),
        name="season-standings",
    ),
    path(
        "records/<int:record_id>/result/",
        api.RecordResultCorrectView.as_view(),
        name="record-result-correct",
    ),
]

page_urlpatterns = [
    path("clubs/join/<str:key>/", pages.club_join_page, name="club-join-page"),
]

page_urlpatterns += [
    path("clubs/", pages.club_list_page, name="club-list-page"),
    path("clubs/<slug:slug>/", pages.club_page, name="club-page"),
    path("clubs/<slug:slug>/leave/", pages.club_leave_page, name="club-leave"),
    path("clubs/<slug:slug>/settings/", pages.club_settings_page, name="club-settings"),
    path("clubs/<slug:slug>/invite/", pages.invitation_create_page, name="club-invite"),
    path(
        "clubs/<slug:slug>/invitations/<int:invitation_id>/revoke/",
        pages.invitation_revoke_page,
        name="club-invite-revoke",
    ),
    path("clubs/<slug:slug>/leagues/new/", pages.league_create_page, name="league-create"),
    path("clubs/<slug:slug>/seasons/new/", pages.season_create_page, name="season-create"),
    path("clubs/<slug:slug>/leagues/<slug:league_slug>/", pages.league_page, name="league-page"),
    path(
        "clubs/<slug:slug>/leagues/<slug:league_slug>/record/",
        game_pages.table_game_page,
        name="table-game",
    ),
    path(
        "clubs/<slug:slug>/leagues/<slug:league_slug>/games/<int:entry_id>/void/",
        game_pages.entry_void_page,
        name="entry-void",
    ),
    path(
        "clubs/<slug:slug>/leagues/<slug:league_slug>/games/<int:entry_id>/correct/",
        game_pages.entry_correct_page,
        name="entry-correct",
    ),
    path("players/<str:handle>/", pages.player_page, name="player-page"),
]
