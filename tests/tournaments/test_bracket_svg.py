"""The bracket picture: boxes per table, winner lines, both brackets of a double elimination."""

import xml.etree.ElementTree as ET

import pytest
from django.test import Client

from tests.tournaments.factories import tournament_with_bots
from tournaments import bracket_svg, selectors, services
from tournaments.models import Round, RoundStatus, TournamentStatus

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"


def _tournament(n, format="single_elimination", **config):
    t = tournament_with_bots(
        n=n, format=format, config={"table_size": 2, **config}, over_the_board=True,
        auto_advance=False,
    )  # fmt: skip
    services.start_tournament(tournament=t)
    return t


def _picture(t):
    t.refresh_from_db()
    svg = str(bracket_svg.render(selectors.bracket(t)))
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg"
    return root


def _boxes(root):
    return [r for r in root.iter(f"{SVG}rect") if r.get("class") == "bk-box"]


def _links(root):
    return [p for p in root.iter(f"{SVG}path") if p.get("class") == "bk-link"]


def _texts(root, cls):
    return [t.text for t in root.iter(f"{SVG}text") if cls in (t.get("class") or "").split()]


def _play_round(t):
    """Start the current round and record every table: seats finish in seat order, so the
    better seed wins."""
    t.refresh_from_db()
    rnd = Round.objects.get(tournament=t, number=t.current_round)
    if rnd.status == RoundStatus.PAIRED:
        services.start_round(round_=rnd)
    for table in rnd.tables.all():
        n = table.seats.count()
        ranks = list(range(1, n + 1))  # seat 0 (the better seed) first
        services.record_result(table=table, ranks=ranks, scores=[10 * (n - r) for r in ranks])
    services.pair_next_round(tournament=t)
    t.refresh_from_db()


def test_eight_entrant_single_elimination_is_a_tree_of_seven_tables():
    t = _tournament(8)
    root = _picture(t)
    assert len(_boxes(root)) == 7 and len(_links(root)) == 6
    assert _texts(root, "bk-column") == ["Quarterfinals", "Semifinals", "Final"]
    # Tables to come say where their players come from.
    assert "winner of QF 1" in _texts(root, "bk-seat")
    # Every link runs from a box to a box one column to its right.
    keys = {g.get("data-key") for g in root.iter(f"{SVG}g") if g.get("data-key")}
    assert {(p.get("data-from"), p.get("data-to")) for p in _links(root)} == {
        ("W-1-0", "W-2-0"), ("W-1-1", "W-2-0"), ("W-1-2", "W-2-1"), ("W-1-3", "W-2-1"),
        ("W-2-0", "W-3-0"), ("W-2-1", "W-3-0"),
    }  # fmt: skip
    assert {"W-1-0", "W-2-1", "W-3-0"} <= keys


