"""core.permissions: who may change a tournament, a table's result, or abort a match.

Staff status opens the admin and nothing more: a view-only staff account is refused every
change (API, pages, admin actions); the organiser, a holder of the change permission and,
for a match, its seated players may."""

import pytest
from django.contrib.auth.models import AnonymousUser, Permission
from django.urls import reverse

from core import permissions
from games import services as game_services
from games.models import MatchStatus
from tests.games.factories import (
    EngineBotFactory,
    ExternalBotFactory,
    HumanPlayerFactory,
    UserFactory,
)
from tests.tournaments.result_fixtures import club_event, first_table
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db

VIEW_ONLY = ("view_tournament", "view_round", "view_table", "view_entry", "view_match")


def _user(*codenames: str, staff: bool = False):
    user = UserFactory(is_staff=staff)
    for codename in codenames:
        user.user_permissions.add(Permission.objects.get(codename=codename))
    return user


def view_only_staff():
    return _user(*VIEW_ONLY, staff=True)


def changer():
    """Not staff, not the organiser: only the permission."""
    return _user("change_tournament")


def co_organiser(t):
    """A member the organiser chose to run `t` with her."""
    from tournaments.services.organisers import set_co_organisers

    helper = HumanPlayerFactory().user
    set_co_organisers(tournament=t, by=t.organiser, names=[helper.username])
    return helper


def manager(t, who: str):
    return {"organiser": lambda: t.organiser, "changer": changer,
            "co_organiser": lambda: co_organiser(t)}[who]()  # fmt: skip


@pytest.fixture
def event():
    t, _players = club_event()
    table, _seated = first_table(t)
    return t, table, f"/api/tournaments/{t.pk}/tables/{table.pk}"


BODY = {"scores": [30, 10], "tiebreak": [1, 2]}


# ---- the rules themselves ----------------------------------------------------------------
def test_nobody_signed_out_and_bare_staff_manage_nothing(event):
    t, table, _ = event
    for who in (None, AnonymousUser(), UserFactory(is_staff=True), view_only_staff()):
        assert not permissions.may_manage_tournament(who, t)
        assert not permissions.may_manage_table(who, table)


def test_the_organiser_a_holder_of_change_tournament_and_a_superuser_manage(event):
    t, table, _ = event
    for who in (t.organiser, changer(), UserFactory(is_superuser=True), co_organiser(t)):
        assert permissions.may_manage_tournament(who, t)
        assert permissions.may_manage_table(who, table)


def test_an_inactive_holder_of_the_permission_manages_nothing(event):
    t, _table, _ = event
    gone = changer()
    gone.is_active = False
    assert not permissions.may_manage_tournament(gone, t)


# ---- the API -----------------------------------------------------------------------------
def test_view_only_staff_cannot_put_or_post_a_result(api_client, event):
    t, table, base = event
    api_client.force_authenticate(view_only_staff())
    assert api_client.put(f"{base}/result/", BODY, format="json").status_code == 403
    assert api_client.post(f"{base}/result/", BODY, format="json").status_code == 403
    table.refresh_from_db()
    assert table.result is None


def test_view_only_staff_cannot_replace_an_entered_result(api_client, event):
    t, table, base = event
    api_client.force_authenticate(t.organiser)
    assert api_client.post(f"{base}/result/", BODY, format="json").status_code == 201
    api_client.force_authenticate(view_only_staff())
    swapped = {"scores": [10, 30], "tiebreak": [1, 2]}
    assert api_client.put(f"{base}/result/", swapped, format="json").status_code == 403
    table.refresh_from_db()
    assert table.result["scores"] == [30, 10]


@pytest.mark.parametrize("who", ["organiser", "changer", "co_organiser"])
def test_the_organiser_and_a_holder_of_change_tournament_post_and_put_results(
    api_client, event, who
):
    t, table, base = event
    api_client.force_authenticate(manager(t, who))
    assert api_client.post(f"{base}/result/", BODY, format="json").status_code == 201
    swapped = {"scores": [10, 30], "tiebreak": [1, 2]}
    assert api_client.put(f"{base}/result/", swapped, format="json").status_code == 200
    table.refresh_from_db()
    assert table.result["scores"] == [10, 30]


