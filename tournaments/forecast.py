"""Forecast of a league, round robin or Swiss in progress: each entrant's chance of each
final place, and who can still win.

Model (documented for organisers in the README's tournament section):

- What is left: the paired tables without a result, then the rounds not paired yet. A
  league's / round robin's remaining rounds are its schedule (the format's own
  ``next_round``; it does not depend on results). A Swiss's are simulated: each simulated
  round sorts the active entrants by simulated points (then rating) and seats them in
  that order at tables of ``table_size`` (a rematch is avoided by swapping with the next
  one down when possible); entrants left over get a bye (bye points). This approximates
  the format's pairing (score groups, no rematches) without its colour and float rules.
- A table's outcome: a finishing order drawn by successive choice (Plackett–Luce) with
  weights 10^(rating/400): the first place goes to seat i with probability w_i / sum(w),
  the next among the rest the same way. At a two-seat table the favourite wins with
  exactly the Elo expected score 1 / (1 + 10^((Rj - Ri)/400)); at a larger table every
  pair of seats keeps those Elo odds for who finishes ahead when only they are left.
  Simulated tables have no ties. Ratings are those frozen when the tournament started.
- Final place: by points. Entrants level on points share the places they span equally
  (tie-breaks are not simulated: they depend on the whole crosstable).
- Monte Carlo with a fixed seed (the tournament's seed): the same results version always
  gives the same numbers. When the remaining outcomes are few (at most ``EXACT_LIMIT``
  combinations) they are enumerated exactly instead.
- "Can still win" is not read off the simulation: entrant X can still win if, with X
  winning every remaining table, the other tables' points can be shared out so that
  nobody ends with more points than X (finishing level on points counts: tie-breaks may
  decide). That is a max-flow feasibility problem (as in the classical baseball
  elimination): exact for two-seat tables (draws share a point, so a table's point can
  be split in halves). For larger tables the flow treats a table's points as freely
  divisible up to the first-place points per seat; when it says "yes", a search over the
  tables' real finishing orders (ties included) confirms or refutes it, up to a step
  budget (beyond it the flow's "yes" stands). For a Swiss the rounds not paired yet are
  treated as freely pairable (anyone may meet anyone): a relaxation.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx
from networkx.algorithms.flow import preflow_push

from tournaments import formats
from tournaments.formats.points import bye_points, place_points

FLOW_FUNC = preflow_push

FORECAST_FORMATS = ("league", "round_robin", "swiss")
EXACT_LIMIT = 4096  # enumerate the remaining outcomes exactly up to this many combinations
TABLE_DRAWS = 160_000  # Monte Carlo effort: simulations x remaining tables, roughly
MIN_SIMULATIONS, MAX_SIMULATIONS = 400, 5000
SEARCH_TABLES = 16  # "can still win" at larger tables: search real orders up to this many


@dataclass
class Forecast:
    entrants: list[int]  # in the order of the rows below
    places: dict[int, list[float]]  # entrant -> P(place 1), P(place 2), ...
    can_win: dict[int, bool]
    method: str  # "exact", "monte_carlo" or "final"
    simulations: int = 0
    remaining_tables: int = 0
    remaining_rounds: int = 0
    seconds: float = 0.0  # wall clock
    cpu_seconds: float = 0.0  # this process's CPU time (what a busy machine doesn't inflate)
    notes: list[str] = field(default_factory=list)


# ---- what is left ------------------------------------------------------------
def _dummy(rnd: formats.Round) -> formats.Round:
    """A planned round with a stand-in result (everyone level) so the schedule goes on."""
    tables = tuple(
        formats.Table(
            seats=t.seats, result=formats.TableResult(ranks=(1,) * len(t.seats)), bracket=t.bracket
        )
        for t in rnd.tables
    )
    return formats.Round(rnd.number, tables, rnd.byes, rnd.label)


def scheduled_rounds(fmt, entrants: list[formats.Entrant], rounds: list[formats.Round]):
    """A league's / round robin's rounds not paired yet, from its schedule."""
    played = [_dummy(r) for r in rounds]
    out = []
    limit = (fmt.total_rounds(entrants) or len(rounds)) + 2  # never loop on a repair mode
    while len(played) < limit:
        nxt = fmt.next_round(entrants, played, seed=0)
        if nxt is None:
            break
        out.append(nxt)
        played.append(_dummy(nxt))
    return out


def _strength(rating: float) -> float:
    return 10.0 ** (max(min(rating, 4000.0), -1000.0) / 400.0)


@dataclass
class _Problem:
    ids: list[int]
    points: dict[int, float]
    pending: list[tuple[int, ...]]  # tables to play whose seats are known
    byes: dict[int, float]  # bye points still to come (a league's scheduled byes)
    swiss_rounds: int  # Swiss rounds not paired yet
    swiss_active: list[int]  # who the simulated Swiss rounds pair
    config: formats.Config
    weight: dict[int, float]
    rating: dict[int, float]
    met: set = field(default_factory=set)  # (a, b), a < b: pairs who met or are paired
    withdrawn: frozenset = frozenset()  # they finish after every active entrant, never first


def _problem(format_name, config, entrants, rounds) -> tuple[_Problem, int]:
    """Current points, pending tables and the rest, from the rounds stored so far
    (tables without a result included)."""
    fmt = formats.FORMATS[format_name](config)
    ids = [e.id for e in entrants]
    finished = [
        formats.Round(r.number, tuple(t for t in r.tables if t.result is not None), r.byes, r.label)
        for r in rounds
    ]
    rows = formats.compute_standings(entrants, finished, config)
    points = {row.entrant: float(row.points) for row in rows}
    pending = [t.seats for r in rounds for t in r.tables if t.result is None]
    byes: dict[int, float] = dict.fromkeys(ids, 0.0)
    swiss_rounds = 0
    future = 0
    if format_name == "swiss":
        total = fmt.total_rounds(entrants) or len(rounds)
        swiss_rounds = max(0, total - len(rounds))
        future = swiss_rounds
    else:
        for rnd in scheduled_rounds(fmt, entrants, rounds):
            pending.extend(t.seats for t in rnd.tables)
            for e in rnd.byes:
                byes[e] += bye_points(config)
            future += 1
    last = len(rounds) + 1
    active = [e.id for e in entrants if e.active_in(last)]
    problem = _Problem(
        ids=ids, points=points, pending=pending, byes=byes, swiss_rounds=swiss_rounds,
        swiss_active=active, config=config,
        weight={e.id: _strength(e.rating) for e in entrants},
        rating={e.id: e.rating for e in entrants},
        withdrawn=frozenset(e.id for e in entrants if e.withdrawn_after is not None),
        met={p for r in rounds for t in r.tables for p in itertools.combinations(sorted(t.seats), 2)},
    )  # fmt: skip
    return problem, future


# ---- one table ----------------------------------------------------------------
def order_probabilities(weights: Sequence[float]) -> list[tuple[tuple[int, ...], float]]:
    """Every finishing order of a table (seat indices, best first) with its probability."""
    out = []
    for order in itertools.permutations(range(len(weights))):
        p, rest = 1.0, sum(weights)
        for seat in order:
            p *= weights[seat] / rest
            rest -= weights[seat]
        out.append((order, p))
    return out


def _draw_order(weights: Sequence[float], rng: random.Random) -> list[int]:
    """A Plackett-Luce finishing order: each seat's exponential "finishing time" with rate
    w_i; the earliest first (the same law as choosing first, then next, by weight)."""
    random_ = rng.random
    times = [-math.log(1.0 - random_()) / w for w in weights]
    return sorted(range(len(weights)), key=times.__getitem__)


def _gains(config: formats.Config, n: int) -> list[float]:
    return list(place_points(config, n))


# ---- places from final points -------------------------------------------------
def _add_places(acc: dict[int, list[float]], pts: dict[int, float], weight: float) -> None:
    """Add ``weight`` of probability for the final points ``pts``: level entrants share the
    places they span."""
    values = sorted(pts.values(), reverse=True)
    first_at: dict[float, int] = {}
    count: dict[float, int] = {}
    for i, v in enumerate(values):
        first_at.setdefault(v, i)
        count[v] = count.get(v, 0) + 1
    for e, v in pts.items():
        start, n = first_at[v], count[v]
        share = weight / n
        row = acc[e]
        for place in range(start, start + n):
            row[place] += share


# Withdrawn entrants place after every active one (as in the standings): their points less
# more than anyone can score.
OUT_OF_IT = 1e12


def _round_points(pts: dict[int, float], withdrawn=frozenset()) -> dict[int, float]:
    return {e: round(v, 9) - (OUT_OF_IT if e in withdrawn else 0.0) for e, v in pts.items()}


# ---- exact enumeration ------------------------------------------------------------
def exact_places(problem: _Problem) -> dict[int, list[float]]:
    """Every combination of the remaining tables' finishing orders, weighted exactly
    (no Swiss rounds to pair: those need simulating)."""
    n = len(problem.ids)
    acc = {e: [0.0] * n for e in problem.ids}
    per_table = []
    for seats in problem.pending:
        gains = _gains(problem.config, len(seats))
        outcomes = []
        for order, p in order_probabilities([problem.weight[e] for e in seats]):
            add = [0.0] * len(seats)
            for place, seat in enumerate(order):
                add[seat] = gains[place]
            outcomes.append((add, p))
        per_table.append((seats, outcomes))
    base = {e: problem.points[e] + problem.byes[e] for e in problem.ids}
    for combo in itertools.product(*(o for _s, o in per_table)):
        pts = dict(base)
        p = 1.0
        for (seats, _o), (add, q) in zip(per_table, combo, strict=True):
            p *= q
            for seat, e in enumerate(seats):
                pts[e] += add[seat]
        _add_places(acc, _round_points(pts, problem.withdrawn), p)
    return acc


def _combinations(problem: _Problem) -> float:
    return math.prod(math.factorial(len(s)) for s in problem.pending)


# ---- Monte Carlo --------------------------------------------------------------------
def _swiss_round(problem: _Problem, pts: dict[int, float], met: set, rng: random.Random):
    """One simulated Swiss round: tables in points order (see the module docstring)."""
    c = problem.config
    order = sorted(problem.swiss_active, key=lambda e: (-pts[e], -problem.rating[e], e))
    size = c.table_size
    smallest = c.smallest_table
    n = len(order)
    tables, byes = [], []
    full, rest = divmod(n, size)
    if size == 2:
        if rest:
            byes.append(order.pop())  # the lowest gets the bye
        order.reverse()  # pop() from the end: the best first
        while order:
            a = order.pop()
            k = len(order) - 1
            while k > 0 and ((a, order[k]) if a < order[k] else (order[k], a)) in met:
                k -= 1  # a rematch: the next one down instead
            tables.append((a, order.pop(k if k >= 0 else len(order) - 1)))
        return tables, byes
    if rest and rest < smallest:
        # shrink some tables by one each to reach a legal size, else byes for the rest
        sizes = [size] * full
        short = rest
        i = len(sizes) - 1
        while short < smallest and i >= 0 and sizes[i] - 1 >= smallest:
            sizes[i] -= 1
            short += 1
            i -= 1
        if short >= smallest:
            sizes.append(short)
        else:
            sizes = [size] * full
            byes = order[n - rest :]
            order = order[: n - rest]
    else:
        sizes = [size] * full + ([rest] if rest else [])
    at = 0
    for s in sizes:
        tables.append(tuple(order[at : at + s]))
        at += s
    return tables, byes


def monte_carlo_places(problem: _Problem, simulations: int, seed: int) -> dict[int, list[float]]:
    rng = random.Random(seed)
    n = len(problem.ids)
    acc = {e: [0.0] * n for e in problem.ids}
    c = problem.config
    bye = bye_points(c)
    pending = [
        (seats, [problem.weight[e] for e in seats], _gains(c, len(seats)))
        for seats in problem.pending
    ]
    two_seat = [
        (seats[0], seats[1], w[0] / (w[0] + w[1]), g[0], g[1])
        for seats, w, g in pending
        if len(seats) == 2
    ]
    multi = [p for p in pending if len(p[0]) != 2]
    base = {e: problem.points[e] + problem.byes[e] for e in problem.ids}
    two_gains = _gains(c, 2)
    weight = 1.0 / simulations
    random_ = rng.random
    for _ in range(simulations):
        pts = dict(base)
        for a, b, p, win, lose in two_seat:
            if random_() < p:
                pts[a] += win
                pts[b] += lose
            else:
                pts[b] += win
                pts[a] += lose
        for seats, w, gains in multi:
            for place, seat in enumerate(_draw_order(w, rng)):
                pts[seats[seat]] += gains[place]
        if problem.swiss_rounds:
            met = set(problem.met)
            for _r in range(problem.swiss_rounds):
                tables, byes = _swiss_round(problem, pts, met, rng)
                for e in byes:
                    pts[e] += bye
                for seats in tables:
                    if len(seats) == 2:
                        a, b = seats
                        wa, wb = problem.weight[a], problem.weight[b]
                        if random_() * (wa + wb) >= wa:
                            a, b = b, a
                        pts[a] += two_gains[0]
                        pts[b] += two_gains[1]
                        met.add((a, b) if a < b else (b, a))
                        continue
                    gains = _gains(c, len(seats))
                    order = _draw_order([problem.weight[e] for e in seats], rng)
                    for place, seat in enumerate(order):
                        pts[seats[seat]] += gains[place]
                    met.update(itertools.combinations(sorted(seats), 2))
        _add_places(acc, _round_points(pts, problem.withdrawn), weight)
    return acc


# ---- who can still win ------------------------------------------------------------
def can_still_win(problem: _Problem, x: int) -> bool:
    """Exact for two-seat tables (see the module docstring): a max-flow feasibility test.

    Sources of points (each remaining table; for a Swiss, the rounds to pair) must be
    shared out to the other entrants, each at most a per-seat cap, so that nobody passes
    X's best total."""
    c = problem.config
    eps = 1e-9
    best = problem.points[x] + problem.byes[x]
    sources: list[tuple[float, list[int], float]] = []  # (points to share, who, cap each)
    for seats in problem.pending:
        gains = _gains(c, len(seats))
        if x in seats:
            best += gains[0]
            total, cap = sum(gains) - gains[0], (gains[1] if len(gains) > 1 else 0.0)
        else:
            total, cap = sum(gains), gains[0]
        if total > eps:
            sources.append((total, [e for e in seats if e != x], cap))
    low = 0.0
    swiss_players: set[int] = set()
    if problem.swiss_rounds:
        # the rounds to pair: every entrant gains between the last and the first place's
        # points each round; X wins all of them; the rest go to whoever can take them
        r = problem.swiss_rounds
        gains = _gains(c, c.table_size)
        best += r * max(gains[0], bye_points(c))
        others = [e for e in problem.swiss_active if e != x]
        swiss_players = set(others)
        low = min(gains[-1], bye_points(c))
        tables_per_round = len(problem.swiss_active) // c.table_size
        # the least each gains per round is charged to everyone's floor below
        total = r * (tables_per_round * sum(gains) - gains[0]) - r * low * len(others)
        if total > eps:
            sources.append((total, others, r * (gains[0] - low)))
    room: dict[int, float] = {}
    for e in problem.ids:
        if e == x:
            continue
        floor = problem.points[e] + problem.byes[e]
        if e in swiss_players:
            floor += problem.swiss_rounds * low
        room[e] = best - floor
        if room[e] < -eps:
            return False
    if not sources:
        return True
    multi = any(len(seats) > 2 for seats in problem.pending)
    if not _relaxation_fits(sources, room):
        return False  # not even with freely divisible points
    if multi and not problem.swiss_rounds and len(problem.pending) <= SEARCH_TABLES:
        exact = _search(problem, x, best)
        if exact is not None:
            return exact
    return True


