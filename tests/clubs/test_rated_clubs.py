"""Rated clubs: staff mark a club rated, and its organisers' over-the-board events of the
club move ratings; the same event of an unrated club is refused as rated (or created
unrated) and moves none. The per-user permission stays for events without a club."""

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from clubs.models import Club
from games.models import Match
from ratings import services as rating_services
from ratings.models import Rating, RatingChange
from tests.clubs.factories_events import EventClubFactory, member, organiser_of
from tests.games.factories import HumanPlayerFactory, UserFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

NIGHT = {
    "name": "Club night", "game": "silkroad", "format": "swiss", "over_the_board": True,
    "config": {"table_size": 2, "rounds": 1}, "auto_advance": False,
}  # fmt: skip


def _grant(user):
    user.user_permissions.add(Permission.objects.get(codename="run_rated_events"))


def _night(api_client, club: Club, organiser, **extra) -> Tournament:
    """Six members enter; the organiser starts and types in round 1's three results, and the
    round (and with it the one-round event) finishes; the ratings task runs."""
    api_client.force_authenticate(organiser)
    made = api_client.post("/api/tournaments/", {**NIGHT, "club": club.slug, **extra},
                           format="json")  # fmt: skip
    assert made.status_code == 201, made.content
    tid = made.json()["id"]
    for _ in range(6):
        api_client.force_authenticate(member(club, HumanPlayerFactory().user))
        assert api_client.post(f"/api/tournaments/{tid}/join/").status_code == 201
    api_client.force_authenticate(organiser)
    assert api_client.post(f"/api/tournaments/{tid}/start/").status_code == 200
    t = Tournament.objects.get(pk=tid)
    for table in t.rounds.get().tables.all():
        url = f"/api/tournaments/{tid}/tables/{table.pk}/result/"
        posted = api_client.post(url, {"scores": [10, 30], "tiebreak": [3, 1]}, format="json")
        assert posted.status_code == 201, posted.content
    assert t.rounds.get().status == "finished"
    # The one round is played: pairing the next finishes the event.
    finished = api_client.post(f"/api/tournaments/{tid}/rounds/")
    assert finished.status_code == 200, finished.content
    for match in Match.objects.filter(table__round__tournament=t).order_by("pk"):
        rating_services.on_match_finished(match_id=match.pk)  # what the ratings task does
    t.refresh_from_db()
    assert t.status == "finished"
    return t


def test_a_rated_clubs_event_moves_ratings(api_client):
    club = EventClubFactory(rated=True)
    boss = organiser_of(club)  # no per-user permission: the club's trust is enough
    t = _night(api_client, club, boss, rated=True)
    assert t.rated is True
    changes = RatingChange.objects.filter(match__table__round__tournament=t, system="elo")
    assert changes.count() == 6  # one per player of the three tables
    assert all(c.after > c.before for c in changes if c.rank == 1)
    assert all(c.after < c.before for c in changes if c.rank == 2)
    # Any organiser of the club runs its rated events, not only the one who made the first.
    api_client.force_authenticate(organiser_of(club))
    again = api_client.post("/api/tournaments/", {**NIGHT, "club": club.slug}, format="json")
    assert again.status_code == 201 and again.json()["rated"] is True  # the default


def test_the_same_event_of_an_unrated_club_is_refused_as_rated_and_moves_nothing(api_client):
    club = EventClubFactory(rated=False)
    boss = organiser_of(club)
    _grant(boss)  # his own permission is for events without a club, not the club's
    api_client.force_authenticate(boss)
    refused = api_client.post("/api/tournaments/", {**NIGHT, "club": club.slug, "rated": True},
                              format="json")  # fmt: skip
    assert refused.status_code == 400
    assert "marked the club rated" in refused.json()["fields"]["rated"][0]
    assert not Tournament.objects.exists()
    t = _night(api_client, club, boss)  # created unrated by default
    assert t.rated is False
    matches = Match.objects.filter(table__round__tournament=t)
    assert matches.count() == 3 and not matches.filter(rated=True).exists()
    assert RatingChange.objects.count() == 0 and Rating.objects.count() == 0


