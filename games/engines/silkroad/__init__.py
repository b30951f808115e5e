"""Silk Road (Seidenstraße / Hedvábná stezka): rules engine, board data, rendering.

Importing the package registers the engine (see games/engines/registry.py).
"""

from games.engines.registry import register

from .engine import SilkRoadEngine

ENGINE = register(SilkRoadEngine())

__all__ = ["ENGINE", "SilkRoadEngine"]
