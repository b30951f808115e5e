"""Double elimination on the database: the losers'-bracket finalist winning the grand final
gets the reset match the format promises; the winners' champion winning it ends the event."""

import pytest

from tests.tournaments.factories import tournament_with_bots
from tournaments import selectors, services
from tournaments.models import Table, TableStatus, TournamentStatus

pytestmark = pytest.mark.django_db


def _play(t, grand_final_winner_seat: int, reset_winner_seat: int = 0, typed: bool = False):
    """Type in every table over the board: the first seat wins, except in the grand final
    (``grand_final_winner_seat``) and its reset (``reset_winner_seat``)."""
    services.start_tournament(tournament=t)
    for _ in range(30):
        t.refresh_from_db()
        if t.status == TournamentStatus.FINISHED:
            return
        for table in Table.objects.filter(round__tournament=t, status=TableStatus.PLAYING):
            winner = {"GF": grand_final_winner_seat, "GF2": reset_winner_seat}.get(table.bracket, 0)
            ranks = [1 if i == winner else 2 for i in range(table.seats.count())]
            if typed:  # the organiser's path: scores typed in, ranks from the game's rules
                services.record_over_the_board_result(
                    table=table, scores=[60 if r == 1 else 40 for r in ranks]
                )
                continue
            services.record_result(
                table=table, ranks=ranks, scores=[10 if r == 1 else 3 for r in ranks]
            )
        services.advance_tournament(tournament_id=t.pk)
    raise AssertionError("the tournament did not finish")


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8])
def test_losers_finalist_winning_the_grand_final_plays_the_reset(n):
    t = tournament_with_bots(n=n, format="double_elimination", config={"table_size": 2},
                             over_the_board=True, rated=False)  # fmt: skip
    _play(t, grand_final_winner_seat=1, reset_winner_seat=0)
    brackets = [
        tb.bracket for tb in Table.objects.filter(round__tournament=t).order_by("round__number")
    ]
    assert brackets.count("GF") == 1 and brackets.count("GF2") == 1
    gf = Table.objects.get(round__tournament=t, bracket="GF")
    gf2 = Table.objects.get(round__tournament=t, bracket="GF2")
    gf_seats = [s.entry_id for s in gf.seats.order_by("index")]
    gf2_seats = [s.entry_id for s in gf2.seats.order_by("index")]
    assert gf2_seats == gf_seats[::-1]  # the grand final's winner (losers' champion) first
    # The reset's winner (seat 0 = the losers' champion) is the champion.
    rows = selectors.standings(t)
    assert rows[0]["entry"] == gf2_seats[0] and rows[0]["rank"] == 1
    assert rows[1]["entry"] == gf2_seats[1] and rows[1]["rank"] == 2


@pytest.mark.parametrize(
    ("config", "winner_seat"),
    [
        pytest.param({}, 0, id="the-winners-champion-wins"),
        pytest.param({"grand_final_reset": False}, 1, id="the-organiser-turned-the-reset-off"),
    ],
)
def test_grand_final_ends_it_without_a_reset(config, winner_seat):
    """No reset when the winners' champion wins it, nor when the organiser turned it off."""
    t = tournament_with_bots(n=4, format="double_elimination",
                             config={"table_size": 2, **config},
                             over_the_board=True, rated=False)  # fmt: skip
    _play(t, grand_final_winner_seat=winner_seat)
    assert not Table.objects.filter(round__tournament=t, bracket="GF2").exists()
    gf = Table.objects.get(round__tournament=t, bracket="GF")
    assert selectors.standings(t)[0]["entry"] == gf.seats.get(index=winner_seat).entry_id


def test_reset_follows_a_typed_in_yspahan_grand_final():
    t = tournament_with_bots(n=4, game="yspahan", format="double_elimination",
                             config={"table_size": 2}, over_the_board=True, rated=False)  # fmt: skip
    _play(t, grand_final_winner_seat=1, reset_winner_seat=1, typed=True)
    gf2 = Table.objects.get(round__tournament=t, bracket="GF2")
    assert gf2.result["scores"] == [40, 60]
    # The reset's seat 1 (the winners' champion) won it back: champion after all.
    assert selectors.standings(t)[0]["entry"] == gf2.seats.get(index=1).entry_id
