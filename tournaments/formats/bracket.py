"""Two-seat brackets as a graph of matches, shared by single and double elimination.

A match takes its two players from *sources*: a bracket slot (the seeded draw),
the winner of another match or the loser of another match. A slot may be empty
(a structural bye). A match is *ready* in round g once both sources were decided
in earlier rounds; every ready match is played in round g:

- both players present and active in round g: a table;
- otherwise a walkover: the present, active player (if any) goes through and is
  listed as a bye of round g (not for a third-place match: nobody goes through
  from it); the other one (absent, or withdrawn) "loses".

A round in which every ready match is a walkover is folded into the next one (its
walkovers are decided and the matches they make ready are looked at again), so
no round is ever without a table while the bracket goes on.

A drawn table (equal ranks, or two forfeits) is won by the better seed.
The state is recomputed from the entrants and the finished rounds each time;
finished rounds must contain exactly the tables the bracket planned.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .points import pairwise
from .types import NO_TABLE_FOR, Entrant, FormatError, Round, Table, gettext_noop

Source = tuple  # ("slot", index) | ("win", key) | ("lose", key)


def bracket_positions(size: int) -> list[int]:
    """Seed numbers (1-based) by bracket position: 1 v size, ... (size a power of two)."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return order


def next_power_of_two(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


@dataclass
class Match:
    key: tuple
    bracket: str
    sources: tuple[Source, Source]
    players: tuple[int | None, int | None] | None = None
    winner: int | None = None
    loser: int | None = None
    decided: float | None = None  # the (possibly folded, fractional) round it was decided in
    table: bool = False  # decided at a table (rather than by walkover)
    void: bool = False  # a conditional match that turned out not to be needed


@dataclass
class BracketRun:
    matches: list[Match]
    slots: list[int | None]
    entrants: dict[int, Entrant]
    seed_index: dict[int, int]
    # a conditional match: key -> predicate(run) telling whether it is needed once ready
    needed: dict[tuple, Callable[[BracketRun], bool]] = field(default_factory=dict)
    # seat order of a table: key -> callable(a, b) -> (seat0, seat1)
    seat_order: Callable[[Match, int, int], tuple[int, int]] | None = None

    def __post_init__(self) -> None:
        self.by_key = {m.key: m for m in self.matches}

    # ---- sources -------------------------------------------------------
    def _source(self, src: Source) -> tuple[bool, int | None, float]:
        kind, ref = src
        if kind == "slot":
            return True, self.slots[ref], 0.0
        m = self.by_key[ref]
        if m.decided is None:
            return False, None, 0.0
        return True, (m.winner if kind == "win" else m.loser), m.decided

    def _active(self, e: int | None, g: int) -> bool:
        return e is not None and self.entrants[e].active_in(g)

    def _better(self, a: int, b: int) -> int:
        return a if self.seed_index[a] <= self.seed_index[b] else b

    def _ready(self, before: float) -> list[Match]:
        out = []
        for m in self.matches:
            if m.decided is not None:
                continue
            s1, s2 = (self._source(s) for s in m.sources)
            if s1[0] and s2[0] and s1[2] < before and s2[2] < before:
                m.players = (s1[1], s2[1])
                if m.key in self.needed and not self.needed[m.key](self):
                    m.void = True
                    m.decided = max(s1[2], s2[2])
                    continue
                out.append(m)
        return out

    def _walkover(self, m: Match, g: int, when: float) -> int | None:
        a, b = m.players
        if self._active(a, g):
            m.winner, m.loser = a, b
        elif self._active(b, g):
            m.winner, m.loser = b, a
        else:  # nobody to go through; a real (withdrawn) player is still eliminated
            m.winner, m.loser = None, (a if a is not None else b)
            if a is not None and b is not None:
                m.loser = a  # both gone: a "loses", b vanishes with the winner slot
        m.decided = when
        return m.winner

    # ---- one round -------------------------------------------------------
    def plan(self, g: int) -> tuple[list[Match], list[int]]:
        """The matches played at tables in round g, and the walkover byes; decides the walkovers."""
        byes: list[int] = []
        fold = 0
        while True:
            ready = self._ready(before=g)
            if not ready:
                return [], byes
            tables = [
                m for m in ready if self._active(m.players[0], g) and self._active(m.players[1], g)
            ]
            if tables:
                for m in ready:
                    if m not in tables:
                        w = self._walkover(m, g, when=g)
                        if w is not None and m.bracket != "3rd":
                            byes.append(w)
                seated = {e for m in tables for e in m.players}
                return tables, [e for e in dict.fromkeys(byes) if e not in seated]
            fold += 1
            for m in ready:
                w = self._walkover(m, g, when=g - 1 + fold / 1000)
                if w is not None and m.bracket != "3rd":
                    byes.append(w)

    def seats(self, m: Match) -> tuple[int, int]:
        a, b = m.players
        assert a is not None and b is not None
        if self.seat_order is not None:
            return self.seat_order(m, a, b)
        return (a, b) if self.seed_index[a] <= self.seed_index[b] else (b, a)

    def apply(self, g: int, rnd: Round) -> None:
        """Decide round g's tables from the finished round ``rnd``."""
        tables, _byes = self.plan(g)
        found = played_tables(rnd, g, len(tables))
        for m in tables:
            table = found.get(frozenset(m.players))
            if table is None:
                raise FormatError(NO_TABLE_FOR, round=g, seats=list(m.players))
            self.decide(m, table, g)

    def decide(self, m: Match, table: Table, g: int) -> None:
        assert table.result is not None
        a, b = table.seats
        score = pairwise(table.result, 0, 1)
        if score == 1.0:
            winner = a
        elif score == 0.0:
            winner = b
        else:
            winner = self._better(a, b)
        m.winner = winner
        m.loser = b if winner == a else a
        m.decided = g
        m.table = True

    def replay(self, played: Sequence[Round]) -> None:
        for g, rnd in enumerate(played, start=1):
            self.apply(g, rnd)

    def replayed(self, played: Sequence[Round]) -> BracketRun:
        """The run after the finished rounds, with the next round seated and its
        walkovers decided."""
        self.replay(played)
        self.plan(len(played) + 1)
        return self

    def next_round(
        self, played: Sequence[Round], label: Callable[[BracketRun, list[Match]], str]
    ) -> Round | None:
        """The round after the finished ``played`` ones, named by ``label``; None when the
        bracket is over or has nothing to play."""
        number = len(played) + 1
        self.replay(played)
        if self.finished():
            return None
        tables, byes = self.plan(number)
        if not tables:
            return None
        return Round(
            number=number,
            tables=tuple(Table(seats=self.seats(m), bracket=m.bracket) for m in tables),
            byes=tuple(byes),
            label=label(self, tables),
        )

    def finished(self) -> bool:
        return all(m.decided is not None for m in self.matches)


def played_tables(rnd: Round, g: int, planned: int) -> dict[frozenset[int], Table]:
    """Round g's finished tables by their seats; FormatError unless there are ``planned``."""
    found = {frozenset(t.seats): t for t in rnd.tables}
    if len(found) != planned:
        raise FormatError(
            gettext_noop(
                "Round %(round)s has %(found)s tables but the bracket planned %(planned)s."
            ),
            round=g,
            found=len(found),
            planned=planned,
        )
    return found
