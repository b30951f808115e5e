"""A person's calendar feed (/calendar/<token>.ics): the rounds and deadlines of the
tournaments she is entered in, her correspondence moves when due; a secret address made
and replaced from the settings page (the old one then answers 404)."""

from datetime import UTC, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from games.models import Match, Player
from tests.games.factories import EngineBotFactory, HumanPlayerFactory
from tests.tournaments.factories import tournament_with_bots
from tests.tournaments.test_calendar import _events, _unfold
from tournaments import services
from tournaments.models import Entry, Round

pytestmark = pytest.mark.django_db


def _z(moment) -> str:
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def _signed_in(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def _at_her_move(player, per_move_s: int) -> Match:
    match = game_services.create_match(
        game="silkroad", players=[player, EngineBotFactory()], seed=3,
        time_control={"per_move_s": per_move_s},
    )  # fmt: skip
    match.refresh_from_db()
    while match.to_act != 0:
        game_services.play_bot_decisions(match_id=match.pk, ply=match.ply)
        match.refresh_from_db()
    assert match.deadline is not None
    return match


def _feed(client: Client, token: str) -> list[dict]:
    response = client.get(f"/calendar/{token}.ics")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert "private" in response["Cache-Control"]
    return _events(_unfold(response.content.decode("utf-8")))


def test_her_feed_has_her_tournaments_and_her_correspondence_moves():
    alice = HumanPlayerFactory()
    starts = (timezone.now() + timedelta(hours=3)).replace(microsecond=0)
    league = tournament_with_bots(n=3, format="league", config={"table_size": 2},
                                  over_the_board=True, round_days=7, starts_at=starts)  # fmt: skip
    services.add_entry(tournament=league, player=alice)
    services.start_tournament(tournament=league)
    left = tournament_with_bots(n=2, config={"table_size": 2}, starts_at=starts)
    Entry.objects.filter(pk=services.add_entry(tournament=left, player=alice).pk).update(
        withdrawn_after=0
    )
    other = tournament_with_bots(n=2, config={"table_size": 2}, starts_at=starts)
    slow = _at_her_move(alice, 86400)
    fast = _at_her_move(alice, 60)

    client = _signed_in(alice)
    assert b"Create my calendar feed" in client.get(reverse("account-settings")).content
    assert client.post(reverse("calendar-create")).status_code == 302
    token = Player.objects.get(pk=alice.pk).calendar_token
    assert len(token) == 43
    page = client.get(reverse("account-settings")).content.decode()
    assert f"http://testserver/calendar/{token}.ics" in page and "New address" in page

    events = _feed(Client(), token)  # no log-in: the address is the key
    urls = {e["URL"] for e in events}
    assert f"http://testserver/tournaments/{league.pk}/" in urls
    assert not {f"http://testserver/tournaments/{t.pk}/" for t in (left, other)} & urls
    deadlines = {e["DTSTART"] for e in events if e["SUMMARY"].endswith(" due")}
    rounds = Round.objects.filter(tournament=league, deadline__isnull=False)
    assert rounds and deadlines == {_z(r.deadline) for r in rounds}
    assert any(e["DTSTART"] == _z(starts) and e["SUMMARY"].endswith(": start") for e in events)
    moves = [e for e in events if e["SUMMARY"].startswith("Your move is due")]
    assert len(moves) == 1  # the one-minute game is no correspondence game
    slow.refresh_from_db()
    assert moves[0]["DTSTART"] == _z(slow.deadline)
    assert moves[0]["URL"] == f"http://testserver/matches/{slow.pk}/"
    assert not any(u.endswith(f"/matches/{fast.pk}/") for u in urls)
    uids = [e["UID"] for e in events]
    assert len(set(uids)) == len(uids)
    assert [e["UID"] for e in _feed(Client(), token)] == uids  # stable: updated in place


def test_no_move_event_once_it_is_not_her_turn():
    alice = HumanPlayerFactory()
    match = _at_her_move(alice, 86400)
    Match.objects.filter(pk=match.pk).update(to_act=1)
    token = game_services.players.new_calendar_token(user=alice.user)
    assert not [e for e in _feed(Client(), token) if e["SUMMARY"].startswith("Your move")]


def test_a_new_address_asks_first_and_the_old_one_is_gone():
    alice = HumanPlayerFactory()
    client = _signed_in(alice)
    client.post(reverse("calendar-create"))
    old = Player.objects.get(pk=alice.pk).calendar_token
    # A second "create" does not replace it behind her back: it goes to the question.
    assert client.post(reverse("calendar-create"))["Location"] == reverse("calendar-rotate")
    question = client.get(reverse("calendar-rotate"))
    assert question.status_code == 200 and b"stop updating" in question.content
    assert Player.objects.get(pk=alice.pk).calendar_token == old  # asking changed nothing
    assert client.post(reverse("calendar-rotate")).status_code == 302
    new = Player.objects.get(pk=alice.pk).calendar_token
    assert new and new != old
    assert Client().get(f"/calendar/{old}.ics").status_code == 404
    assert Client().get(f"/calendar/{new}.ics").status_code == 200


def test_unknown_blank_and_inactive_feeds_are_404_and_visitors_cannot_rotate():
    alice = HumanPlayerFactory()
    token = game_services.players.new_calendar_token(user=alice.user)
    assert Client().get("/calendar/not-a-token.ics").status_code == 404
    assert Client().get("/calendar/.ics").status_code == 404
    visitor = Client()
    assert visitor.post(reverse("calendar-rotate")).status_code == 302  # to the log-in
    assert Player.objects.get(pk=alice.pk).calendar_token == token
    type(alice.user).objects.filter(pk=alice.user.pk).update(is_active=False)
    assert Client().get(f"/calendar/{token}.ics").status_code == 404
