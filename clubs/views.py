"""The one page this slice needs: joining a club by its invitation link."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from clubs import services
from replays.errors import ServiceError


@login_required
@require_http_methods(["GET", "POST"])
def club_join_page(request: HttpRequest, key: str) -> HttpResponse:
    """GET asks to confirm (a link preview must not join anyone); POST joins."""
    if request.method == "POST":
        try:
            membership = services.club_join(key=key, user=request.user)
        except ServiceError as exc:
            return render(request, "clubs/join.html", {"error": exc.message}, status=exc.status)
        messages.success(request, f"You are a member of {membership.club.name}.")
        return redirect("home")
    return render(request, "clubs/join.html", {"key": key})
