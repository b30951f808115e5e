"""Migration tests: go back to an app's earlier state, make rows with its historical models,
then forward again (``migrate_to``) and check what the migrations made of them."""

from __future__ import annotations

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def back_to(app: str, migration: str):
    """Migrate ``app`` back to ``migration``; returns (the historical apps there, every app's
    latest migrations, to go forward to with ``migrate_to``). Every app's: going back also
    unapplies other apps' migrations that depend on the ones undone (ratings 0003 on games
    0016), which the app's own latest alone would leave unapplied for the next tests."""
    before = [(app, migration)]
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate(before)
    return executor.loader.project_state(before).apps, latest


def migrate_to(targets: list[tuple[str, str]]):
    """Migrate to ``targets`` (a fresh executor: the graph's state after the last run);
    returns the historical apps there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps
