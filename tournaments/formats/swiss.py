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

``seed`` is not used: a Swiss round is fully determined by the standings.

Three to five seats
-------------------
Tables are formed down the standings (some one seat smaller when the entrants
don't divide; the smaller tables at the bottom): each table takes the best
unseated player and the members from the next few unseated players that add
the fewest repeat meetings (forbidden pairs count as many repeats), then a
local search swaps players between nearby tables while that lowers
(forbidden pairs, repeat meetings, spread of standings at a table). If a table
still seats a pair that met or is forbidden, an exact search
(``regroup.conflict_free_grouping``, branch and bound) regroups windows of
tables around it, then the whole round: when a grouping without such a pair
exists it is found (within ``Swiss.search_budget`` search steps, deterministic),
with the least summed spread of standings the search reaches. When the budget
runs out first, the fast grouping stays where it was not repaired. Seats rotate
so that everybody sits at each seat about equally often.
"""

from __future__ import annotations

import math
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
    table_sizes,
)
from .regroup import DEFAULT_BUDGET, SearchResult, conflict_free_grouping
from .standings import compute_standings
from .types import Config, Entrant, FormatError, Round, Table, gettext_noop

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
        order = sorted(active, key=lambda e: (rank[e], seed_index[e]))
        history = History.of(played)
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

_G_FORBIDDEN = 1_000_000
_G_REPEAT = 1_000
_G_SPREAD = 1
_WINDOW_BUDGET = 4_000  # search steps for one window short of the whole round


def group_tables(
    order: Sequence[int],
    points: dict[int, float],
    history: History,
    forbidden: frozenset[frozenset[int]],
    size: int,
    smallest: int,
    search_budget: int = DEFAULT_BUDGET,
) -> tuple[list[tuple[int, ...]], list[int]]:
    """Tables (seat order) and byes of a multiplayer Swiss round; ``order`` is best first."""
    order = list(order)
    sizes, nbyes = table_sizes(len(order), size, smallest)
    byes = choose_byes(order, nbyes, history)
    bye_set = set(byes)
    players = [e for e in order if e not in bye_set]
    rank = {e: i for i, e in enumerate(players)}
    met = history.met
    forbidden_keys = pair_keys(forbidden)

    def pair_cost(a: int, b: int) -> int:
        key = pair(a, b)
        cost = _G_REPEAT * met.get(key, 0)
        if key in forbidden_keys:
            cost += _G_FORBIDDEN
        return cost

    def table_cost(members: Sequence[int]) -> int:
        cost = 0
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                cost += pair_cost(a, b)
        ranks = [rank[m] for m in members]
        return cost + _G_SPREAD * (max(ranks) - min(ranks))

    # greedy down the standings
    unseated = list(players)  # kept in rank order
    tables: list[list[int]] = []
    for s in sizes:
        head = unseated.pop(0)
        table = [head]
        window = unseated[: 4 * s]
        while len(table) < s:
            best = min(
                window,
                key=lambda c: (
                    sum(pair_cost(c, m) for m in table) + _G_SPREAD * (rank[c] - rank[head]),
                    rank[c],
                ),
            )
            window.remove(best)
            unseated.remove(best)
            table.append(best)
        tables.append(table)

    # local search on tables with conflicts (repeat meetings / forbidden pairs)
    costs = [table_cost(t) for t in tables]
    for _ in range(3):
        changed = False
        for ti in range(len(tables)):
            if costs[ti] < _G_REPEAT:
                continue
            for reach in (1, 2, 3, 5, 8):
                done = False
                for tj in (ti - reach, ti + reach):
                    if not 0 <= tj < len(tables):
                        continue
                    a, b = tables[ti], tables[tj]
                    best_move = None
                    best_gain = 0
                    for x in range(len(a)):
                        for y in range(len(b)):
                            na = a[:x] + [b[y]] + a[x + 1 :]
                            nb = b[:y] + [a[x]] + b[y + 1 :]
                            ca, cb = table_cost(na), table_cost(nb)
                            gain = costs[ti] + costs[tj] - ca - cb
                            if gain > best_gain:
                                best_gain, best_move = gain, (na, nb, ca, cb)
                    if best_move:
                        tables[ti], tables[tj], costs[ti], costs[tj] = best_move
                        changed = done = True
                        if costs[ti] < _G_REPEAT:
                            break
                if done and costs[ti] < _G_REPEAT:
                    break
        if not changed:
            break

    if any(c >= _G_REPEAT for c in costs) and search_budget > 0:
        conflicts: dict[int, set[int]] = {}
        for a, b in (*met, *forbidden_keys):
            if a in rank and b in rank:
                conflicts.setdefault(a, set()).add(b)
                conflicts.setdefault(b, set()).add(a)
        tables = _repair(tables, conflicts, rank, search_budget)
    seated = [assign_seats(t, history.seat_counts, rank) for t in tables]
    return seated, byes


def _restarts(players, sizes, conflicts, rank, budget: int) -> SearchResult:
    """The exact search on the whole round, restarted with shuffled orders.

    Depth-first search has a heavy tail: the standings order may be stuck where a
    slightly different order finds a grouping at once. So the standings order gets
    half the budget, then orders shuffled by 4, 8 and 16 places get half of what is
    left each (the last all of it); the first attempt that finds a grouping keeps
    improving it in its share. When an attempt finishes without finding one, none
    exists.
    """
    spent = 0
    for jitter in (0, 4, 8, 16):
        share = budget - spent if jitter == 16 else (budget - spent) // 2
        found = conflict_free_grouping(players, sizes, conflicts, rank, budget=share, jitter=jitter)
        spent += found.steps
        if found.tables is not None or found.complete:
            break
    return SearchResult(found.tables, found.spread, found.complete, spent)


def _repair(
    tables: list[list[int]],
    conflicts: dict[int, set[int]],
    rank: dict[int, int],
    budget: int,
) -> list[list[int]]:
    """Regroup the tables holding a conflicting pair so that none is left, if possible.

    First locally: around each such table, a window of k = 1, 2, 4 tables either
    side is regrouped by the exact search (``regroup.conflict_free_grouping``: no
    conflict, then the least spread), each window with a small budget, all windows
    together a quarter of ``budget`` (search steps) at most. Conflicts still left:
    the exact search on the whole round (``_restarts``) with the rest. When the
    budget runs out, the tables repaired so far stay and the rest keep the fast
    grouping (still a valid round, with no more conflicts than the fast one).
    """
    tables = [list(t) for t in tables]

    def clashing(t: list[int]) -> bool:
        return any(b in conflicts.get(a, ()) for i, a in enumerate(t) for b in t[i + 1 :])

    skipped: set[int] = set()  # head players of tables no window could repair
    local = budget // 4  # the local repairs may use a quarter, the rest is for the whole
    budget -= local
    while local > 0:
        bad = [ti for ti, t in enumerate(tables) if clashing(t) and t[0] not in skipped]
        if not bad:
            break
        ti = bad[0]
        repaired = False
        for k in (1, 2, 4):
            lo, hi = max(0, ti - k), min(len(tables), ti + k + 1)
            if lo == 0 and hi == len(tables):
                break  # the whole round: below
            found = conflict_free_grouping(
                [e for t in tables[lo:hi] for e in t],
                [len(t) for t in tables[lo:hi]],
                conflicts,
                rank,
                budget=min(local, _WINDOW_BUDGET),
            )
            local -= found.steps
            if found.tables is not None:
                tables[lo:hi] = found.tables
                repaired = True
                break
        if not repaired:
            skipped.add(tables[ti][0])
    budget += max(0, local)
    if any(clashing(t) for t in tables):
        found = _restarts(
            [e for t in tables for e in t], [len(t) for t in tables], conflicts, rank, budget
        )
        if found.tables is not None:
            tables = found.tables
    return tables
