"""Fixed numbers and names of the game's components (rulebook, "Herní materiál")."""

from __future__ import annotations

GOODS = ("silk", "porcelain", "spice", "ivory", "tea")
GOOD_INDEX = {g: i for i, g in enumerate(GOODS)}
CARDS_PER_GOOD = 14
TOTAL_CARDS = CARDS_PER_GOOD * len(GOODS)
HAND_SIZE = 4  # cards dealt at setup; customs reduces hands to this
DISPLAY_SIZE = 3

COLOURS = ("blue", "yellow", "green", "red", "purple")
COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
GEMS_PER_COLOUR = 4
COLOURLESS_GEMS = 10
TOKENS = 6  # 8-point tokens in the box
TOKEN_POINTS = 8
SET_POINTS = (0, 1, 3, 6, 10, 15)  # by number of distinct colours in a set
COLOURLESS_POINTS = 2  # each colourless gem held (three are swapped for a token)

# A camel is identified by its value 1..10 (values are unique); its good:
CAMEL_GOOD = (-1, 0, 1, 2, 3, 4, 4, 3, 2, 1, 0)
CAMELS = tuple(range(1, 11))

DRIVERS = (1, 2, 3, 4, 5)
CARAVAN_SIZES = (1, 2, 3)
NUM_CITIES = 6

SMALL_MARKETS = tuple(f"small_market_{g}" for g in GOODS)
ACTION_KINDS = SMALL_MARKETS + (
    "black_market",
    "camels_1",
    "camels_2",
    "camels_3",
    "customs",
    "sandstorm",
    "robbers",
    "bazaar",
    "baksheesh",
)
ACTION_LABELS = {
    **{f"small_market_{g}": f"small market ({g})" for g in GOODS},
    "black_market": "black market",
    "camels_1": "1 camel",
    "camels_2": "2 camels",
    "camels_3": "3 camels",
    "customs": "customs",
    "sandstorm": "sandstorm",
    "robbers": "robbers",
    "bazaar": "bazaar",
    "baksheesh": "baksheesh",
}
NUM_VILLAGES = 22


def camel_json(value: int) -> dict:
    return {"good": GOODS[CAMEL_GOOD[value]], "value": value}
