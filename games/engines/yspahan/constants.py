"""Components and rule numbers (from data/board.json) as fast tuples."""

from __future__ import annotations

from .board import board_data

_DATA = board_data()

# Tower rows, bottom to top. Rows 1..4 place cubes in district row-1.
ROWS: tuple[str, ...] = tuple(_DATA["tower_rows_bottom_to_top"])
ROW_INDEX = {r: i for i, r in enumerate(ROWS)}
CAMEL_ROW = 0
GOLD_ROW = 5
DISTRICT_ROWS = (1, 2, 3, 4)

WHITE_DICE = {int(k): int(v) for k, v in _DATA["white_dice"].items()}
YELLOW_DICE = int(_DATA["yellow_dice"])
YELLOW_DIE_COST = 1
START_GOLD = int(_DATA["start_gold"])

WEEKS = 3
DAYS = 7

# Caravan: 3 sections; spaces per section by player count; points per section.
SECTIONS = 3
PER_SECTION = {int(k): int(v) for k, v in _DATA["caravan_spaces_per_section"].items()}
SECTION_POINTS: tuple[int, ...] = tuple(_DATA["caravan_points_per_section"])

# Cards, in the seed's order a..i.
CARDS: tuple[str, ...] = tuple(c["id"] for c in _DATA["cards"])
CARD_INDEX = {c: i for i, c in enumerate(CARDS)}
CARD_COUNTS: tuple[int, ...] = tuple(int(c["count"]) for c in _DATA["cards"])
DECK_SIZE = sum(CARD_COUNTS)
C_CAMELS3, C_GOLD3, C_CARAVAN, C_BOARD, C_SWAP, C_SCORE_GOLD, C_SCORE_CAMELS = range(7)
C_NO_CAMELS, C_NO_GOLD = CARD_INDEX["no_camels"], CARD_INDEX["no_gold"]
# Cards whose own effect is played on its own (the last two only modify a build).
PLAYABLE = (C_CAMELS3, C_GOLD3, C_CARAVAN, C_BOARD, C_SWAP, C_SCORE_GOLD, C_SCORE_CAMELS)
SCORE_GOLD_MAX = 10  # gold -> 1 VP each, at most 10
SCORE_CAMELS_MAX = 4  # camel -> 2 VP each, at most 4
CAMEL_VP = 2

# Buildings, in the seed's order 1..6.
BUILDINGS: tuple[str, ...] = tuple(b["id"] for b in _DATA["buildings"])
BUILDING_INDEX = {b: i for i, b in enumerate(BUILDINGS)}
BUILDING_COST: tuple[tuple[int, int], ...] = tuple(
    (int(b["camels"]), int(b["gold"])) for b in _DATA["buildings"]
)
B_CAMEL, B_GOLD, B_MOVE, B_CARD, B_POINTS, B_CUBE = range(6)
NTH_BUILDING_POINTS: tuple[int, ...] = tuple(_DATA["building_points_for_nth"])
EXTRA_CAMELS = 1
EXTRA_GOLD = 2
FREE_MOVE = 3
SOUK_BONUS = 2
EXTRA_CUBES = 1

# Card combinations a build may use: (label list, waive camels, waive gold).
BUILD_CARD_SETS: tuple[tuple[tuple[str, ...], bool, bool], ...] = (
    ((), False, False),
    (("no_camels",), True, False),
    (("no_gold",), False, True),
    (("no_camels", "no_gold"), True, True),
)
