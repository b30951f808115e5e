"""Over-the-board results are rated only for organisers holding `run_rated_events`."""

import pytest
from django.contrib.auth.models import Permission

from games.models import Match
from ratings import services as rating_services
from ratings.models import Rating, RatingChange
from tests.games.factories import HumanPlayerFactory, UserFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

CLUB_NIGHT = {
    "name": "Club night", "game": "silkroad", "format": "swiss", "over_the_board": True,
    "config": {"table_size": 2, "rounds": 1}, "auto_advance": False,
}  # fmt: skip


def _grant(user):
    user.user_permissions.add(Permission.objects.get(codename="run_rated_events"))


def _type_in_three_tables(api_client, organiser, **extra) -> Tournament:
    """Six humans enter themselves; the organiser types in a result for each of 3 tables."""
    api_client.force_authenticate(organiser)
    created = api_client.post("/api/tournaments/", {**CLUB_NIGHT, **extra}, format="json")
    assert created.status_code == 201, created.content
    tid = created.json()["id"]
    for _ in range(6):
        api_client.force_authenticate(HumanPlayerFactory().user)
        assert (
            api_client.post(f"/api/tournaments/{tid}/entries/", {}, format="json").status_code
            == 201
        )
    api_client.force_authenticate(organiser)
    assert api_client.post(f"/api/tournaments/{tid}/start/").status_code == 200
    t = Tournament.objects.get(pk=tid)
    tables = list(t.rounds.get().tables.all())
    assert len(tables) == 3
    for table in tables:
        url = f"/api/tournaments/{tid}/tables/{table.pk}/result/"
        posted = api_client.post(url, {"scores": [10, 30], "tiebreak": [3, 1]}, format="json")
        assert posted.status_code == 201, posted.content
    for match in Match.objects.filter(table__round__tournament=t):
        rating_services.on_match_finished(match_id=match.pk)  # what the ratings task does
    return t


def test_ordinary_user_cannot_move_ratings_by_typing_in_scores(api_client):
    t = _type_in_three_tables(api_client, UserFactory())
    assert t.rated is False
    assert api_client.get(f"/api/tournaments/{t.pk}/").json()["rated"] is False
    matches = Match.objects.filter(table__round__tournament=t)
    assert matches.count() == 3 and not matches.filter(rated=True).exists()
    assert RatingChange.objects.count() == 0 and Rating.objects.count() == 0


def test_permitted_organiser_runs_a_rated_event(api_client):
    organiser = UserFactory()
    _grant(organiser)
    t = _type_in_three_tables(api_client, organiser)
    assert t.rated is True
    changes = RatingChange.objects.filter(match__table__round__tournament=t, system="elo")
    assert changes.count() == 6  # one per player of the three tables
    assert all(c.after > c.before for c in changes if c.rank == 1)
    assert all(c.after < c.before for c in changes if c.rank == 2)


def test_asking_for_rated_without_the_permission_is_a_400(api_client):
    api_client.force_authenticate(UserFactory())
    response = api_client.post("/api/tournaments/", {**CLUB_NIGHT, "rated": True}, format="json")
    assert response.status_code == 400
    assert "run rated events" in response.json()["fields"]["rated"][0]
    assert not Tournament.objects.exists()
    unrated = api_client.post("/api/tournaments/", {**CLUB_NIGHT, "rated": False}, format="json")
    assert unrated.status_code == 201 and unrated.json()["rated"] is False


def test_online_tournaments_of_ordinary_users_stay_rated(api_client):
    api_client.force_authenticate(UserFactory())
    online = {**CLUB_NIGHT, "over_the_board": False}
    response = api_client.post("/api/tournaments/", online, format="json")
    assert response.status_code == 201 and response.json()["rated"] is True


def test_superuser_holds_the_permission(api_client):
    api_client.force_authenticate(UserFactory(is_staff=True, is_superuser=True))
    response = api_client.post("/api/tournaments/", {**CLUB_NIGHT, "rated": True}, format="json")
    assert response.status_code == 201 and response.json()["rated"] is True


FORM = {"name": "Club night", "game": "silkroad", "format": "swiss", "table_size": 2,
        "over_the_board": "on"}  # fmt: skip


def test_create_form_makes_it_unrated_over_the_board_without_the_permission(client):
    # #29: no refusal; the box's help text says how to get the permission.
    client.force_login(UserFactory())
    response = client.post("/tournaments/new/", {**FORM, "rated": "on"})
    assert response.status_code == 302
    assert Tournament.objects.get().rated is False


def test_create_form_makes_a_rated_event_for_a_permitted_organiser(client):
    organiser = UserFactory()
    _grant(organiser)
    client.force_login(organiser)
    assert client.post("/tournaments/new/", {**FORM, "rated": "on"}).status_code == 302
    assert Tournament.objects.get().rated is True
