"""The tournament page's and the projector's push feeds (tournaments/live_feeds.py) without
a server: who may open them, which readers share a render, that a render is the poll's
answer, and that every change the live version covers is announced on the tournament's
channel (tests/tournaments/test_live_push.py runs them through the real server)."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from core.live.feeds import FEEDS, FeedError
from core.live.stream import Viewer
from games.models import MatchStatus
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, UserFactory, play_out
from tests.tournaments.factories import tournament_with_bots
from tests.tournaments.result_fixtures import club_event, tables_of
from tournaments import services, tasks
from tournaments.models import Table, TableStatus, Tournament
from tournaments.services import (
    editing,
    entrants,
    lifecycle,
    overrides,
    results,
    scheduling,
    table_names,
    timer,
    versions,
)
from tournaments.views import screen
from tournaments.views.tournaments import live_reader

pytestmark = pytest.mark.django_db

SECRET = "a" * 32  # a CSRF cookie's secret (32 letters and digits)
WIN = {"scores": [30, 10], "tiebreak": [1, 2]}


def _viewer(user=None, secret=SECRET, **kwargs) -> Viewer:
    return Viewer(user=user or AnonymousUser(), language="en", zone="Europe/Prague",
                  cookies={"csrftoken": secret} if secret else {}, **kwargs)  # fmt: skip


def _open(name, viewer, *args):
    return FEEDS[name].open(viewer, [str(a) for a in args])


def _render(name, viewer, opened, since=None):
    return FEEDS[name].render(viewer, opened.state, since)


def _otb(organiser=None, n=4):
    t = tournament_with_bots(n=n, config={"table_size": 2, "rounds": 2}, over_the_board=True,
                             auto_advance=False, organiser=organiser or UserFactory())  # fmt: skip
    services.start_tournament(tournament=t)
    t.refresh_from_db()
    return t


def _poll(client, t) -> bytes:
    response = client.get(f"/tournaments/{t.pk}/live/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content


def _tokens(html: str) -> list[str]:
    return re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)


# ---- opening ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["tournament", "screen"])
@pytest.mark.parametrize("args", [[], ["x"], ["1", "2"], ["-1"], ["1" * 12], ["１"]])
def test_malformed_arguments_are_a_400(name, args):
    with pytest.raises(FeedError) as refused:
        FEEDS[name].open(_viewer(), args)
    assert refused.value.status == 400


@pytest.mark.parametrize("name", ["tournament", "screen"])
def test_an_unknown_tournament_is_a_404(name):
    with pytest.raises(FeedError) as refused:
        _open(name, _viewer(), 999999)
    assert refused.value.status == 404


def test_spectators_share_one_audience_entrants_and_organisers_have_their_own():
    organiser, entrant = UserFactory(), HumanPlayerFactory()
    t = tournament_with_bots(n=3, config={"table_size": 2}, over_the_board=True,
                             organiser=organiser)  # fmt: skip
    services.add_entry(tournament=t, player=entrant)
    anonymous = _open("tournament", _viewer(), t.pk)
    stranger = _open("tournament", _viewer(UserFactory(), secret="b" * 32), t.pk)
    assert anonymous.key == stranger.key and anonymous.channels == (f"tournament:{t.pk}",)
    hers = _open("tournament", _viewer(entrant.user), t.pk)
    boss = _open("tournament", _viewer(organiser), t.pk)
    other_tab = _open("tournament", _viewer(organiser, secret="c" * 32), t.pk)
    assert len({anonymous.key, hers.key, boss.key, other_tab.key}) == 4
    # The projector is public: one audience per language and address.
    assert _open("screen", _viewer(), t.pk).key == _open("screen", _viewer(organiser), t.pk).key


# ---- rendering -------------------------------------------------------------------------
def test_a_current_reader_gets_nothing_for_one_query(django_assert_max_num_queries):
    t = _otb()
    viewer = _viewer(UserFactory())
    opened = _open("tournament", viewer, t.pk)
    first = _render("tournament", viewer, opened)
    assert first.message["swap"] == "outerHTML"
    with django_assert_max_num_queries(1):
        again = _render("tournament", viewer, opened, since=first.version)
    assert again.version == first.version and again.message is None
    sopened = _open("screen", viewer, t.pk)
    shown = _render("screen", viewer, sopened)
    with django_assert_max_num_queries(2):  # the live version, the rounds' timers
        assert _render("screen", viewer, sopened, since=shown.version).message is None


def test_a_spectator_is_sent_exactly_what_her_poll_gets():
    t = _otb()
    viewer = _viewer(UserFactory())  # signed in, neither organiser nor entrant
    rendered = _render("tournament", viewer, _open("tournament", viewer, t.pk), since="old")
    cache.clear()  # the poll renders again, it does not read the feed's copy
    assert rendered.message["html"].encode() == _poll(Client(), t)
    html = rendered.message["html"]
    assert html.strip().startswith('<div id="tournament-live"')
    assert f'data-live-feed="tournament:{t.pk}@{rendered.version}"' in html
    assert f'"v": "{rendered.version}"' in html  # the fallback poll goes on from it
    assert rendered.version == live_reader(t.pk, AnonymousUser())[0]


def test_an_entrant_is_sent_her_own_table():
    player = HumanPlayerFactory()
    t = tournament_with_bots(n=3, config={"table_size": 2, "rounds": 2}, over_the_board=True,
                             auto_advance=False)  # fmt: skip
    services.add_entry(tournament=t, player=player)
    services.start_tournament(tournament=t)
    viewer = _viewer(player.user)
    rendered = _render("tournament", viewer, _open("tournament", viewer, t.pk))
    assert 'id="my-table"' in rendered.message["html"]
    client = Client()
    client.force_login(player.user)
    cache.clear()
    assert rendered.message["html"].encode() == _poll(client, t)
    spectator = _render("tournament", _viewer(), _open("tournament", _viewer(), t.pk))
    assert 'id="my-table"' not in spectator.message["html"]


def test_an_organiser_is_sent_her_forms_posting_with_her_csrf_secret():
    organiser = UserFactory()
    t = _otb(organiser)
    viewer = _viewer(organiser)
    rendered = _render("tournament", viewer, _open("tournament", viewer, t.pk))
    html = rendered.message["html"]
    assert "Start round" in html and rendered.version.endswith(".m")
    tokens = _tokens(html)
    assert tokens and all(_unmask_cipher_token(token) == SECRET for token in tokens)
    client = Client()
    client.force_login(organiser)
    polled = _poll(client, t).decode()
    # The same fragment but for the tokens (masked afresh each render).
    assert re.sub(r'value="[^"]{64}"', "", html) == re.sub(r'value="[^"]{64}"', "", polled)
    spectator = _render("tournament", _viewer(), _open("tournament", _viewer(), t.pk))
    assert "Start round" not in spectator.message["html"]
    assert not _tokens(spectator.message["html"])


def test_a_deleted_tournament_sends_nothing():
    t = _otb()
    viewer = _viewer()
    opened = _open("tournament", viewer, t.pk)
    sopened = _open("screen", viewer, t.pk)
    Tournament.objects.filter(pk=t.pk).delete()
    gone = _render("tournament", viewer, opened, since="v1")
    assert gone.message is None and gone.version == "v1"
    assert _render("screen", viewer, sopened, since="v1").message is None


def test_the_screen_is_sent_its_partial_with_the_readers_address():
    t = _otb()
    viewer = _viewer(host="localhost:8443", secure=True)
    rendered = _render("screen", viewer, _open("screen", viewer, t.pk), since="old")
    html = rendered.message["html"]
    assert rendered.version == screen.screen_version(t.pk)
    assert html.split("#}", 1)[-1].strip().startswith('<div id="screen-live"')
    assert f'data-live-feed="screen:{t.pk}@{rendered.version}"' in html
    assert f"https://localhost:8443/tournaments/{t.pk}/#my-table" in html
    page = Client().get(f"/tournaments/{t.pk}/screen/").content.decode()
    assert f'data-live-feed="screen:{t.pk}@{rendered.version}"' in page
    assert 'data-live-stream="/events/"' in page and "js/live-stream.js" in page


def test_a_screen_of_several_pages_names_no_feed_and_keeps_polling():
    t = _otb(n=30)  # 15 tables of two: two pages
    viewer = _viewer()
    rendered = _render("screen", viewer, _open("screen", viewer, t.pk))
    html = rendered.message["html"]
    assert "page 1 of 2" in html and "data-live-feed" not in html
    assert 'hx-trigger="every 5s"' in html
    page = Client().get(f"/tournaments/{t.pk}/screen/").content.decode()
    assert "data-live-feed" not in page


# ---- announcements ---------------------------------------------------------------------
@pytest.fixture
def announced(monkeypatch):
    """The channels announced (core.live.publish, which sends them after the commit)."""
    channels: list[str] = []
    monkeypatch.setattr(versions, "publish", lambda *names: channels.extend(names))
    return channels


def _registration(**kwargs):
    organiser = UserFactory()
    t = services.create_tournament(name="Evening", game="silkroad", format="swiss",
                                   organiser=organiser, over_the_board=True, auto_advance=False,
                                   config={"table_size": 2, "rounds": 2}, seed=3,
                                   **kwargs)  # fmt: skip
    for _ in range(4):
        entrants.add_guest(tournament=t, name=f"Guest {_ + 1}", by=organiser)
    return t


def _started():
    t, _players = club_event(n=4, rounds=2)
    return t


def _paired(n=4, rounds=2):
    """Round 1 paired, not started."""
    organiser = UserFactory()
    t = tournament_with_bots(n=n, config={"table_size": 2, "rounds": rounds}, over_the_board=True,
                             auto_advance=False, organiser=organiser)  # fmt: skip
    services.start_tournament(tournament=t)
    t.refresh_from_db()
    return t


def _round_done():
    t = _started()
    for table in tables_of(t, 1):
        results.set_result(table=table, by=t.organiser, **WIN)
    t.refresh_from_db()
    return t


def _last_round_done():
    t = _round_done()
    rnd = services.pair_next_round(tournament=t)
    services.start_round(round_=rnd)
    for table in tables_of(t, 2):
        results.set_result(table=table, by=t.organiser, **WIN)
    t.refresh_from_db()
    return t


def _cancelled():
    t = _paired()
    lifecycle.cancel(tournament=t, by=t.organiser)
    t.refresh_from_db()
    return t


def _running_timer():
    t = _started()
    timer.start_timer(round_=t.rounds.get(number=1), by=t.organiser, minutes=30)
    return t


def _first(t):
    return tables_of(t, 1)[0]


def _round1(t):
    return t.rounds.get(number=1)


def _seated(t):
    return [s.entry_id for table in tables_of(t, 1) for s in table.seats.order_by("index")]


def _withdraw_seated(t):
    entry = t.entries.get(pk=_seated(t)[0])
    services.withdraw_entry(entry=entry)


def _autostart():
    organiser = UserFactory()
    t = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 2}, over_the_board=True,
                             auto_advance=False, organiser=organiser, auto_start=True,
                             starts_at=timezone.now() + timedelta(hours=1))  # fmt: skip
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(minutes=1))
    return t


def _online_running():
    t = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 2}, auto_advance=False)
    services.start_round(round_=services.start_tournament(tournament=t))
    return t


def _online_result(t):
    table = Table.objects.filter(round__tournament=t, status=TableStatus.PLAYING).first()
    match = play_out(table.match)
    assert match.status == MatchStatus.FINISHED
    tasks.matches_finished([match.pk])  # what the worker runs (tournaments/receivers.py)


CHANGES = {
    # Entries.
    "add entry": (_registration, lambda t: services.add_entry(tournament=t, player=EngineBotFactory())),
    "add guest": (_registration, lambda t: entrants.add_guest(tournament=t, name="Zoe", by=t.organiser)),
    "withdraw before the start": (_registration, lambda t: services.withdraw_entry(entry=t.entries.first())),
    "check in": (lambda: _registration(check_in=True),
                 lambda t: entrants.check_in(entry=t.entries.first(), by=t.organiser)),
    "check in many": (lambda: _registration(check_in=True),
                      lambda t: entrants.check_in_many(tournament=t, by=t.organiser,
                                                       entry_ids=[e.pk for e in t.entries.all()])),
    "withdraw seated in a paired round": (_paired, _withdraw_seated),
    "late entry": (_started, lambda t: services.add_entry(tournament=t, player=HumanPlayerFactory())),
    # The life cycle.
    "start": (_registration, lambda t: services.start_tournament(tournament=t)),
    "automatic start": (_autostart, lambda t: scheduling.start_if_due(tournament_id=t.pk)),
    "plan the start": (_registration, lambda t: scheduling.plan_start(
        tournament=t, by=t.organiser, starts_at=timezone.now() + timedelta(days=1), auto_start=False)),
    "pause": (_started, lambda t: lifecycle.pause(tournament=t, by=t.organiser)),
    "resume": (lambda: _paused(_started()), lambda t: lifecycle.resume(tournament=t, by=t.organiser)),
    "cancel": (_started, lambda t: lifecycle.cancel(tournament=t, by=t.organiser)),
    "undo the cancel": (_cancelled, lambda t: lifecycle.undo_cancel(tournament=t, by=t.organiser)),
    "edit": (_started, lambda t: editing.update_tournament(tournament=t, by=t.organiser, name="Renamed")),
    "co-organisers": (_started, lambda t: editing.update_tournament(
        tournament=t, by=t.organiser, co_organisers=[UserFactory().username])),
    # Rounds.
    "pair": (_round_done, lambda t: services.pair_next_round(tournament=t)),
    "finish": (_last_round_done, lambda t: services.pair_next_round(tournament=t)),
    "start round": (_paired, lambda t: services.start_round(round_=_round1(t))),
    "pair again": (lambda: _paired(n=8, rounds=3), lambda t: services.repair_round(round_=_round1(t))),
    "swap": (_paired, lambda t: overrides.swap(round_=_round1(t), first=_seated(t)[0],
                                               second=_seated(t)[2], by=t.organiser)),
    "move": (lambda: _paired(n=5), lambda t: overrides.move(
        round_=_round1(t), entry=_round1(t).byes.get().entry_id, table=1, by=t.organiser)),
    "unpair": (_paired, lambda t: overrides.unpair(round_=_round1(t), by=t.organiser)),
    # Results.
    "record result": (_started, lambda t: services.record_result(table=_first(t), ranks=[1, 2])),
    "enter result": (_started, lambda t: results.enter_result(table=_first(t), by=t.organiser, **WIN)),
    "correct result": (_round_done, lambda t: results.set_result(
        table=_first(t), by=t.organiser, scores=[10, 30], tiebreak=[2, 1])),
    "delete result": (_round_done, lambda t: results.clear_result(table=_first(t), by=t.organiser)),
    "forfeit": (_started, lambda t: results.record_forfeit(
        table=_first(t), entry=_first(t).seats.first().entry, by=t.organiser)),
    "online result (the match's end)": (_online_running, _online_result),
    # The room.
    "timer start": (_started, lambda t: timer.start_timer(round_=_round1(t), by=t.organiser, minutes=30)),
    "timer pause": (_running_timer, lambda t: timer.pause_timer(round_=_round1(t), by=t.organiser)),
    "timer reset": (_running_timer, lambda t: timer.reset_timer(round_=_round1(t), by=t.organiser)),
    "table names": (_started, lambda t: table_names.set_table_names(
        tournament=t, names={"1": "by the window"}, by=t.organiser)),
}  # fmt: skip


def _paused(t):
    lifecycle.pause(tournament=t, by=t.organiser)
    t.refresh_from_db()
    return t


def _versions(t) -> tuple:
    return live_reader(t.pk, AnonymousUser())[0], screen.screen_version(t.pk)


@pytest.mark.parametrize("change", list(CHANGES))
def test_every_change_of_the_live_version_is_announced(change, announced):
    make, act = CHANGES[change]
    t = make()
    t.refresh_from_db()
    before = _versions(t)
    announced.clear()
    act(Tournament.objects.get(pk=t.pk))
    after = _versions(t)
    assert after != before, "not a change the live pages show"
    assert f"tournament:{t.pk}" in announced


def test_a_status_typed_in_the_admin_is_announced(admin_client, announced):
    from tests.tournaments.test_time_zones import _Inputs  # the change form's fields

    t = _paired()
    before = _versions(t)
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    parser = _Inputs()
    parser.feed(admin_client.get(url).content.decode())
    data = {k: v for k, v in parser.data.items() if k != "csrfmiddlewaretoken"}
    announced.clear()
    saved = admin_client.post(url, {**data, "status": "cancelled", "_save": "Save"})
    assert saved.status_code == 302, saved.content.decode()[:2000]
    assert _versions(t) != before and f"tournament:{t.pk}" in announced
