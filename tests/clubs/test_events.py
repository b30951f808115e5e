"""A club's events: created for the club (page and API) by its owner or organisers only,
managed by all the club's organisers (not another club's), members-only entries."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from clubs.models import ClubEvent, Role
from core import permissions
from games.models import Invitation
from tests.clubs.factories_events import EventClubFactory, member, organiser_of, owner_of
from tests.games.factories import HumanPlayerFactory, UserFactory
from tournaments import selectors, services
from tournaments.models import Entry, Tournament
from tournaments.services import entrants
from tournaments.services import setup as setup_services

pytestmark = pytest.mark.django_db

NIGHT = {
    "name": "Tuesday night", "game": "silkroad", "format": "swiss", "over_the_board": True,
    "config": {"table_size": 2, "rounds": 2},
}  # fmt: skip


def _club_event(club, by, *, members_only: bool = False) -> Tournament:
    return setup_services.create_tournament(
        organiser=by, club=club.slug, members_only=members_only, **NIGHT
    )


def _page_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# ---- creation -------------------------------------------------------------------------
def test_an_organiser_creates_a_club_event_by_the_page_and_it_names_its_club():
    club = EventClubFactory(name="Brno Caravans", slug="brno-caravans")
    boss = organiser_of(club)
    client = _page_client(boss)
    form = client.get("/tournaments/new/?club=brno-caravans")
    assert form.status_code == 200
    html = form.content.decode()
    assert 'name="club"' in html and 'value="brno-caravans" selected' in html
    assert 'name="members_only"' in html
    posted = client.post("/tournaments/new/", {
        "name": "Club night", "game": "silkroad", "format": "swiss", "table_size": 2,
        "over_the_board": "on", "club": "brno-caravans", "members_only": "on",
        "rated_shown": "1", "auto_advance_shown": "1",
    })  # fmt: skip
    assert posted.status_code == 302, posted.content.decode()[:2000]
    t = Tournament.objects.get(name="Club night")
    event = ClubEvent.objects.get(tournament=t)
    assert event.club == club and event.members_only is True
    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert "Club:" in page and 'href="/clubs/brno-caravans/"' in page and "Brno Caravans" in page


def test_someone_who_runs_no_club_gets_no_club_picker_and_cannot_post_one():
    club = EventClubFactory()
    plain = member(club)  # a member, not an organiser
    client = _page_client(plain)
    assert 'name="club"' not in client.get("/tournaments/new/").content.decode()
    posted = client.post("/tournaments/new/", {
        "name": "Sneaky", "game": "silkroad", "format": "swiss", "table_size": 2,
        "club": club.slug,
    })  # fmt: skip
    # The field is not there: the event is made without a club, never the club's.
    assert not ClubEvent.objects.exists()
    if posted.status_code == 302:
        assert Tournament.objects.get(name="Sneaky").organiser == plain


def test_the_api_creates_a_club_event_and_shows_its_club(api_client):
    club = EventClubFactory()
    boss = owner_of(club)
    api_client.force_authenticate(boss)
    made = api_client.post(
        "/api/tournaments/", {**NIGHT, "club": club.slug, "members_only": True}, format="json"
    )
    assert made.status_code == 201, made.content
    assert made.json()["club"] == club.slug
    tid = made.json()["id"]
    assert ClubEvent.objects.get(tournament_id=tid).members_only is True
    alone = api_client.post("/api/tournaments/", NIGHT, format="json")
    assert alone.status_code == 201 and alone.json()["club"] is None
    listed = {
        row["id"]: row["club"] for row in api_client.get("/api/tournaments/").json()["results"]
    }
    assert listed[tid] == club.slug and listed[alone.json()["id"]] is None
    assert api_client.get(f"/api/tournaments/{tid}/").json()["club"] == club.slug


@pytest.mark.parametrize("role", [Role.MEMBER, None])
def test_a_non_organiser_cannot_attach_an_event_to_the_club(api_client, role):
    club = EventClubFactory()
    user = member(club, role=role) if role else UserFactory()
    api_client.force_authenticate(user)
    refused = api_client.post("/api/tournaments/", {**NIGHT, "club": club.slug}, format="json")
    assert refused.status_code == 403, refused.content
    assert "organisers" in refused.json()["detail"]
    assert not Tournament.objects.exists() and not ClubEvent.objects.exists()


def test_an_unknown_club_or_members_only_without_a_club_is_a_400(api_client):
    api_client.force_authenticate(UserFactory())
    unknown = api_client.post("/api/tournaments/", {**NIGHT, "club": "nowhere"}, format="json")
    assert unknown.status_code == 400 and "club" in unknown.json()["fields"]
    alone = api_client.post("/api/tournaments/", {**NIGHT, "members_only": True}, format="json")
    assert alone.status_code == 400 and "members_only" in alone.json()["fields"]
    assert not Tournament.objects.exists()


# ---- the club's organisers manage it --------------------------------------------------
def test_every_organiser_of_the_club_manages_its_event(api_client):
    club = EventClubFactory()
    creator, other = organiser_of(club), organiser_of(club)
    t = _club_event(club, creator)
    assert permissions.may_manage_tournament(other, t)
    api_client.force_authenticate(other)
    paused = api_client.post(f"/api/tournaments/{t.pk}/pause/")
    assert paused.status_code == 200 and paused.json()["paused"] is True
    guest = api_client.post(f"/api/tournaments/{t.pk}/entries/", {"guest": "Jana"}, format="json")
    assert guest.status_code == 201, guest.content
    assert t.entries.get().player.display_name == "Jana"
    # ... and by the pages: resume, then a guest by the form.
    client = _page_client(other)
    assert client.post(f"/tournaments/{t.pk}/resume/").status_code == 302
    assert client.post(f"/tournaments/{t.pk}/guests/", {"guest": "Petr"}).status_code == 302
    t.refresh_from_db()
    assert t.paused is False
    assert sorted(e.player.display_name for e in t.entries.all()) == ["Jana", "Petr"]


def test_a_member_who_stopped_organising_no_longer_manages(api_client):
    club = EventClubFactory()
    creator = organiser_of(club)
    t = _club_event(club, creator)
    former = member(club)
    assert not permissions.may_manage_tournament(former, t)
    api_client.force_authenticate(former)
    assert api_client.post(f"/api/tournaments/{t.pk}/pause/").status_code == 403


def test_an_organiser_of_another_club_is_refused_and_nothing_changes(api_client):
    club, elsewhere = EventClubFactory(), EventClubFactory()
    t = _club_event(club, organiser_of(club))
    stranger = organiser_of(elsewhere)
    assert not permissions.may_manage_tournament(stranger, t)
    api_client.force_authenticate(stranger)
    assert api_client.post(f"/api/tournaments/{t.pk}/pause/").status_code == 403
    guest = api_client.post(f"/api/tournaments/{t.pk}/entries/", {"guest": "Jana"}, format="json")
    assert guest.status_code == 403
    patch = api_client.patch(f"/api/tournaments/{t.pk}/", {"name": "Mine now"}, format="json")
    assert patch.status_code == 403
    page = _page_client(stranger).post(f"/tournaments/{t.pk}/pause/")
    assert page.status_code in (302, 403)
    t.refresh_from_db()
    assert t.paused is False and t.name == NIGHT["name"] and not t.entries.exists()


def test_the_live_fragment_gives_a_club_organiser_her_controls_in_one_lookup(
    django_assert_max_num_queries,
):
    club = EventClubFactory()
    t = _club_event(club, organiser_of(club))
    other, stranger = organiser_of(club), organiser_of(EventClubFactory())
    assert selectors.live_version(t.pk, user_id=other.pk)["reader_co_organiser"] is True
    assert selectors.live_version(t.pk, user_id=stranger.pk)["reader_co_organiser"] is False
    with django_assert_max_num_queries(1):
        selectors.live_version(t.pk, user_id=other.pk)
    etag = _page_client(other).get(f"/tournaments/{t.pk}/live/", HTTP_HX_REQUEST="true")["ETag"]
    assert etag.strip('"').endswith(".m")
    theirs = _page_client(stranger).get(f"/tournaments/{t.pk}/live/", HTTP_HX_REQUEST="true")
    assert not theirs["ETag"].strip('"').endswith(".m")


# ---- members-only events --------------------------------------------------------------
@pytest.fixture
def members_night():
    club = EventClubFactory(name="Caravan Club")
    boss = organiser_of(club)
    t = _club_event(club, boss, members_only=True)
    return club, boss, t


def test_a_non_member_is_refused_by_join_and_a_member_accepted(api_client, members_night):
    club, _boss, t = members_night
    outsider = HumanPlayerFactory().user
    asked = member(club, HumanPlayerFactory().user, status="requested")  # not in yet
    for user in (outsider, asked):
        api_client.force_authenticate(user)
        refused = api_client.post(f"/api/tournaments/{t.pk}/join/")
        assert refused.status_code == 400, refused.content
        assert refused.json()["code"] == "members_only"
        assert "members of Caravan Club only" in refused.json()["detail"]
    page = _page_client(outsider).post(f"/tournaments/{t.pk}/join/", follow=True)
    assert "members of Caravan Club only" in page.content.decode()
    assert not t.entries.exists()
    inside = member(club, HumanPlayerFactory().user)
    api_client.force_authenticate(inside)
    assert api_client.post(f"/api/tournaments/{t.pk}/join/").status_code == 201
    assert list(t.entries.values_list("player__user", flat=True)) == [inside.pk]


def test_a_non_member_is_refused_by_enter_player_and_by_the_api(api_client, members_night):
    club, boss, t = members_night
    outsider = HumanPlayerFactory()
    with pytest.raises(ValidationError) as refused:
        entrants.enter_player(tournament=t, player=outsider, by=boss)
    assert "not a member" in str(refused.value)
    with pytest.raises(ValidationError):
        entrants.add_entry(tournament=t, player=outsider)
    api_client.force_authenticate(boss)
    posted = api_client.post(
        f"/api/tournaments/{t.pk}/entries/", {"player": outsider.name}, format="json"
    )
    assert posted.status_code == 400 and posted.json()["code"] == "members_only"
    assert not t.entries.exists() and not Invitation.objects.exists()  # no invitation either
    inside = member(club, HumanPlayerFactory().user)
    accepted = api_client.post(
        f"/api/tournaments/{t.pk}/entries/", {"player": inside.player.name}, format="json"
    )
    assert accepted.status_code == 202  # another person: she is invited, and may accept
    assert Invitation.objects.filter(player=inside.player).exists()
    entrants.add_entry(tournament=t, player=inside.player)  # what her acceptance does
    assert t.entries.filter(player=inside.player).exists()


def test_the_organiser_may_enter_himself_only_as_a_member(members_night):
    club, boss, t = members_night
    made = entrants.enter_player(tournament=t, player=boss.player, by=boss)
    assert isinstance(made, Entry)


def test_members_only_guests_are_typed_in_by_the_clubs_organisers_only(api_client, members_night):
    club, boss, t = members_night
    api_client.force_authenticate(boss)
    assert api_client.post(f"/api/tournaments/{t.pk}/entries/", {"guest": "Jana"},
                           format="json").status_code == 201  # fmt: skip
    # A co-organiser from outside the club runs the evening but does not bring guests.
    helper = UserFactory()
    t.co_organisers.add(helper)
    api_client.force_authenticate(helper)
    refused = api_client.post(f"/api/tournaments/{t.pk}/entries/", {"guest": "Karel"},
                              format="json")  # fmt: skip
    assert refused.status_code == 403 and "type in guests" in refused.json()["detail"]
    assert [e.player.display_name for e in t.entries.all()] == ["Jana"]


def test_an_open_club_event_takes_anyone(api_client):
    club = EventClubFactory()
    t = _club_event(club, organiser_of(club))
    api_client.force_authenticate(HumanPlayerFactory().user)
    assert api_client.post(f"/api/tournaments/{t.pk}/join/").status_code == 201


# ---- the club page's events -----------------------------------------------------------
def test_the_club_page_lists_upcoming_running_and_recent_events_with_winners():
    club = EventClubFactory(name="Caravan Club", slug="caravans")
    boss = organiser_of(club)
    upcoming = _club_event(club, boss, members_only=True)
    running = setup_services.create_tournament(
        organiser=boss, club=club.slug, **{**NIGHT, "name": "Running night"}
    )
    done = setup_services.create_tournament(
        organiser=boss, club=club.slug,
        **{**NIGHT, "name": "Last week", "config": {"table_size": 2, "rounds": 1}},
    )  # fmt: skip
    ann, ben = HumanPlayerFactory(), HumanPlayerFactory()
    for t in (running, done):
        entrants.add_entry(tournament=t, player=ann)
        entrants.add_entry(tournament=t, player=ben)
    services.start_tournament(tournament=running)  # auto advance: round 1 starts
    services.start_tournament(tournament=done)
    table = done.rounds.get().tables.get()
    winner = table.seats.get(index=0).entry.player
    services.record_over_the_board_result(table=table, scores=[40, 30], tiebreak=[1, 2])
    services.pair_next_round(tournament=done)  # nothing left: the event finishes
    elsewhere = setup_services.create_tournament(organiser=boss, **{**NIGHT, "name": "Not ours"})
    html = Client().get("/clubs/caravans/").content.decode()
    section = html[html.index('class="club-events"') :]
    section = section[: section.index("</section>")]
    for t in (upcoming, running, done):
        assert f'href="/tournaments/{t.pk}/"' in section
    assert elsewhere.name not in section and "members only" in section
    assert f"winner: {winner}" in section
    assert "New event of the club" not in section  # a visitor: no organiser's link
    client = _page_client(boss)
    mine = client.get("/clubs/caravans/").content.decode()
    assert "/tournaments/new/?club=caravans" in mine
