"""Issue #30, part 3: "your move" in a slow match she has not looked at for ten minutes,
the tournament's start for each human entrant who plays, and a finished match's place
and rating change in the daily digest."""

from datetime import datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from games.engines.registry import get_engine
from games.models import Match
from games.signals import turn_passed
from notifications import services
from notifications.game_notices import match_finished, remind_your_move, schedule_your_move
from notifications.models import Notification
from ratings import services as rating_services
from tests.games.factories import EngineBotFactory
from tests.games.services.test_match_batches import published_tasks
from tests.notifications.helpers import body_text, member
from tests.tournaments.result_fixtures import organiser
from tournaments import services as tournament_services
from tournaments.models import Entry, TableSeat
from tournaments.services import entrants

pytestmark = pytest.mark.django_db(transaction=True)

DAY = {"per_move_s": 24 * 3600}
BLITZ = {"initial_s": 600, "increment_s": 5}


def _match(*users, time_control=DAY, rated=False):
    match = game_services.create_match(
        game="silkroad", players=[u.player for u in users], seed=None if rated else 4,
        time_control=time_control, rated=rated,
    )  # fmt: skip
    match.refresh_from_db()
    return match


def _to_act(match, users):
    return users[match.to_act]


def _move(match, user):
    engine = get_engine(match.game)
    action = engine.legal_actions(engine.from_json(match.state))[0]
    game_services.submit_action(match_id=match.pk, user=user, ply=match.ply, action=action)
    match.refresh_from_db()


class _Turns:
    """What games' turn_passed signal carries (a real receiver, connected for the test)."""

    def __init__(self):
        self.turns = []

    def __call__(self, sender, turns, **kwargs):
        self.turns.extend(turns)


@pytest.fixture
def turns():
    seen = _Turns()
    turn_passed.connect(seen, dispatch_uid="test.turns")
    yield seen
    turn_passed.disconnect(dispatch_uid="test.turns")


def test_the_turn_passing_to_a_human_is_signalled_after_commit(turns):
    ann, ben = member("ann"), member("ben")
    match = _match(ann, ben)
    first = _to_act(match, [ann, ben])
    assert turns.turns == [(match.pk, match.ply, first.pk)]
    _move(match, first)
    second = _to_act(match, [ann, ben])
    assert turns.turns[-1] == (match.pk, match.ply, second.pk)
    # Against a bot: only the human's turns are signalled, never the bot's.
    turns.turns.clear()
    cyril = member("cyril")
    against_bot = game_services.create_match(
        game="silkroad", players=[cyril.player, EngineBotFactory()], seed=2, time_control=DAY
    )
    assert turns.turns and all(t[2] == cyril.pk and t[0] == against_bot.pk for t in turns.turns)


def _reminders(sent) -> list[tuple]:
    return [args for name, args, eta in sent
            if name == "notifications.tasks.your_move_reminder" and eta is not None]  # fmt: skip


def test_your_move_mailed_after_ten_minutes_without_a_visit(smtp_server):
    ann, ben = member("ann"), member("ben")
    with published_tasks() as sent:  # what really reaches the broker, with its countdown
        match = _match(ann, ben)
    her = _to_act(match, [ann, ben])
    other = ben if her == ann else ann
    assert _reminders(sent) == [(match.pk, match.ply, her.pk)]
    # The task's body, as the worker runs it ten minutes later.
    notice = remind_your_move(match.pk, match.ply, her.pk)
    assert notice is not None and notice.key == f"your_move:{match.pk}:{match.ply}"
    [mail] = smtp_server.wait_for(1)
    assert mail["To"] == f"{her.username}@example.com"
    body = body_text(mail)
    assert f"It is your move in Silk Road #{match.pk} against {other.username}." in body
    assert reverse("match-detail", args=[match.pk]) in body
    # The same turn again (a re-run task): nothing more.
    assert remind_your_move(match.pk, match.ply, her.pk) is None
    assert smtp_server.messages == [mail]
    # Not to the player who is not to act.
    assert remind_your_move(match.pk, match.ply, other.pk) is None


def test_no_reminder_when_she_looked_or_moved(client, smtp_server):
    ann, ben = member("ann"), member("ben")
    match = _match(ann, ben)
    her = _to_act(match, [ann, ben])
    client.force_login(her)
    assert client.get(reverse("match-detail", args=[match.pk])).status_code == 200
    with published_tasks() as sent:
        assert remind_your_move(match.pk, match.ply, her.pk) is None  # she is looking
        # Her visit was five minutes before the reminder falls due: still recent.
        assert remind_your_move(match.pk, match.ply, her.pk,
                                now=timezone.now() + timedelta(minutes=5)) is None  # fmt: skip
    # ... and each time the reminder is asked again ten minutes after her look.
    assert _reminders(sent) == [(match.pk, match.ply, her.pk)] * 2
    due = [datetime.fromisoformat(eta) - timezone.now() for name, _, eta in sent if eta]
    assert [round(d.total_seconds() / 60) for d in due] == [10, 5]
    # The live fragment counts too (the page's polling), not only the page.
    later = timezone.now() + timedelta(minutes=11)
    client.get(reverse("match-live", args=[match.pk]), {"ply": match.ply}, HTTP_HX_REQUEST="true")
    assert remind_your_move(match.pk, match.ply, her.pk, now=later - timedelta(minutes=5)) is None
    # Eleven minutes after her last look: reminded.
    assert remind_your_move(match.pk, match.ply, her.pk, now=later) is not None

    # She moved meanwhile: the reminder of the old ply says nothing.
    cyril, dana = member("cyril"), member("dana")
    other = _match(cyril, dana)
    first = _to_act(other, [cyril, dana])
    ply = other.ply
    _move(other, first)
    assert remind_your_move(other.pk, ply, first.pk) is None
    assert not Notification.objects.filter(recipient=first, kind="your_move").exists()
    assert len(smtp_server.messages) == 1  # only the one after eleven minutes


