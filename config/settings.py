"""Settings, read from the environment in one place.

With no environment at all the service runs on its embedded default: a SQLite
file next to the project and Celery in eager mode (tasks run in-process).
Production and CI set ``DATABASE_URL`` (PostgreSQL) and ``CELERY_BROKER_URL``
(Redis) and run real workers.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import unquote, urlsplit

import dj_database_url
import plotly
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off (set DEBUG=1 for local development)."
        )
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "core",
    "replays",
    "accounts",
    "clubs",
    "analytics",
    "events.apps.EventsConfig",
]

MIDDLEWARE = [
    "config.csp.ContentSecurityPolicyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "core.middleware.NulRefusalMiddleware",
    "config.database_unavailable.DatabaseUnavailableMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Login (site and admin) and password-reset POSTs past their limits: a 429 page.
    "accounts.login_limits.LoginLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# Who may frame the replay embed (/records/<id>/embed/): any site by default, since
# clubs put it in their own pages. Every other page may not be framed at all.
CSP_EMBED_FRAME_ANCESTORS = os.environ.get("CSP_EMBED_FRAME_ANCESTORS", "*")

ROOT_URLCONF = "config.urls"
# A giftlog of the longest games is well under 2 MB; bulk NDJSON may be larger.
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("MAX_UPLOAD_BYTES", str(16 * 1024 * 1024)))
# The largest NDJSON body of an import job (POST /api/imports/), read line by line and
# counted as it comes: 413 past it, nothing of the import kept.
MAX_IMPORT_BYTES = int(os.environ.get("MAX_IMPORT_BYTES", str(256 * 1024 * 1024)))
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],  # every template lives in its app (base.html and the error pages in core)
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'giftbox.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default runs background work in a thread of the web process
    # (core.background): a write transaction takes its lock when it begins and waits
    # for the other writer, instead of failing with "database is locked" when a read
    # turns into a write; WAL lets pages read while a game is being stored.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            # Seconds a writer waits for the other one. The longest write transaction is
            # a bulk import's batch (BULK_BATCH records) or an ingest's scope recompute:
            # seconds on a laptop, well inside this.
            "timeout": float(os.environ.get("SQLITE_TIMEOUT", "60")),
            "init_command": "PRAGMA journal_mode=WAL;",
        }
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# plotly.js comes from the plotly package itself: served by us, never from a CDN.
STATICFILES_DIRS = [("plotly", Path(plotly.__file__).parent / "package_data")]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "core.api.exception_handler.api_exception_handler",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_RENDERER_CLASSES": [
        "core.api.renderers.ORJSONRenderer",  # DRF's bytes, encoded by orjson
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    # Size-, depth- and NUL-checked JSON (core/inputs.py), for every JSON body of the API.
    "DEFAULT_PARSER_CLASSES": ["core.api.parsers.JSONParser"],
    "UNAUTHENTICATED_USER": None,
    # Token first: its "Token" challenge makes a missing login a 401, not a 403.
    # Live play's "Authorization: Seat <token>" is read by the live views themselves.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.auth.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [],
    # DRF's anon and user rates, both checked by one throttle (core/api/throttling.py).
    "DEFAULT_THROTTLE_CLASSES": ["core.api.throttling.RateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("THROTTLE_ANON", "300/min"),
        "user": os.environ.get("THROTTLE_USER", "1200/min"),
    },
    # How many proxies in front of the web processes append to X-Forwarded-For: the
    # client's address is the entry that many from the right. 0 (the default) trusts
    # no header and counts REMOTE_ADDR, the only safe choice when clients reach
    # gunicorn directly: a client's own X-Forwarded-For would give it a new address
    # per request. Every reader of the client's address uses it (core.api.throttling).
    "NUM_PROXIES": int(os.environ.get("NUM_PROXIES", "0")),
}

# --- Quotas -------------------------------------------------------------------
# Work one request can ask for, counted by cost (core/quotas.py, docs/api.md "Quotas").
# An export answers at most EXPORT_PAGE_RECORDS records (a Link header resumes it);
# a client may export EXPORT_BUDGET_ANON (per address) or EXPORT_BUDGET_USER (per
# account) records per EXPORT_BUDGET_SECONDS.
EXPORT_PAGE_RECORDS = int(os.environ.get("EXPORT_PAGE_RECORDS", "5000"))
EXPORT_BUDGET_ANON = int(os.environ.get("EXPORT_BUDGET_ANON", "10000"))
EXPORT_BUDGET_USER = int(os.environ.get("EXPORT_BUDGET_USER", "100000"))
EXPORT_BUDGET_SECONDS = int(os.environ.get("EXPORT_BUDGET_SECONDS", "3600"))
# The balance lab per account (clients without one share one allowance): unfinished
# jobs, and games those jobs still have to play.
SIMULATIONS_MAX_JOBS = int(os.environ.get("SIMULATIONS_MAX_JOBS", "2"))
SIMULATIONS_MAX_QUEUED_GAMES = int(os.environ.get("SIMULATIONS_MAX_QUEUED_GAMES", "4000"))
# Analyses of games an account may ask for in an hour (POST /api/records/{id}/analysis/;
# asking again for one already there costs nothing). Each is a worker's minute.
ANALYSIS_REQUESTS_PER_HOUR = int(os.environ.get("ANALYSIS_REQUESTS_PER_HOUR", "30"))
# Live games open per account (opened in the last LIVE_OPEN_HOURS and not finished);
# a client without an account may open this many per address per hour.
LIVE_MAX_OPEN_GAMES = int(os.environ.get("LIVE_MAX_OPEN_GAMES", "20"))
LIVE_OPEN_HOURS = float(os.environ.get("LIVE_OPEN_HOURS", "24"))
# Failed logins (and password-reset requests) per account name and per client address
# in LOGIN_FAILURE_SECONDS; past it, 429 with the time to wait (accounts/throttling.py).
LOGIN_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "10"))
LOGIN_FAILURE_SECONDS = int(os.environ.get("LOGIN_FAILURE_SECONDS", "900"))
PASSWORD_RESET_LIMIT = int(os.environ.get("PASSWORD_RESET_LIMIT", "5"))

# --- Accounts -----------------------------------------------------------------
# Whether clients that are not logged in (no session, no API token) may upload
# records and open live games. Reading is always open.
ALLOW_ANONYMOUS_UPLOADS = env_bool("ALLOW_ANONYMOUS_UPLOADS", DEBUG)
LOGIN_URL = "login"
# How long the submitter of a result-only record may still correct its scores.
RESULT_CORRECTION_WINDOW = timedelta(hours=float(os.environ.get("RESULT_CORRECTION_HOURS", "24")))
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
# --- Ratings --------------------------------------------------------------------
# Below this many rated games in a scope a rating is shown as provisional.
RATINGS_PROVISIONAL_GAMES = int(os.environ.get("RATINGS_PROVISIONAL_GAMES", "5"))


def email_settings(url: str) -> dict[str, object]:
    """``EMAIL_URL`` as Django settings: ``smtp://user:pass@host:587`` (STARTTLS on 587),
    ``smtps://...`` (implicit TLS), ``smtp+tls://``, ``smtp+ssl://`` or ``console://``."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "console":
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    if scheme not in {"smtp", "smtps", "smtp+tls", "smtp+ssl"}:
        raise ImproperlyConfigured(f"EMAIL_URL scheme {scheme!r} is not smtp, smtps or console.")
    ssl = scheme in {"smtps", "smtp+ssl"}
    port = parts.port or (465 if ssl else 587)
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname or "localhost",
        "EMAIL_PORT": port,
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_SSL": ssl,
        "EMAIL_USE_TLS": not ssl and (scheme == "smtp+tls" or port == 587),
    }


