"""Multiplayer Swiss rounds keep the score-group rules (swiss.py, "Three to five seats").

Over random events (5-30 entrants, tables of 3-5, 3-6 rounds, random results, late
entrants, withdrawals, a few forbidden pairs), every generated round is checked
against the standings it was paired from. Positions are the standings order of the
seated players; table i (in the round's order) owns the next ``len(table)`` positions
(the plain cut), and a position's group is the score group of the player the cut puts
there. A player's *offset* is found by sorting a table's members by group and matching
them to its positions' groups, sorted.

1. Sizes: the fewest byes, then the fewest tables, then the fewest players at smaller
   tables (``swiss_table_sizes``), the larger tables first, so that the smaller ones own
   the last positions: the lowest score group.
2. Every active entrant is seated once or has the bye; nobody inactive is used.
3. Offsets are 0 or 1 in size: a player sits in its own group's places or floats to the
   next group up or down, never further. So the smaller tables seat the lowest group
   (or players floating one group from it).
4. Groups first: if p and q share a group, q sits at a later table than p, and p's table
   seats r from a lower group, then one of p, q, r floats.
5. No avoidable rematch: no exchange of two players between two tables lowers
   (forbidden pairs, earlier meetings, floats) lexicographically. In particular a float
   is only made when it removes a rematch, and no exchange inside a score group removes
   a rematch without making another.
6. A score group filling tables of its own (their places and their members all the
   group's) holds a rematch there only when no grouping of those players into those
   tables is free of one (exhaustive search).
"""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import Config, Entrant, Swiss, compute_standings
from tournaments.formats.common import (
    History,
    active_ids,
    pair,
    pair_keys,
    seeding_order,
    swiss_table_sizes,
)

from .sim import SETTINGS, check_round, finish, make_entrants, valid
from .test_swiss_quality import all_groupings, clean


def cost(tables, groups, slots, met, forbidden) -> tuple[int, int, int]:
    """(forbidden pairs, earlier meetings, floats) of a round."""
    bad = rematches = floats = 0
    for t, places in zip(tables, slots, strict=True):
        for a, b in combinations(t, 2):
            bad += pair(a, b) in forbidden
            rematches += met.get(pair(a, b), 0)
        for e, g in zip(sorted(t, key=groups.__getitem__), places, strict=True):
            floats += groups[e] != g
    return bad, rematches, floats


def offsets(table, groups, places) -> dict[int, int]:
    return {
        e: groups[e] - g for e, g in zip(sorted(table, key=groups.__getitem__), places, strict=True)
    }