def test_a_rated_club_rates_only_its_own_organisers_events(api_client):
    club = EventClubFactory(rated=True)
    plain = member(club)
    api_client.force_authenticate(plain)  # a member: may not make the club's events at all
    assert api_client.post("/api/tournaments/", {**NIGHT, "club": club.slug},
                           format="json").status_code == 403  # fmt: skip
    alone = api_client.post("/api/tournaments/", {**NIGHT, "rated": True}, format="json")
    assert alone.status_code == 400  # without a club: the per-user permission, as before
    assert not Tournament.objects.exists()


def test_the_permission_still_rates_events_without_a_club(api_client):
    holder = UserFactory()
    _grant(holder)
    api_client.force_authenticate(holder)
    made = api_client.post("/api/tournaments/", {**NIGHT, "rated": True}, format="json")
    assert made.status_code == 201 and made.json()["rated"] is True and made.json()["club"] is None


def test_editing_a_club_event_to_rated_follows_the_club(api_client):
    unrated, rated = EventClubFactory(), EventClubFactory(rated=True)
    boss = organiser_of(unrated)
    organiser_of(rated, boss)
    api_client.force_authenticate(boss)
    a = api_client.post("/api/tournaments/", {**NIGHT, "club": unrated.slug}, format="json").json()
    b = api_client.post("/api/tournaments/", {**NIGHT, "club": rated.slug, "rated": False},
                        format="json").json()  # fmt: skip
    refused = api_client.patch(f"/api/tournaments/{a['id']}/", {"rated": True}, format="json")
    assert refused.status_code == 400 and "marked the club rated" in str(refused.json())
    ok = api_client.patch(f"/api/tournaments/{b['id']}/", {"rated": True}, format="json")
    assert ok.status_code == 200 and ok.json()["rated"] is True
    assert Tournament.objects.get(pk=a["id"]).rated is False


def test_the_create_forms_rated_box_says_which_clubs_are_rated():
    rated, plain = EventClubFactory(name="Verified Nomads", rated=True), EventClubFactory()
    boss = organiser_of(rated)
    organiser_of(plain, boss)
    client = Client()
    client.force_login(boss)
    html = client.get("/tournaments/new/").content.decode()
    assert "marked the club rated (yours: Verified Nomads)" in html
    assert "data-needs-permission" not in html  # the box stays: a rated club's event may be rated
    base = {"game": "silkroad", "format": "swiss", "table_size": 2, "over_the_board": "on",
            "rated": "on", "rated_shown": "0", "auto_advance_shown": "1"}  # fmt: skip
    client.post("/tournaments/new/", {**base, "name": "Rated night", "club": rated.slug})
    client.post("/tournaments/new/", {**base, "name": "Plain night", "club": plain.slug})
    client.post("/tournaments/new/", {**base, "name": "No club night"})
    made = dict(Tournament.objects.values_list("name", "rated"))
    assert made == {"Rated night": True, "Plain night": False, "No club night": False}
    lone = UserFactory()
    client.force_login(lone)
    assert "data-needs-permission" in client.get("/tournaments/new/").content.decode()


def test_the_edit_page_says_why_an_unrated_clubs_event_cant_be_rated(client):
    from django.urls import reverse

    from clubs.services import events
    from tests.clubs.factories import ClubFactory, owner_of
    from tournaments import services as tournament_services

    club = ClubFactory(rated=False)
    owner = owner_of(club)
    t = tournament_services.create_tournament(name="Unrated night", game="yspahan",
                                              format="swiss", organiser=owner,
                                              over_the_board=True, rated=False,
                                              config={"table_size": 2})  # fmt: skip
    events.attach(t, club)
    client.force_login(owner)
    form = client.get(reverse("tournament-edit", args=[t.pk])).context["form"]
    assert form.fields["rated"].disabled
    assert "verified the club" in form.fields["rated"].help_text
