from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from analytics import views as analytics_views
from replays import views as replays_views
from replays.api.views import api_not_found

urlpatterns = [
    path("", analytics_views.home, name="home"),
    path("games/<slug:slug>/", analytics_views.game_dashboard, name="game-dashboard"),
    path("records/<int:record_id>/", replays_views.record_replay_page, name="record-replay"),
    path("live/<int:live_id>/", replays_views.live_game_page, name="live-page"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/", include("replays.api.urls")),
    re_path(r"^api/", api_not_found),
    path("admin/", admin.site.urls),
]
