"""Standings: points, games played and tie-breaks of every entrant.

- Points per table: see ``points.py`` (tied seats share the points of the places
  they span; a forfeit gets last-place points).
- A bye gives ``bye_points`` (Config.bye_points, default the first-place points of a
  full table) and counts as played; it brings no opponent and no finishing place.
- Tables without a result are ignored (an unfinished round can be passed as is).
- Every entrant appears, withdrawn or not yet joined ones included; withdrawn ones
  (``Entrant.withdrawn_after`` set) rank after every active entrant (see tiebreaks.py).

``compute_standings`` works from scratch; ``StandingsAccumulator`` keeps running
totals as tables finish. They are independent implementations that give the same
numbers (the test-suite checks it).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from .points import bye_points, check_points, check_result, pairwise, seat_places, seat_points
from .tiebreaks import check_tiebreaks, clean, median_buchholz, rank_entrants
from .types import Config, Entrant, FormatError, Round, Table, gettext_noop


@dataclass(frozen=True)
class StandingRow:
    rank: int
    entrant: int
    points: float
    played: int
    tiebreaks: dict[str, float]


def _neutral_place(config: Config) -> float:
    return (config.table_size + 1) / 2


def _withdrawn(entrants: list[Entrant]) -> frozenset[int]:
    return frozenset(e.id for e in entrants if e.withdrawn_after is not None)


BYE_NOT_AN_ENTRANT = gettext_noop("Entrant %(id)s has a bye but is not an entrant.")


def _known(ids: set[int], table: Table) -> None:
    for e in table.seats:
        if e not in ids:
            raise FormatError(
                gettext_noop("Entrant %(id)s sits at a table but is not an entrant."), id=e
            )
    if len(set(table.seats)) != len(table.seats):
        raise FormatError(
            gettext_noop("Table %(seats)s seats an entrant twice."), seats=table.seats
        )


def compute_standings(
    entrants: list[Entrant], played: Iterable[Round], config: Config
) -> list[StandingRow]:
    """Standings from scratch, best first."""
    check_points(config)
    check_tiebreaks(config.tiebreaks)
    ids = [e.id for e in entrants]
    idset = set(ids)
    pts: dict[int, float] = dict.fromkeys(ids, 0.0)
    games: dict[int, int] = dict.fromkeys(ids, 0)
    places: dict[int, list[float]] = {i: [] for i in ids}
    # every meeting: (opponent, pairwise result) once per opponent per table
    meetings: dict[int, list[tuple[int, float]]] = {i: [] for i in ids}
    bye = bye_points(config)
    for rnd in played:
        for table in rnd.tables:
            if table.result is None:
                continue
            _known(idset, table)
            result = check_result(table)
            p = seat_points(config, result)
            pl = seat_places(result)
            for s, e in enumerate(table.seats):
                pts[e] += p[s]
                games[e] += 1
                places[e].append(pl[s])
                for o, other in enumerate(table.seats):
                    if o != s:
                        meetings[e].append((other, pairwise(result, s, o)))
        for e in rnd.byes:
            if e not in idset:
                raise FormatError(BYE_NOT_AN_ENTRANT, id=e)
            pts[e] += bye
            games[e] += 1

    values: dict[str, dict[int, float]] = defaultdict(dict)
    rating = {e.id: e.rating for e in entrants}
    for i in ids:
        contributions = [pts[o] for o, _ in meetings[i]]
        values["buchholz"][i] = sum(contributions)
        values["median_buchholz"][i] = median_buchholz(contributions)
        values["sonneborn_berger"][i] = sum(r * pts[o] for o, r in meetings[i])
        values["average_place"][i] = (
            sum(places[i]) / len(places[i]) if places[i] else _neutral_place(config)
        )
        values["rating"][i] = rating[i]

    def h2h(a: int, group: set[int]) -> float:
        return sum(r for o, r in meetings[a] if o in group and o != a)

    ranked = rank_entrants(ids, pts, values, h2h, config.tiebreaks, _withdrawn(entrants))
    return [
        StandingRow(rank=rank, entrant=e, points=clean(pts[e]), played=games[e], tiebreaks=tb)
        for rank, e, tb in ranked
    ]


class StandingsAccumulator:
    """Incremental standings: feed finished tables / byes as they come.

    Keeps, per entrant, running points, games, the sum and count of finishing
    places, and per opponent the number of meetings and the summed pairwise
    result. ``standings()`` then costs O(entrants + distinct opponent pairs).
    """

    def __init__(self, entrants: list[Entrant], config: Config):
        check_points(config)
        check_tiebreaks(config.tiebreaks)
        self.config = config
        self._ids = [e.id for e in entrants]
        self._idset = set(self._ids)
        self._rating = {e.id: e.rating for e in entrants}
        self._withdrawn = _withdrawn(entrants)
        self._bye = bye_points(config)
        self._points: dict[int, float] = dict.fromkeys(self._ids, 0.0)
        self._played: dict[int, int] = dict.fromkeys(self._ids, 0)
        self._place_sum: dict[int, float] = dict.fromkeys(self._ids, 0.0)
        self._place_count: dict[int, int] = dict.fromkeys(self._ids, 0)
        self._met: dict[int, Counter[int]] = {i: Counter() for i in self._ids}
        self._score_vs: dict[int, dict[int, float]] = {i: defaultdict(float) for i in self._ids}

    def add_round(self, rnd: Round) -> None:
        for table in rnd.tables:
            self.add_table(rnd.number, table)
        for e in rnd.byes:
            self.add_bye(rnd.number, e)

    def add_table(self, round_number: int, table: Table) -> None:
        if table.result is None:
            return
        _known(self._idset, table)
        result = check_result(table)
        p = seat_points(self.config, result)
        pl = seat_places(result)
        for s, e in enumerate(table.seats):
            self._points[e] += p[s]
            self._played[e] += 1
            self._place_sum[e] += pl[s]
            self._place_count[e] += 1
            for o, other in enumerate(table.seats):
                if o != s:
                    self._met[e][other] += 1
                    self._score_vs[e][other] += pairwise(result, s, o)

    def add_bye(self, round_number: int, entrant: int) -> None:
        if entrant not in self._idset:
            raise FormatError(BYE_NOT_AN_ENTRANT, id=entrant)
        self._points[entrant] += self._bye
        self._played[entrant] += 1

    def points(self, entrant: int) -> float:
        return self._points[entrant]

    def standings(self) -> list[StandingRow]:
        pts = self._points
        values: dict[str, dict[int, float]] = defaultdict(dict)
        neutral = _neutral_place(self.config)
        for i in self._ids:
            met = self._met[i]
            total = 0.0
            lowest = highest = None
            count = 0
            for o, times in met.items():
                total += times * pts[o]
                count += times
                lowest = pts[o] if lowest is None else min(lowest, pts[o])
                highest = pts[o] if highest is None else max(highest, pts[o])
            values["buchholz"][i] = total
            values["median_buchholz"][i] = (
                total - lowest - highest if count >= 3 and lowest is not None else total
            )
            values["sonneborn_berger"][i] = sum(
                score * pts[o] for o, score in self._score_vs[i].items()
            )
            n = self._place_count[i]
            values["average_place"][i] = self._place_sum[i] / n if n else neutral
            values["rating"][i] = self._rating[i]

        def h2h(a: int, group: set[int]) -> float:
            return sum(score for o, score in self._score_vs[a].items() if o in group and o != a)

        ranked = rank_entrants(self._ids, pts, values, h2h, self.config.tiebreaks, self._withdrawn)
        return [
            StandingRow(
                rank=rank,
                entrant=e,
                points=clean(pts[e]),
                played=self._played[e],
                tiebreaks=tb,
            )
            for rank, e, tb in ranked
        ]
