from typing import Any

from django.apps import AppConfig
from django.core.signals import request_started


def _sweeps_start(**kwargs: Any) -> None:
    from core.background import sweeps_start

    sweeps_start()


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Shared parts"

    def ready(self) -> None:
        # Without a broker there is no beat: the first request of a serving process
        # starts the sweeps in its background pool (core.background.sweeps_start).
        request_started.connect(_sweeps_start, dispatch_uid="core.background.sweeps")
