"""Backups of the database and restores from them (`make backup`, `make restore FILE=…`,
`manage.py backup` / `manage.py restore FILE`; docs/operations.md).

- SQLite (the embedded default, `VAR_DIR/db.sqlite3`): SQLite's online backup API, which
  copies a consistent snapshot while web, worker and beat keep writing (a copy of the
  file could catch a write half done, and would miss what is still in the `-wal` file).
  A restore copies the backup back the same way, in one transaction of the live file.
- PostgreSQL: `pg_dump --format=custom`, restored with `pg_restore --clean --if-exists`
  in a single transaction (all or nothing).

Backups go to `VAR_DIR/backups/`, named after the database and the time (UTC):
`db-20250131-020000.sqlite3`, `platform-20250131-020000.dump`. Only the database is
saved: Redis holds nothing that lasts (docs/operations.md says why)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why and what to do."""


def backup_dir() -> Path:
    from django.conf import settings

    return Path(settings.VAR_DIR) / "backups"


def _is_sqlite(db: dict) -> bool:
    return db["ENGINE"].endswith("sqlite3")


def _target(directory: Path, stem: str, suffix: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    path, n = directory / f"{stem}-{stamp}{suffix}", 1
    while path.exists():  # two backups within a second
        path, n = directory / f"{stem}-{stamp}-{n}{suffix}", n + 1
    return path


# ---- SQLite -------------------------------------------------------------------------
def backup_sqlite(db_path: Path, directory: Path) -> Path:
    if not Path(db_path).is_file():
        raise BackupError(f"there is no database at {db_path} to back up")
    target = _target(directory, Path(db_path).stem, ".sqlite3")
    partial = target.with_name(target.name + ".part")
    source, copy = sqlite3.connect(db_path, timeout=30), sqlite3.connect(partial)
    try:
        source.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
    finally:
        copy.close()
        source.close()
    partial.replace(target)  # a file under the final name is always whole
    return target


def restore_sqlite(backup: Path, db_path: Path) -> None:
    _check_kind(backup, SQLITE_MAGIC, "an SQLite backup (.sqlite3)")
    source = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
    try:
        problem = source.execute("PRAGMA quick_check").fetchone()[0]
        if problem != "ok":
            raise BackupError(f"{backup} is damaged ({problem}); nothing was restored")
        live = sqlite3.connect(db_path, timeout=30)
        try:
            source.backup(live)  # replaces every page of the live file in one transaction
        finally:
            live.close()
    finally:
        source.close()


# ---- PostgreSQL ---------------------------------------------------------------------
def _pg_env_and_args(db: dict) -> tuple[dict, list[str]]:
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    sslmode = (db.get("OPTIONS") or {}).get("sslmode")
    if sslmode:
        env["PGSSLMODE"] = str(sslmode)
    args = ["--host", str(db.get("HOST") or "127.0.0.1"), "--port", str(db.get("PORT") or 5432)]
    if db.get("USER"):
        args += ["--username", str(db["USER"])]
    return env, [*args, "--no-password", "--dbname", str(db["NAME"])]


def _tool(name: str) -> str:
    path = shutil.which(name)
    if not path:
        raise BackupError(
            f"{name} is not installed (Debian: apt-get install postgresql-client); with the "
            "compose file, run it in the postgres container (docs/operations.md)"
        )
    return path


def _run(args: list[str], env: dict, what: str) -> None:
    done = subprocess.run(args, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"{what} failed (exit {done.returncode}): {done.stderr.strip()}")


def backup_postgres(db: dict, directory: Path) -> Path:
    env, args = _pg_env_and_args(db)
    target = _target(directory, str(db["NAME"]), ".dump")
    partial = target.with_name(target.name + ".part")
    try:
        _run([_tool("pg_dump"), "--format=custom", "--file", str(partial), *args], env, "pg_dump")
    except BackupError:
        partial.unlink(missing_ok=True)
        raise
    partial.replace(target)
    return target


def restore_postgres(backup: Path, db: dict) -> None:
    _check_kind(backup, PG_DUMP_MAGIC, "a PostgreSQL dump (.dump, pg_dump --format=custom)")
    env, args = _pg_env_and_args(db)
    # --single-transaction: a restore that fails half-way leaves the database as it was.
    _run([_tool("pg_restore"), "--clean", "--if-exists", "--single-transaction", "--no-owner",
          "--no-privileges", *args, str(backup)], env, "pg_restore")  # fmt: skip


# ---- either, by DATABASE_URL --------------------------------------------------------
def _check_kind(backup: Path, magic: bytes, kind: str) -> None:
    with open(backup, "rb") as f:
        head = f.read(len(magic))
    if head != magic:
        raise BackupError(f"{backup} is not {kind}; nothing was restored")


def backup(directory: Path | None = None, db: dict | None = None) -> Path:
    """Back up the database (`db`: a DATABASES entry; the default one unless given)."""
    from django.db import connections

    db = db or connections["default"].settings_dict
    directory = Path(directory) if directory else backup_dir()
    if _is_sqlite(db):
        return backup_sqlite(Path(db["NAME"]), directory)
    return backup_postgres(db, directory)


def restore(file: str | Path | None, db: dict | None = None) -> Path:
    """Replace the database's contents by those of the backup `file`. Asks nothing:
    stop web, workers and beat first (docs/operations.md)."""
    from django.db import connections

    if not file or not str(file).strip():
        raise BackupError(
            "say which backup to restore: make restore FILE=var/backups/<name>" + _latest_hint()
        )
    path = Path(file)
    if not path.is_file():
        raise BackupError(f"no such backup file: {path}; nothing was restored" + _latest_hint())
    db = db or connections["default"].settings_dict
    connections.close_all()  # this process must not hold the database while it is replaced
    if _is_sqlite(db):
        restore_sqlite(path, Path(db["NAME"]))
    else:
        restore_postgres(path, db)
    return path


def _latest_hint() -> str:
    try:
        found = [p for p in backup_dir().iterdir() if p.suffix in (".sqlite3", ".dump")]
        latest = max(found, key=lambda p: p.stat().st_mtime, default=None)
    except OSError:
        return ""
    return f" (latest: {latest})" if latest else ""
