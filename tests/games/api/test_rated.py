"""Rated only when honest: consent of every human, one seat per person, the server's seed."""

import pytest

from games import services
from games.models import Match, MatchStatus
from tests.games.factories import EngineBotFactory, HumanPlayerFactory

pytestmark = pytest.mark.django_db


def _post(api_client, user, seats, **extra):
    api_client.force_authenticate(user)
    body = {"game": "silkroad", "seats": seats, "rated": True, **extra}
    return api_client.post("/api/matches/", body, format="json")


def test_a_user_and_his_own_bot_cannot_make_a_rated_match(api_client):
    alice = HumanPlayerFactory()
    bot, _ = services.create_external_bot(name="alices-bot", owner=alice.user)
    response = _post(api_client, alice.user, [{"player": alice.name}, {"player": bot.name}])
    assert response.status_code == 400
    reason = response.json()["fields"]["rated"][0]
    assert "two seats belong to one person" in reason and bot.name in reason
    assert Match.objects.count() == 0
    unrated = _post(
        api_client, alice.user, [{"player": alice.name}, {"player": bot.name}], rated=False
    )
    assert unrated.status_code == 201


def test_the_same_human_twice_cannot_be_rated(api_client):
    alice = HumanPlayerFactory()
    response = _post(api_client, alice.user, [{"player": alice.name}, {"player": alice.name}])
    assert response.status_code == 400 and "one person" in response.json()["fields"]["rated"][0]


def test_two_seats_of_one_builtin_bot_and_an_invited_human_may_be_rated(api_client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    seats = [{"player": alice.name}, {"bot": "greedy"}, {"bot": "greedy"}]
    response = _post(api_client, alice.user, seats)
    assert response.status_code == 201 and response.json()["rated"] is True
    invited = _post(api_client, alice.user, [{"player": alice.name}, {"player": bob.name}])
    assert invited.status_code == 201
    body = invited.json()
    assert body["rated"] is True and body["status"] == MatchStatus.PENDING  # rated once bob accepts


def test_bots_of_two_different_owners_may_be_rated(api_client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    mine, _ = services.create_external_bot(name="mine", owner=alice.user)
    theirs, _ = services.create_external_bot(name="theirs", owner=bob.user)
    response = _post(api_client, alice.user, [{"player": mine.name}, {"player": theirs.name}])
    assert response.status_code == 201 and response.json()["rated"] is True


def test_rating_objection_names_each_rule():
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    bot = EngineBotFactory()
    check = services.rating_objection
    assert check(players=[alice, bot], created_by=alice.user, invited=[], server_seed=True) is None
    assert "agreed" in check(
        players=[alice, bob], created_by=alice.user, invited=[], server_seed=True
    )
    assert (
        check(players=[alice, bob], created_by=alice.user, invited=[bob], server_seed=True) is None
    )
    assert "seed" in check(
        players=[alice, bot], created_by=alice.user, invited=[], server_seed=False
    )


def test_platform_matches_of_one_person_are_played_unrated():
    """A tournament's table (entrants agreed by entering) with a user and his own bot:
    the match is played but does not count."""
    alice = HumanPlayerFactory()
    bot, _ = services.create_external_bot(name="alices-bot", owner=alice.user)
    match = services.create_match(
        game="silkroad", players=[alice, bot], rated=True, created_by=HumanPlayerFactory().user,
        consented=True,
    )  # fmt: skip
    assert match.status == MatchStatus.RUNNING and match.rated is False
