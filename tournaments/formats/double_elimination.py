"""Double elimination (two seats only): out after the second loss.

Winners' bracket ("W"): the single-elimination bracket of ``elimination.py`` (next
power of two P, top seeds get the byes, standard seeding, round-1 forbidden pairs
avoided where a neighbouring seed swap allows it).

Losers' bracket ("L"), with w = log2(P) winners' rounds, 2(w-1) rounds:
- L1: the losers of W1 play each other (losers of W1 matches 2i and 2i+1);
- L(2j), j = 1..w-1: the winners of L(2j-1) play the losers of W(j+1) (taken in
  reverse order when j is odd, to put off rematches);
- L(2j+1): the winners of L(2j) play each other.
The winner of the last losers' round is the losers' champion (with 2 entrants, the
loser of the only W match).

Grand final ("GF"): winners' champion (seat 0) v losers' champion. If the losers'
champion wins it and ``grand_final_reset`` is on, a second grand final ("GF2",
seats swapped) decides; otherwise the grand final decides.

Every match is played as soon as both its players are known (so losers'-bracket
rounds run alongside the winners' ones); structural byes, walkovers against
withdrawn players, draws (the better seed goes through; in a grand final too) and
folding of walkover-only rounds: see ``bracket.py``.

Final ranking: champion, runner-up (grand final loser), then by the losers'
round of elimination, later first (players out in the same losers' round share a
placing). Entrants not in the bracket come last.
"""

from __future__ import annotations

from collections.abc import Sequence

from .bracket import BracketRun, Match
from .common import check_common, check_played
from .elimination import _group, check_no_late_entries, rounds_if_seeds_win, winners_bracket
from .types import Config, Entrant, FormatError, Round, gettext_noop


class DoubleElimination:
    """Double elimination (see the module docstring)."""

    name = "double_elimination"

    def __init__(self, config: Config):
        self.config = config

    def validate(self, entrants: list[Entrant]) -> None:
        c = self.config
        if c.table_size != 2:
            raise FormatError(
                gettext_noop("Double elimination needs two-player tables."), setting="table_size"
            )
        check_common(c, entrants, 2)
        check_no_late_entries(entrants)

    def total_rounds(self, entrants: list[Entrant]) -> int | None:
        if self.config.grand_final_reset:
            return None  # a reset grand final depends on the result of the first
        return rounds_if_seeds_win(self, entrants)

    def _run(self, entrants: list[Entrant], played: Sequence[Round]) -> BracketRun:
        size, order, slots, matches = winners_bracket(entrants, played, self.config.forbidden)
        w = size.bit_length() - 1
        losers_rounds = 2 * (w - 1)
        for j in range(1, losers_rounds + 1):
            if j == 1:
                count = size // 4
                for i in range(count):
                    sources = (("lose", ("W", 1, 2 * i)), ("lose", ("W", 1, 2 * i + 1)))
                    matches.append(Match(key=("L", 1, i), bracket="L", sources=sources))
            elif j % 2 == 0:
                half = j // 2  # L(2h) takes the losers of W(h+1)
                count = size >> (half + 1)
                for i in range(count):
                    feed = count - 1 - i if half % 2 == 1 else i
                    sources = (("win", ("L", j - 1, i)), ("lose", ("W", half + 1, feed)))
                    matches.append(Match(key=("L", j, i), bracket="L", sources=sources))
            else:
                count = size >> ((j + 1) // 2 + 1)
                for i in range(count):
                    sources = (("win", ("L", j - 1, 2 * i)), ("win", ("L", j - 1, 2 * i + 1)))
                    matches.append(Match(key=("L", j, i), bracket="L", sources=sources))
        losers_champion = (
            ("win", ("L", losers_rounds, 0)) if losers_rounds else ("lose", ("W", 1, 0))
        )
        matches.append(
            Match(key=("GF",), bracket="GF", sources=(("win", ("W", w, 0)), losers_champion))
        )
        matches.append(
            Match(key=("GF2",), bracket="GF2", sources=(("win", ("GF",)), ("lose", ("GF",))))
        )
        seed_index = {e: i for i, e in enumerate(order)}

        def reset_needed(run: BracketRun) -> bool:
            gf = run.by_key[("GF",)]
            return (
                self.config.grand_final_reset
                and gf.table
                and gf.players is not None
                and gf.winner == gf.players[1]
            )

        def seat_order(m: Match, a: int, b: int) -> tuple[int, int]:
            if m.key == ("GF",):
                return (a, b)
            if m.key == ("GF2",):
                return (a, b)  # (GF winner = losers' champion, GF loser): GF's seats swapped
            return (a, b) if seed_index[a] <= seed_index[b] else (b, a)

        run = BracketRun(
            matches=matches,
            slots=slots,
            entrants={e.id: e for e in entrants},
            seed_index=seed_index,
            needed={("GF2",): reset_needed},
            seat_order=seat_order,
        )
        run.w = w  # type: ignore[attr-defined]
        run.losers_rounds = losers_rounds  # type: ignore[attr-defined]
        return run

    def _label(self, run: BracketRun, tables: list[Match]) -> str:
        keys = {m.key[0] for m in tables}
        if "GF2" in keys:
            return "Grand final reset"
        if "GF" in keys:
            return "Grand final"
        parts = []
        w_rounds = [m.key[1] for m in tables if m.key[0] == "W"]
        l_rounds = [m.key[1] for m in tables if m.key[0] == "L"]
        if w_rounds:
            r = max(w_rounds)
            parts.append("Winners final" if r == run.w else f"Winners round {r}")  # type: ignore[attr-defined]
        if l_rounds:
            r = max(l_rounds)
            last = run.losers_rounds  # type: ignore[attr-defined]
            parts.append("Losers final" if r == last else f"Losers round {r}")
        return " / ".join(parts)

    def next_round(
        self, entrants: list[Entrant], played: list[Round], seed: int = 0
    ) -> Round | None:
        check_played(entrants, played)
        return self._run(entrants, played).next_round(played, self._label)

    def bracket_run(self, entrants: list[Entrant], played: list[Round]) -> BracketRun:
        """Both brackets replayed from the finished rounds, the next round's matches seated
        and its walkovers decided: every match with its sources, for a picture."""
        check_played(entrants, played)
        return self._run(entrants, played).replayed(played)

    def final_ranking(self, entrants: list[Entrant], played: list[Round]) -> list[list[int]]:
        check_played(entrants, played)
        run = self._run(entrants, played).replayed(played)  # settles trailing walkovers, if any
        last = run.losers_rounds  # type: ignore[attr-defined]
        key: dict[int, tuple] = {}
        for m in run.matches:
            if m.players is None or m.void:
                continue
            for p in m.players:
                if p is None:
                    continue
                if m.decided is None:
                    key[p] = (0,)
                    continue
                if m.key[0] in ("GF", "GF2"):
                    key[p] = (1,) if p == m.winner else (2,)
                elif m.key[0] == "L":
                    key[p] = (0,) if p == m.winner else (10 + last - m.key[1],)
                else:  # winners' bracket: out only if it never shows up again
                    key[p] = (0,) if p == m.winner else (10 + last + 1,)
        # a grand final won by the winners' champion, or a decided reset, ends it
        gf, gf2 = run.by_key[("GF",)], run.by_key[("GF2",)]
        finished = gf.decided is not None and (gf2.void or gf2.decided is not None)
        if finished:
            final = gf2 if not gf2.void and gf2.decided is not None else gf
            if final.winner is not None:
                key[final.winner] = (1,)
            if final.loser is not None:
                key[final.loser] = (2,)
        return _group(entrants, key)
