"""Settings for the test suite: the real settings, made fast (not different).

Tasks run eagerly in-process unless a test asks for a real worker (see
tests/integration/test_real_worker.py); the database is whatever DATABASE_URL
says (SQLite by default, PostgreSQL in CI).
"""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key")

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
CELERY_TASK_ALWAYS_EAGER = True
# Background tasks run in the caller, as eager Celery runs them, so a test's own
# transaction sees what they wrote; tests of the in-process pool set a worker.
BACKGROUND_WORKERS = 0
# No sweeps of their own in a test's pool (a thread that outlives the test): the tests of
# the sweeps call core.background.sweeps_due themselves.
BACKGROUND_SWEEPS = ()
# The pool starts a task at once, without waiting for a quiet moment between requests:
# a test's requests come back to back, and the order its tasks run in is what it checks;
# the tests of that wait set it themselves (tests/core/test_background_quiet.py).
BACKGROUND_QUIET_SECONDS = 0
# Each test run its own cache: a Redis cache shared with other runs would carry
# throttle counts and cached replays from one test database into another.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Serve static files from the finders, as the development server does, so
# tests can fetch /static/... without a collectstatic step.
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# Uploads without an account are allowed here (tests of the "off" case override
# it), and the rate limits are out of the way (the throttling test sets its own).
ALLOW_ANONYMOUS_UPLOADS = True
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {"anon": "100000/min", "user": "100000/min"},
}
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# The quotas are out of the way too: counters in a per-process cache outlive a test, so
# a worker's earlier tests would use up a later test's allowance (the quota tests set
# their own limits).
LIVE_MAX_OPEN_GAMES = 1_000_000
EXPORT_BUDGET_ANON = EXPORT_BUDGET_USER = 1_000_000_000
