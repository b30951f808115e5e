"""Season standings on hand-made rows (clubs.standings is pure: no database).

Players are 1..5, events 10, 20, 30. Every expected number is worked out by hand in the
comments next to it."""

import pytest

from clubs.standings import (
    DEFAULT_PLACE_POINTS,
    EventResult,
    place_score,
    season_standings,
)

R = EventResult

# Three events:
#   event 10: 1st p1 (4 pts), 2nd p2 (3), 3rd p3 (2), 4th p4 (1)
#   event 20: 1st p2 (5), 2nd p3 (4), 3rd p1 (1)
#   event 30: 1st p3 (3), 2nd p1 (2.5)
THREE_EVENTS = [
    R(10, 1, 4, 1), R(10, 2, 3, 2), R(10, 3, 2, 3), R(10, 4, 1, 4),
    R(20, 2, 5, 1), R(20, 3, 4, 2), R(20, 1, 1, 3),
    R(30, 3, 3, 1), R(30, 1, 2.5, 2),
]  # fmt: skip


def _by_player(rows):
    return {r.player: r for r in rows}


def test_sum_adds_every_event():
    rows = season_standings(THREE_EVENTS, rule="sum")
    # p1: 4 + 1 + 2.5 = 7.5; p2: 3 + 5 = 8; p3: 2 + 4 + 3 = 9; p4: 1
    assert [(r.player, r.score, r.rank) for r in rows] == [
        (3, 9, 1),
        (2, 8, 2),
        (1, 7.5, 3),
        (4, 1, 4),
    ]
    p1 = _by_player(rows)[1]
    assert (p1.events, p1.counted, p1.wins) == (3, 3, 1)
    assert all(s.counted for s in p1.history)


def test_best_n_counts_only_the_best_events():
    rows = season_standings(THREE_EVENTS, rule="best", best_n=2)
    # p1's events 4, 1, 2.5 -> best two 4 + 2.5 = 6.5; p2: 5 + 3 = 8; p3: 4 + 3 = 7; p4: 1
    assert [(r.player, r.score) for r in rows] == [(2, 8), (3, 7), (1, 6.5), (4, 1)]
    p1 = _by_player(rows)[1]
    assert p1.counted == 2 and p1.events == 3
    assert {s.event: s.counted for s in p1.history} == {10: True, 20: False, 30: True}


def test_best_one():
    rows = season_standings(THREE_EVENTS, rule="best", best_n=1)
    # best single event: p2 5, p1 4, p3 4, p4 1; p1 and p3 level on 4, one win each;
    # head-to-head p1 v p3: shared events 10 (p1 1st, p3 3rd), 20 (p3 2nd, p1 3rd),
    # 30 (p3 1st, p1 2nd) -> p3 above p1 in 2, p1 above p3 in 1: p3 ahead.
    assert [(r.player, r.score, r.head_to_head) for r in rows] == [
        (2, 5, 0),
        (3, 4, 2),
        (1, 4, 1),
        (4, 1, 0),
    ]
    assert [r.rank for r in rows] == [1, 2, 3, 4]


def test_places_use_the_points_table_and_nothing_beyond():
    rows = season_standings(THREE_EVENTS, rule="places", place_points=[10, 6, 3])
    # p1: 1st 10 + 3rd 3 + 2nd 6 = 19; p2: 2nd 6 + 1st 10 = 16;
    # p3: 3rd 3 + 2nd 6 + 1st 10 = 19; p4: 4th, beyond the table: 0.
    # p1 and p3 level on 19 and on wins (1 each); head-to-head as above: p3 2, p1 1.
    assert [(r.player, r.score) for r in rows] == [(3, 19), (1, 19), (2, 16), (4, 0)]
    assert _by_player(rows)[4].counted == 1  # the event counts, for nothing


def test_places_default_to_formula_one():
    rows = season_standings([R(10, 1, 0, 1), R(10, 2, 0, 2), R(10, 3, 0, 11)], rule="places")
    assert DEFAULT_PLACE_POINTS[:2] == (25, 18)
    # 1st 25, 2nd 18, 11th beyond the ten places: 0
    assert [(r.player, r.score) for r in rows] == [(1, 25), (2, 18), (3, 0)]


