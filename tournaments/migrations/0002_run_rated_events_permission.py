from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="tournament",
            options={
                "ordering": ["-created_at"],
                "permissions": [
                    ("run_rated_events", "Can run rated over-the-board events (results typed in)")
                ],
            },
        ),
    ]
