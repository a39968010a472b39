"""The one Celery app, configured from Django settings (namespace CELERY_)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("giftbox")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