def test_view_only_staff_cannot_add_a_guest_and_a_changer_can(api_client, event):
    t, _table, _ = event
    url = f"/api/tournaments/{t.pk}/entries/"
    before = Entry.objects.filter(tournament=t).count()
    api_client.force_authenticate(view_only_staff())
    assert api_client.post(url, {"guest": "Gustav"}, format="json").status_code == 403
    assert Entry.objects.filter(tournament=t).count() == before
    api_client.force_authenticate(changer())
    assert api_client.post(url, {"guest": "Gustav"}, format="json").status_code == 201
    assert Entry.objects.filter(tournament=t).count() == before + 1


def test_view_only_staff_cannot_pause_or_resume(api_client, event):
    t, _table, _ = event
    api_client.force_authenticate(view_only_staff())
    assert api_client.post(f"/api/tournaments/{t.pk}/pause/").status_code == 403
    t.refresh_from_db()
    assert not t.paused
    Tournament.objects.filter(pk=t.pk).update(paused=True)
    assert api_client.post(f"/api/tournaments/{t.pk}/resume/").status_code == 403
    t.refresh_from_db()
    assert t.paused


@pytest.mark.parametrize("who", ["organiser", "changer", "co_organiser"])
def test_the_organiser_and_a_changer_pause_and_resume(api_client, event, who):
    t, _table, _ = event
    api_client.force_authenticate(manager(t, who))
    assert api_client.post(f"/api/tournaments/{t.pk}/pause/").json()["paused"] is True
    assert api_client.post(f"/api/tournaments/{t.pk}/resume/").json()["paused"] is False


# ---- the pages ---------------------------------------------------------------------------
def test_view_only_staff_see_no_controls_and_a_page_action_is_refused(client, event):
    t, table, _ = event
    client.force_login(view_only_staff())
    page = client.get(reverse("tournament-detail", args=[t.pk]))
    assert page.status_code == 200 and page.context["manage"] is False
    assert client.post(reverse("tournament-pause", args=[t.pk])).status_code == 403
    result_page = reverse("table-result", args=[t.pk, table.pk])
    assert client.get(result_page).status_code == 403
    t.refresh_from_db()
    assert not t.paused


@pytest.mark.parametrize("who", ["organiser", "changer", "co_organiser"])
def test_the_organiser_and_a_changer_see_controls_and_pause_from_the_page(client, event, who):
    t, table, _ = event
    client.force_login(manager(t, who))
    assert client.get(reverse("tournament-detail", args=[t.pk])).context["manage"] is True
    assert client.get(reverse("table-result", args=[t.pk, table.pk])).status_code == 200
    done = client.post(reverse("tournament-pause", args=[t.pk]))
    assert done.status_code == 302
    t.refresh_from_db()
    assert t.paused


def test_the_live_fragment_carries_controls_only_for_those_who_manage(client, event):
    t, _table, _ = event
    url = reverse("tournament-live", args=[t.pk])
    client.force_login(view_only_staff())
    assert not client.get(url)["ETag"].strip('"').endswith(".m")
    client.force_login(changer())
    assert client.get(url)["ETag"].strip('"').endswith(".m")


# ---- aborting a match --------------------------------------------------------------------
def _match():
    creator, seated = HumanPlayerFactory(), HumanPlayerFactory()
    match = game_services.create_match(
        game="silkroad", players=[creator, seated, EngineBotFactory()],
        created_by=creator.user, consented=True,
    )  # fmt: skip
    return match, creator.user, seated.user


def _abort(api_client, user, match):
    api_client.force_authenticate(user)
    return api_client.post(f"/api/matches/{match.pk}/abort/")


def test_view_only_staff_cannot_abort_another_users_match(api_client):
    match, _creator, _seated = _match()
    refused = _abort(api_client, view_only_staff(), match)
    assert refused.status_code == 403 and refused.json()["code"] == "not_your_seat"
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING


@pytest.mark.parametrize("who", ["creator", "seated", "change_match"])
def test_the_creator_a_seated_human_and_a_holder_of_change_match_abort(api_client, who):
    match, creator, seated = _match()
    user = {"creator": creator, "seated": seated}.get(who) or _user("change_match")
    done = _abort(api_client, user, match)
    assert done.status_code == 200 and done.json()["status"] == "aborted"


def test_a_player_who_resigned_no_longer_aborts(api_client):
    match, _creator, seated = _match()
    game_services.resign(match_id=match.pk, user=seated)
    assert _abort(api_client, seated, match).status_code == 403
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING


