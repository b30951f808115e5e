"""The match log is kept as json text (not jsonb) with its length beside it.

Parsing a bot game's log (tens of kilobytes) into jsonb cost the server more than
the engine took to play the game; json is only checked, and lz4 (where the server
has it) compresses it faster than the default. `plies` guards appends instead of
measuring the log. The MatchAction view is rebuilt to read json."""

import importlib

from django.db import migrations, models

import games.models.matches

# The view as migration 0006 made it.
_VIEWS = importlib.import_module("games.migrations.0006_perf16_compact_log").VIEW_SQL
SQLITE_VIEW, OLD_VIEW_PG = _VIEWS["sqlite"], _VIEWS["postgresql"]
# The same columns and types from json: the action still jsonb, as the model reads it.
NEW_VIEW_PG = OLD_VIEW_PG.replace("e.v -> 1 AS action", "(e.v -> 1)::jsonb AS action").replace(
    "jsonb_array_elements(", "json_array_elements("
)
assert NEW_VIEW_PG.count("json_array_elements(") == 1 and "::jsonb AS action" in NEW_VIEW_PG


def _pg(schema_editor) -> bool:
    return schema_editor.connection.vendor == "postgresql"


def drop_view(apps, schema_editor):
    if _pg(schema_editor):
        # Rows written earlier in the same transaction (an older migration's) leave
        # deferred checks pending, and PostgreSQL alters no table with such pending.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    # SQLite rebuilds the altered table, which a view over it would not survive.
    schema_editor.execute("DROP VIEW IF EXISTS games_matchaction")


def new_view(apps, schema_editor):
    schema_editor.execute("UPDATE games_matchlog SET plies = json_array_length(entries)")
    if not _pg(schema_editor):
        schema_editor.execute(SQLITE_VIEW)  # as it was: SQLite's json functions read text
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
        )
        row = cursor.fetchone()
    if row and row[0]:  # a server built without lz4 keeps its default (pglz)
        schema_editor.execute("ALTER TABLE games_matchlog ALTER COLUMN entries SET COMPRESSION lz4")
    schema_editor.execute(NEW_VIEW_PG)


def old_view(apps, schema_editor):
    schema_editor.execute(OLD_VIEW_PG if _pg(schema_editor) else SQLITE_VIEW)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_tz_player_time_zone"),
    ]

    operations = [
        migrations.RunPython(drop_view, old_view),
        migrations.AlterField(
            model_name="matchlog",
            name="entries",
            field=games.models.matches.JSONTextField(default=list),
        ),
        migrations.AddField(
            model_name="matchlog",
            name="plies",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(new_view, drop_view),
    ]
