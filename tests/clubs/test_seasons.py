"""Seasons: the service's rules, two finished over-the-board club events (typed-in results)
in a season with standings recomputed by hand (best-1 and sum), the pages, the CSV and
.xlsx files and the API."""

import csv
import datetime
import io

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from clubs import season_selectors
from clubs.models import ClubEvent, Role, Season, Visibility
from clubs.services import seasons as season_services
from tests.clubs.factories import ClubFactory, MembershipFactory, owner_of
from tests.clubs.factories_seasons import SeasonFactory, club_guest, finished_event
from tests.games.factories import HumanPlayerFactory

pytestmark = pytest.mark.django_db

SEPT = datetime.date(2025, 9, 1)
DEC = datetime.date(2025, 12, 31)


def _season_values(**extra):
    return {"name": "Autumn 2025", "starts_on": SEPT, "ends_on": DEC, "games": ["silkroad"],
            "rule": "sum", **extra}  # fmt: skip


@pytest.fixture
def club():
    return ClubFactory()


@pytest.fixture
def organiser(club):
    return MembershipFactory(club=club, role=Role.ORGANISER).user


# ---- the service --------------------------------------------------------------------
def test_owner_and_organisers_create_seasons_members_do_not(club, organiser):
    season = season_services.create_season(club=club, by=organiser, **_season_values())
    assert (season.name, season.rule, season.best_n, season.place_points) == (
        "Autumn 2025",
        "sum",
        None,
        [],
    )
    owned = season_services.create_season(club=club, by=owner_of(club),
                                          **_season_values(name="Spring"))  # fmt: skip
    assert owned.club == club
    member = MembershipFactory(club=club).user
    asked = MembershipFactory(club=club, role=Role.ORGANISER, status="requested").user
    for user in (member, asked, HumanPlayerFactory().user):
        with pytest.raises(PermissionDenied):
            season_services.create_season(club=club, by=user, **_season_values(name="No"))
    assert Season.objects.filter(club=club).count() == 2


def test_places_default_to_formula_one_and_stay_editable(club, organiser):
    season = season_services.create_season(club=club, by=organiser,
                                           **_season_values(rule="places"))  # fmt: skip
    assert season.place_points == [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]
    season_services.update_season(season=season, by=organiser, place_points=[10, 5, 2.5])
    season.refresh_from_db()
    assert season.place_points == [10, 5, 2.5]


@pytest.mark.parametrize("bad, field", [
    ({"ends_on": datetime.date(2025, 8, 1)}, "ends_on"),
    ({"rule": "best"}, "best_n"),
    ({"rule": "best", "best_n": 0}, "best_n"),
    ({"games": ["chess"]}, "games"),
    ({"rule": "places", "place_points": [10, -1]}, "place_points"),
    ({"rule": "places", "place_points": ["a"]}, "place_points"),
    ({"rule": "average"}, "rule"),
    ({"name": "  "}, "name"),
    ({"starts_on": "yesterday"}, "starts_on"),
])  # fmt: skip
def test_bad_input_is_a_field_error_and_nothing_is_made(club, organiser, bad, field):
    with pytest.raises(ValidationError) as caught:
        season_services.create_season(club=club, by=organiser, **_season_values(**bad))
    assert field in caught.value.message_dict
    assert not Season.objects.exists()


