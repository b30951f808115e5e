"""Rate limits on every write (API: 429; pages: a form error), failing open without a cache."""

import logging

import pytest
from django.contrib.auth.models import User

from core import throttling
from games.models import Player
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, UserFactory
from tests.rates import set_rates
from tests.tournaments.factories import tournament_with_bots
from tournaments import services as tournament_services
from tournaments.models import Entry, Table, Tournament

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"


@pytest.fixture(autouse=True)
def _cache_healthy(monkeypatch):
    """A previous test's cache failure must not leave the limits open."""
    monkeypatch.setattr(throttling, "_health", throttling._CacheHealth())


def test_rates_parse_with_multiples():
    assert throttling.parse_rate("60/min") == (60, 60)
    assert throttling.parse_rate("10/15min") == (10, 900)
    assert throttling.parse_rate("10/hour") == (10, 3600)
    assert throttling.parse_rate("5/2d") == (5, 172800)
    assert throttling.parse_rate("") is None


def test_every_configured_scope_has_a_valid_rate(settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    assert {"match_create", "match_actions", "bot_register", "tournament_create",
            "tournament_entries", "tournament_manage", "tournament_results", "invitations",
            "signup", "login"} <= set(rates)  # fmt: skip
    for scope in rates:
        assert throttling.rate_for(scope) is not None


# ---- the API ---------------------------------------------------------------------------------
def test_bot_registration_is_limited_per_user(api_client, settings):
    set_rates(settings, bot_register="2/hour")
    owner = UserFactory()
    api_client.force_authenticate(owner)
    codes = [
        api_client.post("/api/players/bots/", {"name": f"prog-{i}"}, format="json").status_code
        for i in range(3)
    ]
    assert codes == [201, 201, 429]
    assert not Player.objects.filter(name="prog-2").exists()
    api_client.force_authenticate(UserFactory())  # another user has a window of his own
    assert (
        api_client.post("/api/players/bots/", {"name": "other"}, format="json").status_code == 201
    )


def test_tournament_create_entries_start_and_results_are_limited(api_client, settings):
    set_rates(settings, tournament_create="1/hour", tournament_entries="2/min",
           tournament_manage="1/min", tournament_results="1/min")  # fmt: skip
    organiser = UserFactory()
    api_client.force_authenticate(organiser)
    body = {"name": "Club night", "game": "silkroad", "format": "swiss",
            "config": {"table_size": 2, "rounds": 1}, "over_the_board": True}  # fmt: skip
    assert api_client.post("/api/tournaments/", body, format="json").status_code == 201
    over = api_client.post("/api/tournaments/", body, format="json")
    assert over.status_code == 429 and Tournament.objects.count() == 1

    t = Tournament.objects.get()
    bots = [EngineBotFactory() for _ in range(4)]
    codes = [
        api_client.post(f"/api/tournaments/{t.pk}/entries/", {"player": b.name}, format="json")
        .status_code for b in bots[:3]
    ]  # fmt: skip
    assert codes == [201, 201, 429] and t.entries.count() == 2
    tournament_services.add_entry(tournament=t, player=bots[2])
    tournament_services.add_entry(tournament=t, player=bots[3])

    assert api_client.post(f"/api/tournaments/{t.pk}/start/").status_code == 200
    assert api_client.post(f"/api/tournaments/{t.pk}/start/").status_code == 429

    first, second = Table.objects.filter(round__tournament=t).order_by("number")
    result = {"scores": [10, 30], "tiebreak": [3, 1]}
    url = "/api/tournaments/{}/tables/{}/result/"
    assert api_client.post(url.format(t.pk, first.pk), result, format="json").status_code == 201
    assert api_client.post(url.format(t.pk, second.pk), result, format="json").status_code == 429
    second.refresh_from_db()
    assert second.result is None and second.match_id is None
    assert api_client.get(f"/api/tournaments/{t.pk}/standings/").status_code == 200  # reads free


def test_match_abort_is_limited(api_client, settings):
    set_rates(settings, match_create="1/min")
    me = HumanPlayerFactory()
    api_client.force_authenticate(me.user)
    seats = [{"player": me.name}, {"bot": "random"}]
    created = api_client.post("/api/matches/", {"game": "silkroad", "seats": seats}, format="json")
    assert created.status_code == 201
    aborted = api_client.post(f"/api/matches/{created.json()['id']}/abort/")
    assert aborted.status_code == 429


# ---- pages -----------------------------------------------------------------------------------
def test_signup_page_is_limited_per_address(client, settings):
    set_rates(settings, signup="2/hour")
    for i in range(3):
        response = client.post("/signup/", {"username": f"newcomer{i}", "password1": PASSWORD,
                                            "password2": PASSWORD})  # fmt: skip
        client.logout()
    assert response.status_code == 200
    assert (
        "Too many attempts, try again in 60 minutes." in response.context["form"].non_field_errors()
    )
    assert not User.objects.filter(username="newcomer2").exists()
    assert User.objects.filter(username__startswith="newcomer").count() == 2


def _login(client, username, password, addr="10.0.0.1"):
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=addr
    )


def test_login_failures_are_limited_per_account_and_address(client, settings):
    set_rates(settings, login="3/15min", login_account=None)
    alice = HumanPlayerFactory().user
    for _ in range(3):
        assert _login(client, alice.username, "wrong", addr="10.0.1.1").status_code == 200
    blocked = _login(client, alice.username, PASSWORD, addr="10.0.1.1")
    assert blocked.status_code == 200
    assert "Too many attempts, try again in 15 minutes." in blocked.content.decode()
    assert "_auth_user_id" not in client.session
    # Failures from many addresses never block her: tests/core/test_lockouts.py.
    assert _login(client, alice.username, PASSWORD, addr="10.0.2.1").status_code == 302


