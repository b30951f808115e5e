"""Editing a tournament (tournaments.services.editing, the edit page, PATCH), the header's
facts and the auto-advance / rated boxes of the create form."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from tests.games.factories import UserFactory
from tests.tournaments.factories import tournament_with_bots
from tournaments import selectors, services
from tournaments.models import Tournament
from tournaments.services import editing

pytestmark = pytest.mark.django_db


def _swiss(organiser, n=4, **kwargs):
    kwargs.setdefault("config", {"table_size": 2, "rounds": 3})
    return tournament_with_bots(n=n, organiser=organiser, over_the_board=True,
                                auto_advance=False, **kwargs)  # fmt: skip


def _grant(user):
    user.user_permissions.add(Permission.objects.get(codename="run_rated_events"))


# ---- the service ---------------------------------------------------------------------
def test_before_the_start_the_settings_change_and_are_checked():
    organiser = UserFactory()
    t = _swiss(organiser)
    editing.update_tournament(
        tournament=t, by=organiser, name="  Spring  cup ", venue="Club room",
        config={"table_size": 3, "rounds": 4, "tiebreaks": ["buchholz"]}, auto_advance=True,
    )  # fmt: skip
    t.refresh_from_db()
    assert t.name == "Spring cup" and t.venue == "Club room" and t.auto_advance
    assert t.config == {"table_size": 3, "rounds": 4, "tiebreaks": ["buchholz"]}
    with pytest.raises(ValidationError) as exc:
        editing.update_tournament(tournament=t, by=organiser, config={"table_size": 9})
    assert "table_size" in exc.value.error_dict
    with pytest.raises(ValidationError) as exc:
        editing.update_tournament(tournament=t, by=organiser, config={"double": True})
    assert "double" in exc.value.error_dict  # a round robin's setting, not Swiss's
    t.refresh_from_db()
    assert t.config["table_size"] == 3


def test_after_the_start_the_past_is_not_rewritten_and_nothing_changes():
    organiser = UserFactory()
    t = _swiss(organiser)
    services.start_tournament(tournament=t)
    t.refresh_from_db()
    before = (t.name, dict(t.config), t.rated, t.format)
    for changes, key in (
        ({"config": {"table_size": 3}}, "table_size"),
        ({"config": {"points": {"2": [3, 0]}}}, "points"),
        ({"config": {"tiebreaks": ["buchholz"]}}, "tiebreaks"),
        ({"format": "round_robin"}, "format"),
        ({"rated": True}, "rated"),
        ({"game": "akrotiri"}, "game"),
    ):
        with pytest.raises(ValidationError) as exc:
            editing.update_tournament(tournament=t, by=organiser, name="Renamed", **changes)
        assert key in exc.value.error_dict, changes
        t.refresh_from_db()
        assert (t.name, t.config, t.rated, t.format) == before  # not even the name
    with pytest.raises(ValidationError, match="already paired"):
        editing.update_tournament(tournament=t, by=organiser, config={"rounds": None})
    # What stays editable: text, auto-advance, rounds not below those paired.
    editing.update_tournament(tournament=t, by=organiser, name="Renamed", description="x",
                              auto_advance=False, config={"rounds": 1})  # fmt: skip
    t.refresh_from_db()
    assert t.name == "Renamed" and t.config["rounds"] == 1 and t.current_round == 1


def test_rounds_not_below_those_paired():
    organiser = UserFactory()
    t = _swiss(organiser)
    services.start_tournament(tournament=t)
    for table in t.rounds.get().tables.all():
        services.record_result(table=table, ranks=[1, 2])
    services.pair_next_round(tournament=t)
    with pytest.raises(ValidationError, match="2 rounds are already paired"):
        editing.update_tournament(tournament=t, by=organiser, config={"rounds": 1})
    editing.update_tournament(tournament=t, by=organiser, config={"rounds": 5})
    t.refresh_from_db()
    assert t.config["rounds"] == 5


def test_only_the_organiser_edits_and_a_cancelled_one_keeps_its_settings():
    organiser = UserFactory()
    t = _swiss(organiser)
    with pytest.raises(PermissionDenied):
        editing.update_tournament(tournament=t, by=UserFactory(), name="Mine")
    from tournaments.services import lifecycle

    lifecycle.cancel(tournament=t, by=organiser)
    with pytest.raises(ValidationError, match="over"):
        editing.update_tournament(tournament=t, by=organiser, auto_advance=True)
    editing.update_tournament(tournament=t, by=organiser, venue="Elsewhere")
    t.refresh_from_db()
    assert t.venue == "Elsewhere"


def test_turning_auto_advance_on_moves_a_finished_round_on():
    organiser = UserFactory()
    t = _swiss(organiser)
    services.start_tournament(tournament=t)
    for table in t.rounds.get().tables.all():
        services.record_result(table=table, ranks=[1, 2])
    assert t.rounds.count() == 1
    editing.update_tournament(tournament=t, by=organiser, auto_advance=True)
    assert t.rounds.count() == 2


# ---- the API ---------------------------------------------------------------------------
def test_patch_edits_and_refuses_the_table_size_after_the_start(api_client):
    organiser = UserFactory()
    t = _swiss(organiser)
    url = f"/api/tournaments/{t.pk}/"
    api_client.force_authenticate(UserFactory())
    assert api_client.patch(url, {"name": "Mine"}, format="json").status_code == 403
    api_client.force_authenticate(organiser)
    answer = api_client.patch(url, {"name": "Cup", "config": {"rounds": 2}}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["name"] == "Cup" and answer.json()["config"]["rounds"] == 2
    services.start_tournament(tournament=t)
    answer = api_client.patch(url, {"name": "Other", "config": {"table_size": 3}}, format="json")
    assert answer.status_code == 400
    assert "started" in str(answer.json()) and "Table size" in str(answer.json())
    t.refresh_from_db()
    assert t.name == "Cup" and t.config["table_size"] == 2
    answer = api_client.patch(url, {"over_the_board": False}, format="json")
    assert answer.status_code == 400 and "fixed" in str(answer.json())


def test_api_auto_advance_follows_over_the_board(api_client):
    api_client.force_authenticate(UserFactory())
    body = {"name": "N", "game": "silkroad", "format": "swiss", "config": {"table_size": 2}}
    online = api_client.post("/api/tournaments/", body, format="json").json()
    board = api_client.post("/api/tournaments/", {**body, "over_the_board": True},
                            format="json").json()  # fmt: skip
    chosen = api_client.post("/api/tournaments/", {**body, "over_the_board": True,
                             "auto_advance": True}, format="json").json()  # fmt: skip
    assert (online["auto_advance"], board["auto_advance"], chosen["auto_advance"]) == (
        True, False, True,
    )  # fmt: skip


# ---- the page --------------------------------------------------------------------------
def test_edit_page_saves_and_shows_what_is_fixed_after_the_start(client):
    organiser = UserFactory()
    t = _swiss(organiser)
    url = reverse("tournament-edit", args=[t.pk])
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    page = client.get(url).content.decode()
    assert 'id="edit-tournament-form"' in page and 'name="table_size"' in page
    start = timezone.localtime(timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    posted = client.post(url, {"name": "Club cup", "format": "swiss", "table_size": 3,
                               "rounds": 2, "venue": "Hall", "starts_at": start})  # fmt: skip
    assert posted.status_code == 302
    t.refresh_from_db()
    assert (t.name, t.config["table_size"], t.venue) == ("Club cup", 3, "Hall")
    assert t.starts_at is not None and not t.auto_advance
    services.start_tournament(tournament=t)
    page = client.get(url).content.decode()
    assert "Fixed since the start" in page
    # A changed table size is not taken (the box is read-only); the rest is.
    posted = client.post(url, {"name": "Club cup II", "table_size": 2, "rounds": 3,
                               "auto_advance": "on"})  # fmt: skip
    assert posted.status_code == 302
    t.refresh_from_db()
    assert t.name == "Club cup II" and t.config["table_size"] == 3 and t.config["rounds"] == 3
    posted = client.post(url, {"name": "Club cup II", "rounds": 0})
    assert posted.status_code == 200 and "has-error" in posted.content.decode()


def test_header_states_the_tables_in_use():
    t = tournament_with_bots(n=7, config={"table_size": 4, "rounds": 1}, over_the_board=True,
                             auto_advance=False)  # fmt: skip
    facts = selectors.header_facts(t)
    assert facts["table_sizes"] == "4" and facts["rounds"] == 1 and facts["over_the_board"]
    services.start_tournament(tournament=t)
    facts = selectors.header_facts(t)
    assert facts["table_sizes"] == "3 and 4"  # 7 entrants: a table of 3 beside one of 4


def test_header_on_the_page(client):
    t = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 2})
    page = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    header = page.split('id="header-facts">')[1].split("</p>")[0]
    assert "tables of 2" in header and "2 rounds" in header
    assert "rated" in header and "online" in header and "unrated" not in header


# ---- the create form's boxes -----------------------------------------------------------
FORM = {"name": "Night", "game": "silkroad", "format": "swiss", "table_size": 2,
        "auto_advance_shown": "1", "rated_shown": "1"}  # fmt: skip


def _create(client, user, data) -> Tournament:
    client.force_login(user)
    response = client.post(reverse("tournament-create"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Tournament.objects.get(pk=response.url.rstrip("/").split("/")[-1])


def test_auto_advance_and_rated_follow_over_the_board_when_left_alone(client):
    user = UserFactory()
    _grant(user)
    online = _create(client, user, {**FORM, "auto_advance": "on", "rated": "on"})
    assert online.auto_advance and online.rated
    board = _create(client, user, {**FORM, "auto_advance": "on", "rated": "on",
                                   "over_the_board": "on"})  # fmt: skip
    assert not board.auto_advance and not board.rated  # left as shown: the board's default
    chosen = _create(client, user, {**FORM, "over_the_board": "on", "auto_advance": "on",
                                    "rated": "on", "auto_advance_shown": "0",
                                    "rated_shown": "0"})  # fmt: skip
    assert chosen.auto_advance and chosen.rated  # she ticked them herself
    off = _create(client, user, {**FORM})
    assert not off.auto_advance and not off.rated  # unticked online: her choice


def test_rated_over_the_board_without_the_permission_is_unrated_not_refused(client):
    user = UserFactory()
    client.force_login(user)
    page = client.get(reverse("tournament-create")).content.decode()
    assert "run rated events" in page and "data-needs-permission" in page
    t = _create(client, user, {**FORM, "over_the_board": "on", "rated": "on",
                               "rated_shown": "0", "auto_advance_shown": "0"})  # fmt: skip
    assert not t.rated
    granted = UserFactory()
    _grant(granted)
    client.force_login(granted)
    assert "data-needs-permission" not in client.get(reverse("tournament-create")).content.decode()
