"""Setting up a game ("Příprava hry")."""

from __future__ import annotations

from games.engines.rng import GameRandom

from .board import Board
from .constants import (
    ACTION_KINDS,
    CAMELS,
    CARDS_PER_GOOD,
    COLOURLESS_GEMS,
    DISPLAY_SIZE,
    DRIVERS,
    GEMS_PER_COLOUR,
    GOODS,
    HAND_SIZE,
    NUM_CITIES,
)
from .options import start_cities
from .state import Caravan, State

# Setup step 13: "Hráč s poháněčem velbloudů s nejnižší hodnotou se stává začínajícím hráčem."
START_PLAYER = (
    "The player dealt the lowest camel driver moves first (the drivers are dealt at random)."
)


def new_state(board: Board, players: int, seed: int, options: dict) -> State:
    rng = GameRandom(seed)
    if options["board_side"] == "blank":
        mix = options["tile_mix"]
        tiles = [kind for kind in ACTION_KINDS for _ in range(mix.get(kind, 0))]
        rng.shuffle(tiles)
        tiles = [None] * NUM_CITIES + tiles
    else:
        tiles = list(board.printed_tiles)

    # camels shuffled: 1 to the 1-camel start city, 2 and 3 likewise, 4 queue up
    camels = list(CAMELS)
    rng.shuffle(camels)
    starts = start_cities(options)
    caravans: list = [None, None, None, None]
    taken = 0
    for size in (1, 2, 3):
        city, target = starts[size]
        caravans[size] = Caravan(city, target, camels[taken : taken + size])
        taken += size
    queue = camels[taken:]

    bag = [colour for colour in range(5) for _ in range(GEMS_PER_COLOUR)]
    city_gems = [[0] * 5 for _ in range(NUM_CITIES)]
    for size in (1, 2, 3):
        for _ in range(size):
            city_gems[caravans[size].target][bag.pop(rng.randrange(len(bag)))] += 1

    drivers = list(DRIVERS)
    rng.shuffle(drivers)
    drivers = drivers[:players]

    deck = [g for g in range(len(GOODS)) for _ in range(CARDS_PER_GOOD)]
    rng.shuffle(deck)
    hands = [[0] * 5 for _ in range(players)]
    for p in range(players):
        for _ in range(HAND_SIZE):
            hands[p][deck.pop()] += 1
    display = [0] * 5
    for _ in range(DISPLAY_SIZE):
        display[deck.pop()] += 1

    first = drivers.index(min(drivers))
    return State(
        n=players,
        rng=rng,
        options=options,
        tiles=tiles,
        caravans=caravans,
        queue=queue,
        city_gems=city_gems,
        bag=bag,
        removed_seen=[0] * 5,
        removed_unseen=[0] * 5,
        colourless_supply=COLOURLESS_GEMS,
        hands=hands,
        fields=[[0] * 5 for _ in range(players)],
        gems=[[0] * 5 for _ in range(players)],
        colourless=[0] * players,
        tokens=[0] * players,
        drivers=drivers,
        display=display,
        deck=deck,
        discard=[],
        seat=first,
        actor=first,
        stage="start_turn",
    )
