"""Every account a player, and player names unique after NFKC case folding.

Not atomic as a whole: on PostgreSQL the final ALTER of games_player would
otherwise meet the pending foreign-key checks of the rows inserted before it;
each step is atomic by itself."""

import unicodedata

from django.conf import settings
from django.db import migrations, models
from django.utils.text import slugify


def _fold(name):
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def fill(apps, schema_editor):
    Player = apps.get_model("games", "Player")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    taken = set()
    # Oldest first keeps its name; a later look-alike is renamed name-<id>.
    for player in Player.objects.order_by("pk"):
        key = _fold(player.name)
        if key in taken:
            player.name = f"{player.name[:30]}-{player.pk}"
            key = _fold(player.name)
        taken.add(key)
        player.name_key = key
        player.save(update_fields=["name", "name_key"])
    reserved = {"random", "greedy", "ismcts"}
    for user in User.objects.filter(player__isnull=True).order_by("pk"):
        base = slugify(user.username)[:40] or "player"
        name, n = base, 1
        while _fold(name) in taken or name in reserved:
            n += 1
            name = f"{base[:35]}-{n}"
        taken.add(_fold(name))
        Player.objects.create(name=name, name_key=_fold(name), kind="human", user=user)


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("games", "0003_matchaction_no_separate_match_index"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(editable=False, max_length=80, null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop, atomic=True),
        migrations.AlterField(
            model_name="player",
            name="name_key",
            field=models.CharField(editable=False, max_length=80, unique=True),
        ),
    ]