def test_results_fill_the_next_tables_and_mark_the_winners():
    t = _tournament(8)
    _play_round(t)
    root = _picture(t)
    assert len(_boxes(root)) == 7
    won = _texts(root, "bk-won")
    assert len(won) == 4  # the quarterfinal winners, bold
    seats = _texts(root, "bk-seat")
    assert not any(s.startswith("winner of QF") for s in seats)
    assert "winner of SF 1" in seats
    _play_round(t)
    _play_round(t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    root = _picture(t)
    assert len(_boxes(root)) == 7 and len(_texts(root, "bk-won")) == 7
    assert not any(s.startswith("winner of") for s in _texts(root, "bk-seat"))


def test_six_entrants_the_byes_are_not_drawn_and_the_top_seeds_wait_in_the_semifinals():
    t = _tournament(6)
    root = _picture(t)
    # Bracket of 8: two byes; two first-round tables, two semifinals, the final.
    assert len(_boxes(root)) == 5 and len(_links(root)) == 4
    seeds = [e.player.name for e in t.entries.order_by("seed", "-rating", "id")]
    seats = _texts(root, "bk-seat")
    assert seeds[0] in seats and seeds[1] in seats  # already in their semifinals
    assert sum(1 for s in seats if s.startswith("winner of")) == 4


def test_third_place_match_sits_under_the_final():
    t = _tournament(8, third_place=True)
    root = _picture(t)
    assert len(_boxes(root)) == 8 and len(_links(root)) == 6
    assert "loser of SF 1" in _texts(root, "bk-seat")


def test_double_elimination_draws_both_brackets_and_the_grand_finals():
    t = _tournament(8, format="double_elimination")
    root = _picture(t)
    # Winners 4+2+1, losers 2+2+1+1, grand final, reset (dashed: only if needed).
    assert len(_boxes(root)) == 15
    # Winner lines: W 4+2, W final -> GF, L 2+2+1, L final -> GF, GF -> reset.
    assert len(_links(root)) == 14
    assert _texts(root, "bk-band") == ["Winners' bracket", "Losers' bracket"]
    dashed = [r for r in _boxes(root) if r.get("stroke-dasharray")]
    assert len(dashed) == 1
    assert "loser of W1 · 1" in _texts(root, "bk-seat")


def test_double_elimination_to_the_end_without_a_reset():
    t = _tournament(8, format="double_elimination")
    for _ in range(12):
        if t.status == TournamentStatus.FINISHED:
            break
        _play_round(t)  # the better seed always wins: the winners' champion takes the final
    assert t.status == TournamentStatus.FINISHED
    root = _picture(t)
    assert len(_boxes(root)) == 14  # the reset was not needed
    assert len(_links(root)) == 13
    assert not any(s.startswith(("winner of", "loser of")) for s in _texts(root, "bk-seat"))


def test_six_entrant_double_elimination_leaves_out_the_bye_tables():
    t = _tournament(6, format="double_elimination")
    root = _picture(t)
    # W: 2 first-round tables + 2 + 1; L: round 1 is all byes, then 2 + 1 + 1; GF, reset.
    assert len(_boxes(root)) == 11 and len(_links(root)) == 10


def test_multiplayer_elimination_draws_the_tables_paired_so_far():
    t = tournament_with_bots(
        n=16, format="single_elimination", config={"table_size": 4, "advance": 1},
        over_the_board=True, auto_advance=False,
    )  # fmt: skip
    services.start_tournament(tournament=t)
    assert len(_boxes(_picture(t))) == 4 and not _links(_picture(t))
    _play_round(t)
    root = _picture(t)
    # Four first-round tables whose winners meet at the final table.
    assert len(_boxes(root)) == 5 and len(_links(root)) == 4
    assert len(_texts(root, "bk-won")) == 4


def test_the_live_fragment_carries_the_picture_and_organisers_keep_their_tables():
    t = _tournament(8)
    page = Client().get(f"/tournaments/{t.pk}/live/")
    assert b'<svg xmlns="http://www.w3.org/2000/svg" class="bracket-svg"' in page.content
    assert b'hx-get="/tournaments/' in page.content  # still polls
    assert b"table-card" not in page.content  # viewers: the picture says it all
    swiss = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 2})
    services.start_tournament(tournament=swiss)
    assert b"bracket-svg" not in Client().get(f"/tournaments/{swiss.pk}/live/").content


def test_names_are_escaped():
    box = bracket_svg.Box(key="a", band="W", column=0, label="<R1>",
                          seats=[bracket_svg.Seat('Tom & "Jerry" <b>'), bracket_svg.Seat("x")])  # fmt: skip
    root = ET.fromstring(str(bracket_svg.render(bracket_svg.Bracket(boxes=[box], links=[]))))
    assert 'Tom & "Jerry" <b>' in _texts(root, "bk-seat")


def test_nothing_to_draw_before_the_start():
    t = tournament_with_bots(n=4, format="single_elimination", config={"table_size": 2})
    assert selectors.bracket(t) is None and bracket_svg.render(None) == ""
