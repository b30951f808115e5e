"""DRF's plain-text tokens (the app rest_framework.authtoken, no longer installed) become
hashed ApiTokens with the same key, so running bot programs keep working; the plain keys
are then deleted from the old table. A database that never had the old app has nothing
to do. Not undoable: the plain keys are gone."""

import hashlib
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import migrations
from django.utils import timezone
from django.utils.dateparse import parse_datetime

OLD_TABLE = "authtoken_token"


def hash_old_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if OLD_TABLE not in connection.introspection.table_names():
        return
    ApiToken = apps.get_model("core", "ApiToken")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    table = connection.ops.quote_name(OLD_TABLE)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {connection.ops.quote_name('key')}, user_id, created FROM {table}")
        rows = cursor.fetchall()
    users = set(User.objects.filter(pk__in=[r[1] for r in rows]).values_list("pk", flat=True))
    # A year from now, not from when they were made: a bot running today must not stop
    # the day this migration runs.
    expires = timezone.now() + timedelta(days=getattr(settings, "API_TOKEN_TTL_DAYS", 365))
    now = timezone.now()

    def made(value):
        # A raw cursor gives SQLite's text or a naive UTC time, PostgreSQL an aware one.
        if isinstance(value, str):
            value = parse_datetime(value)
        if isinstance(value, datetime) and timezone.is_naive(value):
            value = value.replace(tzinfo=UTC)
        return value if isinstance(value, datetime) else now

    ApiToken.objects.bulk_create(
        [
            ApiToken(
                user_id=user_id, name="", prefix=key[:8],
                digest=hashlib.sha256(key.encode()).hexdigest(),
                created_at=made(created), expires_at=expires,
            )  # fmt: skip
            for key, user_id, created in rows
            if user_id in users
        ],
        ignore_conflicts=True,
    )
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {table}")


class Migration(migrations.Migration):
    dependencies = [("core", "0001_initial")]

    operations = [migrations.RunPython(hash_old_tokens, migrations.RunPython.noop)]
