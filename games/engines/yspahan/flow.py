"""The course of the game: setup, days (roll, turns in order), weeks, the end.

Seats are clockwise. Each day the start player may buy yellow dice, rolls,
and the players take turns clockwise from him; then the supervisor returns
to the centre and the start player passes counter-clockwise. After the 7th
day of a week the souks and the caravan are scored and the souks cleared;
the game ends after the 3rd week.

Special days and player counts:
- 4 players, the last day of the game: turn order by score, lowest first (he
  is the start player); ties: the player nearer counter-clockwise to the start
  player of the day before (that start player himself counts as farthest).
- 2 players (the published two-player rule): 8 white dice; each day the start
  player, the other player, then the start player again choose a row; the
  yellow dice stay for the start player all day; building is an action that
  uses a row (no optional build step); the caravan has 2 spaces a section;
  on the last day the lower score is the start player (a tie: normal rotation).
"""

from __future__ import annotations

from games.engines.rng import GameRandom

from . import souks
from .board import BOARD
from .constants import (
    CARD_COUNTS,
    DAYS,
    PER_SECTION,
    PLAYABLE,
    SECTIONS,
    START_GOLD,
    WEEKS,
    WHITE_DICE,
)
from .scoring import score_week
from .state import NSHOPS, NSOUKS, State

# Seat 1 starts day 1 (s.start = 0); end_day passes the start player counter-clockwise and
# day_order picks the last day's start player by score with 2 or 4 players.
START_PLAYER = (
    "Seat 1 is the start player on the first day; each new day the start player passes "
    "counter-clockwise (with 2 or 4 players, the lowest score starts the last day)."
)


def new_state(n: int, seed: int, options: dict) -> State:
    s = State()
    s.n = n
    s.rng = GameRandom(seed)
    s.options = dict(options)
    s.per_section = PER_SECTION[n]
    s.capacity = SECTIONS * s.per_section
    s.week = 1
    s.day = 1
    s.start = 0
    s.prev_start = 0
    s.order = []
    s.turn = 0
    s.yellow = 0
    s.rows = [[0, 0, 0, 0] for _ in range(6)]
    s.shops = [-1] * NSHOPS
    s.souk_count = [0] * NSOUKS
    s.souk_owner = [-1] * NSOUKS
    s.caravan = []
    s.supervisor = BOARD.centre
    s.gold = [START_GOLD] * n
    s.camels = [0] * n
    s.vp = [0] * n
    s.hands = [[0] * len(CARD_COUNTS) for _ in range(n)]
    s.built = [[0] * 6 for _ in range(n)]
    s.deck = [k for k, c in enumerate(CARD_COUNTS) for _ in range(c)]
    s.rng.shuffle(s.deck)
    s.discard = [0] * len(CARD_COUNTS)
    s.stage = "yellow"
    s.actor = 0
    _clear_turn(s)
    s.over = False
    s.ply = 0
    begin_day(s)
    return s


def last_day(s: State) -> bool:
    return s.week == WEEKS and s.day == DAYS


def day_order(s: State) -> list[int]:
    """Turn order of the day; sets s.start for the special last days."""
    n = s.n
    if last_day(s):
        vp = s.vp
        if n == 4:
            ps = s.prev_start
            order = sorted(range(n), key=lambda p: (vp[p], (ps - p) % n or n))
            s.start = order[0]
        elif n == 2 and vp[0] != vp[1]:
            s.start = 0 if vp[0] < vp[1] else 1
    st = s.start
    if n == 2:
        return [st, 1 - st, st]
    if n == 4 and last_day(s):
        return order
    return [(st + i) % n for i in range(n)]


def begin_day(s: State) -> None:
    s.order = day_order(s)
    s.turn = 0
    s.yellow = 0
    s.rows = [[0, 0, 0, 0] for _ in range(6)]
    begin_turn(s)
    s.stage = "yellow"


def roll(s: State, yellow: int) -> None:
    """Roll the white dice and `yellow` yellow dice and fill the tower."""
    rng = s.rng
    white = [0] * 7
    yel = [0] * 7
    for _ in range(WHITE_DICE[s.n]):
        white[rng.die()] += 1
    for _ in range(yellow):
        yel[rng.die()] += 1
    s.rows = tower_rows(white, yel)
    s.yellow = yellow


def tower_rows(white: list[int], yellow: list[int]) -> list[list[int]]:
    """The tower for dice counts per value (index 1..6): [value, white, yellow, taken] a row.

    Groups of equal values go from the bottom row upward in increasing value,
    except that the highest group always goes to the top row (also when it is
    the only group)."""
    values = [v for v in range(1, 7) if white[v] or yellow[v]]
    rows = [[0, 0, 0, 0] for _ in range(6)]
    top = values[-1]
    rows[5] = [top, white[top], yellow[top], 0]
    for i, v in enumerate(values[:-1]):
        rows[i] = [v, white[v], yellow[v], 0]
    return rows


def usable_rows(s: State, p: int) -> list[int]:
    """Rows `p` may choose: with dice, not taken; yellow-only rows for the start player only."""
    yellow_ok = p == s.start
    return [
        r for r, (v, w, y, taken) in enumerate(s.rows) if not taken and (w or (yellow_ok and y))
    ]


def row_value(s: State, p: int, r: int) -> int:
    """Dice that count for `p` in row `r` (the start player counts the yellow ones too)."""
    _, w, y, _ = s.rows[r]
    return w + y if p == s.start else w


def _clear_turn(s: State) -> None:
    """Nothing chosen yet this turn: no row taken, no boost, no cubes or district pending."""
    s.row = -1
    s.boost = 0
    s.remaining = 0
    s.district = -1
    s.events = []
    s.resume = ""


def begin_turn(s: State) -> None:
    _clear_turn(s)
    s.stage = "row"
    s.actor = s.order[s.turn]


def end_turn(s: State) -> None:
    s.turn += 1
    if s.turn < len(s.order):
        begin_turn(s)
    else:
        end_day(s)


def end_day(s: State) -> None:
    s.supervisor = BOARD.centre
    if s.day == DAYS:
        score_week(s)
        if s.week == WEEKS:
            s.over = True
            s.stage = "over"
            s.actor = -1
            s.row = -1
            s.events = []
            return
        s.week += 1
        s.day = 1
    else:
        s.day += 1
    s.prev_start = s.start
    s.start = (s.start - 1) % s.n
    begin_day(s)


def has_play(s: State, p: int) -> bool:
    """Whether `p` holds a card he could play for its own effect now."""
    hand = s.hands[p]
    return any(hand[k] and playable(s, p, k) for k in PLAYABLE)


def playable(s: State, p: int, k: int) -> bool:
    if k <= 2:  # 3 camels, 3 gold, cube to the caravan
        return True
    if k == 3:
        return souks.can_place_card(s, p)
    if k == 4:
        return s.gold[p] + s.camels[p] > 0
    if k == 5:
        return s.gold[p] > 0
    return s.camels[p] > 0


def after_action(s: State) -> None:
    """The dice action is done: the optional build (3-4 players), or the closing window."""
    if s.n == 2:
        end_window(s)
    else:
        s.stage = "build"
        s.actor = s.order[s.turn]


def end_window(s: State) -> None:
    """After the turn's last step: a chance to play cards, if any can be played."""
    p = s.order[s.turn]
    if has_play(s, p):
        s.stage = "end"
        s.actor = p
    else:
        end_turn(s)
