from django.apps import AppConfig


class AnalyticsConfig(AppConfig):
    name = "analytics"
    verbose_name = "Analytics"

    def ready(self) -> None:
        # Register the tasks in every process (web, worker, shell), so an eager
        # run finds them by name, as the outbox sends them.
        from analytics import tasks  # noqa: F401