# No mail server configured (the embedded default): mails are printed on the console.
if os.environ.get("EMAIL_URL"):
    globals().update(email_settings(os.environ["EMAIL_URL"]))
elif os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", EMAIL_PORT == 587)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", EMAIL_PORT == 465)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "giftbox <noreply@localhost>")

SPECTACULAR_SETTINGS = {
    "TITLE": "giftbox API",
    "DESCRIPTION": (
        "Record, validate and replay games of Gift Swap, Gift Gift Gone, GiftTRAP, "
        "Gift Economy and Secret Santa in the giftlog/1 format."
    ),
    "VERSION": "1.0.0",
    # A record's, step's or game's number in a path (``<id:...>``, core.converters): an
    # integer of at most 18 digits.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0, "maximum": 10**18 - 1}},
    "SERVE_INCLUDE_SCHEMA": False,
    # Request bodies get components of their own, so a field the server refuses blank
    # is declared with minLength 1 and a read-only field is not offered to clients.
    "COMPONENT_SPLIT_REQUEST": True,
    # A PATCH body is the whole serializer (the views validate it in full, not partially),
    # so its required fields stay required in the schema.
    "COMPONENT_SPLIT_PATCH": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "EventFormatEnum": "events.models.Event.Format",
        "EventStatusEnum": "events.models.Event.Status",
        "EventStatusSetEnum": [("draft", "draft"), ("open", "open")],
        "EventRoundStatusEnum": "events.models.Round.Status",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        # Every operation documents its 4xx and 503 answers as the common error shape.
        "replays.api.schemas.error_responses_hook",
        # A write that refuses an empty body says its body is required.
        "replays.api.schemas.request_bodies_required_hook",
    ],
}

