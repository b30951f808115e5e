"""What several benchmarks share: setting Django up, naming the back-end a run measured,
writing its JSON result, and reading a frozen config from ``--quick`` plus int options."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

Config = TypeVar("Config")


def setup_django(*, migrate: bool = True) -> None:
    """Django on the configured settings (``config.settings.dev`` unless set), and the
    database migrated unless `migrate` is false."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    import django

    django.setup()
    if migrate:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)


def db_and_broker(*, show_pool: bool = False) -> str:
    """The back-end as ``"sqlite3 + filesystem"`` or ``"postgresql + redis"``; with
    `show_pool`, ``" (pool)"`` after the database when its connections are pooled."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    pooled = " (pool)" if show_pool and db.get("OPTIONS", {}).get("pool") else ""
    broker = settings.CELERY_BROKER_URL.split(":")[0]
    return f"{db['ENGINE'].rsplit('.', 1)[-1]}{pooled} + {broker}"


def write_json(path: Path, data: Any) -> None:
    """`data` as indented JSON at `path`, its folder made if need be."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")


def config_from_argv(
    parser: argparse.ArgumentParser,
    argv: Sequence[str] | None,
    *,
    default: Config,
    quick: Config,
    int_options: Iterable[str],
) -> Config:
    """`quick` if ``--quick`` (which `parser` must define) is given, else `default`, with
    each field of `int_options` that is given on the command line (``--table-size`` for
    ``table_size``) replaced by its value."""
    for name in int_options:
        parser.add_argument(f"--{name.replace('_', '-')}", type=int, default=None)
    args = parser.parse_args(argv)
    config = quick if args.quick else default
    overrides = {k: v for k, v in vars(args).items() if k != "quick" and v is not None}
    return replace(config, **overrides)
