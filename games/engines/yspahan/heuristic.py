"""A quick evaluation for bots: how good the state looks for one seat, in [0, 1].

Only public facts and the seat's own hand are used (other hands only by size),
so it is safe on determinized states. Each player gets a value in points-to-be:
  points scored
+ complete souks (points they will score at the week's end, a little
  discounted: the supervisor may still take cubes away), partly filled souks
  by the share filled and the days left to fill them
+ the caravan: own cubes x the section of one's last cube, scored at the end of
  every remaining week (or sooner when it fills)
+ gold, camels and cards at an exchange rate that falls as the game nears its
  end, buildings by the days left to use them
+ cubes still to be placed by the turn player.
The seat's value is then compared with the best and the average opponent.
"""

from __future__ import annotations

import math

from .board import BOARD
from .constants import B_POINTS, C_SCORE_CAMELS, C_SCORE_GOLD, DAYS, WEEKS
from .state import State

SCALE = 9.0  # points lead that makes a clear favourite
GOLD = 0.55
CAMEL = 0.6
CARD = 1.6
BUILDING_PER_DAY = (0.25, 0.3, 0.15, 0.2, 0.25, 0.35)  # ability value per remaining day
CUBE_TO_PLACE = 1.1
_SIZE = BOARD.souk_size
_POINTS = BOARD.souk_points


def values(s: State, me: int) -> list[float]:
    n = s.n
    day_index = (s.week - 1) * DAYS + s.day  # 1..21
    days_left = WEEKS * DAYS - day_index  # whole days after today
    week_days_left = DAYS - s.day
    late = min(1.0, (days_left + 1) / 5.0)  # resources lose value at the very end
    weeks_left = WEEKS - s.week + 1  # caravan scorings still to come (this week's too)
    value = [float(v) for v in s.vp]

    # souks
    if week_days_left >= 2:
        partial_weight = 0.9
    elif week_days_left == 1:
        partial_weight = 0.6
    else:
        partial_weight = 0.3
    for k, owner in enumerate(s.souk_owner):
        if owner < 0:
            continue
        pts = _POINTS[k] + (2 if s.built[owner][B_POINTS] else 0)
        frac = s.souk_count[k] / _SIZE[k]
        if frac >= 1.0:
            value[owner] += 0.92 * pts
        else:
            value[owner] += pts * frac * frac * partial_weight

    # caravan
    per = s.per_section
    count = [0] * n
    last = [0] * n
    for space, p in enumerate(s.caravan):
        count[p] += 1
        last[p] = space // per + 1
    for p in range(n):
        if count[p]:
            value[p] += count[p] * last[p] * min(weeks_left, 1.6)

    # resources and buildings
    for p in range(n):
        gold_v = GOLD * late
        camel_v = CAMEL * late
        if p == me:
            hand = s.hands[p]
            # score cards keep gold / camels worth points to the very end
            if hand[C_SCORE_GOLD]:
                gold_v = max(gold_v, 0.9)
            if hand[C_SCORE_CAMELS]:
                camel_v = max(camel_v, 1.6)
        value[p] += gold_v * s.gold[p] + camel_v * s.camels[p]
        value[p] += CARD * (0.5 + 0.5 * late) * sum(s.hands[p])
        built = s.built[p]
        for b in range(6):
            if built[b]:
                value[p] += BUILDING_PER_DAY[b] * days_left

    if not s.over and s.stage == "place":
        value[s.order[s.turn]] += CUBE_TO_PLACE * s.remaining
    return value


def evaluate(s: State, seat: int) -> float:
    n = s.n
    if s.over:
        scores = s.vp
        better = sum(1 for p in range(n) if scores[p] > scores[seat])
        tied = sum(1 for p in range(n) if p != seat and scores[p] == scores[seat])
        return 1.0 - (better + 0.5 * tied) / (n - 1)
    v = values(s, seat)
    others = [v[p] for p in range(n) if p != seat]
    lead_best = v[seat] - max(others)
    lead_avg = v[seat] - sum(others) / len(others)
    x = (0.6 * lead_best + 0.4 * lead_avg) / SCALE
    return 1.0 / (1.0 + math.exp(-x))
