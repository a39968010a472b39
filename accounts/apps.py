from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_login_failed

        from accounts import schema  # noqa: F401  (registers the OpenAPI token scheme)
        from accounts.login_limits import login_failed

        # Every failed password check (the site's login and the admin's) is counted.
        user_login_failed.connect(login_failed, dispatch_uid="accounts.login_failed")

        from django.db.models.signals import post_delete, post_save

        from accounts.models import ApiToken
        from core.credentials import credentials_changed_receiver

        # A token revoked (or deleted) is refused at once, even where a process remembered
        # whose it was (core.credentials).
        for signal, name in ((post_save, "save"), (post_delete, "delete")):
            signal.connect(
                credentials_changed_receiver,
                sender=ApiToken,
                dispatch_uid=f"accounts.token_{name}.credentials",
            )