def test_a_seated_bot_program_does_not_abort(api_client):
    creator, program = HumanPlayerFactory(), ExternalBotFactory()
    match = game_services.create_match(
        game="silkroad", players=[creator, program], created_by=creator.user, consented=True
    )
    assert _abort(api_client, program.user, match).status_code == 403
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING


# ---- the admin ---------------------------------------------------------------------------
def _offered(client, url: str) -> set[str]:
    form = client.get(url).context["action_form"]  # None when no action is offered
    return {name for name, _ in form.fields["action"].choices if name} if form else set()


@pytest.mark.parametrize(
    "changelist", ["tournaments_tournament", "tournaments_round", "games_match"]
)
def test_view_only_staff_are_offered_no_admin_action(client, event, changelist):
    client.force_login(view_only_staff())
    assert _offered(client, reverse(f"admin:{changelist}_changelist")) == set()


def test_staff_with_change_tournament_are_offered_the_tournament_actions(client, event):
    client.force_login(_user("view_tournament", "change_tournament", staff=True))
    offered = _offered(client, reverse("admin:tournaments_tournament_changelist"))
    assert {"start", "pair_next_round"} <= offered


# ---- co-organisers -------------------------------------------------------------------------
def test_only_the_organiser_chooses_co_organisers(api_client, event):
    t, _table, _ = event
    helper = co_organiser(t)
    url = f"/api/tournaments/{t.pk}/"
    other = HumanPlayerFactory().user
    for who in (helper, view_only_staff()):  # a co-organiser runs it, but doesn't choose
        api_client.force_authenticate(who)
        answer = api_client.patch(url, {"co_organisers": [other.username]}, format="json")
        assert answer.status_code == 403, answer.content
    api_client.force_authenticate(t.organiser)
    answer = api_client.patch(url, {"co_organisers": [other.username.upper()]}, format="json")
    assert answer.status_code == 200 and answer.json()["co_organisers"] == [other.username]
    assert not permissions.may_manage_tournament(helper, t)  # replaced: no longer runs it
    assert permissions.may_manage_tournament(other, t)


@pytest.mark.parametrize(
    ("names", "message"),
    [(["nobody-here"], "No member called nobody-here."),
     (["ORGANISER"], "The organiser runs the tournament already."),
     (["a"] + [f"u{i}" for i in range(10)], "no more than 10")],
)  # fmt: skip
def test_bad_co_organiser_lists_change_nothing(api_client, event, names, message):
    t, _table, _ = event
    keep = co_organiser(t)
    names = [t.organiser.username if n == "ORGANISER" else n for n in names]
    api_client.force_authenticate(t.organiser)
    answer = api_client.patch(f"/api/tournaments/{t.pk}/", {"co_organisers": names},
                              format="json")  # fmt: skip
    assert answer.status_code == 400
    assert message.lower() in str(answer.json()).lower()
    assert list(t.co_organisers.all()) == [keep]


def test_bots_are_not_co_organisers(api_client, event):
    t, _table, _ = event
    bot = ExternalBotFactory()
    api_client.force_authenticate(t.organiser)
    answer = api_client.patch(f"/api/tournaments/{t.pk}/", {"co_organisers": [bot.user.username]},
                              format="json")  # fmt: skip
    assert answer.status_code == 400 and not t.co_organisers.exists()


def test_the_edit_page_sets_co_organisers_and_my_tournaments_lists_it(client, event):
    t, _table, _ = event
    helper = HumanPlayerFactory().user
    client.force_login(t.organiser)
    page = client.get(reverse("tournament-edit", args=[t.pk]))
    assert 'name="co_organisers"' in page.content.decode()
    data = {k: v for k, v in page.context["form"].initial.items() if v is not None}
    data = {**{k: v for k, v in data.items() if not isinstance(v, bool)},
            **{k: "on" for k, v in data.items() if v is True},
            "co_organisers": helper.username}  # fmt: skip
    done = client.post(reverse("tournament-edit", args=[t.pk]), data)
    assert done.status_code == 302, page.context["form"].errors
    assert list(t.co_organisers.all()) == [helper]
    client.force_login(helper)
    assert t.name in client.get(reverse("my-tournaments")).content.decode()
    # Her edit page runs the tournament but doesn't offer the list.
    assert 'name="co_organisers"' not in client.get(
        reverse("tournament-edit", args=[t.pk])).content.decode()  # fmt: skip
