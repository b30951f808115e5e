"""Swiss pairing quality against exhaustive searches on small fields.

Four seats: no avoidable repeat meeting (and the exact fallback's own optimum).
Two seats: no avoidable break of the absolute colour rules among the pairings of
the same score quality.
"""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tournaments.formats import (
    Config,
    Entrant,
    Round,
    Swiss,
    Table,
    compute_standings,
    table_sizes,
)
from tournaments.formats.common import History, pair
from tournaments.formats.regroup import conflict_free_grouping
from tournaments.formats.swiss import breaks_colour_rules, group_tables

from .sim import EXAMPLES, SETTINGS, random_result, simulate

# ---------------------------------------------------------------------------
# exhaustive searches (deliberately naive: every partition / every matching)


def all_groupings(players: list[int], sizes: list[int]):
    """Every partition of ``players`` into tables with the multiset of ``sizes``."""
    if not players:
        yield []
        return
    head, rest = players[0], players[1:]
    for s in sorted(set(sizes)):
        left = list(sizes)
        left.remove(s)
        for others in combinations(rest, s - 1):
            remaining = [p for p in rest if p not in others]
            for tail in all_groupings(remaining, left):
                yield [(head, *others), *tail]


def clean(table, bad: set[tuple[int, int]]) -> bool:
    return not any(pair(a, b) in bad for a, b in combinations(table, 2))


def all_matchings(players: list[int]):
    if not players:
        yield []
        return
    a = players[0]
    for i in range(1, len(players)):
        rest = players[1:i] + players[i + 1 :]
        for tail in all_matchings(rest):
            yield [(a, players[i]), *tail]


def random_history(ids: list[int], size: int, rounds: int, rng: random.Random) -> list[Round]:
    """Random earlier rounds (random tables, random results): dense, irregular histories."""
    played = []
    sizes, _ = table_sizes(len(ids), size, max(2, size - 1))
    for number in range(1, rounds + 1):
        order = list(ids)
        rng.shuffle(order)
        tables, at = [], 0
        for s in sizes:
            seats = tuple(order[at : at + s])
            tables.append(Table(seats, random_result(s, rng, 0.2, 0.0)))
            at += s
        played.append(Round(number, tuple(tables), tuple(order[at:])))
    return played


# ---------------------------------------------------------------------------
# the exact search itself


@SETTINGS
@given(
    n=st.integers(5, 12),
    size=st.integers(3, 4),
    density=st.floats(0.0, 0.7),
    seed=st.integers(0, 10**6),
)
def test_exact_search_equals_exhaustive(n, size, density, seed):
    rng = random.Random(seed)
    sizes, byes = table_sizes(n, size, size - 1)
    players = rng.sample(range(100), n - byes)
    bad = {pair(a, b) for a, b in combinations(players, 2) if rng.random() < density}
    conflicts: dict[int, set[int]] = {}
    for a, b in bad:
        conflicts.setdefault(a, set()).add(b)
        conflicts.setdefault(b, set()).add(a)
    rank = {p: i for i, p in enumerate(players)}
    spreads = [
        sum(max(rank[p] for p in t) - min(rank[p] for p in t) for t in g)
        for g in all_groupings(players, sizes)
        if all(clean(t, bad) for t in g)
    ]
    found = conflict_free_grouping(players, sizes, conflicts)
    assert found.complete
    if not spreads:
        assert found.tables is None
        return
    assert found.tables is not None and found.spread == min(spreads)
    assert sorted(p for t in found.tables for p in t) == sorted(players)
    assert sorted(len(t) for t in found.tables) == sorted(sizes)
    assert all(clean(t, bad) for t in found.tables)
    # a restart with another order finds a conflict-free grouping too
    shuffled = conflict_free_grouping(players, sizes, conflicts, jitter=8, improve=False)
    assert shuffled.tables is not None and all(clean(t, bad) for t in shuffled.tables)


# ---------------------------------------------------------------------------
# four seats: the format never leaves a repeat the score-group rules could avoid


