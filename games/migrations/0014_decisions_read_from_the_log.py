"""Decisions are read from the match log in Python (games.match_log), not through the
database view `games_matchaction`: a table of bots logs each decision as its index
among the legal actions, which only the engine can read back.

Going back recreates the view as 0011 left it; it reads full entries only (a compact
one shows as a row of empty columns)."""

import importlib

from django.db import migrations

_VIEW_0011 = importlib.import_module("games.migrations.0011_perf16_log_as_json_text")


def restore_view(apps, schema_editor):
    pg = schema_editor.connection.vendor == "postgresql"
    schema_editor.execute(_VIEW_0011.NEW_VIEW_PG if pg else _VIEW_0011.SQLITE_VIEW)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_match_plain_indexes"),
    ]

    operations = [
        migrations.RunPython(_VIEW_0011.drop_view, restore_view),
        migrations.DeleteModel(
            name="MatchAction",
        ),
    ]
