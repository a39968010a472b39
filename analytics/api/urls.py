"""Analytics' API routes (mounted under ``/api/`` by config/urls.py)."""

from django.urls import path

from analytics.api import views

urlpatterns = [
    path("leaderboards/", views.LeaderboardView.as_view(), name="leaderboard-api"),
    path("head-to-head/", views.HeadToHeadView.as_view(), name="head-to-head-api"),
    path(
        "games/<slug:slug>/statistics/", views.GameStatisticsView.as_view(), name="game-statistics"
    ),
    path("simulations/", views.SimulationListView.as_view(), name="simulation-list"),
    path(
        "records/<int:record_id>/analysis/",
        views.RecordAnalysisView.as_view(),
        name="record-analysis",
    ),
    path(
        "simulations/<int:job_id>/", views.SimulationDetailView.as_view(), name="simulation-detail"
    ),
]
