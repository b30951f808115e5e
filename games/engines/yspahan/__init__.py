"""Yspahan (S. Pauchon, Ystari 2006): rules engine, board data, rendering.

Importing the package registers the engine (see games/engines/registry.py).
"""

from games.engines.registry import register

from .engine import YspahanEngine

ENGINE = register(YspahanEngine())

__all__ = ["ENGINE", "YspahanEngine"]
