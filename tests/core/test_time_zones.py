"""core.timezones: the zone a request is shown in, the settings page and API that set a
person's zone, and the zone's name beside the times pages show."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone, translation

from core import timezones
from games import services
from games.models import Player
from tests.games.factories import BotUserFactory, UserFactory
from tests.rates import set_rates

pytestmark = pytest.mark.django_db

SETTINGS_URL = "/settings/"
API_URL = "/api/me/settings/"


def _zone_seen(path: str = "/", *, user=None, cookie: str | None = None) -> str:
    """The zone the middleware makes active for a request, and that it is undone after."""
    request = RequestFactory().get(path)
    request.user = user or AnonymousUser()
    if cookie is not None:
        request.COOKIES[timezones.TZ_COOKIE] = cookie
    seen = {}

    def view(req):
        seen["zone"] = timezone.get_current_timezone_name()
        return HttpResponse()

    timezones.TimeZoneMiddleware(view)(request)
    assert timezone.get_current_timezone_name() == "Europe/Prague"  # back to the default
    return seen["zone"]


def test_a_visitor_sees_the_site_default_prague():
    assert _zone_seen() == "Europe/Prague"


def test_a_visitor_sees_the_browser_zone_from_the_cookie_and_a_bad_cookie_is_ignored():
    assert _zone_seen(cookie="America/New_York") == "America/New_York"
    for bad in ("Mars/Olympus", "", "localtime", "../../etc/passwd", "Europe/Prague" * 10):
        assert _zone_seen(cookie=bad) == "Europe/Prague", bad


def test_a_saved_zone_beats_the_browser_and_blank_means_automatic():
    user = UserFactory()
    assert _zone_seen(user=user, cookie="Asia/Tokyo") == "Asia/Tokyo"  # nothing saved yet
    services.set_time_zone(user=user, time_zone="America/New_York")
    assert _zone_seen(user=user, cookie="Asia/Tokyo") == "America/New_York"
    assert _zone_seen(user=user) == "America/New_York"
    services.set_time_zone(user=user, time_zone="")
    assert _zone_seen(user=user, cookie="Asia/Tokyo") == "Asia/Tokyo"
    assert _zone_seen(user=user) == "Europe/Prague"


def test_the_api_speaks_utc_whoever_asks():
    user = UserFactory()
    services.set_time_zone(user=user, time_zone="America/New_York")
    assert _zone_seen("/api/tournaments/", user=user, cookie="Asia/Tokyo") == "UTC"


def test_the_saved_zone_is_read_once_then_from_the_cache(django_assert_num_queries):
    user = UserFactory()
    services.set_time_zone(user=user, time_zone="Asia/Tokyo")
    with django_assert_num_queries(1):
        assert timezones.saved_zone(user) == "Asia/Tokyo"
    with django_assert_num_queries(0):
        assert timezones.saved_zone(user) == "Asia/Tokyo"
    # A change (on another device, say) is seen at once: the service drops the entry.
    services.set_time_zone(user=user, time_zone="Europe/Prague")
    assert timezones.saved_zone(user) == "Europe/Prague"


def test_the_service_refuses_unknown_zones_and_saves_nothing():
    user = UserFactory()
    for bad in ("Mars/Olympus", "localtime", "Factory", "europe/prague", 42, None):
        with pytest.raises(ValidationError) as caught:
            services.set_time_zone(user=user, time_zone=bad)
        assert "time_zone" in caught.value.message_dict, bad
    assert Player.objects.get(user=user).time_zone == ""
    with pytest.raises(ValidationError):  # an external bot's account has no person's player
        services.set_time_zone(user=BotUserFactory(), time_zone="Europe/Prague")


def test_zone_choices_group_every_known_zone_once():
    groups = timezones.zone_choices()
    names = [name for _region, options in groups for name, _label in options]
    assert sorted(names) == sorted(timezones.zone_names()) and len(names) == len(set(names))
    europe = dict(dict(groups)["Europe"])
    assert europe["Europe/Prague"] == "Prague"
    assert dict(dict(groups)["America"])["America/New_York"] == "New York"
    assert "localtime" not in names and "UTC" in names


def test_when_names_the_zone_with_summer_and_winter_time():
    winter = datetime(2027, 1, 15, 17, 0, tzinfo=ZoneInfo("UTC"))
    summer = datetime(2027, 7, 15, 16, 0, tzinfo=ZoneInfo("UTC"))
    with translation.override("en"):
        assert timezones.when(winter) == "Jan. 15, 2027, 6 p.m. (CET)"
        assert timezones.when(summer) == "July 15, 2027, 6 p.m. (CEST)"
        with timezone.override(ZoneInfo("America/New_York")):
            assert timezones.when(winter) == "Jan. 15, 2027, noon (EST)"
        with timezone.override(ZoneInfo("Asia/Kathmandu")):  # a zone without letters
            assert timezones.when(winter).endswith("(UTC+0545)")


# ---- the settings page ---------------------------------------------------------------------
def test_the_settings_page_needs_a_login(client):
    response = client.get(SETTINGS_URL)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_settings_page_offers_the_zones_and_saves_one(client):
    user = UserFactory()
    client.force_login(user)
    page = client.get(SETTINGS_URL, headers={"accept-language": "en"}).content.decode()
    assert 'name="time_zone"' in page and "data-time-zone-select" in page
    assert (
        '<option value="" selected>Automatic: this browser&#x27;s zone, else Europe/Prague' in page
    )
    assert '<optgroup label="America">' in page
    assert '<option value="America/New_York">New York</option>' in page
    assert "Pages show times in Europe/Prague now" in page
    assert 'href="/settings/"' in page  # the header links to it
    assert "js/timezone.js" in page  # the browser-zone module, a static file (CSP)

    saved = client.post(SETTINGS_URL, {"time_zone": "America/New_York"}, follow=True)
    assert "Time zone saved." in saved.content.decode()
    assert Player.objects.get(user=user).time_zone == "America/New_York"
    page = saved.content.decode()
    assert '<option value="America/New_York" selected>New York</option>' in page
    assert "Pages show times in America/New_York now" in page


def test_an_unknown_zone_is_a_form_error_not_a_500(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post(SETTINGS_URL, {"time_zone": "Mars/Olympus"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "&quot;Mars/Olympus&quot; is not a time zone. Choose one from the list." in page
    assert Player.objects.get(user=user).time_zone == ""


def test_saving_the_settings_is_rate_limited(client, settings):
    set_rates(settings, account_settings="2/hour")
    client.force_login(UserFactory())
    for _ in range(2):
        assert client.post(SETTINGS_URL, {"time_zone": "Asia/Tokyo"}).status_code == 302
    limited = client.post(SETTINGS_URL, {"time_zone": "Europe/Prague"})
    assert limited.status_code == 200 and "Too many attempts" in limited.content.decode()


# ---- the API -------------------------------------------------------------------------------
def test_api_reads_and_sets_the_zone_and_refuses_an_unknown_one(api_client):
    user = UserFactory()
    assert api_client.get(API_URL).status_code in (401, 403)
    api_client.force_authenticate(user)
    assert api_client.get(API_URL).json() == {"time_zone": "", "site_time_zone": "Europe/Prague"}
    ok = api_client.patch(API_URL, {"time_zone": "America/New_York"}, format="json")
    assert ok.status_code == 200 and ok.json()["time_zone"] == "America/New_York"
    bad = api_client.patch(API_URL, {"time_zone": "Mars/Olympus"}, format="json")
    assert bad.status_code == 400
    assert "is not a time zone" in bad.json()["fields"]["time_zone"][0]
    assert api_client.patch(API_URL, {"time_zone": 7}, format="json").status_code == 400
    assert api_client.patch(API_URL, {"time_zone": "x" * 65}, format="json").status_code == 400
    assert Player.objects.get(user=user).time_zone == "America/New_York"
    cleared = api_client.patch(API_URL, {"time_zone": ""}, format="json")
    assert cleared.status_code == 200 and cleared.json()["time_zone"] == ""


def test_settings_url_names():
    assert reverse("account-settings") == SETTINGS_URL
    assert reverse("api-my-settings") == API_URL


def test_the_admin_refuses_an_unknown_zone_and_a_change_shows_at_once(admin_client):
    user = UserFactory()
    player = Player.objects.get(user=user)
    url = reverse("admin:games_player_change", args=[player.pk])
    form = {"name": player.name, "display_name": "", "kind": "human", "user": user.pk,
            "owner": "", "bot_name": "", "bot_params": "{}", "game": "", "description": "",
            "is_active": "on"}  # fmt: skip
    assert timezones.saved_zone(user) == ""  # now cached
    refused = admin_client.post(url, {**form, "time_zone": "Mars/Olympus"})
    assert refused.status_code == 200 and "is not a time zone" in refused.content.decode()
    saved = admin_client.post(url, {**form, "time_zone": "Asia/Tokyo"})
    assert saved.status_code == 302, saved.content.decode()[:2000]
    assert timezones.saved_zone(user) == "Asia/Tokyo"
