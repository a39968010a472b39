# giftbox web / worker image: slim Python, non-root, gunicorn, collected static files.

# The rules engines compiled with mypyc (bin/compile_engines.py, docs/performance.md
# "Checked replay"), in a stage of their own: the C compiler and mypy stay out of the
# image, which gets only the extension modules built from the same games/ sources.
FROM python:3.11-slim AS engines
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY requirements-test.lock ./
RUN pip install --no-cache-dir $(grep -E '^(mypy|mypy_extensions|librt|pathspec|typing_extensions)==' requirements-test.lock)
COPY bin/compile_engines.py ./bin/
COPY games ./games
RUN python bin/compile_engines.py

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
RUN useradd --create-home --uid 10001 giftbox

# Pinned versions first (a layer that changes only with the lock), then the project
# without resolving anything again.
COPY requirements.lock ./
RUN pip install -r requirements.lock
COPY pyproject.toml README.md ./
COPY config ./config
COPY games ./games
COPY --from=engines /app/games ./games
COPY core ./core
COPY replays ./replays
COPY accounts ./accounts
COPY clubs ./clubs
COPY analytics ./analytics
COPY events ./events
COPY docs ./docs
COPY manage.py ./
RUN pip install --no-deps -e .
# Bytecode compiled once in the image: PYTHONDONTWRITEBYTECODE keeps a container from
# writing it, so without this every start compiled every module from its source.
RUN python -m compileall -q config games core replays accounts clubs analytics events

# Static files (plotly.js, Swagger UI) are collected into the image and served
# by WhiteNoise: nothing is fetched from a CDN at run time.
RUN SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput \
    && chown -R giftbox:giftbox /app

USER giftbox
EXPOSE 8000
CMD ["gunicorn", "-c", "config/gunicorn.py", "config.wsgi"]
