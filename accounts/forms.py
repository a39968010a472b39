from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label="E-mail", help_text="For resetting a forgotten password; never shown to others."
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self) -> str:
        email = self.cleaned_data["email"]
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError("An account with this e-mail exists; log in or reset it.")
        return email


class ApiTokenForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        label="Name",
        help_text="What it is for, so you can tell your tokens apart: “league bot”.",
    )
