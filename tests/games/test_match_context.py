"""A tournament's match names its tournament, round and table on the match page (through
settings.MATCH_CONTEXT: games imports no tournaments); a casual match names none."""

import re

import pytest
from django.test import Client
from django.utils import translation

from games import selectors
from tests.config.test_i18n import CZECH
from tests.games.factories import HumanPlayerFactory, MatchFactory
from tournaments import services
from tournaments.services import table_names

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _back_to_english():
    yield
    translation.activate("en")  # a Czech request leaves Czech active in this thread


def _online_round(names=None):
    """An online Swiss of six people, round 1 started: three tables, each with its match."""
    organiser = HumanPlayerFactory().user
    t = services.create_tournament(
        name="Spring Yspahan Open", game="silkroad", format="swiss", organiser=organiser,
        auto_advance=False, config={"table_size": 2}, seed=3,
    )  # fmt: skip
    for _ in range(6):
        services.add_entry(tournament=t, player=HumanPlayerFactory())
    if names:
        table_names.set_table_names(tournament=t, names=names, by=organiser)
    rnd = services.start_tournament(tournament=t)
    services.start_round(round_=rnd)
    return t, {table.number: table for table in rnd.tables.all()}


def _context_line(html: str) -> str | None:
    found = re.search(r'<p class="match-context"[^>]*>(.*?)</p>', html, re.S)
    return found and found.group(1)


def test_the_match_page_names_its_tournament_round_and_table():
    t, tables = _online_round(names={3: "by the window"})
    table = tables[3]
    assert table.match_id
    html = Client().get(f"/matches/{table.match_id}/").content.decode()
    line = _context_line(html)
    assert line is not None
    assert f'<a class="tournament" href="/tournaments/{t.pk}/">Spring Yspahan Open</a>' in line
    assert f'<a href="/tournaments/{t.pk}/tables/{table.pk}/">Table 3</a>' in line
    text = " ".join(re.sub(r"<[^>]+>", "", line).split())
    assert text == "Spring Yspahan Open · Round 1 · Table 3 (by the window)"
    # In the header, between the title and the rules link (one line on wide screens).
    head = re.search(r'<div class="match-head">.*?</div>', html, re.S).group(0)
    assert head.index("match-title") < head.index("match-context") < head.index("rules-link")
    # A table without a name has no brackets.
    other = _context_line(Client().get(f"/matches/{tables[1].match_id}/").content.decode())
    assert " ".join(re.sub(r"<[^>]+>", "", other).split()) == (
        "Spring Yspahan Open · Round 1 · Table 1"
    )


def test_the_line_is_in_the_readers_language():
    _t, tables = _online_round(names={2: "u okna"})
    html = Client().get(f"/matches/{tables[2].match_id}/", **CZECH).content.decode()
    text = " ".join(re.sub(r"<[^>]+>", "", _context_line(html)).split())
    assert text == "Spring Yspahan Open · 1. kolo · Stůl 2 (u okna)"


def test_a_casual_match_names_no_tournament(django_assert_max_num_queries):
    _online_round()
    match = MatchFactory.create()
    html = Client().get(f"/matches/{match.pk}/").content.decode()
    assert "match-context" not in html and "Spring Yspahan Open" not in html
    with django_assert_max_num_queries(1):
        assert selectors.match_context(match) is None


def test_the_hook_reads_one_query(django_assert_num_queries):
    t, tables = _online_round()
    match = tables[2].match
    with django_assert_num_queries(1):
        found = selectors.match_context(match)
    assert found["name"] == "Spring Yspahan Open" and found["url"] == f"/tournaments/{t.pk}/"
    assert (found["round"], found["table"], found["table_name"]) == ("Round 1", "Table 2", "")


def test_my_games_names_the_tournament_and_round_in_one_query(django_assert_max_num_queries):
    t, tables = _online_round()
    casual = MatchFactory.create()
    table = tables[1]
    seat = table.match.seats.order_by("index").first()
    matches = [table.match, tables[2].match, casual]
    with django_assert_max_num_queries(1):
        found = selectors.match_contexts([m.pk for m in matches])
    assert set(found) == {table.match_id, tables[2].match_id}
    user = seat.player.user
    client = Client()
    client.force_login(user)
    html = client.get("/play/mine/").content.decode()
    row = re.search(rf'<tr>\s*<td><a href="/matches/{table.match_id}/">.*?</tr>', html, re.S)
    assert row, html
    text = " ".join(re.sub(r"<[^>]+>", " ", row.group(0)).split())
    assert "Spring Yspahan Open · Round 1" in text
    assert f'href="/tournaments/{t.pk}/"' in row.group(0)
