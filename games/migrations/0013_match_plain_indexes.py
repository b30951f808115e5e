from django.db import migrations, models

import games.models.matches


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_log_verbose_names"),
    ]

    operations = [
        migrations.AlterField(
            model_name="match",
            name="game",
            field=models.CharField(
                choices=games.models.matches.game_choices, max_length=32, verbose_name="game"
            ),
        ),
        migrations.AlterField(
            model_name="match",
            name="status",
            field=models.CharField(
                choices=[
                    ("pending", "Not started"),
                    ("running", "Running"),
                    ("finished", "Finished"),
                    ("aborted", "Aborted"),
                ],
                default="pending",
                max_length=12,
                verbose_name="status",
            ),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(fields=["status"], name="match_status"),
        ),
    ]
