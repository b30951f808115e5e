"""The action log becomes one compact row per match (MatchLog); MatchAction stays as a
read-only view over it, so every reader (API log, replays, the match page, the admin)
keeps its queries. Existing MatchAction rows are moved into the logs, and back on reverse."""

from datetime import UTC, datetime

import django.db.models.deletion
from django.db import migrations, models

VIEW_SQL = {
    "postgresql": """
        CREATE VIEW games_matchaction AS
        SELECT l.match_id::bigint * 1000000 + (e.ord - 1) AS id,
               l.match_id AS match_id,
               (e.ord - 1)::integer AS ply,
               (e.v ->> 0)::integer AS seat,
               e.v -> 1 AS action,
               e.v ->> 2 AS label,
               e.v ->> 3 AS source,
               (e.v ->> 4)::integer AS time_used_ms,
               to_timestamp((e.v ->> 5)::bigint / 1000.0) AS created_at
        FROM games_matchlog l
        CROSS JOIN LATERAL jsonb_array_elements(l.entries) WITH ORDINALITY AS e(v, ord)
    """,
    "sqlite": """
        CREATE VIEW games_matchaction AS
        SELECT l.match_id * 1000000 + e.key AS id,
               l.match_id AS match_id,
               e.key AS ply,
               json_extract(e.value, '$[0]') AS seat,
               json_extract(e.value, '$[1]') AS action,
               json_extract(e.value, '$[2]') AS label,
               json_extract(e.value, '$[3]') AS source,
               json_extract(e.value, '$[4]') AS time_used_ms,
               strftime('%Y-%m-%d %H:%M:%f', json_extract(e.value, '$[5]') / 1000.0, 'unixepoch')
                   AS created_at
        FROM games_matchlog l, json_each(l.entries) AS e
    """,
}


def _epoch_ms(value) -> int:
    return int(value.timestamp() * 1000)


def rows_to_logs(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # one statement, however long the history
            cursor.execute(
                """
                INSERT INTO games_matchlog (match_id, entries)
                SELECT match_id, jsonb_agg(jsonb_build_array(
                           seat, action, label, source, time_used_ms,
                           (extract(epoch FROM created_at) * 1000)::bigint) ORDER BY ply)
                FROM games_matchaction GROUP BY match_id
                """
            )
        return
    MatchAction, MatchLog = apps.get_model("games", "MatchAction"), apps.get_model("games", "MatchLog")
    logs: dict[int, list] = {}
    for a in MatchAction.objects.order_by("match_id", "ply").iterator(chunk_size=5000):
        logs.setdefault(a.match_id, []).append(
            [a.seat, a.action, a.label, a.source, a.time_used_ms, _epoch_ms(a.created_at)]
        )
    MatchLog.objects.bulk_create(
        (MatchLog(match_id=m, entries=e) for m, e in logs.items()), batch_size=500
    )


def logs_to_rows(apps, schema_editor):
    MatchAction, MatchLog = apps.get_model("games", "MatchAction"), apps.get_model("games", "MatchLog")
    MatchAction._meta.get_field("created_at").auto_now_add = False  # keep the logged times
    batch = []
    for log in MatchLog.objects.iterator(chunk_size=500):
        for ply, (seat, action, label, source, used, at) in enumerate(log.entries):
            batch.append(
                MatchAction(match_id=log.match_id, ply=ply, seat=seat, action=action, label=label,
                            source=source, time_used_ms=used,
                            created_at=datetime.fromtimestamp(at / 1000, tz=UTC))  # fmt: skip
            )
        if len(batch) >= 5000:
            MatchAction.objects.bulk_create(batch)
            batch = []
    MatchAction.objects.bulk_create(batch)


def create_view(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:  # no parameters: '%' stays as written
        cursor.execute(VIEW_SQL[schema_editor.connection.vendor])


def drop_view(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("DROP VIEW IF EXISTS games_matchaction")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_invitations"),
    ]

    operations = [
        migrations.CreateModel(
            name="MatchLog",
            fields=[
                (
                    "match",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="log_record",
                        serialize=False,
                        to="games.match",
                    ),
                ),
                ("entries", models.JSONField(default=list)),
            ],
        ),
        migrations.RunPython(rows_to_logs, logs_to_rows),
        migrations.DeleteModel(name="MatchAction"),
        migrations.CreateModel(
            name="MatchAction",
            fields=[
                ("id", models.BigIntegerField(primary_key=True, serialize=False)),
                ("ply", models.PositiveIntegerField()),
                ("seat", models.PositiveSmallIntegerField()),
                ("action", models.JSONField()),
                ("label", models.CharField(blank=True, max_length=200)),
                (
                    "source",
                    models.CharField(
                        choices=[("player", "Player"), ("bot", "Built-in bot"),
                                 ("forced", "Only legal choice"), ("timeout", "Time-out")],
                        default="player",
                        max_length=8,
                    ),
                ),  # fmt: skip
                ("time_used_ms", models.PositiveIntegerField(default=0)),
                ("created_at", models.DateTimeField()),
                (
                    "match",
                    models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="actions",
                        to="games.match",
                    ),
                ),
            ],
            options={
                "db_table": "games_matchaction",
                "ordering": ["match", "ply"],
                "managed": False,
            },
        ),
        migrations.RunPython(create_view, drop_view),
    ]