def _relaxation_fits(sources, room: dict[int, float]) -> bool:
    """Whether the sources' points can be shared out within the caps and rooms (points
    freely divisible): a greedy sharing first, the max flow only when it fails."""
    if _greedy_fits(sources, dict(room)):
        return True
    graph = nx.DiGraph()
    for i, (total, who, cap) in enumerate(sources):
        graph.add_edge("s", ("src", i), capacity=total)
        for e in who:
            graph.add_edge(("src", i), ("p", e), capacity=cap)
    for e, left in room.items():
        graph.add_edge(("p", e), "t", capacity=max(left, 0.0))
    supply = sum(total for total, _w, _c in sources)
    flow = nx.maximum_flow_value(graph, "s", "t", flow_func=FLOW_FUNC)
    return flow >= supply - 1e-7


_ORDERS: dict[int, list[tuple[int, ...]]] = {}


def _rank_patterns(k: int) -> list[tuple[int, ...]]:
    """Every finishing order of k seats, ties included ("1224" ranks)."""
    if k not in _ORDERS:
        _ORDERS[k] = [
            ranks
            for ranks in itertools.product(range(1, k + 1), repeat=k)
            if all(r == 1 + sum(1 for q in ranks if q < r) for r in ranks)
        ]
    return _ORDERS[k]