def check_multiplayer_round(fmt, entrants, played, rnd) -> None:
    config = fmt.config
    number = rnd.number
    active = active_ids(entrants, number)
    # 2. everyone active seated once or given the bye (check_round: nobody twice, no inactive)
    check_round(rnd, entrants, config, number)
    assert {e for t in rnd.tables for e in t.seats} | set(rnd.byes) == active
    seed_index = {e.id: i for i, e in enumerate(seeding_order(entrants))}
    rows = compute_standings(entrants, played, config)
    rank = {r.entrant: r.rank for r in rows}
    points = {r.entrant: r.points for r in rows}
    order = sorted(active, key=lambda e: (-points[e], rank[e], seed_index[e]))
    seated = [e for e in order if e not in set(rnd.byes)]
    # 1. sizes, larger first
    sizes = [len(t.seats) for t in rnd.tables]
    expected, nbyes = swiss_table_sizes(len(order), config.table_size, config.smallest_table)
    assert sizes == expected and len(rnd.byes) == nbyes
    values = sorted({points[e] for e in seated}, reverse=True)
    groups = {e: values.index(points[e]) for e in seated}
    slots, at = [], 0
    for s in sizes:
        slots.append(sorted(groups[e] for e in seated[at : at + s]))
        at += s
    tables = [list(t.seats) for t in rnd.tables]
    # 3. floats go one group at most
    off: dict[int, int] = {}
    table_of: dict[int, int] = {}
    for ti, t in enumerate(tables):
        off.update(offsets(t, groups, slots[ti]))
        table_of.update(dict.fromkeys(t, ti))
    assert all(abs(d) <= 1 for d in off.values()), (tables, slots)
    if number == 1:
        return  # one score group: the seeding rules (example tests)
    # 4. groups first
    for ti, t in enumerate(tables):
        for p in t:
            for r in t:
                if groups[r] <= groups[p]:
                    continue
                for q in seated:
                    if groups[q] == groups[p] and table_of[q] > ti:
                        assert off[p] or off[q] or off[r], (p, q, r, tables, slots)
    # 5. no exchange lowers (forbidden, rematches, floats)
    met = History.of(played).met
    forbidden = pair_keys(config.forbidden)
    per_table = [cost([t], groups, [slots[ti]], met, forbidden) for ti, t in enumerate(tables)]
    for ti, tj in combinations(range(len(tables)), 2):
        if not any(per_table[ti]) and not any(per_table[tj]):
            continue  # costs are never negative: nothing to gain
        before = tuple(x + y for x, y in zip(per_table[ti], per_table[tj], strict=True))
        for x in range(len(tables[ti])):
            for y in range(len(tables[tj])):
                a, b = list(tables[ti]), list(tables[tj])
                a[x], b[y] = b[y], a[x]
                if any(
                    abs(d) > 1
                    for d in (*offsets(a, groups, slots[ti]).values(),
                              *offsets(b, groups, slots[tj]).values())
                ):  # fmt: skip
                    continue
                after = cost([a, b], groups, [slots[ti], slots[tj]], met, forbidden)
                assert after >= before, (tables[ti], tables[tj], a, b, before, after)
    # 6. a group's own tables: rematch-free whenever they can be
    bad = set(forbidden) | {k for k, v in met.items() if v}
    own: dict[int, list[int]] = {}
    for ti, t in enumerate(tables):
        g = slots[ti][0]
        if slots[ti][-1] == g and all(groups[e] == g for e in t):
            own.setdefault(g, []).append(ti)
    for block in own.values():
        members = [e for ti in block for e in tables[ti]]
        if all(clean(tables[ti], bad) for ti in block) or len(members) > 12:
            continue
        block_sizes = [len(tables[ti]) for ti in block]
        assert not any(
            all(clean(t, bad) for t in g) for g in all_groupings(members, block_sizes)
        ), (block, tables)


@settings(SETTINGS, max_examples=500)
@given(
    n=st.integers(5, 30),
    size=st.integers(3, 5),
    rounds=st.integers(3, 6),
    seed=st.integers(0, 10**6),
    withdrawals=st.integers(0, 3),
    late=st.integers(0, 2),
    nforbidden=st.integers(0, 2),
    seeding=st.sampled_from(["snake", "random"]),
)
def test_random_events_keep_the_rules(
    n, size, rounds, seed, withdrawals, late, nforbidden, seeding
):
    rng = random.Random(seed)
    entrants = make_entrants(n, rng, withdrawals=withdrawals, late=late)
    ids = [e.id for e in entrants]
    forbidden = frozenset(frozenset(rng.sample(ids, 2)) for _ in range(nforbidden))
    fmt = Swiss(Config(table_size=size, rounds=rounds, forbidden=forbidden, seeding=seeding))
    if not valid(fmt, entrants):
        return
    played = []
    while (rnd := fmt.next_round(entrants, played, seed=seed)) is not None:
        check_multiplayer_round(fmt, entrants, played, rnd)
        played.append(finish(rnd, rng))
    assert len(played) == rounds


def test_the_checks_catch_a_leader_seated_with_the_last():
    # The checks can fail: swapping a 0-point player into the leaders' table breaks rule 3/4.
    entrants = [Entrant(i, rating=2000 - i) for i in range(1, 13)]
    fmt = Swiss(Config(table_size=4, rounds=3))
    rng = random.Random(1)
    played = [finish(fmt.next_round(entrants, []), rng, tie=0, forfeit=0)]
    rnd = fmt.next_round(entrants, played)
    check_multiplayer_round(fmt, entrants, played, rnd)
    first, last = list(rnd.tables[0].seats), list(rnd.tables[-1].seats)
    first[0], last[0] = last[0], first[0]
    broken = rnd.__class__(
        rnd.number,
        (rnd.tables[0].__class__(tuple(first)), *rnd.tables[1:-1],
         rnd.tables[-1].__class__(tuple(last))),
        rnd.byes,
    )  # fmt: skip
    try:
        check_multiplayer_round(fmt, entrants, played, broken)
    except AssertionError:
        return
    raise AssertionError("the broken round passed the checks")
