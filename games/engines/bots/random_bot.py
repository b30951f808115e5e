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
        return self.choose_among(self.engine.legal_actions(state))

    def choose_among(self, legal: list[Action]) -> Action:
        """The same choice from legal actions the caller already has (one list per decision).

        Only a bot that decides in microseconds offers this: the runner charges it no
        time and reads the clock only now and then between its decisions."""
        return legal[self.choose_index(len(legal))]

    def choose_index(self, count: int) -> int:
        """The index of the choice among `count` legal actions (`choose_among` picks the
        same): a table of bots logs only the index."""
        return self.rng.randrange(count)