def _search(problem: _Problem, x: int, best: float, budget: int = 50_000) -> bool | None:
    """Multiplayer tables: try the real finishing orders (ties included) of every remaining
    table, X first at its own; None if the search is too long (then the flow decides)."""
    c = problem.config
    eps = 1e-9
    options = []
    for seats in problem.pending:
        vectors = set()
        for ranks in _rank_patterns(len(seats)):
            if x in seats and ranks[seats.index(x)] != 1 or (x in seats and ranks.count(1) > 1):
                continue  # X alone in first place is never worse for X
            result = formats.TableResult(ranks=ranks)
            vectors.add(tuple(formats.seat_points(c, result)))
        options.append((seats, sorted(vectors)))
    options.sort(key=lambda o: len(o[1]))
    pts = {e: problem.points[e] + problem.byes[e] for e in problem.ids}
    pts[x] = best
    steps = 0

    def go(i: int) -> bool | None:
        nonlocal steps
        if i == len(options):
            return True
        seats, vectors = options[i]
        # the most slack first: a sharing that fits is usually found without backtracking
        slack = {e: best - pts[e] for e in seats}
        ordered = sorted(
            vectors,
            key=lambda v: (
                -min(slack[e] - g for e, g in zip(seats, v, strict=True) if e != x)
                if len(seats) > 1
                else 0
            ),
        )
        for vector in ordered:
            steps += 1
            if steps > budget:
                return None
            if any(e != x and pts[e] + g > best + eps for e, g in zip(seats, vector, strict=True)):
                continue
            for e, g in zip(seats, vector, strict=True):
                if e != x:
                    pts[e] += g
            found = go(i + 1)
            for e, g in zip(seats, vector, strict=True):
                if e != x:
                    pts[e] -= g
            if found is None or found:
                return found
        return False

    return go(0)


