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
