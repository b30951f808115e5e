"""`make backup` / `make restore FILE=…` (operations/backup.py): round trips on SQLite
(the embedded default) and on PostgreSQL (a scratch database of its own), and the
refusals that change nothing."""

from __future__ import annotations

import os
import secrets
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection

from config.worker_process import ROOT
from operations import backup as ops_backup
from tests.games.factories import UserFactory

User = get_user_model()


def _manage(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**os.environ, **env})  # fmt: skip


def _scratch_sqlite(path: Path, rows: int) -> sqlite3.Connection:
    """A WAL database as the site keeps one, left open with its last writes still in
    the -wal file (not checkpointed into the main file)."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE seat (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    db.executemany("INSERT INTO seat (name) VALUES (?)", [(f"seat {i}",) for i in range(rows)])
    db.commit()
    return db


def _names(db) -> list[str]:
    return [name for (name,) in db.execute("SELECT name FROM seat ORDER BY id")]


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the test database is not SQLite")
@pytest.mark.django_db(transaction=True)  # restore replaces the whole file
def test_sqlite_round_trip_of_the_site_database(tmp_path):
    kept = [UserFactory(username=f"member{i}") for i in range(3)]
    out = call_command_output("backup", dir=str(tmp_path))
    path = Path(out.split("backed up to ", 1)[1].split(" (", 1)[0])
    assert path.parent == tmp_path and path.suffix == ".sqlite3"

    kept[0].delete()
    User.objects.filter(pk=kept[1].pk).update(username="renamed")
    UserFactory(username="after-the-backup")

    call_command_output("restore", str(path))
    assert sorted(User.objects.values_list("username", flat=True)) == [
        "member0", "member1", "member2"
    ]  # fmt: skip


def call_command_output(*args, **kwargs) -> str:
    from io import StringIO

    out = StringIO()
    call_command(*args, stdout=out, **kwargs)
    return out.getvalue()


def test_sqlite_backup_of_a_live_database_and_restore_by_the_commands(tmp_path):
    live = tmp_path / "db.sqlite3"
    writer = _scratch_sqlite(live, rows=200)
    assert (tmp_path / "db.sqlite3-wal").stat().st_size > 0  # a file copy would miss these
    env = {"DATABASE_URL": f"sqlite:///{live}", "VAR_DIR": str(tmp_path / "var"),
           "DJANGO_SETTINGS_MODULE": "config.settings.dev"}  # fmt: skip

    made = _manage("backup", env=env)
    assert made.returncode == 0, made.stderr
    (path,) = (tmp_path / "var" / "backups").glob("db-*.sqlite3")
    assert str(path) in made.stdout
    with sqlite3.connect(path) as copy:
        assert _names(copy) == [f"seat {i}" for i in range(200)]

    writer.execute("DELETE FROM seat WHERE id > 10")
    writer.execute("UPDATE seat SET name = 'changed' WHERE id = 1")
    writer.commit()
    assert len(_names(writer)) == 10

    restored = _manage("restore", str(path), env=env)
    assert restored.returncode == 0, restored.stderr
    # The open connection (a running worker's, say) reads the restored rows.
    assert _names(writer) == [f"seat {i}" for i in range(200)]
    assert writer.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    writer.close()


def test_restore_refuses_a_missing_file_an_empty_name_and_the_wrong_kind(tmp_path):
    live = tmp_path / "db.sqlite3"
    _scratch_sqlite(live, rows=5).close()
    db = {"ENGINE": "django.db.backends.sqlite3", "NAME": str(live)}
    before = live.read_bytes()

    with pytest.raises(ops_backup.BackupError, match="no such backup file: .*nothing was restored"):
        ops_backup.restore(tmp_path / "nope.sqlite3", db=db)
    with pytest.raises(ops_backup.BackupError, match="say which backup to restore"):
        ops_backup.restore("", db=db)
    dump = tmp_path / "platform-20250101-000000.dump"
    dump.write_bytes(b"PGDMP\x01\x0e\x00 not sqlite")
    with pytest.raises(ops_backup.BackupError, match="is not an SQLite backup"):
        ops_backup.restore(dump, db=db)
    assert live.read_bytes() == before
    with sqlite3.connect(live) as still:
        assert len(_names(still)) == 5

    # Through make, as an operator types it: a clear message and a failing exit code.
    env = {"DATABASE_URL": f"sqlite:///{live}", "VAR_DIR": str(tmp_path / "var")}
    missing = subprocess.run(["make", "-s", "restore", f"FILE={tmp_path / 'nope.sqlite3'}"],
                             cwd=ROOT, capture_output=True, text=True, timeout=120,
                             env={**os.environ, **env})  # fmt: skip
    assert missing.returncode != 0
    assert "no such backup file" in missing.stderr
    assert "Traceback" not in missing.stderr
    nothing = _manage("restore", env=env)
    assert nothing.returncode != 0 and "make restore FILE=" in nothing.stderr
    assert live.read_bytes() == before


def test_command_error_not_a_traceback_for_a_missing_file(tmp_path):
    with pytest.raises(CommandError, match="no such backup file"):
        call_command("restore", str(tmp_path / "missing.dump"))


# ---- PostgreSQL ---------------------------------------------------------------------
PG = {"HOST": "127.0.0.1", "PORT": 5432, "USER": "postgres"}


@pytest.fixture
def scratch_postgres():
    """A database of its own on 127.0.0.1:5432, dropped afterwards."""
    import psycopg  # a dependency of the project (pyproject.toml)

    try:
        admin = psycopg.connect(host=PG["HOST"], port=PG["PORT"], user=PG["USER"],
                                dbname="postgres", autocommit=True, connect_timeout=5)  # fmt: skip
    except psycopg.OperationalError as exc:
        # The suite needs the machine's PostgreSQL (README, "Tests"): its absence is a failure.
        pytest.fail(f"no PostgreSQL server on 127.0.0.1:5432: {exc}")
    name = f"caravan_backup_{secrets.token_hex(6)}"
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield {"ENGINE": "django.db.backends.postgresql", "NAME": name, **PG}
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def test_postgresql_round_trip(scratch_postgres, tmp_path):
    import psycopg

    db = scratch_postgres
    url = f"postgres://{PG['USER']}@{PG['HOST']}:{PG['PORT']}/{db['NAME']}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE seat (id serial PRIMARY KEY, name text NOT NULL)")
        conn.execute("INSERT INTO seat (name) SELECT 'seat ' || n FROM generate_series(0, 199) n")
    env = {"DATABASE_URL": url, "VAR_DIR": str(tmp_path / "var"),
           "DJANGO_SETTINGS_MODULE": "config.settings.dev"}  # fmt: skip

    made = _manage("backup", env=env)
    assert made.returncode == 0, made.stderr
    (path,) = (tmp_path / "var" / "backups").glob(f"{db['NAME']}-*.dump")
    assert path.read_bytes().startswith(b"PGDMP")

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DELETE FROM seat WHERE id > 10")
        conn.execute("UPDATE seat SET name = 'changed' WHERE id = 1")
        conn.execute("CREATE TABLE seat_note (seat int)")  # made after the backup: kept

    restored = _manage("restore", str(path), env=env)
    assert restored.returncode == 0, restored.stderr
    with psycopg.connect(url) as conn:
        names = [name for (name,) in conn.execute("SELECT name FROM seat ORDER BY id")]
        assert names == [f"seat {i}" for i in range(200)]
        # The sequence came back too: the next row does not collide.
        conn.execute("INSERT INTO seat (name) VALUES ('new')")
        assert conn.execute("SELECT max(id) FROM seat").fetchone()[0] == 201

    # The wrong kind of file, or a dump that fails half-way, leaves the database as it was.
    sqlite_file = tmp_path / "db-20250101-000000.sqlite3"
    sqlite_file.write_bytes(ops_backup.SQLITE_MAGIC + b"\x00" * 100)
    wrong = _manage("restore", str(sqlite_file), env=env)
    assert wrong.returncode != 0 and "is not a PostgreSQL dump" in wrong.stderr
    broken = tmp_path / "broken.dump"
    broken.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])
    failed = _manage("restore", str(broken), env=env)
    assert failed.returncode != 0 and "pg_restore failed" in failed.stderr
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM seat").fetchone()[0] == 201
