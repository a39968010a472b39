from django.apps import AppConfig


class AnalyticsConfig(AppConfig):
    name = "analytics"
    verbose_name = "Analytics"

    def ready(self) -> None:
        # Register the tasks in every process (web, worker, shell), so an eager
        # run finds them by name, as the outbox sends them.
        # Imports in ready(): models and tasks load only once the app registry is ready.
        from analytics import sections, signals, tasks  # noqa: F401

        sections.sections_register()
        signals.connect()
