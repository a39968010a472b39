"""Account pages: sign-up and API tokens (login, logout and password reset are Django's)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts import selectors, services
from accounts.forms import ApiTokenForm, SignupForm
from accounts.models import SiteSettings
from core.errors import ServiceError


def next_path(request: HttpRequest) -> str:
    """The ``next`` address the visitor came with (a form field or the query), if it is a
    path on this site; else "". Another site's address, ``//host`` and ``javascript:`` are
    refused, so a link cannot send someone off-site after they sign up or log in."""
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if (
        wanted.startswith("/")
        and not wanted.startswith("//")
        and url_has_allowed_host_and_scheme(
            wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
    ):
        return wanted
    return ""


def signup_page(request: HttpRequest) -> HttpResponse:
    """Sign up, then go on to ``next`` (an invitation link, say) or the home page."""
    after = next_path(request)
    if request.user.is_authenticated:
        return redirect(after or "home")
    if not SiteSettings.current().signup_open:
        return render(request, "accounts/signup_closed.html", {"next": after}, status=403)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.user_signup(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
            )
        except ServiceError:  # closed between the form and the write
            return render(request, "accounts/signup_closed.html", {"next": after}, status=403)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.get_username()}: your account is ready.")
        return redirect(after or "home")
    return render(request, "accounts/signup.html", {"form": form, "next": after})


@login_required
def api_tokens_page(request: HttpRequest) -> HttpResponse:
    form = ApiTokenForm(request.POST or None)
    created = None
    if request.method == "POST" and form.is_valid():
        token, key = services.api_token_create(user=request.user, name=form.cleaned_data["name"])
        created = {"token": token, "key": key}
        form = ApiTokenForm()
    tokens = selectors.api_token_list(user=request.user)
    return render(
        request, "accounts/tokens.html", {"form": form, "tokens": tokens, "created": created}
    )


@login_required
@require_POST
def api_token_revoke_page(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        token = services.api_token_revoke(user=request.user, token_id=token_id)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"The token “{token.name}” is revoked.")
    return redirect("api-tokens")