# --- Cache --------------------------------------------------------------------
# Throttling counters, replay snapshots and cached timelines. Several gunicorn
# processes must share them (nothing in one process may be the only copy), so a
# deployment with Redis uses it: CACHE_URL, else REDIS_URL, else a redis://
# CELERY_BROKER_URL. Without any, each process keeps its own (development).
CACHE_URL = os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL", "")
if not CACHE_URL and os.environ.get("CELERY_BROKER_URL", "").startswith("redis"):
    CACHE_URL = os.environ["CELERY_BROKER_URL"]
# The cache only holds copies, so Redis away must not fail a request: the backend
# answers "not cached", and after a failure each process skips Redis for
# CACHE_RETRY_SECONDS (core.cache). The timeouts bound what one call can wait.
CACHE_RETRY_SECONDS = float(os.environ.get("CACHE_RETRY_SECONDS", "5"))
if CACHE_URL.startswith(("redis://", "rediss://")):
    CACHES = {
        "default": {
            "BACKEND": "core.cache.ResilientRedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "giftbox",
            "OPTIONS": {
                "socket_connect_timeout": float(os.environ.get("CACHE_CONNECT_TIMEOUT", "0.5")),
                "socket_timeout": float(os.environ.get("CACHE_SOCKET_TIMEOUT", "2")),
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Celery -------------------------------------------------------------------
# No broker configured means the embedded default: tasks run in-process, eagerly.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not CELERY_BROKER_URL)
# In-process tasks need no broker; naming the in-memory one keeps Celery from looking
# for one on localhost (and from saying so at every start).
CELERY_BROKER_URL = CELERY_BROKER_URL or "memory://"
CELERY_TASK_EAGER_PROPAGATES = True
# Without a broker, long tasks (a balance-lab run) go to a bounded pool of threads in
# the web process (core.background) instead of running inside the request: this many
# threads (one suits SQLite's one writer), and at most this many tasks waiting or running.
# The analytics ingest of stored records goes there too, so an import answers as fast as
# with a broker; a single upload's ingest (BACKGROUND_URGENT) goes ahead of a bulk
# import's batches, and the replays' preparation (BACKGROUND_LAST) waits behind both.
# The pool also runs the sweeps beat would run (BACKGROUND_SWEEPS, at their beat
# intervals, when it is idle): they pick up what a restart lost from memory.
BACKGROUND_WORKERS = int(os.environ.get("BACKGROUND_WORKERS", "1"))
BACKGROUND_QUEUE_MAX = int(os.environ.get("BACKGROUND_QUEUE_MAX", "200"))
BACKGROUND_URGENT = ("analytics.record_ingest",)
# Analysis of games runs in a lane of its own (one thread), never in front of an ingest:
# a game's analysis is a minute of work, an ingest must reach its leaderboard in seconds.
BACKGROUND_LOW = ("analytics.record_analyse", "analytics.skill_figures_refresh")
BACKGROUND_LAST = ("replays.records_viewer_warm",)
# The pool yields to requests: a task that is not urgent starts once no request ran for
# BACKGROUND_QUIET_SECONDS (a bulk import's batches wait for its last answer instead of
# slowing each request), or after BACKGROUND_QUIET_MAX_SECONDS of waiting.
BACKGROUND_QUIET_SECONDS = float(os.environ.get("BACKGROUND_QUIET_SECONDS", "0.3"))
BACKGROUND_QUIET_MAX_SECONDS = float(os.environ.get("BACKGROUND_QUIET_MAX_SECONDS", "30"))
BACKGROUND_SWEEPS = (
    "dispatch-pending-announcements",
    "import-jobs-sweep",
    "analytics-ingest-sweep",
)
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "giftbox")
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A message a worker took but did not acknowledge (tasks ack late: the worker died in
# the middle) goes back to the queue after ``visibility_timeout`` seconds. It must be
# longer than any task runs; running one twice is harmless (tasks are idempotent).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "max_retries": 1,
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "900")),
    # How often a worker looks for such messages (one cheap Redis query each time).
    "unacked_restore_interval": int(os.environ.get("CELERY_UNACKED_RESTORE_SECONDS", "10")),
    "unacked_restore_throttle": 1,
}
# Imports and analytics on queues of their own: a club's history being imported
# never delays the leaderboards, and each queue scales with its own workers
# (docs/performance.md, "Scale-out"). Other tasks use the default queue.
CELERY_IMPORTS_QUEUE = os.environ.get("CELERY_IMPORTS_QUEUE", "imports")
CELERY_ANALYTICS_QUEUE = os.environ.get("CELERY_ANALYTICS_QUEUE", "analytics")
# A bulk import's ingest batches (analytics.records_ingest) on a queue of their own, read
# by the import workers: a 10,000-game import's minutes of ingest never stand in front of
# a single upload's ingest on the analytics queue (docs/operations.md, "Queues").
CELERY_ANALYTICS_BULK_QUEUE = os.environ.get("CELERY_ANALYTICS_BULK_QUEUE", "analytics_bulk")
# The balance lab's bot games on a queue of their own: thousands of simulated games
# never wait in front of an upload's ingest (an exact name wins over "analytics.*").
CELERY_SIMULATIONS_QUEUE = os.environ.get("CELERY_SIMULATIONS_QUEUE", "simulations")
# Analysis of games (a minute of playouts a game) on a queue of its own, read by its own
# workers (compose's ``analyst``): it never waits in front of an ingest or a leaderboard.
CELERY_ANALYSIS_QUEUE = os.environ.get("CELERY_ANALYSIS_QUEUE", "analysis")
# The replays' preparation of long records (replays.viewer_warm: seconds of work for a
# bulk batch, only a speed-up) on a queue of its own, read by the analysts: on the
# default queue it held the worker between single uploads' ingests, on the importers'
# it would hold a bulk import's ingest back (docs/operations.md, "Queues").
CELERY_REPLAYS_QUEUE = os.environ.get("CELERY_REPLAYS_QUEUE", "replays")
CELERY_TASK_ROUTES = {
    "replays.records_viewer_warm": {"queue": CELERY_REPLAYS_QUEUE},
    "analytics.simulation_run": {"queue": CELERY_SIMULATIONS_QUEUE},
    "analytics.record_analyse": {"queue": CELERY_ANALYSIS_QUEUE},
    "analytics.skill_figures_refresh": {"queue": CELERY_ANALYSIS_QUEUE},
    "replays.import_job_run": {"queue": CELERY_IMPORTS_QUEUE},
    "analytics.records_ingest": {"queue": CELERY_ANALYTICS_BULK_QUEUE},
    "analytics.*": {"queue": CELERY_ANALYTICS_QUEUE},
}
# A worker reserves one message per process beyond those it runs: a batch or an import
# chunk runs for seconds, and one more held by a busy process would wait for it while
# another process idles.
CELERY_WORKER_PREFETCH_MULTIPLIER = int(os.environ.get("CELERY_WORKER_PREFETCH_MULTIPLIER", "1"))
# Processes that check the rules of a bulk import (replays.bulk); 0: in the request.
IMPORT_WORKERS = int(os.environ.get("IMPORT_WORKERS", str(os.cpu_count() or 1)))
# A stored record with no derived rows after this long is ingested by the sweep.
INGEST_SWEEP_AFTER_SECONDS = int(os.environ.get("INGEST_SWEEP_AFTER_SECONDS", "120"))
# An unfinished import job with no sign of a worker for this long is sent again.
IMPORT_SWEEP_AFTER_SECONDS = int(os.environ.get("IMPORT_SWEEP_AFTER_SECONDS", "120"))
CELERY_BEAT_SCHEDULE = {
    "dispatch-pending-announcements": {
        "task": "replays.announcements_dispatch",
        "schedule": timedelta(seconds=int(os.environ.get("OUTBOX_SWEEP_SECONDS", "60"))),
    },
    # Import jobs created while the broker was down, or whose messages it lost.
    "import-jobs-sweep": {
        "task": "replays.import_jobs_sweep",
        "schedule": timedelta(seconds=int(os.environ.get("IMPORT_SWEEP_SECONDS", "60"))),
    },
    # Records whose ingest message was lost after the outbox sent it (analytics.services).
    "analytics-ingest-sweep": {
        "task": "analytics.ingest_sweep",
        "schedule": timedelta(seconds=int(os.environ.get("INGEST_SWEEP_SECONDS", "60"))),
    },
    # Recompute every rating scope from its records; logs any player whose stored
    # rating differed from the fresh one (there should be none).
    "ratings-rebuild-nightly": {
        "task": "analytics.ratings_rebuild",
        "schedule": timedelta(hours=float(os.environ.get("RATINGS_REBUILD_HOURS", "24"))),
    },
    # Statistics: compare the incremental snapshots with a fresh computation, log, fix.
    "statistics-recompute-nightly": {
        "task": "analytics.statistics_recompute_all",
        "schedule": crontab(hour=3, minute=30),
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # In eager mode every upload would log its task's success line.
        "celery.app.trace": {"level": "WARNING" if CELERY_TASK_ALWAYS_EAGER else "INFO"},
    },
}

if not DEBUG:
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_REFERRER_POLICY = "same-origin"
    # Served over TLS (TLS=1, usually behind a proxy that terminates it): browsers are
    # told to come back only over HTTPS (HSTS, a year) and plain HTTP is redirected.
    # Without it the site is plain HTTP on a club's network, where HSTS would lock
    # browsers out.
    if env_bool("TLS", False):
        SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
        SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
        SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
        SECURE_SSL_REDIRECT = True
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    else:
        # `manage.py check --deploy` would rightly ask for HSTS and the redirect on a
        # TLS site; on a plain-HTTP one they are wrong, so their checks are silenced.
        SILENCED_SYSTEM_CHECKS = ["security.W004", "security.W008"]
