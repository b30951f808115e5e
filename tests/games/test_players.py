import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import IntegrityError, transaction

from core import tokens
from core.models import ApiToken
from games import services
from games.models import Player, PlayerKind
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, UserFactory
from tests.migrations import back_to, migrate_to

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


def test_create_api_token_command_for_bot_account(capsys):
    player, old = services.create_external_bot(name="cmdbot")
    call_command("create_api_token", "cmdbot")
    key = capsys.readouterr().out.strip()
    # A bot program's account holds one token: the new key replaces the old.
    assert [t.digest for t in ApiToken.objects.filter(user=player.user)] == [tokens.digest(key)]
    assert key != old


def test_api_registers_external_bot_for_logged_in_user(api_client):
    owner = HumanPlayerFactory().user
    api_client.force_authenticate(owner)
    response = api_client.post("/api/players/bots/", {"name": "my-bot"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["player"]["kind"] == "external_bot"
    assert tokens.check(body["token"]).user.player.owner == owner
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


# ---- every account is a player; names unique after folding --------------------
def _seatable(user) -> Player:
    """The account's player can be seated: a match against a bot starts with it."""
    player = Player.objects.get(user=user)
    assert player.kind == PlayerKind.HUMAN
    match = services.create_match(
        game="silkroad", players=[player, EngineBotFactory()], created_by=user
    )
    assert match.status == "running"
    return player


def test_createsuperuser_gets_a_player_that_can_be_seated():
    call_command("createsuperuser", "--noinput", username="Root", email="r@example.com")
    from django.contrib.auth import get_user_model

    root = get_user_model().objects.get(username="Root")
    assert _seatable(root).name == "root"


def test_create_user_in_the_shell_gets_a_player():
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username="Shelly.Lee", password="pw-1234567")
    assert _seatable(user).name == "shellylee"


def test_account_whose_name_is_held_by_a_bot_gets_a_free_variant():
    EngineBotFactory(name="alice")
    user = UserFactory(username="ALICE")
    assert Player.objects.get(user=user).name == "alice-2"
    user.save()  # saving again makes no second player
    assert Player.objects.filter(user=user).count() == 1


def test_names_are_unique_ignoring_case_and_look_alikes():
    human = services.register_human(username="alice", password="a-long-password-1")
    assert human.name_key == "alice"
    for name in ("Alice", "ＡＬＩＣＥ"):  # the second is full-width: NFKC folds it to "alice"
        with pytest.raises(ValidationError):
            services.create_engine_bot(name=name, bot_name="random")
        with pytest.raises(ValidationError):
            services.create_external_bot(name=name)
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="ALICE", kind=PlayerKind.ENGINE_BOT, bot_name="random")


def test_bot_beside_a_human_of_the_same_name_is_a_400(api_client):
    HumanPlayerFactory(user__username="alice")
    api_client.force_authenticate(HumanPlayerFactory().user)
    response = api_client.post("/api/players/bots/", {"name": "Alice"}, format="json")
    assert response.status_code == 400
    assert "taken" in response.json()["fields"]["name"][0]
    assert not Player.objects.filter(kind=PlayerKind.EXTERNAL_BOT).exists()


def test_external_bot_account_has_only_its_bot_player():
    player, _ = services.create_external_bot(name="solo-bot")
    assert list(Player.objects.filter(user=player.user)) == [player]


def test_signup_with_a_bots_name_is_a_form_error(client):
    EngineBotFactory(name="zed")
    response = client.post(
        "/signup/",
        {"username": "Zed", "password1": "s3cure-pass-word", "password2": "s3cure-pass-word"},
    )
    assert response.status_code == 200
    assert "taken" in response.content.decode()
    assert not Player.objects.filter(kind=PlayerKind.HUMAN).exists()


def test_admin_form_refuses_a_look_alike_name(client):
    EngineBotFactory(name="zed")
    admin = UserFactory(username="boss", is_staff=True, is_superuser=True)
    client.force_login(admin)
    response = client.post(
        "/admin/games/player/add/",
        {"name": "ZED", "kind": "engine_bot", "bot_name": "random", "bot_params": "{}",
         "is_active": "on"},
    )  # fmt: skip
    assert response.status_code == 200
    assert "taken" in response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_migration_gives_existing_accounts_players_and_keys():
    old, latest = back_to("games", "0003_matchaction_no_separate_match_index")
    OldUser, OldPlayer = old.get_model("auth", "User"), old.get_model("games", "Player")
    OldPlayer.objects.create(name="bob", kind="engine_bot", bot_name="random")
    OldUser.objects.create(username="Bob")  # historical models send no signal: no player
    OldUser.objects.create(username="carol")
    migrate_to(latest)
    carol = Player.objects.get(user__username="carol")
    assert (carol.name, carol.name_key, carol.kind) == ("carol", "carol", PlayerKind.HUMAN)
    assert Player.objects.get(user__username="Bob").name == "bob-2"
    assert Player.objects.get(name="bob").name_key == "bob"
