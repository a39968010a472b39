from typing import Any

from django.apps import AppConfig
from django.core.signals import request_finished, request_started


def _serving(**kwargs: Any) -> None:
    from core.background import request_began, serving_mark, sweeps_start

    serving_mark()
    sweeps_start()
    request_began()


def _served(**kwargs: Any) -> None:
    from core.background import request_ended

    request_ended()


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Shared parts"

    def ready(self) -> None:
        from django.urls import register_converter

        from core.converters import IdConverter

        # Before any URL configuration loads: ``<id:...>`` in the record routes.
        register_converter(IdConverter, "id")
        # Without a broker, tasks go to the background pool of a process that serves
        # requests, and there is no beat: its first request starts the sweeps there
        # (core.background).
        request_started.connect(_serving, dispatch_uid="core.background.serving")
        # And its pool waits for a quiet moment between requests before a task that is
        # not urgent (core.background.quiet_wait).
        request_finished.connect(_served, dispatch_uid="core.background.served")
        from core.credentials import credentials_signals_connect  # needs the apps loaded

        # What the API's fast path remembers of a session or token is dropped at once.
        credentials_signals_connect()