def _greedy_fits(sources, room: dict[int, float]) -> bool:
    """Share each source's points out to whoever has the most room left (a sufficient
    test: True means a sharing exists; False proves nothing)."""
    for total, who, cap in sources:
        left = total
        for e in sorted(who, key=lambda e: -room[e]):
            take = min(left, cap, room[e])
            if take > 0:
                room[e] -= take
                left -= take
            if left <= 1e-9:
                break
        if left > 1e-9:
            return False
    return True


# ---- the whole forecast -------------------------------------------------------------
def forecast(format_name: str, config: formats.Config, entrants: list[formats.Entrant],
             rounds: list[formats.Round], *, seed: int = 0, method: str = "auto",
             simulations: int | None = None) -> Forecast:  # fmt: skip
    """The forecast from the stored rounds (``rounds``: every paired round, tables without a
    result included). ``method``: "auto" (exact when few outcomes remain), "exact" or
    "monte_carlo"."""
    started, cpu_started = time.perf_counter(), time.process_time()
    problem, future = _problem(format_name, config, entrants, rounds)
    ids = problem.ids
    left = len(problem.pending) + problem.swiss_rounds
    if left == 0:
        acc = {e: [0.0] * len(ids) for e in ids}
        _add_places(acc, _round_points(problem.points, problem.withdrawn), 1.0)
        used, sims = "final", 0
    elif method == "exact" or (
        method == "auto" and not problem.swiss_rounds and _combinations(problem) <= EXACT_LIMIT
    ):
        if problem.swiss_rounds:
            raise ValueError("Swiss rounds not paired yet can only be simulated.")
        acc, used, sims = exact_places(problem), "exact", 0
    else:
        # a simulated Swiss round costs a sort and a pairing besides its tables
        # a table of k costs about k^2 / 4 two-seat draws; a simulated Swiss round a sort
        # and a pairing besides its tables
        cost = sum(max(1, len(seats) ** 2 // 4) for seats in problem.pending)
        draws = max(1, cost + problem.swiss_rounds * 4 * max(1, len(ids)))
        sims = simulations or max(MIN_SIMULATIONS, min(MAX_SIMULATIONS, TABLE_DRAWS // draws))
        acc, used = monte_carlo_places(problem, sims, seed), "monte_carlo"
    wins = {e: e not in problem.withdrawn and can_still_win(problem, e) for e in ids}
    return Forecast(
        entrants=ids, places=acc, can_win=wins, method=used, simulations=sims,
        remaining_tables=len(problem.pending), remaining_rounds=future,
        seconds=time.perf_counter() - started, cpu_seconds=time.process_time() - cpu_started,
    )  # fmt: skip


# ---- on the database ----------------------------------------------------------------
def available(tournament) -> bool:
    from tournaments.models import TournamentStatus

    # in progress only: a finished event has its standings (with tie-breaks) instead
    return tournament.format in FORECAST_FORMATS and tournament.status == TournamentStatus.RUNNING


def for_tournament(tournament) -> list[dict] | None:
    """Rows best-first by the standings: entry, player, places, can_win; None when the
    tournament has no forecast (not a league / round robin / Swiss, or not running).
    Computed once per results version (the cache key of the standings too)."""
    from django.core.cache import cache

    from tournaments import format_rows, selectors

    if not available(tournament) or selectors.display_problem(tournament):
        return None
    key = (
        f"forecast:{tournament.pk}:{tournament.created_at.timestamp()}:"
        f"{tournament.results_version}:{tournament.status}:{tournament.current_round}"
    )
    rows = cache.get(key)
    if rows is None:
        entries = {e.pk: e for e in tournament.entries.select_related("player")}
        result = forecast(
            tournament.format, format_rows.format_config(tournament),
            format_rows.entrants(tournament, entries.values()), format_rows.played_rounds(tournament),
            seed=tournament.seed,
        )  # fmt: skip
        order = [row["entry"] for row in selectors.standings(tournament)]
        rows = [
            {
                "entry": e,
                "player": entries[e].player.name,
                "name": str(entries[e].player),  # the shown name (the handle is "player")
                "places": [round(p, 4) for p in result.places[e]],
                "first": result.places[e][0],
                "can_win": result.can_win[e],
            }  # fmt: skip
            for e in order
            if e in result.places
        ]
        cache.set(key, rows, timeout=3600)
    return rows


def percent(p: float) -> str:
    """A probability for people: "0 %" only when impossible, "<1 %" when merely unlikely."""
    if p <= 0:
        return "0"
    if p < 0.005:
        return "<1"
    if p > 0.995 and p < 1:
        return ">99"
    return f"{100 * p:.0f}"


def display_rows(rows: list[dict] | None) -> list[dict]:
    """What the page shows per entrant: the chance of first place (with a bar), of the top
    three, the likeliest place, and whether it can still win."""
    out = []
    for row in rows or []:
        places = row["places"]
        likeliest = max(range(len(places)), key=lambda i: (places[i], -i)) + 1 if places else None
        out.append({
            **row,
            "first_pct": percent(places[0] if places else 0.0),
            "bar": round(100 * (places[0] if places else 0.0)),
            "podium_pct": percent(sum(places[:3])),
            "likeliest": likeliest,
        })  # fmt: skip
    return out