def test_events_attach_only_from_the_club_within_dates_and_games(club, organiser):
    season = SeasonFactory(club=club)
    a, b = HumanPlayerFactory(), HumanPlayerFactory()
    inside = finished_event(
        club, by=organiser, scores={a: 10, b: 5}, day=datetime.date(2025, 10, 1)
    )
    season_services.attach_event(season=season, tournament=inside, by=organiser)
    assert ClubEvent.objects.get(tournament=inside).season == season

    before = finished_event(
        club, by=organiser, scores={a: 10, b: 5}, day=datetime.date(2025, 8, 31)
    )
    other_club = ClubFactory()
    theirs = finished_event(
        other_club, by=organiser, scores={a: 1, b: 2}, day=datetime.date(2025, 10, 2)
    )
    yspahan = finished_event(club, by=organiser, scores={a: 10, b: 5}, game="yspahan",
                             day=datetime.date(2025, 10, 3))  # fmt: skip
    for t in (before, theirs, yspahan):
        with pytest.raises(ValidationError) as caught:
            season_services.attach_event(season=season, tournament=t, by=organiser)
        assert "event" in caught.value.message_dict
        assert ClubEvent.objects.get(tournament=t).season is None
    with pytest.raises(PermissionDenied):
        season_services.attach_event(season=season, tournament=before,
                                     by=MembershipFactory(club=club).user)  # fmt: skip

    # A change of dates that would leave an attached event outside is refused whole.
    with pytest.raises(ValidationError) as caught:
        season_services.update_season(season=season, by=organiser, name="Late autumn",
                                      starts_on=datetime.date(2025, 11, 1))  # fmt: skip
    assert "starts_on" in caught.value.message_dict
    season.refresh_from_db()
    assert season.starts_on == SEPT and season.name != "Late autumn"

    season_services.detach_event(season=season, tournament=inside, by=organiser)
    assert ClubEvent.objects.get(tournament=inside).season is None


# ---- two club nights in a season ------------------------------------------------------
@pytest.fixture
def two_nights(club, organiser):
    """Event 1 (10 Sept): alice 40, bob 30, cara 20, dan 10 -> places 1-4.
    Event 2 (24 Sept): bob 50, cara 45, the guest Gita 30, dan 5 -> places 1-4.
    One table of four, so the event points are the table's (tables of 4: 3/2/1/0)."""
    alice, bob, cara, dan = (HumanPlayerFactory(name=n, user__username=n)
                             for n in ("alice", "bob", "cara", "dan"))  # fmt: skip
    for p in (alice, bob, cara, dan):
        MembershipFactory(club=club, user=p.user)
    gita = club_guest(club, "Gita")
    season = SeasonFactory(club=club, name="Autumn 2025")
    first = finished_event(club, by=organiser, season=season, name="Night 1",
                           scores={alice: 40, bob: 30, cara: 20, dan: 10},
                           day=datetime.date(2025, 9, 10))  # fmt: skip
    second = finished_event(club, by=organiser, season=season, name="Night 2",
                            scores={bob: 50, cara: 45, gita: 30, dan: 5},
                            day=datetime.date(2025, 9, 24))  # fmt: skip
    return season, (first, second), {"alice": alice, "bob": bob, "cara": cara, "dan": dan,
                                     "gita": gita}  # fmt: skip


def _table(season):
    return [(r["handle"] if not r["guest"] else "gita", r["score"], r["rank"])
            for r in season_selectors.standings(season).rows]  # fmt: skip


def test_season_standings_by_sum_computed_by_hand(two_nights):
    season, (first, second), _ = two_nights
    assert first.status == second.status == "finished"
    # Event points: night 1 alice 3, bob 2, cara 1, dan 0; night 2 bob 3, cara 2, gita 1,
    # dan 0. Sum: bob 2 + 3 = 5; alice 3; cara 1 + 2 = 3; gita 1; dan 0.
    # alice and cara level on 3: alice won an event, cara none -> alice 2nd, cara 3rd.
    assert _table(season) == [("bob", 5, 1), ("alice", 3, 2), ("cara", 3, 3), ("gita", 1, 4),
                              ("dan", 0, 5)]  # fmt: skip
    rows = {r["handle"]: r for r in season_selectors.standings(season).rows}
    assert (rows["bob"]["wins"], rows["bob"]["events"]) == (1, 2)