def within_rules(tables, slots, groups) -> bool:
    """Whether the tables can take the cut's places (``slots``: per table of the cut, its
    places' groups sorted) with every player at most one group off (swiss.py's rule)."""
    tables = [sorted(groups[e] for e in t) for t in tables]

    def fits(i: int, free: list[int]) -> bool:
        if i == len(slots):
            return True
        for k in free:
            if (
                len(tables[k]) == len(slots[i])
                and all(abs(a - b) <= 1 for a, b in zip(tables[k], slots[i], strict=True))
                and fits(i + 1, [x for x in free if x != k])
            ):
                return True
        return False

    return fits(0, list(range(len(tables))))


@settings(SETTINGS, max_examples=4 * EXAMPLES)
@given(
    n=st.integers(8, 12),
    size=st.integers(3, 4),
    history_size=st.integers(2, 4),
    rounds=st.integers(1, 6),
    nforbidden=st.integers(0, 3),
    seed=st.integers(0, 10**6),
)
def test_multiplayer_round_is_repeat_free_whenever_the_rules_allow(
    n, size, history_size, rounds, nforbidden, seed
):
    # earlier rounds at tables of 2 to 4 seats: histories from sparse to dense
    rng = random.Random(seed)
    entrants = [Entrant(i, rating=rng.randint(1000, 2000)) for i in range(1, n + 1)]
    ids = [e.id for e in entrants]
    played = random_history(ids, min(size, history_size), rounds, rng)
    forbidden = frozenset(frozenset(rng.sample(ids, 2)) for _ in range(nforbidden))
    config = Config(table_size=size, rounds=rounds + 1, forbidden=forbidden)
    rnd = Swiss(config).next_round(entrants, played)
    seated = [e for t in rnd.tables for e in t.seats]
    assert sorted(seated + list(rnd.byes)) == ids
    sizes = [len(t.seats) for t in rnd.tables]
    assert sorted(sizes) == sorted(table_sizes(n, size, size - 1)[0])
    # the cut: the standings (points first) in tables of the round's sizes
    rows = {r.entrant: r for r in compute_standings(entrants, played, config)}
    order = sorted(seated, key=lambda e: (-rows[e].points, rows[e].rank))
    values = sorted({rows[e].points for e in seated}, reverse=True)
    groups = {e: values.index(rows[e].points) for e in seated}
    slots, at = [], 0
    for s in sizes:
        slots.append(sorted(groups[e] for e in order[at : at + s]))
        at += s
    assert within_rules([t.seats for t in rnd.tables], slots, groups)
    bad = set(History.of(played).met) | {pair(*sorted(f)) for f in forbidden}
    produced_clean = all(clean(t.seats, bad) for t in rnd.tables)
    exists = any(
        all(clean(t, bad) for t in g) and within_rules(g, slots, groups)
        for g in all_groupings(sorted(seated), list(sizes))
    )
    assert produced_clean == exists


def test_budget_exhausted_still_gives_a_valid_round():
    # 48 players who all met their neighbours in the standings many times: the fast
    # method leaves repeats; with a tiny budget the fallback stops early and the round
    # is still complete and no worse than the fast grouping
    rng = random.Random(3)
    order = list(range(48))
    points = dict.fromkeys(order, 0.0)
    played = []
    for number in range(1, 15):
        perm = list(order)
        for i in range(0, 48, 12):
            block = perm[i : i + 12]
            rng.shuffle(block)
            perm[i : i + 12] = block
        tables = tuple(
            Table(tuple(perm[i : i + 4]), random_result(4, rng, 0, 0)) for i in range(0, 48, 4)
        )
        played.append(Round(number, tables))
    history = History.of(played)

    def repeats(tables) -> int:
        return sum(1 for t in tables for a, b in combinations(t, 2) if history.met.get(pair(a, b)))

    fast, _ = group_tables(order, points, history, frozenset(), 4, 3, search_budget=0)
    for budget in (1, 50, 2_000, 100_000):
        tables, byes = group_tables(order, points, history, frozenset(), 4, 3, search_budget=budget)
        assert byes == [] and sorted(e for t in tables for e in t) == order
        assert all(len(t) == 4 for t in tables)
        assert repeats(tables) <= repeats(fast)
        # a step budget, not a clock: the same input gives the same round
        assert group_tables(order, points, history, frozenset(), 4, 3, search_budget=budget)[0] == (
            tables
        )
    assert repeats(group_tables(order, points, history, frozenset(), 4, 3)[0]) == 0


# ---------------------------------------------------------------------------
# two seats: colours


