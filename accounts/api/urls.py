"""``/api/tokens/`` routes."""

from django.urls import path

from accounts.api.views import ApiTokenDetailView, ApiTokenListCreateView

urlpatterns = [
    path("", ApiTokenListCreateView.as_view(), name="api-token-list"),
    path("<int:token_id>/", ApiTokenDetailView.as_view(), name="api-token-detail"),
]
