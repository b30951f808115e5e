"""A person's own data: the export (API and the settings page's download) and deleting
the account, which removes her personal data and log-in but keeps every standing, rating
and finished match of everyone else exactly as it was."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from core import personal_data
from core.models import ApiToken
from games import services as game_services
from games.models import Invitation, Match, MatchStatus, Player
from games.selectors import match_view
from ratings import services as rating_services
from ratings.models import Rating, RatingChange
from tests.core.factories import api_key
from tests.games.factories import HumanPlayerFactory, UserFactory
from tournaments import selectors as tournament_selectors
from tournaments import services
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "correct-horse-battery"  # tests.games.factories.UserFactory's
CLUB_NIGHT = {
    "name": "Club night", "game": "silkroad", "format": "swiss", "over_the_board": True,
    "config": {"table_size": 2, "rounds": 1}, "auto_advance": False,
}  # fmt: skip


def _club_night(api_client, players) -> Tournament:
    """A rated over-the-board evening of `players` (2 a table), results typed in, rated."""
    organiser = UserFactory()
    organiser.user_permissions.add(Permission.objects.get(codename="run_rated_events"))
    api_client.force_authenticate(organiser)
    tid = api_client.post("/api/tournaments/", CLUB_NIGHT, format="json").json()["id"]
    for p in players:
        api_client.force_authenticate(p.user)
        assert (
            api_client.post(f"/api/tournaments/{tid}/entries/", {}, format="json").status_code
            == 201
        )
    api_client.force_authenticate(organiser)
    assert api_client.post(f"/api/tournaments/{tid}/start/").status_code == 200
    t = Tournament.objects.get(pk=tid)
    for n, table in enumerate(t.rounds.get().tables.all()):
        url = f"/api/tournaments/{tid}/tables/{table.pk}/result/"
        result = {"scores": [10 + n, 30], "tiebreak": [3, 1]}
        assert api_client.post(url, result, format="json").status_code == 201
    for match in Match.objects.filter(table__round__tournament=t):
        rating_services.on_match_finished(match_id=match.pk)  # what the ratings task does
    api_client.force_authenticate(None)
    return t


def _online_game(alice, bob) -> Match:
    """A rated online game: a few decisions each, then Alice resigns (Bob wins)."""
    match = game_services.create_match(
        game="silkroad", players=[alice, bob], rated=True, consented=True,
        created_by=alice.user,
    )  # fmt: skip
    by_seat = {0: alice, 1: bob}
    for _ in range(6):
        match.refresh_from_db()
        legal = match_view(match, match.to_act)["legal_actions"]
        game_services.submit_action(match_id=match.pk, user=by_seat[match.to_act].user,
                                    ply=match.ply, action=legal[0]["action"])  # fmt: skip
    game_services.resign(match_id=match.pk, user=alice.user)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    rating_services.on_match_finished(match_id=match.pk)
    return match


@pytest.fixture
def world(api_client):
    alice, bob, carol, dave = (HumanPlayerFactory() for _ in range(4))
    night = _club_night(api_client, [alice, bob, carol, dave])
    game = _online_game(alice, bob)
    upcoming = services.create_tournament(name="Next month", game="silkroad", format="swiss",
                                          organiser=bob.user, config={"table_size": 2})  # fmt: skip
    services.add_entry(tournament=upcoming, player=alice)
    invited_to = services.create_tournament(name="Invitational", game="silkroad", format="swiss",
                                            organiser=carol.user, config={"table_size": 2})  # fmt: skip
    invitation = services.enter_player(tournament=invited_to, player=alice, by=carol.user)
    assert isinstance(invitation, Invitation)
    bot, token = game_services.create_external_bot(name="alices-bot", owner=alice.user)
    return {"alice": alice, "others": [bob, carol, dave], "night": night, "game": game,
            "upcoming": upcoming, "invitation": invitation, "bot": bot, "token": token}  # fmt: skip


def _standings(t: Tournament) -> list[tuple]:
    t.refresh_from_db()
    rows = tournament_selectors.standings(t)
    return [(r["entry"], r["rank"], r["points"], r["played"], r["tiebreaks"]) for r in rows]


def _ratings(exclude: Player) -> tuple[list, list]:
    ratings = list(
        Rating.objects.exclude(player=exclude)
        .order_by("pk").values_list("player_id", "pool_id", "system", "value", "mu", "sigma", "games")
    )  # fmt: skip
    changes = list(
        RatingChange.objects.order_by("pk").values_list("player_id", "match_id", "before", "after", "rank")
    )  # fmt: skip
    return ratings, changes


# ---- export ----------------------------------------------------------------------------------
def test_the_export_holds_her_matches_ratings_entries_and_invitations(world, api_client):
    alice = world["alice"]
    api_client.force_authenticate(alice.user)
    response = api_client.get("/api/me/export/")
    assert response.status_code == 200
    data = response.json()
    assert data["account"]["username"] == alice.user.username
    assert data["account"]["email"] == alice.user.email
    played = {m["id"]: m for m in data["matches"]}
    mine = set(Match.objects.filter(seats__player=alice).values_list("pk", flat=True))
    assert set(played) == mine and len(mine) == 2  # the club night's table and the online game
    online = played[world["game"].pk]
    assert online["my_seat"] == 0 and online["result"]["place"] == 2
    assert [p["name"] for p in online["players"]] == [alice.name, world["others"][0].name]
    stored = Rating.objects.filter(player=alice)
    assert stored.exists()
    assert {(r["system"], r["value"]) for r in data["ratings"]} == {
        (r.system, r.value) for r in stored
    }
    assert len(data["rating_history"]) == RatingChange.objects.filter(player=alice).count()
    entries = {e["tournament"]: e for e in data["tournament_entries"]}
    assert entries[world["night"].pk]["points"] is not None
    assert entries[world["upcoming"].pk]["status"] == "entered"
    assert world["invitation"].pk in {i["id"] for i in data["invitations"]}
    assert [p["name"] for p in data["players"]] == [alice.name, "alices-bot"]
    # Someone else's matches are not in it.
    assert not any(alice.name not in [p["name"] for p in m["players"]] for m in data["matches"])


def test_the_settings_page_downloads_the_same_json(world):
    alice = world["alice"]
    client = Client()
    client.force_login(alice.user)
    page = client.get(reverse("account-settings")).content.decode()
    assert reverse("my-data-export") in page and "Download my data" in page
    response = client.get(reverse("my-data-export"))
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        f'attachment; filename="caravan-club-{alice.user.username}.json"'
    )
    downloaded = json.loads(response.content)
    api = personal_data.export_for(alice.user)
    downloaded.pop("exported_at"), api.pop("exported_at")
    assert downloaded == json.loads(json.dumps(api))
    assert Client().get(reverse("my-data-export")).status_code == 302  # to the log-in


def test_the_export_needs_a_log_in(api_client):
    assert api_client.get("/api/me/export/").status_code in (401, 403)


# ---- deletion --------------------------------------------------------------------------------
def test_deleting_keeps_every_standing_rating_and_replay(world):
    alice, night, game = world["alice"], world["night"], world["game"]
    standings_before = _standings(night)
    ratings_before = _ratings(exclude=alice)
    seats_before = list(game.seats.order_by("index").values_list("player_id", "score", "rank"))
    own = Client()
    own.force_login(alice.user)

    personal_data.delete_account(alice.user)

    assert _standings(night) == standings_before
    assert _ratings(exclude=alice) == ratings_before
    assert Rating.objects.filter(player=alice).exists()  # hers stay too, anonymous
    assert (
        list(game.seats.order_by("index").values_list("player_id", "score", "rank")) == seats_before
    )
    player = Player.objects.get(pk=alice.pk)
    user = User.objects.get(pk=alice.user.pk)
    assert player.name == f"deleted-player-{player.pk}" and not player.is_active
    assert str(player) == f"deleted player {player.pk}"
    assert user.username == f"deleted-{user.pk}" and user.email == ""
    assert not user.is_active and not user.has_usable_password()
    assert player.time_zone == player.calendar_token == ""
    names = [r["name"] for r in tournament_selectors.standings(night)]
    assert f"deleted player {player.pk}" in names  # the cached standings were refreshed
    replay = Client().get(reverse("match-replay", args=[game.pk]))
    assert replay.status_code == 200
    page = replay.content.decode()
    assert f"deleted player {player.pk}" in page and alice.user.username not in page
    # Her log-in is gone: the old name and password, and her open session.
    assert not Client().login(username=alice.user.username, password=PASSWORD)
    assert not Client().login(username=user.username, password=PASSWORD)
    assert own.get(reverse("account-settings")).status_code == 302
    # What only waited for her is closed.
    assert not Entry.objects.filter(tournament=world["upcoming"], player=alice).exists()
    assert Invitation.objects.get(pk=world["invitation"].pk).status == "cancelled"
    bot = Player.objects.get(pk=world["bot"].pk)
    assert not bot.is_active and not bot.user.is_active
    assert not ApiToken.objects.filter(user__in=[user, bot.user]).exists()
    assert (
        APIClient(HTTP_AUTHORIZATION=f"Token {world['token']}").get("/api/players/me/").status_code
        == 401
    )


def test_the_api_refuses_a_wrong_confirmation_or_password_and_changes_nothing(world):
    alice = world["alice"]
    token = api_key(alice.user)
    api = APIClient(HTTP_AUTHORIZATION=f"Token {token}")
    username = alice.user.username
    cases = [
        ({}, {"confirm", "password"}),
        ({"confirm": "someone-else", "password": PASSWORD}, {"confirm"}),
        ({"confirm": username, "password": "wrong"}, {"password"}),
        ({"confirm": username}, {"password"}),
        ({"confirm": username, "password": PASSWORD, "extra": 1}, {"extra"}),
    ]
    for body, fields in cases:
        response = api.delete("/api/me/", body, format="json")
        assert response.status_code == 400, body
        assert set(response.json()["fields"]) == fields, body
        assert response.json()["detail"]
    assert User.objects.get(pk=alice.user.pk).username == username
    assert Player.objects.get(pk=alice.pk).name == alice.name
    assert Entry.objects.filter(tournament=world["upcoming"], player=alice).exists()
    assert Invitation.objects.get(pk=world["invitation"].pk).status == "pending"
    assert Client().login(username=username, password=PASSWORD)

    done = api.delete("/api/me/", {"confirm": username, "password": PASSWORD}, format="json")
    assert done.status_code == 204
    assert User.objects.get(pk=alice.user.pk).username == f"deleted-{alice.user.pk}"
    assert api.get("/api/me/export/").status_code == 401  # the token went with the account


def test_the_delete_page_explains_asks_for_the_password_then_deletes(world):
    alice = world["alice"]
    client = Client()
    client.force_login(alice.user)
    assert reverse("account-delete") in client.get(reverse("account-settings")).content.decode()
    page = client.get(reverse("account-delete"))
    assert page.status_code == 200
    text = page.content.decode()
    assert "cannot be undone" in text and "anonymous name" in text
    wrong = client.post(reverse("account-delete"), {"password": "nope"})
    assert wrong.status_code == 200 and "The password is not right." in wrong.content.decode()
    assert User.objects.get(pk=alice.user.pk).is_active
    done = client.post(reverse("account-delete"), {"password": PASSWORD})
    assert done.status_code == 302 and done["Location"] == reverse("home")
    assert not User.objects.get(pk=alice.user.pk).is_active
    assert client.get(reverse("account-settings")).status_code == 302  # logged out


def test_sign_up_cannot_take_a_deleted_name(client):
    response = client.post(reverse("signup"), {"username": "deleted-player-9",
                                               "password1": PASSWORD, "password2": PASSWORD})  # fmt: skip
    assert (
        response.status_code == 200
        and not User.objects.filter(username="deleted-player-9").exists()
    )


def test_an_organiser_of_an_open_event_is_asked_to_finish_it_first(world):
    alice = world["alice"]
    t = services.create_tournament(name="Alice's Open", game="yspahan", format="swiss",
                                   organiser=alice.user, config={"table_size": 2})  # fmt: skip
    token = api_key(alice.user)
    api = APIClient(HTTP_AUTHORIZATION=f"Token {token}")
    body = {"confirm": alice.user.username, "password": PASSWORD}
    refused = api.delete("/api/me/", body, format="json")
    assert refused.status_code == 400 and "Alice's Open" in refused.json()["detail"]
    assert User.objects.get(pk=alice.user.pk).is_active
    Tournament.objects.filter(pk=t.pk).update(status="cancelled")
    assert api.delete("/api/me/", body, format="json").status_code == 204


def test_the_delete_page_says_first_what_stops_it(world):
    alice = world["alice"]
    services.create_tournament(name="Alice's Open", game="yspahan", format="swiss",
                               organiser=alice.user, config={"table_size": 2})  # fmt: skip
    client = Client()
    client.force_login(alice.user)
    page = client.get(reverse("account-delete")).content.decode()
    assert 'id="organises-open"' in page and "Alice&#x27;s Open" in page
