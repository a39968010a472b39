from django.urls import path

from replays.api import live_views, views

urlpatterns = [
    path("games/", views.GameListView.as_view(), name="game-list"),
    path("games/<slug:slug>/", views.GameDetailView.as_view(), name="game-detail"),
    path("records/", views.RecordListCreateView.as_view(), name="record-list"),
    path("records/bulk/", views.RecordBulkView.as_view(), name="record-bulk"),
    path("imports/", views.ImportJobCreateView.as_view(), name="import-create"),
    path("imports/<id:job_id>/", views.ImportJobDetailView.as_view(), name="import-detail"),
    path("records/export/", views.RecordExportView.as_view(), name="record-export"),
    path("records/<id:record_id>/", views.RecordDetailView.as_view(), name="record-detail"),
    path(
        "records/<id:record_id>/steps/<id:step>/",
        views.RecordStepView.as_view(),
        name="record-step",
    ),
    path(
        "records/<id:record_id>/timeline/",
        views.RecordTimelineView.as_view(),
        name="record-timeline",
    ),
    path("records/<id:record_id>/fork/", live_views.RecordForkView.as_view(), name="record-fork"),
    path("live/", live_views.LiveGameCreateView.as_view(), name="live-create"),
    path("live/<id:live_id>/", live_views.LiveGameDetailView.as_view(), name="live-detail"),
    path("live/<id:live_id>/events/", live_views.LiveEventView.as_view(), name="live-events"),
    path("schema/giftlog/", views.GiftlogSchemaView.as_view(), name="giftlog-schema"),
]
