"""A tournament's times in the tournament's own zone (tournaments.zones): typed in it, shown
in it with the zone named, whoever reads the page; storage and the API stay UTC. Pages of
no tournament (settings, matches) keep the reader's zone (core.timezones)."""

import re
from datetime import datetime
from html import unescape
from html.parser import HTMLParser
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from tests.games.factories import UserFactory
from tests.tournaments.factories import tournament_with_bots
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

UTC = ZoneInfo("UTC")
NEXT = timezone.now().year + 1  # a planned start must be in the future


def _person(zone: str | None):
    user = UserFactory()
    if zone is not None:
        game_services.set_time_zone(user=user, time_zone=zone)
    return user


def _planned(organiser, starts_at, **kwargs) -> Tournament:
    return tournament_with_bots(n=2, config={"table_size": 2, "rounds": 2}, organiser=organiser,
                                over_the_board=True, starts_at=starts_at, **kwargs)  # fmt: skip


def _page(client, t: Tournament, lang: str = "en", name: str = "tournament-detail") -> str:
    url = reverse(name, args=[t.pk])
    return client.get(url, headers={"accept-language": lang}).content.decode()


def _short_now(zone: str) -> str:
    return datetime.now(ZoneInfo(zone)).tzname()


# ---- the tournament's zone on its pages ------------------------------------------------
def test_new_york_reads_the_prague_tournament_at_prague_times_and_sees_the_zone(client):
    t = _planned(_person("Europe/Prague"), datetime(NEXT, 1, 15, 17, 30, tzinfo=UTC))
    assert t.time_zone == "Europe/Prague"  # the organiser's saved zone
    client.force_login(_person("America/New_York"))
    page = _page(client, t)
    assert f"Planned start: Jan. 15, {NEXT}, 6:30 p.m. (CET)" in page
    assert "12:30 p.m." not in page and "(EST)" not in page
    header = page.split('id="header-facts">')[1].split("</p>")[0]
    assert f"times in Europe/Prague ({_short_now('Europe/Prague')})" in header
    # Summer: the Prague clock moved, the New York reader's did not matter.
    Tournament.objects.filter(pk=t.pk).update(starts_at=datetime(NEXT, 7, 15, 16, 30, tzinfo=UTC))
    assert f"Planned start: July 15, {NEXT}, 6:30 p.m. (CEST)" in _page(client, t)
    assert f"Plánovaný začátek: 15. července {NEXT} 18:30 (CEST)" in _page(client, t, "cs")


def test_a_visitor_with_a_tokyo_browser_sees_the_tournaments_zone(client):
    t = _planned(UserFactory(), datetime(NEXT, 1, 15, 17, 30, tzinfo=UTC))
    client.cookies["tz"] = "Asia/Tokyo"
    page = _page(client, t)
    assert f"Jan. 15, {NEXT}, 6:30 p.m. (CET)" in page and "(JST)" not in page


def test_a_tokyo_tournament_read_from_prague(client):
    t = _planned(_person("Asia/Tokyo"), datetime(NEXT, 12, 10, 10, 0, tzinfo=UTC))
    client.force_login(_person("Europe/Prague"))
    page = _page(client, t)
    assert f"Planned start: Dec. 10, {NEXT}, 7 p.m. (JST)" in page
    assert "times in Asia/Tokyo (JST)" in page


def test_the_page_leaves_the_readers_zone_alone_elsewhere(client):
    """After a tournament page, the next page (the settings) is in the reader's zone again."""
    t = _planned(_person("Asia/Tokyo"), datetime(NEXT, 12, 10, 10, 0, tzinfo=UTC))
    client.force_login(_person("America/New_York"))
    assert "(JST)" in _page(client, t)
    settings_page = client.get("/settings/", headers={"accept-language": "en"}).content.decode()
    assert "Pages show times in America/New_York now" in settings_page


