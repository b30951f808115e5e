"""Issue #29, part 7: a logged-in entrant sees her own current table first (#my-table), in
the page and in the live fragment; her tables are marked in the rounds list."""

import re

import pytest
from django.test import Client

from tests.games.factories import HumanPlayerFactory
from tests.tournaments.result_fixtures import club_event, tables_of
from tournaments import services
from tournaments.models import Round

pytestmark = pytest.mark.django_db


def _page(user, t) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/tournaments/{t.pk}/").content.decode()


def _section(html: str) -> str:
    found = re.search(r'<section id="my-table".*?</section>', html, re.S)
    assert found, "no #my-table"
    return found.group(0)


def test_an_over_the_board_entrant_sees_her_table_with_the_report_link_first():
    t, players = club_event(n=4)
    table = tables_of(t, 1)[1]
    seats = list(table.seats.select_related("entry__player").order_by("index"))
    me = seats[1].entry.player
    html = _page(me.user, t)
    mine = _section(html)
    assert f"Table {table.number}" in mine
    # the seats in order, seat 0 marked as starting, her own marked
    names = re.findall(r"<li[^>]*>([^<]+)", mine)
    assert [n.strip() for n in names] == [str(s.entry.player) for s in seats]
    assert mine.index("starts") < mine.index(str(seats[1].entry.player))
    assert 'class="me"' in mine
    assert f"/tournaments/{t.pk}/tables/{table.pk}/#report-form" in mine
    # first in the live part, before the standings; her table card marked in the rounds
    assert html.index('id="my-table"') < html.index('class="grid standings"')
    cards = re.findall(r'<div class="table-card status-\w+( mine)?">', html)
    assert cards.count(" mine") == 1


def test_a_visitor_and_a_non_entrant_see_no_own_table():
    t, _players = club_event(n=4)
    assert 'id="my-table"' not in Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="my-table"' not in _page(HumanPlayerFactory().user, t)


def test_a_bye_and_waiting_for_the_pairing():
    t, players = club_event(n=5)  # Swiss of five: one bye a round
    rnd = Round.objects.get(tournament=t, number=1)
    bye = rnd.byes.select_related("entry__player").get().entry.player
    assert "You have a bye this round." in _section(_page(bye.user, t))
    for table in rnd.tables.all():
        services.record_result(table=table, ranks=[1, 2])
    t.refresh_from_db()
    someone = next(p for p in players if p != bye)
    assert "Waiting for the round to be paired." in _section(_page(someone.user, t))


def test_an_online_entrant_gets_the_match_link():
    organiser = HumanPlayerFactory().user
    t = services.create_tournament(
        name="Online", game="silkroad", format="swiss", organiser=organiser,
        auto_advance=False, config={"table_size": 2}, seed=3,
    )  # fmt: skip
    players = [HumanPlayerFactory() for _ in range(4)]
    for p in players:
        services.add_entry(tournament=t, player=p)
    rnd = services.start_tournament(tournament=t)
    t.refresh_from_db()
    # paired, not started: no match yet
    assert "The match opens when the round starts." in _section(_page(players[0].user, t))
    services.start_round(round_=rnd)
    t.refresh_from_db()
    table = next(tb for tb in rnd.tables.all() if tb.seats.filter(entry__player=players[0]))
    assert f'href="/matches/{table.match_id}/"' in _section(_page(players[0].user, t))


def test_the_live_fragment_carries_her_own_table_and_other_viewers_do_not_get_it():
    t, players = club_event(n=4)
    table = tables_of(t, 1)[0]
    me = table.seats.select_related("entry__player").order_by("index")[0].entry.player
    client = Client()
    client.force_login(me.user)
    mine = client.get(f"/tournaments/{t.pk}/live/", HTTP_HX_REQUEST="true")
    other = Client().get(f"/tournaments/{t.pk}/live/", HTTP_HX_REQUEST="true")
    assert 'id="my-table"' in mine.content.decode()
    assert 'id="my-table"' not in other.content.decode()
    assert mine["ETag"] != other["ETag"]
    # and after her result it says so on the next poll
    services.record_result(table=table, ranks=[1, 2])
    again = client.get(
        f"/tournaments/{t.pk}/live/", HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=mine["ETag"]
    )
    assert again.status_code == 200
