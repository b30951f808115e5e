import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from games import services
from games.models import Player, PlayerKind
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_register_human_creates_user_and_player():
    player = services.register_human(username="Alice", password="a-long-password-1")
    assert player.kind == PlayerKind.HUMAN
    assert player.user.check_password("a-long-password-1")
    assert player.name == "alice"
    with pytest.raises(ValidationError):
        services.register_human(username="alice", password="another-password-2")


def test_engine_bot_needs_a_known_bot_name():
    bot = services.create_engine_bot(name="mcts", bot_name="ismcts", params={"iterations": 50})
    assert bot.is_bot and bot.user is None and bot.bot_params == {"iterations": 50}
    with pytest.raises(ValidationError):
        services.create_engine_bot(name="x", bot_name="alphazero")
    with pytest.raises(ValidationError):
        services.create_engine_bot(name="y", bot_name="random", game="chess")


def test_kind_constraint_rejects_inconsistent_rows():
    user = UserFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="bad", kind=PlayerKind.ENGINE_BOT, bot_name="random", user=user)
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="bad2", kind=PlayerKind.HUMAN)


def test_external_bot_token_authenticates_api(api_client):
    owner = UserFactory()
    player, token = services.create_external_bot(name="deep-caravan", owner=owner)
    assert player.kind == PlayerKind.EXTERNAL_BOT and not player.user.has_usable_password()
    assert api_client.get("/api/players/me/").status_code in (401, 403)
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = api_client.get("/api/players/me/")
    assert response.status_code == 200
    assert response.json()["name"] == "deep-caravan"
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert api_client.get("/api/players/me/").status_code == 401


def test_rotate_token_invalidates_the_old_one(api_client):
    player, old = services.create_external_bot(name="rotor")
    new = services.rotate_token(player=player)
    assert new != old
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {old}")
    assert api_client.get("/api/players/me/").status_code == 401
    with pytest.raises(ValidationError):
        services.rotate_token(player=EngineBotFactory())


def test_drf_create_token_command_for_bot_account():
    player, _ = services.create_external_bot(name="cmdbot")
    Token.objects.filter(user=player.user).delete()
    call_command("drf_create_token", "cmdbot")
    assert Token.objects.filter(user=player.user).exists()


def test_api_registers_external_bot_for_logged_in_user(api_client):
    owner = HumanPlayerFactory().user
    api_client.force_authenticate(owner)
    response = api_client.post("/api/players/bots/", {"name": "my-bot"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["player"]["kind"] == "external_bot"
    assert Token.objects.get(key=body["token"]).user.player.owner == owner
    duplicate = api_client.post("/api/players/bots/", {"name": "my-bot"}, format="json")
    assert duplicate.status_code == 400
    bad = api_client.post("/api/players/bots/", {"name": "not a slug!"}, format="json")
    assert bad.status_code == 400


def test_player_list_filters_by_kind(api_client):
    HumanPlayerFactory()
    EngineBotFactory()
    everyone = api_client.get("/api/players/").json()
    assert everyone["count"] == 2
    bots = api_client.get("/api/players/", {"kind": "engine_bot"}).json()
    assert [p["kind"] for p in bots["results"]] == ["engine_bot"]


def test_signup_login_logout_pages(client):
    assert client.get("/signup/").status_code == 200
    response = client.post(
        "/signup/",
        {
            "username": "carol",
            "email": "",
            "password1": "s3cure-pass-word",
            "password2": "s3cure-pass-word",
        },
    )
    assert response.status_code == 302
    assert Player.objects.get(name="carol").user.username == "carol"
    assert client.get("/").context["user"].username == "carol"
    assert client.post("/accounts/logout/").status_code == 302
    assert not client.get("/").context["user"].is_authenticated
    assert client.get("/accounts/login/").status_code == 200
    response = client.post(
        "/accounts/login/", {"username": "carol", "password": "s3cure-pass-word"}
    )
    assert response.status_code == 302


def test_signup_rejects_weak_password(client):
    response = client.post("/signup/", {"username": "dave", "password1": "123", "password2": "123"})
    assert response.status_code == 200
    assert not Player.objects.filter(name="dave").exists()
