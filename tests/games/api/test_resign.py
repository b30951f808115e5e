"""Abort only until every human has decided; after that a player resigns (ranked last)."""

import pytest
from django.contrib.auth.models import Permission

from games import services
from games.models import MatchStatus
from tests.games.api.test_matches_api import _play_moves
from tests.games.factories import HumanPlayerFactory, logged

pytestmark = pytest.mark.django_db


def _match(*players, creator=None, **kwargs):
    creator = creator or players[0].user
    return services.create_match(
        game="silkroad", players=list(players), created_by=creator, consented=True, **kwargs
    )


def _decide(match, player):
    """`player` (to act) makes one decision of his own."""
    match.refresh_from_db()
    assert match.seats.get(index=match.to_act).player == player
    return _play_moves(match, {match.to_act: player}, 1)


def test_abort_until_every_human_has_decided_then_resign_instead(api_client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = _match(alice, bob)
    match.refresh_from_db()
    players = {s.index: s.player for s in match.seats.all()}
    first = players[match.to_act]
    _decide(match, first)
    match.refresh_from_db()
    while players[match.to_act] == first:  # a turn may be several decisions
        _decide(match, first)
        match.refresh_from_db()
    api_client.force_authenticate(alice.user)
    before = api_client.post(f"/api/matches/{match.pk}/abort/")
    assert before.status_code == 200 and before.json()["status"] == "aborted"

    match = _match(alice, bob)
    match = _play_moves(match, [alice, bob], 40)
    decided = set(d.seat for d in logged(match, source="player"))
    assert decided == {0, 1}
    may_abort = HumanPlayerFactory(user__is_staff=True).user  # and holds change_match
    may_abort.user_permissions.add(Permission.objects.get(codename="change_match"))
    for user in (alice.user, may_abort):
        api_client.force_authenticate(user)
        refused = api_client.post(f"/api/matches/{match.pk}/abort/")
        assert refused.status_code == 409 and refused.json()["code"] == "resign_instead"
        assert "resign instead" in refused.json()["detail"]
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING


def test_a_match_waiting_for_its_players_can_always_be_aborted(api_client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    waiting = services.create_match(game="silkroad", players=[alice, bob], created_by=alice.user)
    api_client.force_authenticate(alice.user)
    assert api_client.post(f"/api/matches/{waiting.pk}/abort/").status_code == 200
    assert waiting.invitations.get().status == "cancelled"


def test_resigning_a_two_seat_match_ends_it_with_the_opponent_first(api_client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = _play_moves(_match(alice, bob, rated=True), [alice, bob], 6)
    outsider = HumanPlayerFactory()
    api_client.force_authenticate(outsider.user)
    assert api_client.post(f"/api/matches/{match.pk}/resign/").status_code == 403
    api_client.force_authenticate(bob.user)
    response = api_client.post(f"/api/matches/{match.pk}/resign/", {}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "finished"
    assert body["outcome"]["ranks"] == [1, 2] and body["outcome"]["forfeited"] == [False, True]
    assert [(s["player"], s["rank"], s["forfeited"]) for s in body["seats"]] == [
        (alice.name, 1, False), (bob.name, 2, True)]  # fmt: skip
    again = api_client.post(f"/api/matches/{match.pk}/resign/")
    assert again.status_code == 409


def test_resigning_with_two_others_left_lets_a_bot_play_on_and_ranks_the_seat_last(api_client):
    alice, bob, carol = HumanPlayerFactory(), HumanPlayerFactory(), HumanPlayerFactory()
    match = _match(alice, bob, carol)
    match.refresh_from_db()
    to_act = match.to_act
    resigner = match.seats.get(index=to_act).player  # resigns on his own turn
    api_client.force_authenticate(resigner.user)
    body = api_client.post(
        f"/api/matches/{match.pk}/resign/", {"seat": to_act}, format="json"
    ).json()
    assert body["status"] == "running" and body["seats"][to_act]["forfeited"] is True
    assert body["to_act"] != to_act or body["ply"] > match.ply
    assert logged(match, seat=to_act, source="bot")
    match = _play_moves(match, [alice, bob, carol], 5000)
    assert match.status == MatchStatus.FINISHED
    ranks = {s.index: s.rank for s in match.seats.all()}
    assert ranks[to_act] == 3 and sorted(ranks.values())[:2] != [3, 3]


def test_resign_button_with_a_confirm_step_on_the_match_page(client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = _match(alice, bob)
    client.force_login(HumanPlayerFactory().user)
    assert "Resign" not in client.get(f"/matches/{match.pk}/").content.decode()
    client.force_login(bob.user)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/resign/"' in page
    confirm = client.get(f"/matches/{match.pk}/resign/")
    assert confirm.status_code == 200 and "confirm-resign" in confirm.content.decode()
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING  # asking changes nothing
    response = client.post(f"/matches/{match.pk}/resign/", follow=True)
    assert "You resigned" in response.content.decode()
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.seats.get(player=bob).rank == 2 and match.seats.get(player=alice).rank == 1


def test_a_visitor_not_logged_in_is_offered_no_resign_at_a_table_of_bots(client):
    from games import services
    from tests.games.factories import EngineBotFactory

    match = services.create_match(game="silkroad", players=[EngineBotFactory(), EngineBotFactory()])
    assert match.status == MatchStatus.RUNNING
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/resign/"' not in page
