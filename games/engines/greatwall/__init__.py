"""Great Wall (Dschingis Khan – Bewegung an der Großen Mauer / Čingischán – Pohyby
u Velké zdi): rules engine, board data, rendering.

Importing the package registers the engine (see games/engines/registry.py).
"""

from games.engines.registry import register

from .engine import GreatWallEngine

ENGINE = register(GreatWallEngine())

__all__ = ["ENGINE", "GreatWallEngine"]