def test_season_standings_by_best_one_computed_by_hand(two_nights):
    season, _, _ = two_nights
    Season.objects.filter(pk=season.pk).update(rule="best", best_n=1)
    season.refresh_from_db()
    # Best single event: alice 3 (night 1), bob 3 (night 2), cara 2, gita 1, dan 0.
    # alice and bob level on 3 and on wins (one each); head-to-head: their one shared
    # event, night 1, alice 1st above bob 2nd -> alice first.
    assert _table(season) == [("alice", 3, 1), ("bob", 3, 2), ("cara", 2, 3), ("gita", 1, 4),
                              ("dan", 0, 5)]  # fmt: skip
    rows = {r["handle"]: r for r in season_selectors.standings(season).rows}
    assert rows["alice"]["head_to_head"] == 1 and rows["bob"]["head_to_head"] == 0
    assert [h["counted"] for h in rows["bob"]["history"]] == [False, True]


def test_season_standings_by_places(two_nights):
    season, _, _ = two_nights
    Season.objects.filter(pk=season.pk).update(rule="places", place_points=[10, 6, 3])
    season.refresh_from_db()
    # bob 6 + 10 = 16; cara 3 + 6 = 9; alice 10; gita 3rd: 3; dan 4th twice: 0.
    assert _table(season) == [("bob", 16, 1), ("alice", 10, 2), ("cara", 9, 3), ("gita", 3, 4),
                              ("dan", 0, 5)]  # fmt: skip


def test_a_running_event_counts_provisionally(two_nights, club, organiser):
    season, _, p = two_nights
    running = finished_event(club, by=organiser, season=season, name="Night 3", finish=False,
                             scores={p["dan"]: 60, p["alice"]: 1}, day=datetime.date(2025, 10, 8))  # fmt: skip
    assert running.status == "running"
    table = season_selectors.standings(season)
    rows = {r["handle"]: r for r in table.rows}
    # dan wins night 3 (a table of 2 in a 2-seat event: 1 point): 0 + 0 + 1.
    assert rows["dan"]["score"] == 1 and rows["dan"]["provisional"] is True
    assert rows["bob"]["provisional"] is False and table.provisional is True


