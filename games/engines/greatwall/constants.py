"""The game's components and a few limits (rulebook: "Hrací materiál", "Průběh hry")."""

from __future__ import annotations

# Chip faces, by index. Each player has 5 Chinese warriors, 5 Mongol riders,
# 5 peasants, 1 plague and 1 healing herb: 17 chips of their colour.
CHINESE, MONGOL, PEASANT, PLAGUE, HERB = range(5)
FACES = ("chinese", "mongol", "peasant", "plague", "herb")
FACE_INDEX = {name: i for i, name in enumerate(FACES)}
FACE_COUNTS = (5, 5, 5, 1, 1)
CHIPS_PER_PLAYER = sum(FACE_COUNTS)  # 17
FACE_LABELS = ("Chinese warrior", "Mongol rider", "peasant", "plague", "healing herb")

# Sides of the Great Wall (territory of a village).
MONGOLIA, CHINA = 0, 1
SIDES = ("mongol", "chinese")

WALL_PIECES = 28
ACTIVE_LIMIT = 4  # at most 4 walls and at most 4 chips in an active supply
REFILL = 2  # pieces taken when refilling
START_ACTIVE_WALLS = 2
START_ACTIVE_CHIPS = 2
START_CHIPS = 2  # chips laid on the board at setup

# A platform safeguard, not a rule of the game: if the end has not been
# announced after this many full rounds, the last seat of the round announces
# it (then the final round is played as usual). It keeps a game finite when
# the players never leave two supplies empty at once (README, reading 8: pieces
# keep coming back to the wall supply, chips stay in the passive supplies).
# Random and greedy games end long before it (README, "How games end").
ROUND_LIMIT = 60

# Wall piece states per wall line.
NO_WALL, OPEN, CLOSED = 0, 1, 2

# Chip encoding inside the state: face | owner << 3 | known-mask << 5, where
# bit p of the mask says seat p has seen the face.
OWNER_SHIFT = 3
KNOWN_SHIFT = 5
FACE_MASK = 7

HIDDEN = "hidden"  # the face of a chip in a redacted action


def chip(face: int, owner: int, known: int) -> int:
    return face | owner << OWNER_SHIFT | known << KNOWN_SHIFT


def chip_face(c: int) -> int:
    return c & FACE_MASK


def chip_owner(c: int) -> int:
    return (c >> OWNER_SHIFT) & 3


def chip_known(c: int) -> int:
    return c >> KNOWN_SHIFT
