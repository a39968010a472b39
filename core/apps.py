from typing import Any

from django.apps import AppConfig
from django.core.signals import request_started


def _serving(**kwargs: Any) -> None:
    from core.background import serving_mark, sweeps_start

    serving_mark()
    sweeps_start()


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Shared parts"

    def ready(self) -> None:
        # Without a broker, tasks go to the background pool of a process that serves
        # requests, and there is no beat: its first request starts the sweeps there
        # (core.background).
        request_started.connect(_serving, dispatch_uid="core.background.serving")
        from core.credentials import credentials_signals_connect  # needs the apps loaded

        # What the API's fast path remembers of a session or token is dropped at once.
        credentials_signals_connect()