def test_never_for_a_ten_minute_game(smtp_server):
    ann, ben = member("ann"), member("ben")
    with published_tasks() as sent:
        match = _match(ann, ben, time_control=BLITZ)
        her = _to_act(match, [ann, ben])
        _move(match, her)
    assert sent and _reminders(sent) == []  # its time-out tasks went, no reminder
    her = _to_act(match, [ann, ben])
    assert schedule_your_move([(match.pk, match.ply, her.pk)]) == 0
    assert remind_your_move(match.pk, match.ply, her.pk,
                            now=timezone.now() + timedelta(hours=1)) is None  # fmt: skip
    assert not Notification.objects.filter(kind="your_move").exists()
    assert smtp_server.messages == []


def test_the_tournament_start_tells_each_human_entrant_who_plays(smtp_server):
    by = organiser()
    t = tournament_services.create_tournament(
        name="Spring Open", game="silkroad", format="swiss", organiser=by, check_in=True,
        entry_limit=6, config={"table_size": 2}, seed=3,
    )  # fmt: skip
    ann, ben, cyril, dana = member("ann"), member("ben"), member("cyril"), member("dana")
    bots = [EngineBotFactory() for _ in range(3)]
    for p in [ann.player, ben.player, cyril.player, *bots, dana.player]:
        tournament_services.add_entry(tournament=t, player=p)
    assert Entry.objects.get(player=dana.player).waitlisted_at is not None  # the 7th of 6
    for entry in Entry.objects.filter(tournament=t, waitlisted_at__isnull=True).exclude(
        player=cyril.player
    ):
        entrants.check_in(entry=entry, by=by)  # cyril does not check in
    rnd = tournament_services.start_tournament(tournament=t)

    # Every seated human hears of the start once: her "round paired" notice names her table;
    # no bot, not cyril (withdrawn at the start: no check-in), not dana (waitlisted).
    assert not Notification.objects.filter(kind="tournament_starting").exists()
    paired = Notification.objects.filter(kind="round_paired")
    assert sorted(n.recipient.username for n in paired) == ["ann", "ben"]
    mails = smtp_server.wait_for(2)
    for user in (ann, ben):
        seat = TableSeat.objects.get(table__round=rnd, entry__player=user.player)
        assert paired.get(recipient=user).data["table"] == seat.table.number
        assert len([m for m in mails if m["To"] == f"{user.username}@example.com"]) == 1
    # Someone not seated in round 1 (a bye) gets the start notice instead, once.
    from tournaments.services import notices as tournament_notices

    TableSeat.objects.filter(table__round=rnd, entry__player=ann.player).delete()
    tournament_notices.tournament_started(t.pk)
    tournament_notices.tournament_started(t.pk)
    started = Notification.objects.filter(kind="tournament_starting")
    assert [n.recipient.username for n in started] == ["ann"]
    assert started.get().url == reverse("tournament-detail", args=[t.pk])


def test_a_finished_match_lands_in_the_digest_with_the_rating_change(smtp_server):
    ann, ben = member("ann"), member("ben")
    match = _match(ann, ben, time_control=None, rated=True)
    users = [ann, ben]
    loser = _to_act(match, users)
    game_services.resign(match_id=match.pk, user=loser)
    match = Match.objects.get(pk=match.pk)
    assert match.status == "finished"
    # Before the ratings are applied: nothing (ratings tells, with the change).
    assert not Notification.objects.filter(kind="match_finished").exists()
    rating_services.on_match_finished(match_id=match.pk)  # what the ratings task does

    winner = ben if loser == ann else ann
    won = Notification.objects.get(recipient=winner, kind="match_finished")
    lost = Notification.objects.get(recipient=loser, kind="match_finished")
    assert won.data["place"] == 1 and lost.data["place"] == 2
    assert won.data["delta"] > 0 > lost.data["delta"]
    assert won.digest_pending and lost.digest_pending  # daily by default
    assert smtp_server.messages == []  # not at once
    match_finished([match.pk])  # told again (a re-sent id): nothing new
    assert Notification.objects.filter(kind="match_finished").count() == 2

    assert services.send_digests() == 2
    mails = smtp_server.wait_for(2)
    [mail] = [m for m in mails if m["To"] == f"{winner.username}@example.com"]
    body = body_text(mail)
    assert f"#{match.pk} has finished: place 1 of 2, rating {won.data['rating']} " in body
    assert f"(+{won.data['delta']})" in body


def test_an_unrated_match_tells_the_place_only():
    ann, ben = member("ann"), member("ben")
    match = _match(ann, ben, time_control=None)
    game_services.resign(match_id=match.pk, user=_to_act(match, [ann, ben]))
    notices = Notification.objects.filter(kind="match_finished")
    assert notices.count() == 2  # the match_finished signal, no ratings to wait for
    assert all("rating" not in n.data and n.data["place"] in (1, 2) for n in notices)
