"""Single elimination.

Who is in the bracket: the entrants that took part in round 1 once it has been
played; before that, the entrants that join in round 1 and did not withdraw before
it. Late entries are refused (``validate``); an entrant added later is ranked last.
Seeding: ``common.seeding_order`` (seed, then rating, then id).

Two seats
---------
A bracket of the next power of two P >= n with the standard seeding (1 v P,
P/2 v P/2+1, ... so that seeds 1 and 2 can only meet in the final); the empty
slots are byes and fall to the top seeds (seed s plays seed P+1-s, which doesn't
exist for s <= P-n). Forbidden pairs are avoided in round 1 when swapping the
lower-seeded player with the next (or previous) seed fixes it; later meetings
depend on results and are not avoided. Walkovers, draws (the better seed goes
through) and folding of walkover-only rounds: see ``bracket.py``. With
``third_place`` the two semifinal losers play for third place in the final's round
(bracket "3rd"). Main-bracket tables are marked "W".

Three to five seats (top ``advance`` of each table go through)
--------------------------------------------------------------
The field is re-seeded every round by the original seeding. With m players left:

- m <= table_size: one final table of everybody; its order is the final placing.
- Otherwise the round brings the field down to C, the largest "full bracket" size
  below m. Full sizes: L0 = table_size (the final) and
  L(j+1) = L(j) + floor(L(j)/advance) * (table_size - advance), the most players
  that one round of full tables (plus byes) brings down to L(j) (4 seats, 1 through:
  4, 16, 64, ...; 4 seats, 2 through: 4, 8, 16, ...; 2 seats: powers of two).
  That takes t = ceil((m - C) / (table_size - advance)) tables holding
  (m - C) + t * advance players, sizes as equal as possible (between advance + 1 and
  table_size; so a "play-in" table can be as small as advance + 1 players), and the
  top m - that seeds get byes. Players are dealt to the tables in seeding order,
  snake-wise (1st table, 2nd, ..., last, last, ..., 1st, ...), and a forbidden pair
  at one table is split by swapping with the same-rank player of another table
  when possible.
- At a table the best ``advance`` by rank go through; equal ranks at the cut: the
  better seed; a forfeited seat never goes through.

Final ranking: the champion / final table order first, then by the round of
elimination (later is better); players out in the same round are grouped by their
place at their table (two seats: all losers of a round share a placing, except
the third-place match). Entrants not in the bracket come last.
"""

from __future__ import annotations

from collections.abc import Sequence

from .bracket import BracketRun, Match, bracket_positions, next_power_of_two, played_tables
from .common import check_common, check_played, seeding_order
from .points import finishing_order
from .types import NO_TABLE_FOR, Config, Entrant, FormatError, Round, Table, gettext_noop


def bracket_members(entrants: Sequence[Entrant], played: Sequence[Round]) -> list[Entrant]:
    """The entrants in the bracket, in seeding order."""
    if played:
        first = played[0]
        ids = {e for t in first.tables for e in t.seats} | set(first.byes)
        members = [e for e in entrants if e.id in ids]
    else:
        members = [e for e in entrants if e.joined_round <= 1 and e.withdrawn_after != 0]
    return seeding_order(members)


def avoid_forbidden_first_round(
    order: list[int], size: int, forbidden: frozenset[frozenset[int]]
) -> list[int]:
    """Swap neighbouring seeds so that no round-1 match is a forbidden pair, where possible.

    ``order`` is ids by seed; returns a new order. Only swaps two players that are
    both real (not byes) keep the byes with the top seeds.
    """
    if not forbidden:
        return order
    order = list(order)
    n = len(order)
    positions = bracket_positions(size)
    opponent_seed = {}
    for i in range(0, size, 2):
        s1, s2 = positions[i], positions[i + 1]
        opponent_seed[s1], opponent_seed[s2] = s2, s1

    def opponent(idx: int) -> int | None:
        s = opponent_seed[idx + 1]
        return order[s - 1] if s <= n else None

    def bad(idx: int) -> bool:
        o = opponent(idx)
        return o is not None and frozenset((order[idx], o)) in forbidden

    for idx in range(n):
        if not bad(idx):
            continue
        opp_idx = opponent_seed[idx + 1] - 1
        low = max(idx, opp_idx)  # move the lower-seeded player
        for other in (low + 1, low - 1, low + 2, low - 2):
            if not 0 <= other < n or other in (idx, opp_idx):
                continue
            order[low], order[other] = order[other], order[low]
            if not bad(low) and not bad(other):
                break
            order[low], order[other] = order[other], order[low]
    return order