def colour_breaks(seats_by_player: dict[int, list[int]], table: tuple[int, int]) -> int:
    return sum(breaks_colour_rules(seats_by_player.get(e, []) + [s]) for s, e in enumerate(table))


def best_colour_breaks(seats_by_player, a: int, b: int) -> int:
    return min(colour_breaks(seats_by_player, (a, b)), colour_breaks(seats_by_player, (b, a)))


def check_colours_exhaustively(entrants, played, config, rnd, colours_first=False) -> None:
    """The round's (conflicts, score cost) is the least possible, and its colour
    breaks the fewest among the pairings with that (conflicts, score cost).
    ``colours_first``: conflicts, then colour breaks, then score cost."""
    history = History.of(played)
    points = {r.entrant: r.points for r in compute_standings(entrants, played, config)}
    forbidden = {pair(*sorted(f)) for f in config.forbidden}
    seats_by = {e: list(s) for e, s in history.two_seat.items()}

    def key(pairs):
        return (
            sum(pair(a, b) in forbidden for a, b in pairs),
            sum(history.met.get(pair(a, b), 0) for a, b in pairs),
            sum(round(abs(points[a] - points[b]) * 4) ** 2 for a, b in pairs),
        )

    seated = sorted(e for t in rnd.tables for e in t.seats)
    produced = [t.seats for t in rnd.tables]
    produced_breaks = sum(colour_breaks(seats_by, t) for t in produced)
    if colours_first:
        best = min(
            (*key(m)[:2], sum(best_colour_breaks(seats_by, a, b) for a, b in m), key(m)[2])
            for m in all_matchings(seated)
        )
        assert (*key(produced)[:2], produced_breaks, key(produced)[2]) == best
        return
    options = {}
    for m in all_matchings(seated):
        k = key(m)
        breaks = sum(best_colour_breaks(seats_by, a, b) for a, b in m)
        options[k] = min(options.get(k, breaks), breaks)
    assert key(produced) == min(options)
    assert produced_breaks == options[min(options)]


@SETTINGS
@given(
    n=st.integers(6, 9),
    rounds=st.integers(1, 7),
    nforbidden=st.integers(0, 2),
    seed=st.integers(0, 10**6),
    colours_first=st.booleans(),
)
@example(n=8, rounds=4, nforbidden=0, seed=1, colours_first=True)
def test_two_seats_no_avoidable_colour_break(n, rounds, nforbidden, seed, colours_first):
    rng = random.Random(seed)
    entrants = [Entrant(i, rating=rng.randint(1000, 2000)) for i in range(1, n + 1)]
    ids = [e.id for e in entrants]
    played = random_history(ids, 2, rounds, rng)
    forbidden = frozenset(frozenset(rng.sample(ids, 2)) for _ in range(nforbidden))
    config = Config(rounds=rounds + 1, forbidden=forbidden)
    fmt = Swiss(config)
    fmt.colours_first = colours_first
    rnd = fmt.next_round(entrants, played)
    check_colours_exhaustively(entrants, played, config, rnd, colours_first)


@SETTINGS
@given(n=st.integers(10, 20), seed=st.integers(0, 10**6))
def test_two_seat_events_break_colours_only_when_needed(n, seed):
    # whole simulated events: each round's seat orders are the best for its pairs, and
    # for fields up to 11 the pairing is checked against every possible one
    rng = random.Random(seed)
    entrants = [Entrant(i, rating=rng.randint(1000, 2000)) for i in range(1, n + 1)]
    config = Config(rounds=7)
    fmt = Swiss(config)
    played = simulate(fmt, entrants, rng, tie=0.2, forfeit=0.02)
    for i, rnd in enumerate(played):
        before = History.of(played[:i])
        seats_by = {e: list(s) for e, s in before.two_seat.items()}
        for t in rnd.tables:
            a, b = t.seats
            assert colour_breaks(seats_by, (a, b)) == best_colour_breaks(seats_by, a, b)
        if n <= 11:
            check_colours_exhaustively(entrants, played[:i], config, rnd)


def test_colour_rules():
    assert not breaks_colour_rules([0, 0, 1, 1])
    assert breaks_colour_rules([0, 1, 1, 1])  # three in a row
    assert breaks_colour_rules([0, 0, 1, 0, 0, 1, 0])  # difference 3
    assert not breaks_colour_rules([0, 1, 0, 0, 1, 0])  # difference 2
