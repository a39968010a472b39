from django.apps import AppConfig


class ReplaysConfig(AppConfig):
    name = "replays"
    verbose_name = "Game records"

    def ready(self) -> None:
        from replays import signals, tasks  # noqa: F401

        signals.connect()