def test_the_table_page_gives_the_change_log_in_the_tournaments_zone(client):
    organiser = _person("Asia/Tokyo")
    t = _planned(organiser, None)
    services.start_tournament(tournament=t)
    table = t.rounds.get(number=1).tables.get()
    client.force_login(organiser)  # typed in on the page: the change is logged
    typed = {"score_0": "40", "score_1": "30", "tiebreak_0": "1", "tiebreak_1": "2"}
    assert client.post(reverse("table-result", args=[t.pk, table.pk]), typed).status_code == 302
    client.force_login(_person("America/New_York"))
    url = reverse("table-detail", args=[t.pk, table.pk])
    page = client.get(url, headers={"accept-language": "en"}).content.decode()
    log = page.split('id="result-log"')[1]
    assert "Times in Asia/Tokyo (JST), the tournament's time zone." in log
    assert "(JST)" in log and "(EST)" not in log


def test_print_and_projector_views_are_in_the_tournaments_zone(client):
    t = _planned(_person("Asia/Tokyo"), datetime(NEXT, 12, 10, 10, 0, tzinfo=UTC))
    client.cookies["tz"] = "America/New_York"
    standings = _page(client, t, name="tournament-print-standings")
    assert "(JST)" in standings and "(EST)" not in standings
    screen = _page(client, t, name="tournament-screen")
    assert "Starts 7 p.m." in screen


def test_the_live_fragment_is_the_same_for_every_readers_zone(client):
    t = _planned(UserFactory(), None)
    url = reverse("tournament-live", args=[t.pk])
    prague = client.get(url)["ETag"]
    new_york_reader = Client()
    new_york_reader.cookies["tz"] = "America/New_York"
    new_york = new_york_reader.get(url)["ETag"]
    assert prague == new_york and "Europe" not in new_york and "America" not in new_york
    assert new_york_reader.get(url, headers={"if-none-match": prague}).status_code == 304


# ---- typed in the tournament's zone --------------------------------------------------
@pytest.mark.parametrize(
    ("month", "stored_hour"),
    [(1, 17), (7, 16)],  # winter: CET = UTC+1; summer: CEST = UTC+2
)
def test_18_00_typed_for_a_prague_tournament_is_prague_time_whoever_types(
    client, month, stored_hour
):
    organiser = _person("America/New_York")  # her own zone is not the event's
    t = _planned(organiser, None, time_zone="Europe/Prague")
    client.force_login(organiser)
    url = reverse("tournament-planned-start", args=[t.pk])
    done = client.post(url, {"starts_at": f"{NEXT}-{month:02}-10T18:00", "auto_start": "on"},
                       headers={"accept-language": "en"}, follow=True)  # fmt: skip
    assert "Planned start saved." in done.content.decode()
    t.refresh_from_db()
    assert t.starts_at == datetime(NEXT, month, 10, stored_hour, 0, tzinfo=UTC)
    # Shown back as typed, and beside it the zone it was read in.
    page = done.content.decode()
    assert f'value="{NEXT}-{month:02}-10T18:00"' in page
    assert '<span class="zone-name"' in page and ">(Europe/Prague)</span>" in page


def test_a_time_the_clock_skips_is_refused_with_a_message(client):
    """02:30 on the last Sunday of March does not exist in Prague (02:00 -> 03:00)."""
    organiser = _person("Asia/Tokyo")
    t = _planned(organiser, None, time_zone="Europe/Prague")
    client.force_login(organiser)
    march = datetime(NEXT, 3, 31)
    skipped = march.replace(day=31 - (march.weekday() + 1) % 7)  # the last Sunday
    url = reverse("tournament-planned-start", args=[t.pk])
    response = client.post(url, {"starts_at": skipped.strftime("%Y-%m-%dT02:30"), "auto_start": ""},
                           headers={"accept-language": "en"}, follow=True)  # fmt: skip
    assert response.status_code == 200
    assert "couldn’t be interpreted in time zone Europe/Prague" in response.content.decode()
    t.refresh_from_db()
    assert t.starts_at is None


CREATE = {"name": "Winter cup", "game": "silkroad", "format": "swiss", "table_size": 2,
          "rounds": 3}  # fmt: skip


