"""Games with built-in bots stop counting for ratings (unless a pool opts in): the new
field, then every pool rebuilt from the history under the new rule.

The rebuild is `ratings.services.recompute_pool`, the command's own arithmetic; it reads
only the pool columns it needs and writes the rating tables by explicit columns, so it
does not depend on the models' later shape. Backwards it rebuilds under the old rule
(every rated table counts) before the field goes.
"""

from django.db import migrations, models


def _rebuild(apps, schema_editor, rate_builtin_bots):
    from ratings.services import recompute_pool

    RatingPool = apps.get_model("ratings", "RatingPool")
    for pool_id in RatingPool.objects.order_by("pk").values_list("pk", flat=True):
        recompute_pool(pool_id, rate_builtin_bots=rate_builtin_bots)
    if schema_editor.connection.vendor == "postgresql":
        # Check the new rows' foreign keys now, not at the commit: PostgreSQL refuses an
        # ALTER TABLE (the field's removal, backwards) while such checks are pending.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def forwards(apps, schema_editor):
    _rebuild(apps, schema_editor, None)  # each pool's own setting: off, the field's default


def backwards(apps, schema_editor):
    _rebuild(apps, schema_editor, True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0016_clock_presets_and_timeouts"),
        ("ratings", "0002_lobby14_verbose_names"),
    ]

    operations = [
        migrations.AddField(
            model_name="ratingpool",
            name="rate_builtin_bots",
            field=models.BooleanField(
                default=False,
                help_text=(
                    "Off: a match with any built-in bot seat (random, greedy, search) changes "
                    "no rating in this pool, neither the people's nor the bots'. Bot programs "
                    "connected through the API are always rated. Changing this recomputes the pool."
                ),
                verbose_name="rate games with built-in bots",
            ),
        ),
        migrations.RunPython(forwards, backwards, elidable=True),
    ]
