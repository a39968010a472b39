"""Accounts: site switches, API tokens for programs, and who opened a live game.

Users are Django's own (``django.contrib.auth``); a person's players link to
their user through ``replays.Player.user``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class SiteSettings(models.Model):
    """Switches an admin turns in the Django admin: one row, created on first read."""

    signup_open = models.BooleanField(
        default=True, help_text="Anyone may create an account on the sign-up page."
    )

    class Meta:
        verbose_name = "site settings"
        verbose_name_plural = "site settings"

    def __str__(self) -> str:
        return "Site settings"

    def save(self, *args, **kwargs) -> None:
        self.pk = 1  # a singleton: every save writes the one row
        super().save(*args, **kwargs)

    @classmethod
    def current(cls) -> SiteSettings:
        settings_row, _ = cls.objects.get_or_create(pk=1)
        return settings_row


class ApiToken(models.Model):
    """A credential for programs: ``Authorization: Token <key>``.

    Only the SHA-256 of the key is stored (the key is shown once, when it is
    made); ``prefix`` is its first characters, so its owner can tell tokens
    apart in a list. A revoked token stays listed, and is refused.
    """

    PREFIX_LENGTH = 8

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=PREFIX_LENGTH)
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
