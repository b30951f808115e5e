SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
DEV_STAMP := $(VENV)/.installed-dev-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
TEST_WORKERS ?= 2

.PHONY: install install-dev migrate seed static run browser test lint format bench clean backup restore

# `make run` needs only what the platform runs on; tests, lint and benchmarks add the dev tools.
$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e .
	touch $(STAMP)

$(DEV_STAMP): $(STAMP)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(DEV_STAMP)

install: $(STAMP)

install-dev: $(DEV_STAMP)

migrate: install
	DATABASE_STATEMENT_TIMEOUT_S=0 $(PY) manage.py migrate --noinput

seed: migrate
	$(PY) manage.py seed_demo
	$(PY) manage.py seed_demo_club

# Static files under content-hashed names with .gz copies (var/staticfiles/), which the
# server then links and WhiteNoise serves with a long-lived cache (config/settings/dev.py).
static: export STATIC_MANIFEST = 1
static: install
	$(PY) manage.py collectstatic --noinput -v0

# Web server, Celery workers (default queue, search bots' queue) and beat on the embedded
# defaults (SQLite, filesystem broker) unless DATABASE_URL / REDIS_URL say otherwise. A
# small supervisor (config/worker_process.py) prints the address once the server answers,
# starts a worker or beat that died again, and stops them all on Ctrl-C or TERM.
run: export STATIC_MANIFEST = 1
run: seed static
	@exec $(PY) -m config.worker_process run --host $(HOST) --port $(PORT)

# The database (SQLite or PostgreSQL, from DATABASE_URL) to var/backups/<name>-<UTC time>,
# and back: `make restore FILE=var/backups/…` asks nothing (docs/operations.md).
backup: install
	$(PY) manage.py backup

restore: install
	$(PY) manage.py restore "$(FILE)"

# The browser tests drive the system Chromium (installed from Debian when missing).
browser:
	@scripts/ensure-chromium

# pytest-xdist: TEST_WORKERS processes, each with its own var/ folder, Redis database
# and test database (config/settings/test.py); TEST_WORKERS=0 runs in this process.
test: install-dev browser
	$(PY) -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install-dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: install-dev
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache
