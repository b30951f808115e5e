"""Helpers shared by the formats: seeding, activity, table sizes, history, checks."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations

from .points import check_points, check_result
from .standings import compute_standings
from .tiebreaks import check_tiebreaks
from .types import (
    MAX_TABLE_SIZE,
    MIN_TABLE_SIZE,
    Config,
    Entrant,
    FormatError,
    Round,
    gettext_noop,
)


def seeding_key(e: Entrant) -> tuple:
    """Seeded entrants first (seed 1 first), then by rating (highest first), then id."""
    return (e.seed is None, e.seed if e.seed is not None else 0, -e.rating, e.id)


def seeding_order(entrants: Iterable[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=seeding_key)


def active_ids(entrants: Iterable[Entrant], round_number: int) -> set[int]:
    return {e.id for e in entrants if e.active_in(round_number)}


def pair(a: int, b: int) -> tuple[int, int]:
    """Key of an unordered pair (cheaper to build and hash than a frozenset)."""
    return (a, b) if a < b else (b, a)


def pair_keys(pairs) -> set[tuple[int, int]]:
    """Config.forbidden (frozensets) as pair keys."""
    out = set()
    for fp in pairs:
        a, b = sorted(fp)
        out.add((a, b))
    return out


def table_sizes(n: int, size: int, smallest: int) -> tuple[list[int], int]:
    """How ``n`` players sit at tables of ``size`` seats (some may be smaller).

    Returns (table sizes, largest first; number of byes). Uses the fewest tables
    that seat everybody with sizes between ``smallest`` and ``size`` (as equal as
    possible, so at most one seat apart); when that is impossible, the fewest byes
    that make it possible. Fewer than ``smallest`` players: no table, all byes.
    """
    for byes in range(n + 1):
        m = n - byes
        if m < max(smallest, MIN_TABLE_SIZE):
            break
        t = -(-m // size)
        if t * smallest <= m:
            base, extra = divmod(m, t)
            return [base + 1] * extra + [base] * (t - extra), byes
    return [], n


def swiss_table_sizes(n: int, size: int, smallest: int) -> tuple[list[int], int]:
    """Swiss tables for ``n`` players: (sizes, largest first; number of byes).

    The fewest byes, then the fewest tables, then the fewest players at tables below
    ``size`` (as many full tables as possible; the smaller ones as equal as possible).
    With the default smallest table (``size`` - 1) this is ``table_sizes``; with a
    smaller minimum it keeps more full tables (9 at 4 seats, down to 2: 4 + 3 + 2, not
    3 + 3 + 3). The caller puts the smaller tables at the bottom of the standings.
    """
    for byes in range(n + 1):
        m = n - byes
        if m < max(smallest, MIN_TABLE_SIZE):
            break
        t = -(-m // size)
        for full in range(min(t, m // size), -1, -1):
            rest, small = m - full * size, t - full
            if small == 0 and rest == 0:
                return [size] * full, byes
            if small and small * smallest <= rest <= small * (size - 1):
                base, extra = divmod(rest, small)
                return [size] * full + [base + 1] * extra + [base] * (small - extra), byes
    return [], n


@dataclass
class History:
    """What the finished rounds say about pairings (not about points)."""

    met: Counter = field(default_factory=Counter)  # pair(a, b) -> times at one table
    byes: Counter = field(default_factory=Counter)  # entrant -> byes received
    seat_counts: dict = field(default_factory=lambda: defaultdict(Counter))  # id -> seat -> n
    two_seat: dict = field(default_factory=lambda: defaultdict(list))  # id -> [seat 0/1, ...]
    opponents: dict = field(default_factory=lambda: defaultdict(Counter))  # id -> opp -> n

    @classmethod
    def of(cls, played: Sequence[Round]) -> History:
        h = cls()
        for rnd in played:
            for table in rnd.tables:
                for s, e in enumerate(table.seats):
                    h.seat_counts[e][s] += 1
                    if len(table.seats) == 2:
                        h.two_seat[e].append(s)
                for a, b in combinations(table.seats, 2):
                    h.met[pair(a, b)] += 1
                    h.opponents[a][b] += 1
                    h.opponents[b][a] += 1
            for e in rnd.byes:
                h.byes[e] += 1
        return h


def check_common(config: Config, entrants: Sequence[Entrant], minimum: int) -> None:
    """Checks every format makes."""
    if not isinstance(config.table_size, int) or not (
        MIN_TABLE_SIZE <= config.table_size <= MAX_TABLE_SIZE
    ):
        raise FormatError(
            gettext_noop("Tables have 2 to 5 seats, not %(n)s."), setting="table_size",
            n=config.table_size,
        )  # fmt: skip
    if config.min_table_size is not None and not (
        MIN_TABLE_SIZE <= config.min_table_size <= config.table_size
    ):
        raise FormatError(
            gettext_noop(
                "The smallest table (%(smallest)s) must be between 2 and the table size "
                "(%(size)s)."
            ),
            setting="min_table_size", smallest=config.min_table_size, size=config.table_size,
        )  # fmt: skip
    check_points(config)
    check_tiebreaks(config.tiebreaks)
    if config.bye_points is not None and config.bye_points < 0:
        raise FormatError(gettext_noop("Bye points can't be negative."), setting="bye_points")
    for fp in config.forbidden:
        if len(fp) != 2:
            raise FormatError(
                gettext_noop("A forbidden pairing names two different entrants, not %(pair)s."),
                pair=sorted(fp),
            )
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        dupes = sorted(i for i, c in Counter(ids).items() if c > 1)
        raise FormatError(gettext_noop("Entrants listed twice: %(ids)s."), ids=dupes)
    for e in entrants:
        if e.joined_round < 1:
            raise FormatError(
                gettext_noop("Entrant %(id)s joins in round %(round)s; rounds start at 1."),
                id=e.id, round=e.joined_round,
            )  # fmt: skip
        if e.withdrawn_after is not None and e.withdrawn_after < 0:
            raise FormatError(
                gettext_noop("Entrant %(id)s has a negative withdrawal round."), id=e.id
            )
        if e.seed is not None and e.seed < 1:
            raise FormatError(
                gettext_noop("Entrant %(id)s has seed %(seed)s; seeds start at 1."),
                id=e.id,
                seed=e.seed,
            )
    starting = [e for e in entrants if e.withdrawn_after != 0]
    if len(starting) < minimum:
        raise FormatError(
            gettext_noop(
                "This format needs at least %(minimum)s entrants with tables of %(size)s; "
                "there are %(count)s."
            ),
            minimum=minimum, size=config.table_size, count=len(starting),
        )  # fmt: skip


NOT_AN_ENTRANT = gettext_noop("Round %(round)s: entrant %(id)s is not an entrant.")


def check_played(entrants: Sequence[Entrant], played: Sequence[Round]) -> None:
    """Every played round is finished, numbered in order and seats known entrants once."""
    ids = {e.id for e in entrants}
    for i, rnd in enumerate(played, start=1):
        if rnd.number != i:
            raise FormatError(
                gettext_noop("Played rounds must be numbered 1, 2, ...; got %(number)s at %(index)s."),
                number=rnd.number, index=i,
            )  # fmt: skip
        seen: set[int] = set()
        for table in rnd.tables:
            check_result(table)
            for e in table.seats:
                _seat_once(
                    e,
                    i,
                    ids,
                    seen,
                    gettext_noop("Round %(round)s: entrant %(id)s is seated twice."),
                )
        for e in rnd.byes:
            _seat_once(
                e,
                i,
                ids,
                seen,
                gettext_noop("Round %(round)s: entrant %(id)s has a bye and a table."),
            )


def _seat_once(e: int, i: int, ids, seen: set[int], again: str) -> None:
    """Entrant e is one of ``ids`` and not yet in ``seen`` (message ``again`` if it is)
    in round i; it is added to ``seen``."""
    if e not in ids:
        raise FormatError(NOT_AN_ENTRANT, round=i, id=e)
    if e in seen:
        raise FormatError(again, round=i, id=e)
    seen.add(e)


def ranking_from_standings(
    entrants: list[Entrant], played: Sequence[Round], config: Config
) -> list[list[int]]:
    groups: list[list[int]] = []
    last_rank = None
    for row in compute_standings(entrants, played, config):
        if row.rank != last_rank:
            groups.append([])
            last_rank = row.rank
        groups[-1].append(row.entrant)
    return groups


def assign_seats(
    members: Sequence[int], seat_counts, rank_of: dict[int, int] | None = None, exact: bool = False
) -> tuple[int, ...]:
    """Seat order balancing how often each member sat at each seat.

    ``seat_counts[e]`` maps seat -> times (a list or a defaultdict of dicts).
    ``exact``: the seat order (of all permutations) with the fewest past sittings
    summed over the members at their new seats (ties: the seat-0 player who had
    seat 0 least, then the first such order). Otherwise greedy: seats are filled from
    seat 0, each going to the member who sat there least so far (then: who sat at
    earlier seats most, then the better ranked / lower id).
    """
    if exact and len(members) <= 5:
        best_key, best = None, tuple(members)
        for perm in permutations(sorted(members)):
            total = sum(seat_counts[e].get(s, 0) for s, e in enumerate(perm))
            key = (total, seat_counts[perm[0]].get(0, 0))
            if best_key is None or key < best_key:
                best_key, best = key, perm
        return best
    remaining = list(members)
    out: list[int] = []
    for s in range(len(members)):

        def key(e: int, s: int = s) -> tuple:
            counts = seat_counts[e]
            earlier = sum(counts.get(x, 0) for x in range(s))
            return (counts.get(s, 0), -earlier, (rank_of or {}).get(e, 0), e)

        best_e = min(remaining, key=key)
        remaining.remove(best_e)
        out.append(best_e)
    return tuple(out)
