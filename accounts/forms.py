from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm

from accounts import selectors
from core.handles import handle_problem


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label="E-mail", help_text="For resetting a forgotten password; never shown to others."
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    # No clean_email: whether an address already has an account is never said here
    # (that would tell anyone whose address is registered); accounts.services.user_signup
    # writes to that address's owner instead.

    def clean_username(self) -> str | None:
        """Refuse a handle that is not in plain form, mixes look-alike alphabets, or reads
        as an existing account or player (``core.handles``); Django checks the rest."""
        username = super().clean_username()
        if username is None:  # Django found an account differing only in case
            return username
        problem = handle_problem(username)
        if problem is not None:
            raise forms.ValidationError(problem)
        taken = selectors.handle_lookalike_of(username)
        if taken is not None:
            raise forms.ValidationError(
                f"“{username}” is too much like the existing name “{taken}”; choose another."
            )
        return username


class ApiTokenForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        label="Name",
        help_text="What it is for, so you can tell your tokens apart: “league bot”.",
    )
