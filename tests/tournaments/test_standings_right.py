"""Issue #29, part 11: head to head among the tied only (both ways round), elimination
places as ranges, withdrawn players never ahead of an active one, the API's `player`
always the handle, no rating in unrated events."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from tests.tournaments.result_fixtures import club_event, tables_of
from tournaments import forecast, selectors, services
from tournaments.formats import (
    Config,
    Entrant,
    Round,
    StandingsAccumulator,
    Table,
    TableResult,
    compute_standings,
)
from tournaments.formats.tiebreaks import rank_entrants
from tournaments.services import entrants as entrant_services


def t(seats, ranks):
    return Table(seats=tuple(seats), result=TableResult(tuple(ranks)))


def both(entrants, played, config):
    acc = StandingsAccumulator(entrants, config)
    for rnd in played:
        acc.add_round(rnd)
    scratch = compute_standings(entrants, played, config)
    assert acc.standings() == scratch
    return scratch


# ---- head to head ------------------------------------------------------------------
def test_a_meeting_won_each_way_counts_both_ways():
    """A beat B in round 1, B beat A in round 3: one point each, so still level."""
    entrants = [Entrant(i) for i in (1, 2, 3, 4)]
    played = [
        Round(1, (t((1, 2), (1, 2)), t((3, 4), (1, 2)))),
        Round(2, (t((1, 3), (1, 2)), t((2, 4), (1, 2)))),
        Round(3, (t((2, 1), (1, 2)), t((4, 3), (1, 2)))),
    ]
    rows = {r.entrant: r for r in both(entrants, played, Config(tiebreaks=("head_to_head",)))}
    assert rows[1].points == rows[2].points == 2
    assert rows[1].tiebreaks["head_to_head"] == rows[2].tiebreaks["head_to_head"] == 1.0
    assert rows[1].rank == rows[2].rank == 1


def test_head_to_head_is_computed_again_among_those_still_level():
    """Tied 1, 2, 3: among the three 1 has 2 points, 2 and 3 one each; between those two
    alone, 2 beat 3: 1, 2, 3 (not 1, then 2 and 3 sharing second)."""
    score = {(1, 2): 2.0, (2, 1): 0.0, (1, 3): 0.0, (3, 1): 1.0, (2, 3): 1.0, (3, 2): 0.0}

    def h2h(a, group):
        return sum(score.get((a, o), 0.0) for o in group if o != a)

    ranked = rank_entrants([1, 2, 3], dict.fromkeys([1, 2, 3], 5.0), {}, h2h, ("head_to_head",))
    assert [(rank, e) for rank, e, _ in ranked] == [(1, 1), (2, 2), (3, 3)]
    assert {e: tb["head_to_head"] for _, e, tb in ranked} == {1: 2.0, 2: 1.0, 3: 0.0}


def test_head_to_head_ignores_games_against_players_not_tied():
    # 1 and 2 level on points; 1's win over 3 (not tied with them) brings no head-to-head.
    entrants = [Entrant(i) for i in (1, 2, 3, 4)]
    played = [
        Round(1, (t((1, 3), (1, 2)), t((2, 4), (1, 2)))),
        Round(2, (t((1, 2), (1, 1)), t((3, 4), (1, 2)))),
    ]
    rows = {r.entrant: r for r in both(entrants, played, Config(tiebreaks=("head_to_head",)))}
    assert rows[1].tiebreaks["head_to_head"] == rows[2].tiebreaks["head_to_head"] == 0.5


# ---- withdrawn players -------------------------------------------------------------
def test_a_withdrawn_leader_ranks_after_every_active_player():
    entrants = [Entrant(1, withdrawn_after=2), Entrant(2), Entrant(3), Entrant(4)]
    played = [
        Round(1, (t((1, 2), (1, 2)), t((3, 4), (1, 2)))),
        Round(2, (t((1, 3), (1, 2)), t((2, 4), (1, 2)))),
    ]
    rows = both(entrants, played, Config())
    assert rows[-1].entrant == 1 and rows[-1].points == 2  # the most points, still last
    assert rows[0].rank == 1 and rows[0].entrant != 1
    assert rows[-1].rank == 4


# ---- the Django side ---------------------------------------------------------------
def _finish_elimination(n=8):
    t, _players = club_event(n=n, format="single_elimination")
    number = 1
    while True:
        for table in tables_of(t, number):
            services.record_result(table=table, ranks=[1, 2])
        t.refresh_from_db()
        if t.status == "finished":
            return t
        rnd = services.pair_next_round(tournament=t)
        if rnd is None:  # the last result finished it
            t.refresh_from_db()
            return t
        services.start_round(round_=rnd)
        number += 1


@pytest.mark.django_db
def test_elimination_places_are_ranges_in_the_page_the_api_and_the_rows():
    t = _finish_elimination(8)
    places = [row["place"] for row in selectors.standings_out(t)]
    assert places == ["1", "2", "3–4", "3–4", "5–8", "5–8", "5–8", "5–8"]
    assert [row["rank"] for row in selectors.standings(t)] == [1, 2, 3, 3, 5, 5, 5, 5]
    api = APIClient().get(f"/api/tournaments/{t.pk}/standings/").json()
    assert [row["place"] for row in api] == places
    html = Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert html.count('<td class="rank">5–8</td>') == 4
    csv_text = Client().get(f"/tournaments/{t.pk}/export/standings.csv").content.decode("utf-8-sig")
    assert [line.split(",")[1] for line in csv_text.splitlines()[1:]] == places


@pytest.mark.django_db
def test_the_api_player_is_the_handle_everywhere_and_name_the_shown_name():
    t, players = club_event(n=4)
    guest = entrant_services.add_guest(tournament=t, name="Jana Nováková", by=t.organiser)
    handles = {p.name for p in players} | {guest.player.name}
    client = APIClient()
    standings = client.get(f"/api/tournaments/{t.pk}/standings/").json()
    assert {row["player"] for row in standings} == handles
    assert {row["name"] for row in standings} >= {"Jana Nováková"}
    rounds = client.get(f"/api/tournaments/{t.pk}/rounds/").json()
    seats = [s for table in rounds[0]["tables"] for s in table["seats"]]
    assert {s["player"] for s in seats} <= handles and all("name" in s for s in seats)
    rows = forecast.for_tournament(t) or []
    assert {row["player"] for row in rows} <= handles


@pytest.mark.django_db
def test_an_unrated_event_shows_no_rating():
    t, _players = club_event(n=4, tiebreaks=["buchholz", "rating"])
    t.rated = False
    t.save(update_fields=["rated"])
    services.record_result(table=tables_of(t, 1)[0], ranks=[1, 2])
    t.refresh_from_db()
    assert all("rating" not in row["tiebreaks"] for row in selectors.standings(t))
    api = APIClient().get(f"/api/tournaments/{t.pk}/standings/").json()
    assert all("rating" not in row["tiebreaks"] for row in api)
    html = Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert "Elo rating when the tournament started." not in html


@pytest.mark.django_db
def test_the_standings_read_in_czech():
    t, _players = club_event(n=4)
    services.record_result(table=tables_of(t, 1)[0], ranks=[1, 2])
    with translation.override("cs"):
        html = Client(HTTP_ACCEPT_LANGUAGE="cs").get(f"/tournaments/{t.pk}/").content.decode()
    head = html[html.index('class="grid standings"') :]
    head = head[: head.index("</thead>")]
    for english in ("Entrant", "Points", "Played", "Average place", "Head to head", "Sum of"):
        assert english not in head, english
    assert "Body" in head and "Hráč" in head


@pytest.mark.django_db
def test_a_withdrawn_player_is_never_first_on_the_page():
    t, players = club_event(n=4)
    table = tables_of(t, 1)[0]
    winner = table.seats.order_by("index")[0].entry
    for tb in tables_of(t, 1):
        services.record_result(table=tb, ranks=[1, 2])
    services.withdraw_entry(entry=winner)
    t.refresh_from_db()
    rows = selectors.standings(t)
    assert rows[0]["entry"] != winner.pk and rows[-1]["entry"] == winner.pk
