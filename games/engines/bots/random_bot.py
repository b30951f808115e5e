"""The ``random`` bot: a uniform choice among the legal actions."""

from __future__ import annotations

import random
from typing import Any

from games.engines.base import Action, Engine


class RandomBot:
    name = "random"
    # JSON Schema properties of the parameters: none.
    PARAM_SCHEMA: dict[str, Any] = {}

    def __init__(self, engine: Engine, *, seed: int) -> None:
        self.engine = engine
        self.rng = random.Random(seed)

    def choose(self, state: Any, seat: int) -> Action:
        if self.engine.to_act(state) != seat:
            raise ValueError(f"seat {seat} is not the seat to act")
        legal = self.engine.legal_actions(state)
        return legal[self.rng.randrange(len(legal))]