def test_the_create_form_offers_the_organisers_zone_and_reads_the_start_in_the_chosen_one(client):
    organiser = _person("America/New_York")
    client.force_login(organiser)
    form = client.get(reverse("tournament-create"), headers={"accept-language": "en"})
    html = unescape(form.content.decode())
    assert '<option value="America/New_York" selected>' in html
    assert "In the tournament's time zone: " in html
    assert '<span class="zone-name" data-zone-name>America/New_York</span>' in html
    made = client.post(reverse("tournament-create"), {
        **CREATE, "time_zone": "Asia/Tokyo", "starts_at": f"{NEXT}-12-10T19:00",
    })  # fmt: skip
    assert made.status_code == 302, made.content.decode()[:2000]
    t = Tournament.objects.get()
    assert t.time_zone == "Asia/Tokyo"
    assert t.starts_at == datetime(NEXT, 12, 10, 10, 0, tzinfo=UTC)


def test_the_create_form_without_a_zone_takes_the_organisers_else_the_sites(client):
    organiser = _person("America/New_York")
    client.force_login(organiser)
    made = client.post(reverse("tournament-create"), {**CREATE, "starts_at": f"{NEXT}-01-10T18:00"})
    assert made.status_code == 302
    assert Tournament.objects.get().starts_at == datetime(NEXT, 1, 10, 23, 0, tzinfo=UTC)
    # No saved zone: the site's, not the browser's.
    plain = UserFactory()
    other = Client()
    other.force_login(plain)
    other.cookies["tz"] = "Asia/Tokyo"
    other.post(reverse("tournament-create"), {**CREATE, "name": "Second"})
    assert Tournament.objects.get(name="Second").time_zone == settings.TIME_ZONE


def test_an_unknown_zone_on_the_create_form_is_a_field_error_and_makes_nothing(client):
    client.force_login(_person(None))
    response = client.post(reverse("tournament-create"), {**CREATE, "time_zone": "Mars/Olympus"},
                           headers={"accept-language": "en"})  # fmt: skip
    assert response.status_code == 200
    page = unescape(response.content.decode())
    assert '"Mars/Olympus" is not a time zone. Choose one from the list.' in page
    assert not Tournament.objects.exists()


