"""Settings for the server the bench starts: the product's, plus bare reference views."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