def check_no_late_entries(entrants: Sequence[Entrant]) -> None:
    """A bracket is drawn from the entrants of round 1: nobody may join later."""
    late = [e.id for e in entrants if e.joined_round > 1]
    if late:
        raise FormatError(
            gettext_noop("Elimination brackets can't take late entries (%(late)s)."),
            late=", ".join(map(str, late)),
        )


class SingleElimination:
    """Single elimination (see the module docstring)."""

    name = "single_elimination"

    def __init__(self, config: Config):
        self.config = config

    # ---- checks ----------------------------------------------------------
    def validate(self, entrants: list[Entrant]) -> None:
        c = self.config
        check_common(c, entrants, max(2, c.advance + 1))
        if c.table_size == 2 and c.advance != 1:
            raise FormatError(
                gettext_noop("With two seats exactly one player per table goes through."),
                setting="advance",
            )
        if not 1 <= c.advance < c.table_size:
            raise FormatError(
                gettext_noop(
                    "Between 1 and %(most)s players per table can go through, not %(advance)s."
                ),
                setting="advance",
                most=c.table_size - 1,
                advance=c.advance,
            )
        if c.third_place and c.table_size != 2:
            raise FormatError(
                gettext_noop(
                    "A third-place match only exists with two seats; the final table "
                    "already places everybody."
                ),
                setting="third_place",
            )
        check_no_late_entries(entrants)

    def total_rounds(self, entrants: list[Entrant]) -> int | None:
        """Rounds if every table has a winner (forfeits of several seats can shorten it)."""
        return rounds_if_seeds_win(self, entrants)

    # ---- two seats -------------------------------------------------------
    def _run(self, entrants: list[Entrant], played: Sequence[Round]) -> BracketRun:
        size, order, slots, matches = winners_bracket(entrants, played, self.config.forbidden)
        rounds = size.bit_length() - 1
        if self.config.third_place and rounds >= 2:
            matches.append(
                Match(
                    key=("3rd",),
                    bracket="3rd",
                    sources=(("lose", ("W", rounds - 1, 0)), ("lose", ("W", rounds - 1, 1))),
                )
            )
        seed_index = {e: i for i, e in enumerate(order)}
        run = BracketRun(
            matches=matches,
            slots=slots,
            entrants={e.id: e for e in entrants},
            seed_index=seed_index,
        )
        run.rounds = rounds  # type: ignore[attr-defined]
        return run

    def _label_two(self, run: BracketRun, tables: list[Match]) -> str:
        rounds = run.rounds  # type: ignore[attr-defined]
        level = max((m.key[1] for m in tables if m.key[0] == "W"), default=rounds)
        left = rounds - level
        return {0: "Final", 1: "Semifinals", 2: "Quarterfinals"}.get(left, f"Round {level}")

    # ---- multiplayer -----------------------------------------------------
    def _levels(self, limit: int) -> list[int]:
        k, a = self.config.table_size, self.config.advance
        levels = [k]
        while levels[-1] < limit:
            levels.append(levels[-1] + (levels[-1] // a) * (k - a))
        return levels

    def _plan_multi(self, alive: list[int], seed_index: dict[int, int]):
        """(tables as lists of ids, byes, is_final) for the players left, best seed first."""
        k, adv = self.config.table_size, self.config.advance
        m = len(alive)
        if m <= 1:
            return [], [], False
        if m <= k:
            return [list(alive)], [], True
        c = max(level for level in self._levels(m) if level < m)
        t = -(-(m - c) // (k - adv))
        seats = (m - c) + t * adv
        byes = alive[: m - seats]
        players = alive[m - seats :]
        base, extra = divmod(seats, t)
        sizes = [base + 1] * extra + [base] * (t - extra)
        tables: list[list[int]] = [[] for _ in range(t)]
        i = 0
        forward = True
        while i < len(players):
            idxs = range(t) if forward else range(t - 1, -1, -1)
            for ti in idxs:
                if i < len(players) and len(tables[ti]) < sizes[ti]:
                    tables[ti].append(players[i])
                    i += 1
            forward = not forward
        self._split_forbidden(tables)
        for tb in tables:
            tb.sort(key=seed_index.__getitem__)
        return tables, byes, False

    def _split_forbidden(self, tables: list[list[int]]) -> None:
        forbidden = self.config.forbidden
        if not forbidden:
            return

        def bad(tb: list[int]) -> int:
            return sum(
                1 for i, a in enumerate(tb) for b in tb[i + 1 :] if frozenset((a, b)) in forbidden
            )

        for ti, tb in enumerate(tables):
            if not bad(tb):
                continue
            for x in range(len(tb)):
                done = False
                for tj, other in enumerate(tables):
                    if tj == ti or x >= len(other):
                        continue
                    before = bad(tb) + bad(other)
                    tb[x], other[x] = other[x], tb[x]
                    if bad(tb) + bad(other) < before:
                        done = True
                        break
                    tb[x], other[x] = other[x], tb[x]
                if done and not bad(tb):
                    break

    def _replay_multi(self, entrants: list[Entrant], played: Sequence[Round]):
        members = bracket_members(entrants, played)
        by_id = {e.id: e for e in entrants}
        seed_index = {e.id: i for i, e in enumerate(members)}
        alive = [e.id for e in members]
        out: dict[int, tuple[int, float]] = {}  # id -> (round out, place at the table)
        final_order: list[int] | None = None
        for g, rnd in enumerate(played, start=1):
            for e in [e for e in alive if not by_id[e].active_in(g)]:
                out[e] = (g, float("inf"))
            alive = [e for e in alive if by_id[e].active_in(g)]
            tables, byes, is_final = self._plan_multi(alive, seed_index)
            found = played_tables(rnd, g, len(tables))
            through = list(byes)
            for tb in tables:
                table = found.get(frozenset(tb))
                if table is None:
                    raise FormatError(NO_TABLE_FOR, round=g, seats=sorted(tb))
                assert table.result is not None
                order = finishing_order(table.result, [seed_index[e] for e in table.seats])
                ranked = [table.seats[s] for s in order]
                forfeits = {table.seats[s] for s in order if table.result.is_forfeited(s)}
                if is_final:
                    final_order = ranked
                    continue
                cut = [e for e in ranked if e not in forfeits][: self.config.advance]
                through.extend(cut)
                for place, e in enumerate(ranked):
                    if e not in cut:
                        out[e] = (g, float(place))
            alive = sorted(through, key=seed_index.__getitem__)
            if is_final:
                alive = []
        return members, seed_index, alive, out, final_order

    # ---- the protocol ----------------------------------------------------
    def next_round(
        self, entrants: list[Entrant], played: list[Round], seed: int = 0
    ) -> Round | None:
        check_played(entrants, played)
        number = len(played) + 1
        if self.config.table_size == 2:
            return self._run(entrants, played).next_round(played, self._label_two)
        _members, seed_index, alive, _out, final_order = self._replay_multi(entrants, played)
        if final_order is not None:
            return None
        by_id = {e.id: e for e in entrants}
        alive = [e for e in alive if by_id[e].active_in(number)]
        tables, byes, is_final = self._plan_multi(alive, seed_index)
        if not tables:
            return None
        return Round(
            number=number,
            tables=tuple(Table(seats=tuple(t), bracket="W") for t in tables),
            byes=tuple(byes),
            label="Final" if is_final else f"Round {number}",
        )

    def bracket_run(self, entrants: list[Entrant], played: list[Round]) -> BracketRun | None:
        """The two-seat bracket replayed from the finished rounds, the next round's matches
        seated and its walkovers decided: every match with its sources, for a picture.
        None with more seats (that bracket is planned a round at a time)."""
        if self.config.table_size != 2:
            return None
        check_played(entrants, played)
        return self._run(entrants, played).replayed(played)

    def final_ranking(self, entrants: list[Entrant], played: list[Round]) -> list[list[int]]:
        check_played(entrants, played)
        if self.config.table_size == 2:
            return self._ranking_two(entrants, played)
        return self._ranking_multi(entrants, played)

    def _ranking_two(self, entrants: list[Entrant], played: list[Round]) -> list[list[int]]:
        run = self._run(entrants, played).replayed(played)  # settles trailing walkovers, if any
        rounds = run.rounds  # type: ignore[attr-defined]
        key: dict[int, tuple] = {}
        for m in run.matches:
            if m.players is None or m.void:
                continue
            for p in m.players:
                if p is None:
                    continue
                if m.decided is None:
                    key[p] = (0,)  # still in
                elif m.key == ("3rd",):
                    key[p] = (3,) if p == m.winner else (4,)
                elif p == m.winner:
                    if m.key[1] == rounds:
                        key[p] = (1,)  # champion
                    else:
                        key.setdefault(p, (0,))
                elif m.key[0] == "W" and m.key[1] == rounds:
                    key[p] = (2,)
                else:
                    key[p] = (10 + rounds - m.key[1],)
        # third place still to come / not played: semifinal losers keep their round key
        return _group(entrants, key)

    def _ranking_multi(self, entrants: list[Entrant], played: list[Round]) -> list[list[int]]:
        _members, _seeds, alive, out, final_order = self._replay_multi(entrants, played)
        key: dict[int, tuple] = {}
        for e in alive:
            key[e] = (0,)
        for i, e in enumerate(final_order or []):
            key[e] = (1, i)
        for e, (g, place) in out.items():
            key[e] = (2, -g, place)
        return _group(entrants, key)


def _group(entrants: Sequence[Entrant], key: dict[int, tuple]) -> list[list[int]]:
    """Placing groups from sort keys; entrants without a key come last together."""
    last = (10**9,)
    ids = sorted((e.id for e in entrants), key=lambda e: (key.get(e, last), e))
    groups: list[list[int]] = []
    previous = None
    for e in ids:
        k = key.get(e, last)
        if groups and k == previous:
            groups[-1].append(e)
        else:
            groups.append([e])
        previous = k
    return groups


def rounds_if_seeds_win(fmt, entrants: list[Entrant]) -> int:
    """How many rounds a bracket format plays when the better seed wins every table."""
    played: list[Round] = []
    while True:
        rnd = fmt.next_round(entrants, played)
        if rnd is None:
            return len(played)
        tables = tuple(
            Table(t.seats, _seed_result(t.seats, entrants), t.bracket) for t in rnd.tables
        )
        played.append(Round(rnd.number, tables, rnd.byes, rnd.label))


def winners_bracket(
    entrants: list[Entrant], played: Sequence[Round], forbidden
) -> tuple[int, list[int], list, list[Match]]:
    """The two-seat winners' bracket: its size, the seeding order, first-round slots, every match."""
    members = bracket_members(entrants, played)
    n = len(members)
    size = next_power_of_two(max(n, 2))
    order = avoid_forbidden_first_round([e.id for e in members], size, forbidden)
    slots: list[int | None] = [order[s - 1] if s <= n else None for s in bracket_positions(size)]
    matches: list[Match] = []
    for r in range(1, size.bit_length()):
        for i in range(size >> r):
            if r == 1:
                sources = (("slot", 2 * i), ("slot", 2 * i + 1))
            else:
                sources = (("win", ("W", r - 1, 2 * i)), ("win", ("W", r - 1, 2 * i + 1)))
            matches.append(Match(key=("W", r, i), bracket="W", sources=sources))
    return size, order, slots, matches


def _seed_result(seats: Sequence[int], entrants: Sequence[Entrant]):
    """A result where the better seed always wins (to count rounds in advance)."""
    from .types import TableResult

    index = {e.id: i for i, e in enumerate(seeding_order(entrants))}
    order = sorted(range(len(seats)), key=lambda s: index[seats[s]])
    ranks = [0] * len(seats)
    for place, s in enumerate(order, start=1):
        ranks[s] = place
    return TableResult(ranks=tuple(ranks))