def test_shared_places_share_the_points_of_the_places_they_span():
    # An elimination's 3rd-4th place: p3 and p4 both at place 3.
    rows = season_standings(
        [R(10, 1, 0, 1), R(10, 2, 0, 2), R(10, 3, 0, 3), R(10, 4, 0, 3)], rule="places"
    )
    # (15 + 12) / 2 = 13.5 each; still level after wins (0), head-to-head (neither above
    # the other), rating (none): they share 3rd place.
    assert [(r.player, r.score, r.rank) for r in rows] == [
        (1, 25, 1),
        (2, 18, 2),
        (3, 13.5, 3),
        (4, 13.5, 3),
    ]
    assert place_score(1, 3, [9, 6, 3]) == 6  # three share 1st: (9 + 6 + 3) / 3
    assert place_score(2, 2, [9, 6]) == 3  # 2nd and 3rd: (6 + 0) / 2


def test_more_event_wins_break_a_tie_before_head_to_head():
    rows = season_standings(
        [
            R(10, 1, 4, 1), R(10, 2, 2, 2),  # p1 wins event 10, above p2
            R(20, 3, 5, 1), R(20, 2, 2, 2), R(20, 1, 1, 3),  # p2 above p1
            R(30, 3, 5, 1), R(30, 2, 1, 2), R(30, 1, 0, 3),  # p2 above p1
        ],
        rule="sum",
    )  # fmt: skip
    by = _by_player(rows)
    # p1: 4 + 1 + 0 = 5; p2: 2 + 2 + 1 = 5; p3: 5 + 5 = 10.
    assert (by[1].score, by[2].score, by[3].score) == (5, 5, 10)
    # p1 and p2 level on 5; wins: p1 one (event 10), p2 none: p1 ahead, although p2
    # placed above p1 in two of their three shared events (not level on wins, so no
    # head-to-head is asked: both 0).
    assert [r.player for r in rows] == [3, 1, 2]
    assert (by[1].wins, by[2].wins) == (1, 0)
    assert by[1].head_to_head == 0 and by[2].head_to_head == 0


def test_head_to_head_among_three_level_players():
    # p1, p2, p3 all on 4 points and one win each:
    #   event 10: p1 1st (2), p2 2nd (1), p3 3rd (1)
    #   event 20: p2 1st (2), p1 2nd (1), p3 3rd (0)
    #   event 30: p3 1st (3), p1 2nd (1), p2 3rd (1)
    rows = season_standings(
        [R(10, 1, 2, 1), R(10, 2, 1, 2), R(10, 3, 1, 3),
         R(20, 2, 2, 1), R(20, 1, 1, 2), R(20, 3, 0, 3),
         R(30, 3, 3, 1), R(30, 1, 1, 2), R(30, 2, 1, 3)],
        rule="sum",
    )  # fmt: skip
    by = _by_player(rows)
    assert {p: (r.score, r.wins) for p, r in by.items()} == {1: (4, 1), 2: (4, 1), 3: (4, 1)}
    # placed above the others: p1 above p2 in 10, 30 and above p3 in 10, 20 -> 4;
    # p2 above p1 in 20, above p3 in 10, 20 -> 3; p3 above p1 and p2 in 30 -> 2.
    assert [(r.player, r.head_to_head, r.rank) for r in rows] == [(1, 4, 1), (2, 3, 2), (3, 2, 3)]


def test_rating_breaks_what_head_to_head_leaves_level():
    # p1 and p2 never met: level on score 3, wins 0, head-to-head 0; p2's rating is higher.
    rows = season_standings(
        [R(10, 1, 3, 2), R(10, 9, 5, 1), R(20, 2, 3, 2), R(20, 9, 4, 1)],
        rule="sum", ratings={1: 1510.0, 2: 1600.0},
    )  # fmt: skip
    # p9: 5 + 4 = 9 first; then p2 (1600) before p1 (1510).
    assert [(r.player, r.rank) for r in rows] == [(9, 1), (2, 2), (1, 3)]


def test_a_guest_without_rating_comes_after_a_rated_player():
    rows = season_standings(
        [R(10, 1, 3, 2), R(20, 2, 3, 2)], rule="sum", ratings={1: 1400.0}
    )  # p2 has no rating (a guest)
    assert [r.player for r in rows] == [1, 2]
    assert [r.rank for r in rows] == [1, 2]


def test_running_events_make_a_row_provisional():
    rows = season_standings([R(10, 1, 3, 1), R(20, 1, 2, 1, final=False), R(10, 2, 1, 2)],
                            rule="sum")  # fmt: skip
    by = _by_player(rows)
    assert by[1].provisional is True and by[1].score == 5
    assert by[2].provisional is False


def test_unknown_rule_is_refused():
    with pytest.raises(ValueError):
        season_standings([], rule="average")


def test_no_results_no_rows():
    assert season_standings([], rule="places") == []
