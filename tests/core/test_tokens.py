"""API tokens hashed at rest (issue #31, item 3): the key is shown once and stored nowhere;
tokens expire, are listed to their owner without the key, revoked, and rotated (a bot
program's account holds one token); the settings page makes and revokes them."""

import hashlib
import io
import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from core import throttling, tokens
from core.models import ApiToken
from games import services
from tests.core.factories import ApiTokenFactory, api_key
from tests.games.factories import HumanPlayerFactory

pytestmark = pytest.mark.django_db

ME = "/api/players/me/"


@pytest.fixture(autouse=True)
def _cache_healthy(monkeypatch):
    monkeypatch.setattr(throttling, "_health", throttling._CacheHealth())


def _as(key: str) -> APIClient:
    return APIClient(HTTP_AUTHORIZATION=f"Token {key}")


def test_the_key_is_stored_only_as_a_hash(api_client):
    alice = HumanPlayerFactory()
    api_client.force_login(alice.user)
    made = api_client.post("/api/me/tokens/", {"name": "laptop"}, format="json")
    assert made.status_code == 201
    body = made.json()
    key = body["key"]
    assert len(key) == 40 and body["name"] == "laptop" and body["prefix"] == key[:8]
    row = ApiToken.objects.get(pk=body["id"])
    assert row.digest == hashlib.sha256(key.encode()).hexdigest()
    dump = io.StringIO()
    call_command("dumpdata", stdout=dump)  # what a backup of the database holds
    assert key not in dump.getvalue() and key[8:20] not in dump.getvalue()
    assert _as(key).get(ME).json()["name"] == alice.name


