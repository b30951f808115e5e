SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
DEV_STAMP := $(VENV)/.installed-dev-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: install install-dev migrate seed run test lint format bench clean

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
	$(PY) manage.py migrate --noinput

seed: migrate
	$(PY) manage.py seed_demo

# Web server, Celery worker and beat on the embedded defaults (SQLite, filesystem
# broker) unless DATABASE_URL / REDIS_URL say otherwise. Ctrl-C stops all three.
run: seed
	@echo "Serving http://$(HOST):$(PORT)/  (admin: admin/admin)"
	@trap 'kill 0' EXIT INT TERM; \
	$(VENV)/bin/celery -A config worker --loglevel=INFO --concurrency=2 & \
	$(VENV)/bin/celery -A config beat --loglevel=INFO & \
	$(PY) manage.py runserver $(HOST):$(PORT) & \
	wait

test: install-dev
	$(PY) -m pytest $(PYTEST_ARGS)

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