# ---- pages ----------------------------------------------------------------------------
def test_the_season_page_explains_the_rule_and_lists_events(client, two_nights, club):
    season, (first, second), _ = two_nights
    page = client.get(reverse("club-season", args=[club.slug, season.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert "The sum of each player" in body and "more event wins" in body
    assert "Night 1" in body and "Night 2" in body and "Gita" in body
    assert body.index(">bob<") < body.index(">alice<") < body.index(">cara<")
    assert reverse("club-season-csv", args=[club.slug, season.pk]) in body
    assert 'id="edit-season"' not in body  # a visitor runs nothing


def test_the_club_page_shows_seasons_current_first_and_the_ladder(client, two_nights, club):
    season, _, _ = two_nights
    old = SeasonFactory(club=club, name="Spring 2024", starts_on=datetime.date(2024, 3, 1),
                        ends_on=datetime.date(2024, 6, 30))  # fmt: skip
    current = SeasonFactory(club=club, name="This year", starts_on=datetime.date(2000, 1, 1),
                            ends_on=datetime.date(2100, 1, 1))  # fmt: skip
    body = client.get(reverse("club-detail", args=[club.slug])).content.decode()
    assert body.index("This year") < body.index("Autumn 2025") < body.index("Spring 2024")
    assert reverse("club-season", args=[club.slug, current.pk]) in body
    assert reverse("club-season", args=[club.slug, old.pk]) in body
    assert 'id="ladder"' in body and 'name="ladder_game"' in body


def test_a_player_history_page(client, two_nights, club):
    season, _, p = two_nights
    url = reverse("club-season-player", args=[club.slug, season.pk, p["cara"].pk])
    body = client.get(url).content.decode()
    assert "Night 1" in body and "Night 2" in body
    assert "Place 3 in the season with 3." in body
    stranger = HumanPlayerFactory()
    assert (
        client.get(
            reverse("club-season-player", args=[club.slug, season.pk, stranger.pk])
        ).status_code
        == 404
    )


def test_the_projector_view(client, two_nights, club):
    season, _, _ = two_nights
    page = client.get(reverse("club-season-screen", args=[club.slug, season.pk]))
    body = page.content.decode()
    assert page.status_code == 200 and "screen.css" in body and "topbar" not in body
    assert body.index(">bob<") < body.index(">alice<")


def test_a_members_only_club_shows_its_seasons_to_members_only(client, two_nights, club):
    season, _, p = two_nights
    club.visibility = Visibility.MEMBERS
    club.save()
    urls = [reverse(name, args=[club.slug, season.pk]) for name in
            ("club-season", "club-season-csv", "club-season-xlsx", "club-season-screen")]  # fmt: skip
    urls.append(f"/api/clubs/{club.slug}/seasons/{season.pk}/standings/")
    urls.append(f"/api/clubs/{club.slug}/seasons/")
    for url in urls:
        assert client.get(url).status_code == 404, url
    client.force_login(HumanPlayerFactory().user)
    assert client.get(urls[0]).status_code == 404
    client.force_login(p["dan"].user)
    for url in urls:
        assert client.get(url).status_code == 200, url


def test_organisers_create_and_edit_seasons_on_pages(client, club, organiser):
    new = reverse("club-season-new", args=[club.slug])
    client.force_login(MembershipFactory(club=club).user)
    assert client.get(new).status_code == 403
    client.force_login(organiser)
    assert client.get(new).status_code == 200
    refused = client.post(new, {"name": "Winter", "starts_on": "2025-12-01",
                                "ends_on": "2025-11-01", "rule": "best"})  # fmt: skip
    assert refused.status_code == 200 and not Season.objects.exists()
    assert "end before it starts" in refused.content.decode()  # the ends_on field's error
    made = client.post(new, {"name": "Winter", "starts_on": "2025-12-01", "ends_on": "2026-02-28",
                             "rule": "places", "place_points": "10, 6, 3", "games": ["silkroad"]})  # fmt: skip
    season = Season.objects.get()
    assert made.status_code == 302 and made["Location"] == reverse(
        "club-season", args=[club.slug, season.pk]
    )
    assert (season.rule, season.place_points, season.games) == ("places", [10, 6, 3], ["silkroad"])
    edit = reverse("club-season-edit", args=[club.slug, season.pk])
    assert "10, 6, 3" in client.get(edit).content.decode()
    client.post(edit, {"name": "Winter", "starts_on": "2025-12-01", "ends_on": "2026-02-28",
                       "rule": "best", "best_n": "2"})  # fmt: skip
    season.refresh_from_db()
    assert (season.rule, season.best_n) == ("best", 2)


def test_organisers_attach_and_detach_events_on_the_page(client, club, organiser):
    season = SeasonFactory(club=club)
    a, b = HumanPlayerFactory(), HumanPlayerFactory()
    t = finished_event(club, by=organiser, scores={a: 3, b: 1}, day=datetime.date(2025, 10, 1))
    url = reverse("club-season-events", args=[club.slug, season.pk])
    client.force_login(organiser)
    page = client.get(reverse("club-season", args=[club.slug, season.pk])).content.decode()
    assert f'<option value="{t.pk}">' in page
    client.post(url, {"tournament": t.pk, "action": "attach"})
    assert ClubEvent.objects.get(tournament=t).season == season
    client.post(url, {"tournament": t.pk, "action": "detach"})
    assert ClubEvent.objects.get(tournament=t).season is None
    client.force_login(MembershipFactory(club=club).user)
    assert client.post(url, {"tournament": t.pk, "action": "attach"}).status_code == 403
    assert ClubEvent.objects.get(tournament=t).season is None


# ---- files ----------------------------------------------------------------------------
def test_csv_has_a_bom_fixed_headers_and_the_rows(client, two_nights, club):
    season, _, _ = two_nights
    response = client.get(reverse("club-season-csv", args=[club.slug, season.pk]))
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text[1:])))
    assert rows[0] == ["rank", "handle", "player", "guest", "score", "events", "counted", "wins",
                       "head_to_head", "rating", "provisional"]  # fmt: skip
    assert rows[1][:5] == ["1", "bob", "bob", "no", "5"]
    assert [r[2] for r in rows[1:]] == ["bob", "alice", "cara", "Gita", "dan"]


