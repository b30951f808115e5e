import os
import subprocess
import sys
from pathlib import Path

import pytest

from config.settings.components import (
    DEFAULT_SECRET_KEY,
    broker_kind,
    cache_config,
    celery_config,
    database_config,
)

ROOT = Path(__file__).resolve().parents[2]


def test_database_defaults_to_sqlite_under_var(tmp_path):
    config = database_config("", tmp_path)
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == str(tmp_path / "db.sqlite3")
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


def test_database_url_for_postgres(tmp_path):
    config = database_config("postgres://bob:pw@db.example:5433/league", tmp_path)
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["USER"], config["HOST"], config["PORT"]) == (
        "league",
        "bob",
        "db.example",
        5433,
    )
    assert config["CONN_HEALTH_CHECKS"] is True


def test_celery_on_redis_when_redis_url_set(tmp_path):
    config = celery_config("redis://127.0.0.1:6379/3", tmp_path)
    assert config["broker_url"] == config["result_backend"] == "redis://127.0.0.1:6379/3"
    assert broker_kind(config["broker_url"]) == "redis"


def test_celery_without_redis_uses_a_shared_folder(tmp_path):
    config = celery_config(None, tmp_path)
    assert config["broker_url"] == "safefs://"
    options = config["broker_transport_options"]
    assert options["data_folder_in"] == options["data_folder_out"]
    assert Path(options["data_folder_in"]).is_dir()
    assert config["result_backend"].startswith("file://")


def test_cache_follows_redis_url(tmp_path):
    assert cache_config("redis://r:6379/0", tmp_path)["BACKEND"].endswith("RedisCache")
    assert cache_config(None, tmp_path)["BACKEND"].endswith("FileBasedCache")


def _import_production(env_overrides: dict) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG")}
    env["EMAIL_URL"] = "smtp://mail.example.org:587?tls=True"  # production needs one
    env.update(env_overrides, DJANGO_SETTINGS_MODULE="config.settings.production")
    code = "import django; django.setup(); print('started')"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("overrides", "reason"),
    [
        ({"SECRET_KEY": "x" * 50, "DEBUG": "true"}, "DEBUG on"),
        ({}, "SECRET_KEY"),
        ({"SECRET_KEY": DEFAULT_SECRET_KEY}, "SECRET_KEY"),
    ],
)
def test_production_refuses_unsafe_settings(overrides, reason):
    result = _import_production(overrides)
    assert result.returncode != 0
    assert reason in result.stderr


def test_production_starts_with_safe_settings():
    result = _import_production({"SECRET_KEY": "s" * 50, "DEBUG": "false"})
    assert result.returncode == 0, result.stderr
    assert "started" in result.stdout
