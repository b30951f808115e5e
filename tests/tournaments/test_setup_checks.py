"""Every invalid configuration is refused by the form (an error on the page) and by the
API (a 400), with nothing stored; and no stored tournament's pages answer 5xx."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import TimeControl, Variant
from tests.games.factories import UserFactory
from tests.tournaments.factories import tournament_with_bots
from tournaments import services
from tournaments.models import Tournament
from tournaments.services import entrants

pytestmark = pytest.mark.django_db

API_BASE = {"name": "Cup", "game": "silkroad", "format": "swiss", "seed": 3}
FORM_BASE = {"name": "Cup", "game": "silkroad", "format": "swiss", "table_size": 2}

# (what the API sends, what the form sends, a word the answer names) for one bad setting.
INVALID = [
    (
        {"game": "yspahan", "config": {"table_size": 5}},
        {"game": "yspahan", "table_size": 5},
        "seat",
    ),
    (
        {"game": "greatwall", "config": {"table_size": 5}},
        {"game": "greatwall", "table_size": 5},
        "seat",
    ),
    ({"config": {"table_size": 1}}, {"table_size": 1}, "table"),
    ({"config": {"table_size": 2, "rounds": 0}}, {"rounds": 0}, "rounds"),
    ({"config": {"table_size": 2, "rounds": 10**12}}, {"rounds": 10**12}, "rounds"),
    (
        {"round_days": 100_000_000, "format": "league"},
        {"round_days": 100_000_000, "format": "league"},
        "round_days",
    ),
    ({"config": {"table_size": 2, "points": {"2": [0, 1]}}}, {"points": "0, 1"}, "increase"),
    ({"config": {"table_size": 2, "points": {"2": [1, 0, 0]}}}, {"points": "1, 0, 0"}, "2 values"),
    ({"config": {"table_size": 2, "points": {"2": [1e300, 0]}}}, {"points": "1e300, 0"}, "points"),
    ({"config": {"table_size": 2, "bye_points": -1}}, {"bye_points": -1}, "bye"),
    ({"config": {"table_size": 2, "bye_points": 10**9}}, {"bye_points": 10**9}, "bye"),
    (
        {"config": {"table_size": 2, "tiebreaks": ["coin_toss"]}},
        {"tiebreaks": "coin toss"},
        "coin_toss",
    ),
    (
        {"config": {"table_size": 2, "tiebreaks": ["buchholz", "buchholz"]}},
        {"tiebreaks": "buchholz, buchholz"},
        "twice",
    ),
    ({"config": {"table_size": 2, "double": True}}, {"double": "on"}, "double"),
    (
        {"config": {"table_size": 2, "third_place": True}},
        {"third_place": "on"},
        "Third-place match is a setting of Single elimination, not of Swiss.",
    ),
    (
        {"format": "round_robin", "config": {"table_size": 2, "rounds": 3}},
        {"format": "round_robin", "rounds": 3},
        "rounds",
    ),
    (
        {"format": "single_elimination", "config": {"table_size": 3, "third_place": True}},
        {"format": "single_elimination", "table_size": 3, "third_place": "on"},
        "third",
    ),
    (
        {"format": "double_elimination", "config": {"table_size": 3}},
        {"format": "double_elimination", "table_size": 3},
        "two-player",
    ),
    ({"time_control": {"per_move_s": 2**31}}, {"per_move_s": 2**31}, "less than or equal"),
    ({"time_control": {"per_move_s": 0}}, {"per_move_s": 0}, "per_move_s"),
    ({"entry_limit": 1}, {"entry_limit": 1}, "entry_limit"),
    ({"entry_limit": 10**9}, {"entry_limit": 10**9}, "entry_limit"),
    ({"venue": "v" * 500}, {"venue": "v" * 500}, "venue"),
    ({"description": "d" * 5000}, {"description": "d" * 5000}, "description"),
    ({"starts_at": "tomorrow"}, {"starts_at": "tomorrow"}, "starts_at"),
    # autostart: a planned start lies in the future; auto-start needs one.
    ({"starts_at": "2020-05-01T18:00:00Z"}, {"starts_at": "2020-05-01T18:00"}, "future"),
    ({"auto_start": True}, {"auto_start": "on"}, "planned start"),
    (
        {"auto_start": True, "starts_at": "2020-05-01T18:00:00Z"},
        {"auto_start": "on", "starts_at": "2020-05-01T18:00"},
        "future",
    ),
    ({"auto_start": "maybe"}, {"starts_at": "now-ish"}, "auto_start"),
]


def _ids():
    return [f"{i}-{word}" for i, (_a, _f, word) in enumerate(INVALID)]


@pytest.mark.parametrize("api,form,word", INVALID, ids=_ids())
def test_each_invalid_setting_is_a_400_and_a_form_error(api_client, client, api, form, word):
    user = UserFactory()
    api_client.force_authenticate(user)
    body = {**API_BASE, **api}
    response = api_client.post("/api/tournaments/", body, format="json")
    assert response.status_code == 400, response.content
    assert word.lower() in str(response.json()).lower(), response.json()
    client.force_login(user)
    page = client.post(reverse("tournament-create"), {**FORM_BASE, **form})
    assert page.status_code == 200
    html = page.content.decode()
    assert 'class="error"' in html or 'class="errorlist' in html, html[:2000]
    assert Tournament.objects.count() == 0


def test_variant_and_preset_must_fit(api_client, client):
    other = Variant.objects.create(game="yspahan", name="Random tiles", options={})
    preset = TimeControl.objects.create(name="Club", per_move_s=60)
    user = UserFactory()
    api_client.force_authenticate(user)
    wrong = api_client.post("/api/tournaments/", {**API_BASE, "variant": other.pk}, format="json")
    assert wrong.status_code == 400 and "variant" in wrong.json()["fields"]
    both = api_client.post("/api/tournaments/", {**API_BASE, "time_control_preset": preset.pk,
                                                 "time_control": {"per_move_s": 5}}, format="json")  # fmt: skip
    assert both.status_code == 400 and "time_control" in both.json()["fields"]
    client.force_login(user)
    page = client.post(reverse("tournament-create"), {**FORM_BASE, "variant": other.pk})
    assert "That variant is for another game" in page.content.decode()
    assert Tournament.objects.count() == 0
    made = api_client.post("/api/tournaments/", {**API_BASE, "time_control_preset": preset.pk},
                           format="json")  # fmt: skip
    assert made.status_code == 201 and made.json()["time_control"] == {"per_move_s": 60}


def test_the_full_form_makes_the_tournament_it_shows(client):
    user = UserFactory()
    variant = Variant.objects.create(game="yspahan", name="Standard+", options={})
    preset = TimeControl.objects.create(name="Rapid", per_move_s=30)
    client.force_login(user)
    planned = timezone.localtime(timezone.now() + timedelta(days=40))  # typed as a wall time
    starts = planned.strftime("%Y-%m-%dT%H:%M")
    response = client.post(reverse("tournament-create"), {
        "name": "Podzimní liga", "game": "yspahan", "format": "league", "table_size": 3,
        "variant": variant.pk, "time_control_preset": preset.pk, "double": "on",
        "points": "3, 1, 0", "bye_points": "1.5", "tiebreaks": "buchholz, Average place",
        "round_days": 7, "starts_at": starts, "venue": "Klub U Karavany",
        "description": "Každý čtvrtek.", "entry_limit": 12, "check_in": "on",
    })  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:3000]
    t = Tournament.objects.get()
    assert t.config == {"table_size": 3, "double": True, "points": {"3": [3, 1, 0]},
                        "bye_points": 1.5, "tiebreaks": ["buchholz", "average_place"]}  # fmt: skip
    assert (t.variant, t.per_move_s, t.round_days, t.entry_limit, t.check_in) == (
        variant,
        30,
        7,
        12,
        True,
    )
    assert t.venue == "Klub U Karavany" and timezone.localtime(t.starts_at).date() == planned.date()
    assert t.auto_start is False  # off unless asked for
    page = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    assert "Klub U Karavany" in page and "Každý čtvrtek." in page


def test_the_form_marks_options_by_format_for_the_script(client):
    client.force_login(UserFactory())
    html = client.get(reverse("tournament-create")).content.decode()
    assert 'data-formats="swiss"' in html and 'data-formats="double_elimination"' in html
    assert "js/format-options.js" in html and "<script>" not in html


# ---- stored rows never break a page --------------------------------------------------
STORED = [
    {"table_size": 2, "rounds": 10**12},
    {"table_size": 5},
    {"table_size": "x"},
    {"points": {"2": "ab"}},
    {"tiebreaks": ["nope"]},
    "not a dict",
    {"double": True, "third_place": True},
]


@pytest.mark.parametrize("config", STORED)
def test_no_stored_tournament_page_answers_5xx(client, api_client, config):
    organiser = UserFactory()
    t = tournament_with_bots(n=4, game="yspahan", config={"table_size": 2, "rounds": 2},
                             organiser=organiser, over_the_board=True)  # fmt: skip
    entrants.add_guest(tournament=t, name="Jana", by=organiser)
    services.start_tournament(tournament=t)
    Tournament.objects.filter(pk=t.pk).update(config=config, round_days=100_000_000, entry_limit=0,
                                              paused=True)  # fmt: skip
    for who in (None, organiser, UserFactory()):
        if who:
            client.force_login(who)
            api_client.force_authenticate(who)
        urls = [reverse("tournament-detail", args=[t.pk]), reverse("tournament-live", args=[t.pk]),
                reverse("tournament-list"), f"/api/tournaments/{t.pk}/",
                f"/api/tournaments/{t.pk}/standings/", f"/api/tournaments/{t.pk}/rounds/"]  # fmt: skip
        if who:
            urls.append(reverse("my-tournaments"))
        for url in urls:
            response = client.get(url) if not url.startswith("/api/") else api_client.get(url)
            assert response.status_code < 500, (url, response.status_code)
    client.force_login(organiser)
    for name in ("tournament-resume", "tournament-pair", "tournament-cancel"):
        assert client.post(reverse(name, args=[t.pk])).status_code < 500


def test_the_form_names_tie_breaks_as_the_standings_do(client):
    """The help lists the standings' names (not the API's keys), and those names are taken."""
    client.force_login(UserFactory())
    html = client.get(reverse("tournament-create")).content.decode()
    assert "Median Buchholz" in html and "median_buchholz" not in html
    assert "Standard rules" in html and "No preset" in html  # the empty choices say what they mean
    response = client.post(reverse("tournament-create"), {
        **FORM_BASE, "tiebreaks": "Sonneborn–Berger, median buchholz, Head to head",
    })  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Tournament.objects.get().config["tiebreaks"] == [
        "sonneborn_berger", "median_buchholz", "head_to_head",
    ]  # fmt: skip


def test_the_form_says_who_may_rate_over_the_board_events(client):
    from django.contrib.auth.models import Permission

    user = UserFactory()
    client.force_login(user)
    hint = "only organisers the staff trust with rated events"
    assert hint in client.get(reverse("tournament-create")).content.decode()
    user.user_permissions.add(Permission.objects.get(codename="run_rated_events"))
    client.force_login(type(user).objects.get(pk=user.pk))  # a fresh permission cache
    assert hint not in client.get(reverse("tournament-create")).content.decode()