def test_xlsx_opens_with_openpyxl(client, two_nights, club):
    from openpyxl import load_workbook

    season, _, _ = two_nights
    response = client.get(reverse("club-season-xlsx", args=[club.slug, season.pk]))
    book = load_workbook(io.BytesIO(response.content))
    ws = book.active
    assert [c.value for c in ws[1]][:5] == ["Rank", "Handle", "Player", "Guest", "Season score"]
    assert [c.value for c in ws[2]][:5] == [1, "bob", "bob", False, 5]
    assert ws.max_row == 6


# ---- API ------------------------------------------------------------------------------
def test_api_lists_and_creates_seasons(api_client, club, organiser):
    url = f"/api/clubs/{club.slug}/seasons/"
    body = {"name": "Autumn", "starts_on": "2025-09-01", "ends_on": "2025-12-31",
            "games": ["silkroad"], "rule": "best", "best_n": 3}  # fmt: skip
    assert api_client.post(url, body, format="json").status_code in (401, 403)
    api_client.force_authenticate(MembershipFactory(club=club).user)
    assert api_client.post(url, body, format="json").status_code == 403
    api_client.force_authenticate(organiser)
    for bad in ({**body, "best_n": None}, {**body, "ends_on": "2025-01-01"},
                {**body, "colour": "red"}, {**body, "games": ["chess"]},
                {**body, "rule": "places", "place_points": [-1]}):  # fmt: skip
        refused = api_client.post(url, bad, format="json")
        assert refused.status_code == 400, bad
    assert not Season.objects.exists()
    made = api_client.post(url, body, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["best_n"] == 3 and made.json()["rule"] == "best"
    listed = api_client.get(url).json()
    assert [s["name"] for s in listed] == ["Autumn"]
    api_client.force_authenticate(None)
    assert api_client.get(url).status_code == 200
    assert api_client.get("/api/clubs/no-such-club/seasons/").status_code == 404


def test_api_standings(api_client, two_nights, club):
    season, _, _ = two_nights
    response = api_client.get(f"/api/clubs/{club.slug}/seasons/{season.pk}/standings/")
    assert response.status_code == 200
    data = response.json()
    assert data["season"]["id"] == season.pk and data["provisional"] is False
    assert [(r["player"], r["score"], r["wins"], r["place"], r["events"]) for r in data["rows"]][
        :3
    ] == [("bob", 5, 1, 1, 2), ("alice", 3, 1, 2, 1), ("cara", 3, 0, 3, 2)]
    assert data["rows"][3]["name"] == "Gita" and data["rows"][3]["guest"] is True
    other = SeasonFactory()
    assert (
        api_client.get(f"/api/clubs/{club.slug}/seasons/{other.pk}/standings/").status_code == 404
    )


def test_the_demo_club_is_made_once_after_the_demo_data():
    from django.core.management import call_command

    from clubs.models import Club, Membership

    call_command("seed_demo")
    call_command("seed_demo_club")
    call_command("seed_demo_club")  # again: nothing more
    club = Club.objects.get(slug="demo-club")
    assert Membership.objects.filter(club=club, status="active").count() == 2
    assert club.seasons.get().events.get().tournament.name == "Demo Swiss (bots)"


def test_scores_show_only_the_decimals_they_need_in_the_readers_format():
    from django.utils import translation

    from clubs.templatetags.season_tags import points

    assert [points(v) for v in (1.5, 4.0, 13.3333, None)] == ["1.5", "4", "13.33", ""]
    with translation.override("cs"):
        assert points(1.5) == "1,5"
