"""The events API (included before ``api/``'s catch-all), the pages and the calendars."""

from django.urls import path

from events import pages
from events.api import views as api

api_urlpatterns = [
    path("events/", api.EventListView.as_view(), name="event-list"),
    path("events/<int:event_id>/", api.EventDetailView.as_view(), name="event-detail"),
    path("events/<int:event_id>/finish/", api.EventFinishView.as_view(), name="event-finish"),
    path("events/<int:event_id>/entries/", api.EntryListView.as_view(), name="event-entries"),
    path(
        "events/<int:event_id>/entries/<int:entry_id>/",
        api.EntryDetailView.as_view(),
        name="event-entry",
    ),
    path(
        "events/<int:event_id>/entries/<int:entry_id>/check-in/",
        api.EntryCheckInView.as_view(),
        name="event-entry-check-in",
    ),
    path(
        "events/<int:event_id>/entries/<int:entry_id>/drop/",
        api.EntryDropView.as_view(),
        name="event-entry-drop",
    ),
    path("events/<int:event_id>/rounds/", api.RoundListView.as_view(), name="event-rounds"),
    path(
        "events/<int:event_id>/rounds/<int:number>/finish/",
        api.RoundFinishView.as_view(),
        name="event-round-finish",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/swap/",
        api.RoundSwapView.as_view(),
        name="event-round-swap",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/tables/<int:table>/",
        api.TableDetailView.as_view(),
        name="event-table",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/tables/<int:table>/result/",
        api.TableResultView.as_view(),
        name="event-table-result",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/tables/<int:table>/confirm/",
        api.TableConfirmView.as_view(),
        name="event-table-confirm",
    ),
    path("events/<int:event_id>/standings/", api.StandingsView.as_view(), name="event-standings"),
]

page_urlpatterns = [
    path("events/", pages.event_list_page, name="event-list-page"),
    path("events/new/", pages.event_create_page, name="event-create-page"),
    path("events/<int:event_id>/", pages.event_page, name="event-page"),
    path("events/link/<str:key>/", pages.event_public_page, name="event-public-page"),
    path("events/<int:event_id>/organise/", pages.organise_page, name="event-organise"),
    path("events/<int:event_id>/standings/", pages.standings_page, name="event-standings-page"),
    path(
        "events/<int:event_id>/rounds/<int:number>/slips/",
        pages.slips_page,
        name="event-slips-page",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/tables/<int:table>/",
        pages.table_page,
        name="event-table-page",
    ),
    path("clubs/<slug:slug>/events.ics", pages.club_events_ics, name="club-events-ics"),
    path("players/<str:handle>/events.ics", pages.player_events_ics, name="player-events-ics"),
]
