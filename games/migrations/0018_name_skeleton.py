"""Players' name skeletons (issue #31): look-alike names ("аlice" with a Cyrillic а beside
"alice") are refused against two indexed columns, core.names.skeletons of the name the
player is known by (the account's user name, else the player's name). Existing rows are
filled here; look-alikes among them stay (nobody is renamed), only new names are checked."""

from django.db import migrations, models

from core import names


def fill(apps, schema_editor):
    Player = apps.get_model("games", "Player")
    batch = []
    for player in Player.objects.select_related("user").order_by("pk").iterator(chunk_size=500):
        known_as = player.user.username if player.user_id else player.name
        player.name_skeleton, player.name_skeleton_cased = names.skeletons(known_as)
        batch.append(player)
        if len(batch) == 500:
            Player.objects.bulk_update(batch, ["name_skeleton", "name_skeleton_cased"])
            batch = []
    Player.objects.bulk_update(batch, ["name_skeleton", "name_skeleton_cased"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0017_reach_language_email_calendar"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_skeleton",
            field=models.TextField(blank=True, db_index=True, default="", editable=False,
                                   verbose_name="name skeleton"),
        ),
        migrations.AddField(
            model_name="player",
            name="name_skeleton_cased",
            field=models.TextField(blank=True, db_index=True, default="", editable=False,
                                   verbose_name="name skeleton as written"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
