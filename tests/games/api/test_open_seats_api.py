"""The API's open seats: `{"open": true}` in POST /api/matches/, and POST .../join/."""

import pytest
import yaml

from games.models import Match, MatchStatus
from tests.games.factories import HumanPlayerFactory

pytestmark = pytest.mark.django_db


def _create(api_client, creator, seats=None, **extra):
    api_client.force_authenticate(creator.user)
    seats = seats or [{"player": creator.name}, {"open": True}]
    body = {"game": "yspahan", "seats": seats, "time_control": {"per_move_s": 60}, **extra}
    return api_client.post("/api/matches/", body, format="json")


def _join(api_client, player, match_id):
    api_client.force_authenticate(player.user if player else None)
    return api_client.post(f"/api/matches/{match_id}/join/")


def test_open_seat_created_and_joined_through_the_api(api_client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    created = _create(api_client, alice)
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["status"] == "pending" and body["open_seats"] == [1]
    assert [s["player"] for s in body["seats"]] == [alice.name]
    listed = api_client.get("/api/matches/", {"status": "pending"}).json()["results"]
    assert listed[0]["open_seats"] == [1]
    joined = _join(api_client, bob, body["id"])
    assert joined.status_code == 200, joined.content
    assert joined.json()["status"] == "running" and joined.json()["open_seats"] == []
    assert [s["player"] for s in joined.json()["seats"]] == [alice.name, bob.name]
    state = api_client.get(f"/api/matches/{body['id']}/state/").json()
    assert state["seat"] == 1 and state["observation"] is not None


def test_join_errors_are_clear_and_change_nothing(api_client):
    alice, bob, carol = HumanPlayerFactory(), HumanPlayerFactory(), HumanPlayerFactory()
    match_id = _create(api_client, alice).json()["id"]
    anonymous = _join(api_client, None, match_id)
    assert anonymous.status_code == 401
    assert "credentials" in anonymous.json()["detail"]
    own = _join(api_client, alice, match_id)
    assert own.status_code == 409 and own.json()["code"] == "already_seated"
    assert "already have a seat" in own.json()["detail"]
    assert Match.objects.get(pk=match_id).status == MatchStatus.PENDING
    assert _join(api_client, bob, match_id).status_code == 200
    started = _join(api_client, carol, match_id)
    assert started.status_code == 409 and started.json()["code"] == "already_started"
    assert "already started" in started.json()["detail"]
    assert Match.objects.get(pk=match_id).seats.count() == 2
    missing = _join(api_client, carol, match_id + 999)
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_a_full_match_waiting_for_an_invitee_answers_full(api_client):
    alice, bob, carol, dave = (HumanPlayerFactory() for _ in range(4))
    seats = [{"player": alice.name}, {"player": bob.name}, {"open": True}]
    match_id = _create(api_client, alice, seats=seats).json()["id"]
    assert _join(api_client, carol, match_id).status_code == 200
    full = _join(api_client, dave, match_id)
    assert full.status_code == 409 and full.json()["code"] == "match_full"
    assert Match.objects.get(pk=match_id).status == MatchStatus.PENDING


@pytest.mark.parametrize(
    "seat", [{"open": True, "bot": "random"}, {"open": False}, {"open": True, "player": "x"}]
)
def test_an_open_seat_is_given_alone(api_client, seat):
    alice = HumanPlayerFactory()
    response = _create(api_client, alice, seats=[{"player": alice.name}, seat])
    assert response.status_code == 400 and "open" in response.content.decode()
    assert not Match.objects.exists()


def test_only_open_seats_is_refused(api_client):
    alice = HumanPlayerFactory()
    response = _create(api_client, alice, seats=[{"open": True}, {"open": True}])
    assert response.status_code == 400 and "seat" in response.content.decode().lower()
    assert not Match.objects.exists()


def test_join_and_open_seats_are_in_the_schema(client):
    schema = yaml.safe_load(client.get("/api/schema/").content)
    join = schema["paths"]["/api/matches/{id}/join/"]["post"]
    assert {"200", "401", "404", "409"} <= set(join["responses"])
    assert "already_seated" in join["description"]
    components = schema["components"]["schemas"]
    seat_request = next(v for k, v in components.items() if k.startswith("SeatRequest"))
    assert "open" in seat_request["properties"], sorted(components)
    assert "open_seats" in components["Match"]["properties"]