def test_login_failures_are_limited_per_address(client, settings):
    set_rates(settings, login_address="3/15min")
    for i in range(3):
        _login(client, f"nobody{i}", "wrong")
    bob = HumanPlayerFactory().user
    blocked = _login(client, bob.username, PASSWORD)
    assert "Too many attempts" in blocked.content.decode()
    assert "_auth_user_id" not in client.session
    assert _login(client, bob.username, PASSWORD, addr="10.9.9.9").status_code == 302


def test_successful_logins_are_not_counted(client, settings):
    set_rates(settings, login="2/15min")
    carol = HumanPlayerFactory().user
    for _ in range(4):
        assert _login(client, carol.username, PASSWORD).status_code == 302
        client.logout()


def test_tournament_pages_are_limited(client, settings):
    set_rates(settings, tournament_create="1/hour", tournament_manage="1/min",
           tournament_results="1/min")  # fmt: skip
    organiser = UserFactory()
    client.force_login(organiser)
    form = {"name": "Club night", "game": "silkroad", "format": "swiss", "table_size": 2,
            "rounds": 1, "over_the_board": "on"}  # fmt: skip
    assert client.post("/tournaments/new/", form).status_code == 302
    refused = client.post("/tournaments/new/", form)
    assert refused.status_code == 200
    assert "Too many attempts" in str(refused.context["form"].non_field_errors())
    assert Tournament.objects.count() == 1

    t = tournament_with_bots(n=4, format="swiss", config={"table_size": 2, "rounds": 1},
                             over_the_board=True, organiser=organiser, auto_advance=False)  # fmt: skip
    other = tournament_with_bots(n=4, format="swiss", config={"table_size": 2, "rounds": 1},
                                 over_the_board=True, organiser=organiser)  # fmt: skip
    assert client.post(f"/tournaments/{t.pk}/start/").status_code == 302
    page = client.post(f"/tournaments/{other.pk}/start/", follow=True)
    assert "Too many attempts" in page.content.decode()
    other.refresh_from_db()
    assert other.status == "registration"

    first, second = Table.objects.filter(round__tournament=t).order_by("number")
    result = {"score_0": 10, "score_1": 30, "tiebreak_0": 3, "tiebreak_1": 1}
    assert client.post(f"/tournaments/{t.pk}/tables/{first.pk}/result/", result).status_code == 302
    refused = client.post(f"/tournaments/{t.pk}/tables/{second.pk}/result/", result)
    assert refused.status_code == 200
    assert "Too many attempts" in str(refused.context["form"].non_field_errors())
    second.refresh_from_db()
    assert second.result is None


def test_match_page_decisions_are_limited(client, api_client, settings):
    import json

    from games import services as game_services
    from tests.games.factories import logged

    set_rates(settings, match_actions="0/min")
    pat = HumanPlayerFactory()
    bot = EngineBotFactory(bot_name="random")
    match = game_services.create_match(game="silkroad", players=[pat, bot], seed=3, rated=False,
                                       created_by=pat.user)  # fmt: skip
    if match.to_act != 0:
        match = game_services.create_match(game="silkroad", players=[bot, pat], seed=3,
                                           rated=False, created_by=pat.user)  # fmt: skip
    api_client.force_authenticate(pat.user)
    legal = api_client.get(f"/api/matches/{match.pk}/state/").json()["legal_actions"]
    client.force_login(pat.user)
    page = client.post(f"/matches/{match.pk}/act/",
                       {"ply": match.ply, "action": json.dumps(legal[0]["action"])}, follow=True)  # fmt: skip
    assert "Too many attempts" in page.content.decode()
    assert not logged(match, source="player")


# ---- without a cache -------------------------------------------------------------------------
def test_writes_go_through_with_the_cache_down_and_one_warning_is_logged(
    api_client, client, settings, caplog, refused_port
):
    url = f"redis://127.0.0.1:{refused_port}/0"
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": url}}  # fmt: skip
    set_rates(settings, bot_register="1/hour", tournament_create="1/hour", login="1/15min")
    caplog.set_level(logging.WARNING, logger="core.throttling")
    owner = UserFactory()
    api_client.force_authenticate(owner)
    for i in range(3):  # over the configured rate, yet all pass: the limits fail open
        response = api_client.post("/api/players/bots/", {"name": f"offline-{i}"}, format="json")
        assert response.status_code == 201, response.content
    body = {"name": "No cache", "game": "silkroad", "format": "swiss", "config": {"table_size": 2}}
    assert api_client.post("/api/tournaments/", body, format="json").status_code == 201
    assert api_client.post("/api/tournaments/", body, format="json").status_code == 201
    dave = HumanPlayerFactory().user
    _login(client, dave.username, "wrong")
    assert _login(client, dave.username, PASSWORD).status_code == 302
    warnings = [r for r in caplog.records if r.name == "core.throttling"]
    assert len(warnings) == 1 and "not enforced" in warnings[0].getMessage()
    assert Tournament.objects.count() == 2 and Entry.objects.count() == 0


def test_lobby_is_limited(client, settings):
    from games.models import Match

    set_rates(settings, match_create="2/min")
    client.force_login(HumanPlayerFactory().user)
    form = {"game": "silkroad", "seats": 2, "seat_0": "me", "seat_1": "random"}
    for _ in range(3):
        response = client.post("/play/", form)
    assert response.status_code == 200
    assert any("Too many" in e for e in response.context["form"].non_field_errors())
    assert Match.objects.count() == 2
