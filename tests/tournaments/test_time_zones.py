"""A tournament's planned start in the reader's zone: typed in it, shown in it with the
zone's name; storage and the API stay UTC (core.timezones)."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from tests.games.factories import UserFactory
from tests.tournaments.factories import tournament_with_bots
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

UTC = ZoneInfo("UTC")
NEXT = timezone.now().year + 1  # a planned start must be in the future


def _person(zone: str | None):
    user = UserFactory()
    if zone is not None:
        game_services.set_time_zone(user=user, time_zone=zone)
    return user


def _planned(organiser, starts_at) -> Tournament:
    return tournament_with_bots(n=2, config={"table_size": 2, "rounds": 2}, organiser=organiser,
                                over_the_board=True, starts_at=starts_at)  # fmt: skip


def _page(client, t: Tournament, lang: str = "en") -> str:
    url = reverse("tournament-detail", args=[t.pk])
    return client.get(url, headers={"accept-language": lang}).content.decode()


def test_new_york_and_prague_see_the_same_start_at_their_own_wall_times(client):
    t = _planned(UserFactory(), datetime(NEXT, 1, 15, 17, 30, tzinfo=UTC))
    client.force_login(_person("Europe/Prague"))
    assert f"Planned start: Jan. 15, {NEXT}, 6:30 p.m. (CET)" in _page(client, t)
    client.force_login(_person("America/New_York"))
    assert f"Planned start: Jan. 15, {NEXT}, 12:30 p.m. (EST)" in _page(client, t)
    # Summer: both moved an hour with their own clocks.
    Tournament.objects.filter(pk=t.pk).update(starts_at=datetime(NEXT, 7, 15, 16, 30, tzinfo=UTC))
    assert f"Planned start: July 15, {NEXT}, 12:30 p.m. (EDT)" in _page(client, t)
    client.force_login(_person("Europe/Prague"))
    assert f"Plánovaný začátek: 15. července {NEXT} 18:30 (CEST)" in _page(client, t, "cs")


def test_a_visitor_sees_prague_time_or_the_browsers_zone(client):
    t = _planned(UserFactory(), datetime(NEXT, 1, 15, 17, 30, tzinfo=UTC))
    assert f"Jan. 15, {NEXT}, 6:30 p.m. (CET)" in _page(client, t)
    client.cookies["tz"] = "Asia/Tokyo"
    assert f"Jan. 16, {NEXT}, 2:30 a.m. (JST)" in _page(client, t)


@pytest.mark.parametrize(
    ("month", "stored_hour"),
    [(1, 17), (7, 16)],  # winter: CET = UTC+1; summer: CEST = UTC+2
)
def test_18_00_typed_in_prague_is_stored_as_utc_with_daylight_saving(client, month, stored_hour):
    organiser = _person("Europe/Prague")
    t = _planned(organiser, None)
    client.force_login(organiser)
    url = reverse("tournament-planned-start", args=[t.pk])
    done = client.post(url, {"starts_at": f"{NEXT}-{month:02}-10T18:00", "auto_start": "on"},
                       follow=True)  # fmt: skip
    assert "Planned start saved." in done.content.decode()
    t.refresh_from_db()
    assert t.starts_at == datetime(NEXT, month, 10, stored_hour, 0, tzinfo=UTC)
    # Shown back as typed, in the form and beside it the zone it was read in.
    page = done.content.decode()
    assert f'value="{NEXT}-{month:02}-10T18:00"' in page
    assert '<span class="zone-name"' in page and ">(Europe/Prague)</span>" in page


def test_the_same_18_00_typed_in_new_york_is_a_later_moment(client):
    organiser = _person("America/New_York")
    t = _planned(organiser, None)
    client.force_login(organiser)
    url = reverse("tournament-planned-start", args=[t.pk])
    client.post(url, {"starts_at": f"{NEXT}-01-10T18:00", "auto_start": ""})
    t.refresh_from_db()
    assert t.starts_at == datetime(NEXT, 1, 10, 23, 0, tzinfo=UTC)


def test_a_time_the_clock_skips_is_refused_with_a_message(client):
    """02:30 on the last Sunday of March does not exist in Prague (02:00 -> 03:00)."""
    organiser = _person("Europe/Prague")
    t = _planned(organiser, None)
    client.force_login(organiser)
    march = datetime(NEXT, 3, 31)
    skipped = march.replace(day=31 - (march.weekday() + 1) % 7)  # the last Sunday
    url = reverse("tournament-planned-start", args=[t.pk])
    response = client.post(url, {"starts_at": skipped.strftime("%Y-%m-%dT02:30"), "auto_start": ""},
                           follow=True)  # fmt: skip
    assert response.status_code == 200
    assert "couldn’t be interpreted in time zone Europe/Prague" in response.content.decode()
    t.refresh_from_db()
    assert t.starts_at is None


def test_the_create_form_reads_the_start_in_the_organisers_zone_and_says_so(client):
    organiser = _person("America/New_York")
    client.force_login(organiser)
    form = client.get(reverse("tournament-create"), headers={"accept-language": "en"})
    assert "In your time zone, America/New_York (change it in Settings)." in form.content.decode()
    made = client.post(reverse("tournament-create"), {
        "name": "Winter cup", "game": "silkroad", "format": "swiss", "table_size": 2,
        "rounds": 3, "starts_at": f"{NEXT}-01-10T18:00",
    })  # fmt: skip
    assert made.status_code == 302, made.content.decode()[:2000]
    assert Tournament.objects.get().starts_at == datetime(NEXT, 1, 10, 23, 0, tzinfo=UTC)


def test_the_api_keeps_utc_iso_times_whatever_the_readers_zone(api_client):
    organiser = _person("America/New_York")
    t = _planned(organiser, datetime(NEXT, 1, 15, 17, 30, tzinfo=UTC))
    api_client.force_authenticate(organiser)
    api_client.cookies["tz"] = "Asia/Tokyo"
    body = api_client.get(f"/api/tournaments/{t.pk}/").json()
    assert body["starts_at"] == f"{NEXT}-01-15T17:30:00Z"
    # A time without an offset still means UTC there, as before the zones came.
    url = f"/api/tournaments/{t.pk}/planned-start/"
    moved = api_client.post(url, {"starts_at": f"{NEXT}-01-10T18:00", "auto_start": False},
                            format="json")  # fmt: skip
    assert moved.status_code == 200 and moved.json()["starts_at"] == f"{NEXT}-01-10T18:00:00Z"
    offset = api_client.post(url, {"starts_at": f"{NEXT}-07-10T18:00:00+02:00",
                                   "auto_start": False}, format="json")  # fmt: skip
    assert offset.json()["starts_at"] == f"{NEXT}-07-10T16:00:00Z"


def test_the_live_fragment_is_cached_per_zone(client):
    t = _planned(UserFactory(), None)
    url = reverse("tournament-live", args=[t.pk])
    prague = client.get(url)["ETag"]
    client.cookies["tz"] = "America/New_York"
    new_york = client.get(url)["ETag"]
    assert prague != new_york and "America/New_York" in new_york
    assert client.get(url, headers={"if-none-match": new_york}).status_code == 304
