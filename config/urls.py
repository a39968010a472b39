from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from analytics import pages as analytics_pages
from clubs import urls as clubs_urls
from events import urls as events_urls
from replays import pages as replays_pages
from replays.api.views import api_not_found

handler500 = "config.database_unavailable.server_error"

urlpatterns = [
    # First: the record API is the busiest, and every pattern tried before it cost
    # (a tenth of a cached replay step; docs/performance.md). No other path overlaps it.
    path("api/", include("replays.api.urls")),
    path("", analytics_pages.home, name="home"),
    path("games/<slug:slug>/", analytics_pages.game_dashboard, name="game-dashboard"),
    path("leaderboards/", analytics_pages.leaderboard_page, name="leaderboards"),
    path("head-to-head/", analytics_pages.head_to_head_page, name="head-to-head"),
    path(
        "games/<slug:slug>/simulations/", analytics_pages.simulation_start, name="simulation-start"
    ),
    path("records/", replays_pages.record_browse_page, name="record-browse"),
    path("upload/", replays_pages.record_upload_page, name="record-upload"),
    path("records/<id:record_id>/", replays_pages.record_replay_page, name="record-replay"),
    path("rules/", replays_pages.rules_index_page, name="rules-index"),
    path("rules/<slug:slug>/", replays_pages.rules_page, name="rules-page"),
    path("rules/<slug:slug>/notes/", replays_pages.rules_notes_page, name="rules-notes"),
    path("records/<id:record_id>/embed/", replays_pages.record_embed_page, name="record-embed"),
    path(
        "records/<id:record_id>/steps/<id:step>/table/",
        replays_pages.record_step_table_fragment,
        name="record-step-table",
    ),
    *events_urls.page_urlpatterns,
    *clubs_urls.page_urlpatterns,
    path("live/<id:live_id>/", replays_pages.live_game_page, name="live-page"),
    path("live/<id:live_id>/table/", replays_pages.live_table_fragment, name="live-table"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path(
        "api/docs/",
        # The split view serves Swagger UI's start-up code as a script file
        # (/api/docs/?script), not inline: the content security policy refuses inline code.
        SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="api_docs.html"),
        name="swagger-ui",
    ),
    path("accounts/", include("accounts.urls")),
    path("api/tokens/", include("accounts.api.urls")),
    path("api/", include(clubs_urls.api_urlpatterns)),
    path("api/", include(events_urls.api_urlpatterns)),
    path("api/", include("analytics.api.urls")),
    re_path(r"^api/", api_not_found),
    path("admin/", admin.site.urls),
]
