"""Swiss system: a fixed number of rounds, each paired from the current standings.

Round count: ``Config.rounds``; by default ceil(log2 n) with two seats and
ceil(log_k n) with k seats (at least 1), n = the entrants listed from round 1.

Order: active entrants sorted by the standings (points, then the configured
tie-breaks), entrants level on all of those by seeding order (so round 1 is by
seed / rating).

Byes: when the active entrants can't all be seated, the bye(s) go to the
lowest-ranked entrants among those with the fewest byes so far (so nobody gets
a second bye while someone active has none). A bye is worth ``bye_points``.
Late entrants start with 0 points (no make-up byes); withdrawn entrants are
simply not paired.

Two seats
---------
Maximum-weight matching (``networkx.max_weight_matching``, maximum cardinality)
inside small windows of the standings, so that a round of 10,000 entrants is a
few hundred matchings of at most ~12 players (``WINDOW``):

- A field of up to ``GLOBAL`` (24) players is one matching, exact on every
  criterion below. Larger fields are cut into windows:
- Score groups (equal points) are processed from the top. A group of up to
  ``WINDOW`` players (with the players floating down from above) is one window; a
  larger one is cut into windows that each take a slice of its top half and the
  same slice of its bottom half, so the Dutch-style "top half against bottom
  half" pairing survives the cut.
- An odd window sets its lowest-ranked player aside (it floats down). In the
  rest, an edge is left out if the pair already met or is forbidden; weights
  prefer, lexicographically: small score differences (squared), then the
  absolute colour rules (nobody left with a seat difference over 2 or the same
  seat three times in a row), then the colour preferences (strong: unequal
  counts so far; mild: alternate from the last game), then the Dutch partner
  (i against i + g/2 in a score group of g) and, for a player floating down,
  the lowest of its group. Each pair's colour cost is that of its better seat
  order. ``Swiss.colours_first`` puts the absolute colour rules before the
  score differences, as FIDE's Dutch system does.
- Whoever stays unpaired floats down into the next window. If players are still
  unpaired at the bottom, the last windows are merged with them (1, 2, 4, ...
  windows) and re-matched; only if even the whole field has no pairing without a
  rematch / forbidden pair is one matching made with those edges heavily
  penalised: forbidden pairs first, then rematches, are kept to the minimum
  possible. So a rematch or forbidden pairing only happens when unavoidable (for
  the given bye).
- Seats: the order with the smaller colour cost (absolute rules, then
  preferences); when both cost the same, the higher-ranked player gets its
  preference, or seat 0 alternates by board (round 1).

Round 1 with ``Config.seeding`` "random": the seeding order shuffled with ``seed``
(the tournament's seed) first; otherwise a Swiss round is fully determined by the
standings.

Three to five seats
-------------------
The rules, in order (each decides among what the ones before leave open):

1. Table sizes (``common.swiss_table_sizes``): the fewest byes, then the fewest
   tables, then the fewest players at tables below the configured size. The larger
   tables come first down the standings, so the smaller ones go to the lowest score
   group (as TopDeck's pods of 3).
2. Byes: see above (the fewest byes so far, then the lowest ranked).
3. Round 1 (everyone on 0 points): "snake" deals the seeding order over the tables
   boustrophedon (1 2 3 / 6 5 4 / 7 8 9 ...), so the top seeds sit apart; "random"
   cuts the shuffled order. Later rounds start from the plain cut of the standings.
4. Score groups first: the cut gives every table its places, and each place the
   score group of the player the cut puts there. A player sits in its own group's
   places, or *floats* one group up or down; never further (a rematch is accepted
   rather than a float over two groups).
5. Then, lexicographically: the fewest forbidden pairs at a table, the fewest
   earlier meetings (rematches), the fewest floats, and a floating player the nearest
   to its group's edge (the lowest of a group floats down, the highest of the next
   one up). So a float is made only when it saves a rematch, and a rematch only when
   no grouping within rule 4 avoids it.

How: exchanges of two players between tables are made while one lowers that cost
(all pairs of tables an exchange could improve are looked at: no single exchange is
left that would). If a table still seats a rematch or forbidden pair, a score group
that fills tables of its own is regrouped by the exact search of ``regroup.py``, and
then, if needed, the whole round by a depth-first search table by table within rule
4 that finds a grouping without one whenever it exists (within
``Swiss.search_budget`` steps: deterministic; when the budget runs out the
exchanges' grouping stays). Seats rotate so that everybody sits at each seat about
equally often.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Sequence

import networkx as nx

from .common import (
    History,
    active_ids,
    assign_seats,
    check_common,
    check_played,
    pair,
    pair_keys,
    ranking_from_standings,
    seeding_order,
    swiss_table_sizes,
)
from .regroup import DEFAULT_BUDGET, conflict_free_grouping
from .standings import compute_standings
from .types import SEEDINGS, Config, Entrant, FormatError, Round, Table, gettext_noop

WINDOW = 12

# weights of a two-seat pairing edge (integers; larger is better)
# Lexicographic within a window: the score term dominates every colour term of a
# window of up to ~50 pairs, a broken absolute colour rule every preference term.
_BASE = 10**13
_SCORE_W = 10**7  # per (points difference * 4) squared
_ABSOLUTE_W = 100_000  # a player left with a seat difference over 2 or three in a row
_ABSOLUTE_FIRST_W = 10**11  # the same with Swiss.colours_first: above any score difference
_STRONG_W = 2_000  # a strong seat preference (unequal counts so far) not met
_MILD_W = 500  # a mild one (alternate from the last game) not met
_DUTCH_W = 2  # the Dutch partner (i against i + g/2 in a score group of g)
_FLOAT_W = 1  # who floats down out of a score group: the lowest ranked
GLOBAL = 24  # fields up to this size are paired in one matching (exact on all criteria)
_REMATCH = 10**15
_FORBIDDEN = 10**22


class Swiss:
    """Swiss system (see the module docstring)."""

    name = "swiss"
    # search steps the multiplayer fallback may spend per round (0: the fast method only)
    search_budget = DEFAULT_BUDGET
    # two seats: the absolute colour rules before score differences, as in FIDE's Dutch
    # system (False: only among the pairings of equal score cost)
    colours_first = False

    def __init__(self, config: Config):
        self.config = config

    def _rounds_for(self, entrants: Sequence[Entrant]) -> int:
        if self.config.rounds is not None:
            return self.config.rounds
        n = sum(1 for e in entrants if e.joined_round == 1)
        k = self.config.table_size
        if n < 2:
            return 1
        return max(1, math.ceil(math.log(n) / math.log(k) - 1e-9))

    def _minimum(self) -> int:
        return 2 if self.config.table_size == 2 else self.config.smallest_table

    def validate(self, entrants: list[Entrant]) -> None:
        check_common(self.config, entrants, self._minimum())
        if self.config.seeding not in SEEDINGS:
            raise FormatError(
                gettext_noop("Round-1 seeding is %(names)s, not %(name)s."),
                setting="seeding", names=" / ".join(SEEDINGS), name=repr(self.config.seeding),
            )  # fmt: skip
        if self.config.rounds is not None and self.config.rounds < 1:
            raise FormatError(
                gettext_noop("A Swiss tournament needs at least one round."), setting="rounds"
            )

    def total_rounds(self, entrants: list[Entrant]) -> int | None:
        return self._rounds_for(entrants)

    def next_round(
        self, entrants: list[Entrant], played: list[Round], seed: int = 0
    ) -> Round | None:
        check_played(entrants, played)
        number = len(played) + 1
        if number > self._rounds_for(entrants):
            return None
        active = active_ids(entrants, number)
        seed_index = {e.id: i for i, e in enumerate(seeding_order(entrants))}
        rows = compute_standings(entrants, played, self.config)
        rank = {row.entrant: row.rank for row in rows}
        points = {row.entrant: row.points for row in rows}
        # points first: the standings may rank an entrant who withdraws later below all
        order = sorted(active, key=lambda e: (-points[e], rank[e], seed_index[e]))
        history = History.of(played)
        if number == 1 and self.config.seeding == "random" and self.config.table_size == 2:
            random.Random(seed).shuffle(order)
        if self.config.table_size == 2:
            tables, byes = pair_two_seats(
                order, points, history, self.config.forbidden, self.colours_first
            )
        else:
            tables, byes = group_tables(
                order,
                points,
                history,
                self.config.forbidden,
                self.config.table_size,
                self.config.smallest_table,
                self.search_budget,
                first_round=number == 1,
                seeding=self.config.seeding,
                seed=seed,
            )
        return Round(
            number=number,
            tables=tuple(Table(seats=t) for t in tables),
            byes=tuple(byes),
            label=f"Round {number}",
        )

    def final_ranking(self, entrants: list[Entrant], played: list[Round]) -> list[list[int]]:
        return ranking_from_standings(entrants, played, self.config)


# ---------------------------------------------------------------------------
# byes


def choose_byes(order: Sequence[int], count: int, history: History) -> list[int]:
    """``count`` byes: the fewest byes so far, then the lowest ranked."""
    if count <= 0:
        return []
    position = {e: i for i, e in enumerate(order)}
    chosen = sorted(order, key=lambda e: (history.byes[e], -position[e]))[:count]
    return sorted(chosen, key=lambda e: position[e])


# ---------------------------------------------------------------------------
# two seats


def breaks_colour_rules(seats: Sequence[int]) -> bool:
    """Whether a two-seat history (0 = seat 0) breaks the absolute colour rules: a
    difference over 2 between seat-0 and seat-1 games, or one seat three times in a row."""
    diff = 2 * sum(1 for c in seats if c == 0) - len(seats)
    return abs(diff) > 2 or (len(seats) >= 3 and seats[-1] == seats[-2] == seats[-3])


class _Colours:
    """A player's seat ("colour") situation before the round, FIDE-Dutch style.

    ``bad[c]``: taking seat ``c`` would break an absolute rule (difference over 2,
    three in a row); ``want``: the preferred seat (None: no games yet) and
    ``strength`` 2 (strong: the difference is not 0) or 1 (mild: alternate).
    """

    __slots__ = ("bad", "strength", "want")

    def __init__(self, seats: Sequence[int]):
        diff = 2 * sum(1 for c in seats if c == 0) - len(seats)
        self.bad = tuple(
            abs(diff + (1 if c == 0 else -1)) > 2
            or (len(seats) >= 2 and seats[-1] == seats[-2] == c)
            for c in (0, 1)
        )
        if not seats:
            self.want, self.strength = None, 0
        elif diff:
            self.want, self.strength = (1 if diff > 0 else 0), 2
        else:
            self.want, self.strength = 1 - seats[-1], 1

    def cost(self, seat: int, absolute: int = 0) -> int:
        cost = absolute if self.bad[seat] else 0
        if self.want is not None and seat != self.want:
            cost += _STRONG_W if self.strength == 2 else _MILD_W
        return cost


class _TwoSeatPairer:
    def __init__(
        self,
        order: Sequence[int],
        points: dict[int, float],
        history: History,
        forbidden: frozenset[frozenset[int]],
        colours_first: bool = False,
    ):
        self.order = list(order)
        self.absolute = _ABSOLUTE_FIRST_W if colours_first else _ABSOLUTE_W
        self.points = points
        self.history = history
        self.forbidden = pair_keys(forbidden)
        self.rank = {e: i for i, e in enumerate(order)}
        self.colours = {e: _Colours(history.two_seat.get(e, ())) for e in order}
        self.seat_cost = {
            e: (c.cost(0, self.absolute), c.cost(1, self.absolute)) for e, c in self.colours.items()
        }
        # score groups: position in group and group size, for the Dutch preference
        self.group_pos: dict[int, tuple[int, int, int]] = {}
        self.groups: list[list[int]] = []
        for e in order:
            if self.groups and points[self.groups[-1][0]] == points[e]:
                self.groups[-1].append(e)
            else:
                self.groups.append([e])
        for gi, group in enumerate(self.groups):
            for i, e in enumerate(group):
                self.group_pos[e] = (gi, i, len(group))

    def conflict(self, a: int, b: int) -> int:
        cost = 0
        if pair(a, b) in self.forbidden:
            cost += _FORBIDDEN
        met = self.history.met.get(pair(a, b), 0)
        if met:
            cost += _REMATCH * met
        return cost

    def penalty(self, a: int, b: int) -> int:
        diff = round(abs(self.points[a] - self.points[b]) * 4)
        cost = _SCORE_W * diff * diff + self.colour_cost(a, b)[0]
        ga, ia, size = self.group_pos[a]
        gb, ib, size_b = self.group_pos[b]
        if ga == gb:
            cost += _DUTCH_W * abs(abs(ia - ib) - size // 2)
        elif ga < gb:  # a floats down: rather the lowest of its group
            cost += _FLOAT_W * (size - 1 - ia)
        else:
            cost += _FLOAT_W * (size_b - 1 - ib)
        return cost

    def colour_cost(self, a: int, b: int) -> tuple[int, int | None]:
        """The colour cost of the better seat order of a and b, and who then takes seat
        0 (None: both orders cost the same)."""
        a0, a1 = self.seat_cost[a]
        b0, b1 = self.seat_cost[b]
        a_first, b_first = a0 + b1, a1 + b0
        if a_first == b_first:
            return a_first, None
        return min(a_first, b_first), (a if a_first < b_first else b)

    def match(self, players: list[int], allow_conflicts: bool) -> tuple[list[tuple], list[int]]:
        """Pairs and unpaired players of one window.

        An odd window first sets its lowest-ranked player aside (it floats down);
        players the matching can't pair float down too.
        """
        ordered = sorted(players, key=self.rank.__getitem__)
        floaters: list[int] = []
        if len(ordered) % 2:
            floaters.append(ordered.pop())
        if len(ordered) < 2:
            return [], ordered + floaters
        n = len(ordered)
        base = 10 * _FORBIDDEN * (n + 1) if allow_conflicts else _BASE
        graph = nx.Graph()
        graph.add_nodes_from(ordered)
        for i, a in enumerate(ordered):
            for j in range(i + 1, n):
                b = ordered[j]
                conflict = self.conflict(a, b)
                if conflict and not allow_conflicts:
                    continue
                weight = base - conflict - self.penalty(a, b)
                # floats (exact below 2**53) spare networkx its integer optimality check
                graph.add_edge(a, b, weight=weight if allow_conflicts else float(weight))
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        matched = {e for m in matching for e in m}
        pairs = [tuple(sorted(m, key=self.rank.__getitem__)) for m in matching]
        left = [e for e in ordered if e not in matched] + floaters
        return pairs, sorted(left, key=self.rank.__getitem__)

    def windows(self, pending: list[int], group: list[int]) -> list[list[int]]:
        """The group cut into windows (players floating down are added by the caller)."""
        if len(pending) + len(group) <= WINDOW:
            return [group]
        half = len(group) // 2
        top, bottom = group[:half], group[half:]
        count = max(1, math.ceil(len(group) / WINDOW))
        out = []
        for j in range(count):
            lo_t, hi_t = len(top) * j // count, len(top) * (j + 1) // count
            lo_b, hi_b = len(bottom) * j // count, len(bottom) * (j + 1) // count
            out.append(top[lo_t:hi_t] + bottom[lo_b:hi_b])
        return out

    def pair_all(self) -> list[tuple[int, int]]:
        if len(self.order) <= GLOBAL:
            pairs, left = self.match(self.order, allow_conflicts=False)
            if left:
                pairs, left = self.match(self.order, allow_conflicts=True)
            if left:  # an odd player out can't happen (byes are removed first)
                raise FormatError(gettext_noop("Could not pair the round."))
            return pairs
        segments: list[tuple[list[int], list[tuple]]] = []
        pending: list[int] = []
        for group in self.groups:
            for window in self.windows(pending, group):
                players = pending + window
                pairs, pending = self.match(players, allow_conflicts=False)
                segments.append((players, pairs))
        span = 1
        while pending:
            span = min(span, len(segments))
            merged = list(pending)
            for players, _ in segments[-span:]:
                merged.extend(players)
            merged = list(dict.fromkeys(merged))
            everything = span >= len(segments)
            pairs, left = self.match(merged, allow_conflicts=False)
            if left and everything:
                pairs, left = self.match(merged, allow_conflicts=True)
            if not left:
                del segments[-span:]
                segments.append((merged, pairs))
                pending = []
            elif everything:  # an odd player out can't happen (byes are removed first)
                raise FormatError(gettext_noop("Could not pair the round."))
            span *= 2
        return [p for _, pairs in segments for p in pairs]

    def seat(self, pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
        tables = []
        pairs = sorted(pairs, key=lambda p: min(self.rank[p[0]], self.rank[p[1]]))
        for board, (a, b) in enumerate(pairs):
            if self.rank[b] < self.rank[a]:
                a, b = b, a
            _, first = self.colour_cost(a, b)
            if first is None:  # the higher ranked gets its preference, else alternate by board
                wa, wb = self.colours[a].want, self.colours[b].want
                if wa is not None:
                    first = a if wa == 0 else b
                elif wb is not None:
                    first = b if wb == 0 else a
                else:
                    first = a if board % 2 == 0 else b
            tables.append((first, b if first == a else a))
        return tables


def pair_two_seats(
    order: Sequence[int],
    points: dict[int, float],
    history: History,
    forbidden: frozenset[frozenset[int]] = frozenset(),
    colours_first: bool = False,
) -> tuple[list[tuple[int, int]], list[int]]:
    """Tables (seat order) and byes of a two-seat Swiss round; ``order`` is best first.

    ``colours_first``: breaking an absolute colour rule costs more than any score
    difference (FIDE Dutch); otherwise the rules decide among equal score costs.
    """
    order = list(order)
    byes = choose_byes(order, len(order) % 2, history)
    players = [e for e in order if e not in set(byes)]
    pairer = _TwoSeatPairer(players, points, history, forbidden, colours_first)
    return pairer.seat(pairer.pair_all()), byes


# ---------------------------------------------------------------------------
# three to five seats

# The lexicographic cost of a multiplayer table (integers, larger terms dominate).
_G_FORBIDDEN = 10**18  # per forbidden pair seated together
_G_REPEAT = 10**12  # per earlier meeting of two table-mates
_G_FLOAT = 10**6  # per player seated in the next score group's places
_G_FAR = 1  # per standings place a floating player is from its own group's edge
_WINDOW_BUDGET = 4_000  # search steps for one score group's exact regrouping


def snake(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """``order`` dealt over tables of ``sizes`` boustrophedon: 1 2 3 / 6 5 4 / 7 8 9 ...
    (a full table is skipped), so each table gets one of the best, one of the next, ..."""
    tables: list[list[int]] = [[] for _ in sizes]
    lanes = list(range(len(sizes)))
    forward, i = True, 0
    for e in order:
        while True:
            sweep = lanes if forward else lanes[::-1]
            if i >= len(sweep):
                forward, i = not forward, 0
                continue
            ti = sweep[i]
            i += 1
            if len(tables[ti]) < sizes[ti]:
                tables[ti].append(e)
                break
    return tables


class _Grouper:
    """Multiplayer Swiss tables by score groups (the rules: the module docstring).

    Positions 0..m-1 are the standings order; table t owns the positions of the plain cut
    (largest tables first), and a position's *group* is the score group of the player
    the cut puts there. A table's members, sorted by group, are matched to its
    positions' groups sorted: a difference of 1 is a float (to the next group up or
    down), more is never allowed.
    """

    def __init__(self, players, points, history, forbidden, sizes):
        self.players = list(players)
        self.pos = {e: i for i, e in enumerate(self.players)}
        values = sorted({points[e] for e in self.players}, reverse=True)
        index = {v: gi for gi, v in enumerate(values)}
        self.group = {e: index[points[e]] for e in self.players}
        # each group's first and last position, for the "floats from the edge" term
        self.first: dict[int, int] = {}
        self.last: dict[int, int] = {}
        for i, e in enumerate(self.players):
            g = self.group[e]
            self.first.setdefault(g, i)
            self.last[g] = i
        self.met = history.met
        self.forbidden = pair_keys(forbidden)
        self.slots: list[list[int]] = []  # per table, its positions' groups (sorted)
        at = 0
        for size in sizes:
            self.slots.append(sorted(self.group[self.players[at + k]] for k in range(size)))
            at += size
        self.lo = [s[0] for s in self.slots]
        self.hi = [s[-1] for s in self.slots]

    def pair_cost(self, a: int, b: int) -> int:
        key = pair(a, b)
        cost = _G_REPEAT * self.met.get(key, 0)
        if key in self.forbidden:
            cost += _G_FORBIDDEN
        return cost

    def conflicts(self, members: Sequence[int]) -> int:
        cost = 0
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                cost += self.pair_cost(a, b)
        return cost

    def has_conflicts(self, tables: list[list[int]]) -> bool:
        return any(self.conflicts(t) for t in tables)

    def float_cost(self, ti: int, members: Sequence[int]) -> int | None:
        """Floats at table ti with these members; None if someone would sit two groups off."""
        cost = 0
        group = self.group
        for e, slot in zip(sorted(members, key=group.__getitem__), self.slots[ti], strict=True):
            d = group[e] - slot
            if d:
                if d > 1 or d < -1:
                    return None
                # d < 0: e floats down (a better group); rather the group's last, and v.v.
                edge = self.last[group[e]] if d < 0 else self.first[group[e]]
                cost += _G_FLOAT + _G_FAR * abs(self.pos[e] - edge)
        return cost

    def cost(self, ti: int, members: Sequence[int]) -> int | None:
        floats = self.float_cost(ti, members)
        return None if floats is None else floats + self.conflicts(members)

    def improve(self, tables: list[list[int]]) -> None:
        """Exchanges of two players between tables while one lowers the summed cost.

        Only a table with a cost can gain from an exchange, and only with a table whose
        groups are within two of its own (farther, every member would sit two groups
        off), so those pairs are all looked at: at the end no exchange lowers the cost.
        """
        costs = [self.cost(ti, t) for ti, t in enumerate(tables)]
        order = range(len(tables))
        changed = True
        while changed:
            changed = False
            for ti in order:
                if not costs[ti]:
                    continue
                for tj in self._partners(ti):
                    a, b = tables[ti], tables[tj]
                    best = None
                    for x in range(len(a)):
                        for y in range(len(b)):
                            na = a[:x] + [b[y]] + a[x + 1 :]
                            ca = self.cost(ti, na)
                            if ca is None:
                                continue
                            nb = b[:y] + [a[x]] + b[y + 1 :]
                            cb = self.cost(tj, nb)
                            if cb is None:
                                continue
                            gain = costs[ti] + costs[tj] - ca - cb
                            if gain > 0 and (best is None or gain > best[0]):
                                best = (gain, na, nb, ca, cb)
                    if best:
                        _, tables[ti], tables[tj], costs[ti], costs[tj] = best
                        changed = True
                        if not costs[ti]:
                            break

    def _partners(self, ti: int) -> list[int]:
        """Tables an exchange with ti may improve, nearest first."""
        lo, hi = self.lo[ti] - 2, self.hi[ti] + 2
        near = [tj for tj in range(len(self.slots)) if tj != ti and self.hi[tj] >= lo
                and self.lo[tj] <= hi]  # fmt: skip
        return sorted(near, key=lambda tj: abs(tj - ti))

    def regroup(self, tables: list[list[int]], budget: int) -> bool:
        """Tables of one score group (their places and members) that still seat a rematch
        or forbidden pair: regrouped among themselves by the exact search when a grouping
        without one exists. Returns whether any changed."""
        conflicts: dict[int, set[int]] = {}
        for a, b in (*self.met, *self.forbidden):
            if a in self.pos and b in self.pos:
                conflicts.setdefault(a, set()).add(b)
                conflicts.setdefault(b, set()).add(a)
        pure: dict[int, list[int]] = {}
        for ti, t in enumerate(tables):
            g = self.lo[ti]
            if self.hi[ti] == g and all(self.group[e] == g for e in t):
                pure.setdefault(g, []).append(ti)
        changed = False
        for block in pure.values():
            if budget <= 0:
                break
            if not any(self.conflicts(tables[ti]) for ti in block):
                continue
            members = sorted((e for ti in block for e in tables[ti]), key=self.pos.__getitem__)
            found = conflict_free_grouping(
                members,
                [len(tables[ti]) for ti in block],
                conflicts,
                self.pos,
                budget=min(budget, _WINDOW_BUDGET * len(block)),
                improve=False,
            )
            budget -= found.steps
            if found.tables is None:
                continue
            by_size: dict[int, list[list[int]]] = {}
            for t in found.tables:
                by_size.setdefault(len(t), []).append(t)
            for ti in block:
                tables[ti] = by_size[len(tables[ti])].pop()
            changed = True
        return changed

    def exact(self, tables: list[list[int]], budget: int) -> list[list[int]] | None:
        """A grouping within the rules (everybody at most one group off) with no rematch or
        forbidden pair, by depth-first search table by table down the standings; None
        when there is none or ``budget`` search steps run out first.

        A player who can't sit at any later table (its group is more than one above
        their places) must sit at this one; a table is tried only if the players left
        still fit the places left (sorted, at most one group off), the nearest in the
        standings first.
        """
        group, players = self.group, self.players
        sizes = [len(t) for t in tables]
        conflicts: dict[int, set[int]] = {}
        for a, b in (*self.met, *self.forbidden):
            if a in self.pos and b in self.pos:
                conflicts.setdefault(a, set()).add(b)
                conflicts.setdefault(b, set()).add(a)
        later = [sorted(g for s in self.slots[ti:] for g in s) for ti in range(len(sizes) + 1)]
        steps = [0]
        out: list[list[int]] = []

        def fits(left: list[int], ti: int) -> bool:
            return all(
                -1 <= group[e] - g <= 1 for e, g in zip(left, later[ti], strict=True)
            )  # ``left`` is kept sorted by position, so by group

        def search(ti: int, left: list[int]) -> bool:
            steps[0] += 1 + len(left) // 16  # the scans below look at every player left
            if steps[0] > budget:
                return False
            if ti == len(sizes):
                return True
            lo, hi, size = self.lo[ti], self.hi[ti], sizes[ti]
            nxt = self.lo[ti + 1] if ti + 1 < len(sizes) else None
            forced = [e for e in left if nxt is None or group[e] < nxt - 1]
            if len(forced) > size:
                return False
            if any(
                b in conflicts.get(a, ()) for i, a in enumerate(forced) for b in forced[i + 1 :]
            ):
                return False
            pool = [e for e in left if e not in forced and lo - 1 <= group[e] <= hi + 1
                    and not any(f in conflicts.get(e, ()) for f in forced)]  # fmt: skip
            home = self.pos[players[sum(sizes[:ti])]] if ti < len(sizes) else 0
            pool.sort(key=lambda e: (min(abs(group[e] - g) for g in self.slots[ti]),
                                     abs(self.pos[e] - home)))  # fmt: skip

            def grow(start: int, members: list[int]) -> bool:
                if len(members) == size:
                    steps[0] += len(left) // 16  # ``fits`` looks at every player left
                    if self.float_cost(ti, members) is None:
                        return False
                    chosen = set(members)
                    rest = [e for e in left if e not in chosen]
                    if not fits(rest, ti + 1):
                        return False
                    out.append(list(members))
                    if search(ti + 1, rest):
                        return True
                    out.pop()
                    return False
                for k in range(start, len(pool)):
                    if len(pool) - k < size - len(members) or steps[0] > budget:
                        return False
                    e = pool[k]
                    steps[0] += 1
                    if any(m in conflicts.get(e, ()) for m in members):
                        continue
                    members.append(e)
                    if grow(k + 1, members):
                        return True
                    members.pop()
                return False

            return grow(0, list(forced))

        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, 10 * len(sizes) + 200))  # frames per table
        try:
            found = search(0, list(players))
        finally:
            sys.setrecursionlimit(old_limit)
        self.steps = steps[0]
        return out if found else None


def group_tables(
    order: Sequence[int],
    points: dict[int, float],
    history: History,
    forbidden: frozenset[frozenset[int]],
    size: int,
    smallest: int,
    search_budget: int = DEFAULT_BUDGET,
    *,
    first_round: bool = False,
    seeding: str = "snake",
    seed: int = 0,
) -> tuple[list[tuple[int, ...]], list[int]]:
    """Tables (seat order) and byes of a multiplayer Swiss round; ``order`` is best first
    (round 1: the seeding order). The rules are in the module docstring."""
    order = list(order)
    sizes, nbyes = swiss_table_sizes(len(order), size, smallest)
    byes = choose_byes(order, nbyes, history)
    bye_set = set(byes)
    players = [e for e in order if e not in bye_set]
    if first_round and seeding == "random":
        random.Random(seed).shuffle(players)
    grouper = _Grouper(players, points, history, forbidden, sizes)
    if first_round and seeding == "snake":
        tables = snake(players, sizes)
    else:
        tables, at = [], 0
        for s in sizes:
            tables.append(players[at : at + s])
            at += s
    grouper.improve(tables)
    if search_budget > 0 and grouper.has_conflicts(tables):
        if grouper.regroup(tables, search_budget // 4):
            grouper.improve(tables)
        if grouper.has_conflicts(tables):
            found = grouper.exact(tables, search_budget)
            if found is not None:
                tables = found
                grouper.improve(tables)
    rank = grouper.pos
    seated = [assign_seats(t, history.seat_counts, rank) for t in tables]
    return seated, byes