def test_the_list_shows_no_key_and_only_her_tokens(api_client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    first = ApiTokenFactory(user=alice.user, name="laptop")
    second = ApiTokenFactory(user=alice.user, name="club pc")
    ApiTokenFactory(user=bob.user, name="bob's")
    _as(first.key).get(ME)
    listing = _as(second.key).get("/api/me/tokens/")
    assert listing.status_code == 200
    rows = listing.json()
    assert [r["name"] for r in rows] == ["club pc", "laptop"]  # newest first
    assert set(rows[0]) == {"id", "name", "prefix", "created_at", "expires_at", "last_used_at"}
    assert first.key not in listing.content.decode() and second.key not in listing.content.decode()
    assert rows[1]["last_used_at"] is not None  # the first was used above
    assert APIClient().get("/api/me/tokens/").status_code == 401


def test_an_expired_token_is_refused_with_401(settings):
    alice = HumanPlayerFactory()
    settings.API_TOKEN_TTL_DAYS = 30
    fresh = ApiTokenFactory(user=alice.user)
    assert abs(fresh.expires_at - (timezone.now() + timedelta(days=30))) < timedelta(minutes=1)
    old = ApiTokenFactory(user=alice.user, expires_at=timezone.now() - timedelta(seconds=1))
    refused = _as(old.key).get(ME)
    assert refused.status_code == 401
    assert refused.json()["code"] == "token_expired" and refused["WWW-Authenticate"] == "Token"
    assert _as(fresh.key).get(ME).status_code == 200
    assert _as("x" * 40).get(ME).status_code == 401


def test_a_bot_rotates_its_own_token():
    bot, old = services.create_external_bot(name="rotor-bot")
    rotated = _as(old).post("/api/me/tokens/", {}, format="json")
    assert rotated.status_code == 201
    new = rotated.json()["key"]
    assert _as(old).get(ME).status_code == 401
    assert _as(new).get(ME).json()["name"] == "rotor-bot"
    assert ApiToken.objects.filter(user=bot.user).count() == 1
    # The bot page's service does the same.
    newer = services.rotate_token(player=bot)
    assert _as(new).get(ME).status_code == 401 and _as(newer).get(ME).status_code == 200


def test_a_person_holds_several_tokens_and_revokes_one():
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    laptop, phone = api_key(alice.user), api_key(alice.user)
    bobs = ApiTokenFactory(user=bob.user)
    made = _as(laptop).post("/api/me/tokens/", {"name": "script"}, format="json")
    assert made.status_code == 201
    assert _as(laptop).get(ME).status_code == 200  # a person's new token replaces nothing
    # Somebody else's token: 404, and it still works.
    assert _as(laptop).delete(f"/api/me/tokens/{bobs.pk}/").status_code == 404
    assert _as(bobs.key).get(ME).status_code == 200
    phone_id = ApiToken.objects.get(digest=tokens.digest(phone)).pk
    assert _as(laptop).delete(f"/api/me/tokens/{phone_id}/").status_code == 204
    assert _as(phone).get(ME).status_code == 401 and _as(laptop).get(ME).status_code == 200
    assert _as(laptop).delete(f"/api/me/tokens/{phone_id}/").status_code == 404


def test_bad_input_is_refused_and_changes_nothing(settings):
    alice = HumanPlayerFactory()
    key = api_key(alice.user)
    api = _as(key)
    assert api.post("/api/me/tokens/", {"name": "x" * 81}, format="json").status_code == 400
    unknown = api.post("/api/me/tokens/", {"key": "mine"}, format="json")
    assert unknown.status_code == 400 and unknown.json()["code"] == "unknown_field"
    assert ApiToken.objects.filter(user=alice.user).count() == 1
    for _ in range(tokens.MAX_TOKENS - 1):
        api_key(alice.user)
    full = api.post("/api/me/tokens/", {}, format="json")
    assert full.status_code == 400 and "revoke one first" in full.json()["detail"]
    assert ApiToken.objects.filter(user=alice.user).count() == tokens.MAX_TOKENS


def test_the_schema_lists_the_token_endpoints(api_client):
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert {"get", "post"} <= set(schema["paths"]["/api/me/tokens/"])
    assert "delete" in schema["paths"]["/api/me/tokens/{id}/"]


def test_the_settings_page_makes_and_revokes_a_token(client):
    alice = HumanPlayerFactory()
    client.force_login(alice.user)
    page = client.get("/settings/").content.decode()
    assert 'id="api-tokens"' in page and 'id="api-tokens-none"' in page
    made = client.post("/settings/tokens/", {"name": "laptop"})
    assert made.status_code == 200
    shown = made.content.decode()
    key = re.search(r'id="api-token-key" value="([^"]+)"', shown)[1]
    assert "shown only this once" in shown
    assert _as(key).get(ME).status_code == 200
    token = ApiToken.objects.get(user=alice.user)
    listed = client.get("/settings/").content.decode()
    assert f'id="api-token-{token.pk}"' in listed and "laptop" in listed
    assert f"{key[:8]}…" in listed and key not in listed
    # Revoking asks first; going back changes nothing.
    question = client.get(f"/settings/tokens/{token.pk}/revoke/")
    assert question.status_code == 200 and "Revoke this API token?" in question.content.decode()
    assert _as(key).get(ME).status_code == 200
    done = client.post(f"/settings/tokens/{token.pk}/revoke/", follow=True)
    assert done.redirect_chain[-1][0] == "/settings/#api-tokens"
    assert "revoked" in done.content.decode()
    assert _as(key).get(ME).status_code == 401
    assert not ApiToken.objects.filter(user=alice.user).exists()


def test_the_settings_page_refuses_another_persons_token_and_bad_names(client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    bobs = ApiTokenFactory(user=bob.user)
    client.force_login(alice.user)
    assert client.get(f"/settings/tokens/{bobs.pk}/revoke/").status_code == 404
    assert client.post(f"/settings/tokens/{bobs.pk}/revoke/").status_code == 404
    assert ApiToken.objects.filter(pk=bobs.pk).exists()
    long = client.post("/settings/tokens/", {"name": "x" * 81}, follow=True)
    assert long.redirect_chain and not ApiToken.objects.filter(user=alice.user).exists()
    assert client.get("/settings/tokens/").status_code == 405
    client.logout()
    assert client.post("/settings/tokens/", {"name": "x"}).status_code == 302  # to log-in


def test_old_drf_tokens_are_hashed_by_the_migration():
    """Migration core 0002: a database that had DRF's plain keys keeps its bots working."""
    import importlib
    from types import SimpleNamespace

    from django.apps import apps

    migration = importlib.import_module("core.migrations.0002_hash_drf_tokens")
    bot, _ = services.create_external_bot(name="old-bot")
    ApiToken.objects.filter(user=bot.user).delete()
    old_key = "0123456789abcdef0123456789abcdef01234567"
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
                       "created timestamp with time zone NULL, user_id integer NOT NULL)"
                       if connection.vendor == "postgresql" else
                       "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
                       "created datetime NULL, user_id integer NOT NULL)")  # fmt: skip
        cursor.execute("INSERT INTO authtoken_token (key, created, user_id) VALUES (%s, %s, %s)",
                       [old_key, timezone.now() - timedelta(days=400), bot.user_id])  # fmt: skip
        cursor.execute("INSERT INTO authtoken_token (key, created, user_id) VALUES (%s, %s, %s)",
                       ["f" * 40, timezone.now(), 999999])  # a user long gone  # fmt: skip
    # The function reads only the editor's connection (SQLite refuses a schema editor
    # inside the test's transaction).
    migration.hash_old_tokens(apps, SimpleNamespace(connection=connection))
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM authtoken_token")
        assert cursor.fetchone()[0] == 0  # the plain keys are gone
    row = ApiToken.objects.get(user=bot.user)
    assert row.prefix == old_key[:8] and row.digest == tokens.digest(old_key)
    assert row.expires_at > timezone.now() + timedelta(days=300)  # a year from the migration
    assert row.created_at < timezone.now() - timedelta(days=399)
    assert _as(old_key).get(ME).json()["name"] == "old-bot"