def _edit_data(page: str) -> dict:
    """The edit form as the page shows it (what a browser sends back unchanged)."""
    data = {}
    for name, value in re.findall(r'<input type="(?:text|number|datetime-local)" name="(\w+)"'
                                  r'(?: value="([^"]*)")?', page):  # fmt: skip
        data[name] = value
    for name in re.findall(r'<input type="checkbox" name="(\w+)"[^>]* checked', page):
        data[name] = "on"
    for name, body in re.findall(r'<select name="(\w+)"[^>]*>(.*?)</select>', page, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected', body)
        data[name] = chosen.group(1) if chosen else ""
    return data


def test_the_edit_form_shows_and_reads_the_start_in_the_tournaments_zone(client):
    organiser = _person("Europe/Prague")
    t = _planned(organiser, datetime(NEXT, 12, 10, 10, 0, tzinfo=UTC), time_zone="Asia/Tokyo")
    client.force_login(organiser)
    url = reverse("tournament-edit", args=[t.pk])
    page = client.get(url, headers={"accept-language": "en"}).content.decode()
    assert f'value="{NEXT}-12-10T19:00"' in page  # Tokyo's wall time, not Prague's 11:00
    assert '<span class="zone-name" data-zone-name>Asia/Tokyo</span>' in page
    data = _edit_data(page)
    assert data["time_zone"] == "Asia/Tokyo" and data["starts_at"] == f"{NEXT}-12-10T19:00"
    # Sent back unchanged: no change (compared in the tournament's zone).
    assert client.post(url, data).status_code == 302
    t.refresh_from_db()
    assert t.starts_at == datetime(NEXT, 12, 10, 10, 0, tzinfo=UTC)
    # A new zone and a start typed in it, at once: read in the new zone.
    client.post(url, {**data, "time_zone": "America/New_York", "starts_at": f"{NEXT}-12-10T19:00"})
    t.refresh_from_db()
    assert t.time_zone == "America/New_York"
    assert t.starts_at == datetime(NEXT, 12, 11, 0, 0, tzinfo=UTC)


def test_an_unknown_zone_on_the_edit_form_changes_nothing(client):
    organiser = _person("Europe/Prague")
    t = _planned(organiser, None)
    client.force_login(organiser)
    url = reverse("tournament-edit", args=[t.pk])
    data = _edit_data(client.get(url).content.decode())
    response = client.post(url, {**data, "time_zone": "Europe/Atlantis", "name": "Renamed"},
                           headers={"accept-language": "en"})  # fmt: skip
    assert response.status_code == 200
    assert "is not a time zone" in response.content.decode()
    t.refresh_from_db()
    assert t.time_zone == "Europe/Prague" and t.name != "Renamed"


def test_the_zone_can_change_while_running_but_not_once_over(client):
    organiser = _person("Europe/Prague")
    t = _planned(organiser, None)
    services.start_tournament(tournament=t)
    from tournaments.services import editing, lifecycle

    editing.update_tournament(tournament=t, by=organiser, time_zone="Asia/Tokyo")
    t.refresh_from_db()
    assert t.time_zone == "Asia/Tokyo"
    lifecycle.cancel(tournament=t, by=organiser)
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as refused:
        editing.update_tournament(tournament=t, by=organiser, time_zone="Europe/Prague")
    assert "time_zone" in refused.value.error_dict
    t.refresh_from_db()
    assert t.time_zone == "Asia/Tokyo"


# ---- the API: UTC with offsets, and the zone ---------------------------------------------
def test_the_api_keeps_utc_iso_times_and_names_the_zone(api_client):
    organiser = _person("America/New_York")
    t = _planned(organiser, datetime(NEXT, 1, 15, 17, 30, tzinfo=UTC))
    api_client.force_authenticate(organiser)
    api_client.cookies["tz"] = "Asia/Tokyo"
    body = api_client.get(f"/api/tournaments/{t.pk}/").json()
    assert body["starts_at"] == f"{NEXT}-01-15T17:30:00Z"
    assert body["time_zone"] == "America/New_York"
    # A time without an offset still means UTC there, as before the zones came.
    url = f"/api/tournaments/{t.pk}/planned-start/"
    moved = api_client.post(url, {"starts_at": f"{NEXT}-01-10T18:00", "auto_start": False},
                            format="json")  # fmt: skip
    assert moved.status_code == 200 and moved.json()["starts_at"] == f"{NEXT}-01-10T18:00:00Z"
    offset = api_client.post(url, {"starts_at": f"{NEXT}-07-10T18:00:00+02:00",
                                   "auto_start": False}, format="json")  # fmt: skip
    assert offset.json()["starts_at"] == f"{NEXT}-07-10T16:00:00Z"


def test_the_api_takes_a_zone_and_refuses_an_unknown_one(api_client):
    organiser = _person(None)
    api_client.force_authenticate(organiser)
    payload = {"name": "Cup", "game": "silkroad", "format": "swiss", "config": {"table_size": 2}}
    made = api_client.post("/api/tournaments/", {**payload, "time_zone": "Asia/Tokyo"},
                           format="json")  # fmt: skip
    assert made.status_code == 201 and made.json()["time_zone"] == "Asia/Tokyo"
    default = api_client.post("/api/tournaments/", payload, format="json")
    assert default.json()["time_zone"] == settings.TIME_ZONE
    bad = api_client.post("/api/tournaments/", {**payload, "time_zone": "Mars/Olympus"},
                          format="json")  # fmt: skip
    assert bad.status_code == 400 and "time_zone" in str(bad.json())
    assert Tournament.objects.count() == 2
    pk = made.json()["id"]
    moved = api_client.patch(f"/api/tournaments/{pk}/", {"time_zone": "Europe/Prague"},
                             format="json")  # fmt: skip
    assert moved.status_code == 200 and moved.json()["time_zone"] == "Europe/Prague"
    refused = api_client.patch(f"/api/tournaments/{pk}/", {"time_zone": "Nowhere"}, format="json")
    assert refused.status_code == 400
    assert Tournament.objects.get(pk=pk).time_zone == "Europe/Prague"


# ---- the admin ---------------------------------------------------------------------------
class _Inputs(HTMLParser):
    """The change form's fields as a browser would send them back."""

    def __init__(self):
        super().__init__()
        self.data, self._select, self._textarea = {}, None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in ("submit", "button", "file"):
            if a.get("type") == "checkbox":
                if "checked" in a:
                    self.data[name] = a.get("value") or "on"
            else:
                self.data[name] = a.get("value") or ""
        elif tag == "select" and name:
            self._select = name
            self.data.setdefault(name, "")
        elif tag == "option" and self._select and "selected" in a:
            self.data[self._select] = a.get("value") or ""
        elif tag == "textarea" and name:
            self._textarea = name
            self.data[name] = ""

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        if tag == "textarea":
            self._textarea = None

    def handle_data(self, data):
        if self._textarea:
            self.data[self._textarea] += data


def test_the_admin_shows_and_takes_a_tokyo_tournaments_times_in_tokyo(admin_client, admin_user):
    game_services.set_time_zone(user=admin_user, time_zone="America/New_York")
    t = _planned(UserFactory(), datetime(NEXT, 12, 10, 10, 0, tzinfo=UTC), time_zone="Asia/Tokyo")
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    page = admin_client.get(url, headers={"accept-language": "en"}).content.decode()
    assert f'name="starts_at_0" value="{NEXT}-12-10"' in page
    assert 'name="starts_at_1" value="19:00:00"' in page  # Tokyo's wall time
    assert "In the tournament's time zone: Asia/Tokyo." in unescape(page)
    parser = _Inputs()
    parser.feed(page)
    data = {k: v for k, v in parser.data.items() if k != "csrfmiddlewaretoken"}
    assert data["starts_at_1"] == "19:00:00"
    saved = admin_client.post(url, {**data, "starts_at_1": "20:30:00", "_save": "Save"})
    assert saved.status_code == 302, saved.content.decode()[:3000]
    t.refresh_from_db()
    assert t.starts_at == datetime(NEXT, 12, 10, 11, 30, tzinfo=UTC)
    # An unknown zone typed in the admin is the field's error; nothing is saved.
    refused = admin_client.post(url, {**data, "time_zone": "Mars/Olympus", "_save": "Save"})
    assert refused.status_code == 200 and "is not a time zone" in refused.content.decode()
    t.refresh_from_db()
    assert t.time_zone == "Asia/Tokyo"


def test_the_admin_gives_a_rounds_deadline_in_its_tournaments_zone(admin_client, admin_user):
    game_services.set_time_zone(user=admin_user, time_zone="America/New_York")
    t = tournament_with_bots(n=2, format="league", config={"table_size": 2}, round_days=3,
                             organiser=UserFactory(), time_zone="Asia/Tokyo")  # fmt: skip
    services.start_tournament(tournament=t)
    rnd = t.rounds.get(number=1)
    assert rnd.deadline is not None
    tokyo = timezone.localtime(rnd.deadline, ZoneInfo("Asia/Tokyo"))
    new_york = timezone.localtime(rnd.deadline, ZoneInfo("America/New_York"))
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    page = admin_client.get(url, headers={"accept-language": "en"}).content.decode()
    assert f'name="deadline_0" value="{tokyo:%Y-%m-%d}"' in page
    assert f'name="deadline_1" value="{tokyo:%H:%M:%S}"' in page
    assert f'name="deadline_1" value="{new_york:%H:%M:%S}"' not in page
    assert "In the tournament's time zone: Asia/Tokyo." in unescape(page)
