"""Victory points ("Hodnocení") and gaining colourless gems."""

from __future__ import annotations

from .constants import COLOURLESS_POINTS, SET_POINTS, TOKEN_POINTS
from .state import State


def set_points(colours: list[int]) -> int:
    """Coloured gems in sets of distinct colours: 1/3/6/10/15 points.

    Building each set from as many colours as possible is optimal because
    set values grow faster than linearly (example 20: 19 points). With the
    counts sorted c1 >= ... >= c5, exactly c_j - c_(j+1) sets hold j colours."""
    c = sorted(colours, reverse=True)
    c.append(0)
    return sum(SET_POINTS[j] * (c[j - 1] - c[j]) for j in range(1, 6) if c[j - 1])


def colourless_points(colourless: int, tokens: int) -> int:
    """Colourless gems count 2 and 4; a third is swapped for an 8-point token (example 21)."""
    return COLOURLESS_POINTS * colourless + TOKEN_POINTS * tokens


def score(s: State, seat: int) -> int:
    return set_points(s.gems[seat]) + colourless_points(s.colourless[seat], s.tokens[seat])


def gain_colourless(s: State, seat: int) -> None:
    """The player takes a colourless gem; a third one turns the three into an 8-point token.

    The player who would get a third returns the two held instead of taking
    one, so the caravanserai never needs a gem it lacks. The six tokens are
    no limit (like money): should they run out a stand-in is used."""
    if s.colourless[seat] >= 2:
        s.colourless_supply += s.colourless[seat]
        s.colourless[seat] = 0
        s.tokens[seat] += 1
    else:
        s.colourless_supply -= 1
        s.colourless[seat] += 1
