"""Why a match ended and why a seat was forfeited, the time-outs in a row that forfeit a
seat, and the time-control presets a fresh install offers (#28: clocks that mean
something). Reversible: going back removes the presets it made (by name) and the fields."""

from django.db import migrations, models

# Fastest first; the names are msgids (games/time_limits.py, PRESET_NAMES).
PRESETS = (
    {"name": "1 min + 2 s", "initial_s": 60, "increment_s": 2},
    {"name": "3 min + 2 s", "initial_s": 180, "increment_s": 2},
    {"name": "10 min + 5 s", "initial_s": 600, "increment_s": 5},
    {"name": "1 day per move", "per_move_s": 24 * 3600},
    {"name": "3 days per move", "per_move_s": 3 * 24 * 3600},
)


def add_presets(apps, schema_editor):
    TimeControl = apps.get_model("games", "TimeControl")
    for preset in PRESETS:
        values = {k: v for k, v in preset.items() if k != "name"}
        # An admin's preset of the same name is kept as it is.
        TimeControl.objects.get_or_create(name=preset["name"], defaults=values)


def remove_presets(apps, schema_editor):
    TimeControl = apps.get_model("games", "TimeControl")
    for preset in PRESETS:
        values = {k: v for k, v in preset.items() if k != "name"}
        TimeControl.objects.filter(name=preset["name"], **values).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_player_turn_sound"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="finish_reason",
            field=models.CharField(
                blank=True,
                choices=[
                    ("played_out", "Played to the end"),
                    ("time", "A player lost on time"),
                    ("forfeit", "At most one player was left"),
                ],
                default="",
                max_length=12,
                verbose_name="finish reason",
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="forfeit_reason",
            field=models.CharField(
                blank=True,
                choices=[
                    ("time", "Lost on time"),
                    ("timeouts", "Too many time-outs in a row"),
                    ("timeout", "Timed out (the match forfeits a seat that times out)"),
                ],
                default="",
                max_length=12,
                verbose_name="forfeit reason",
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="timeouts_in_row",
            field=models.PositiveSmallIntegerField(default=0, verbose_name="time-outs in a row"),
        ),
        migrations.RunPython(add_presets, remove_presets),
    ]
