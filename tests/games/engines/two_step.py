"""A tiny deterministic engine where the first decision only pays off through the second.

Seat 0 decides twice ("a" or "b", then "1" or "2") and the game ends; seat 1 never
decides and scores 5. Seat 0 scores A1=2, A2=4, B1=9, B2=0, so only B then 1 wins.
The heuristic rates the half-way states misleadingly (A 0.6, B 0.3): a bot that
looks one decision ahead picks "a", one that follows its own turn picks "b".
"""

from __future__ import annotations

import random
from typing import Any

from games.engines.base import Action, Engine, IllegalAction

LEAVES = {"a1": 2, "a2": 4, "b1": 9, "b2": 0}
MIDWAY = {"a": 0.6, "b": 0.3}


class TwoStepEngine(Engine):
    slug = "two-step"
    title = "Two Step"
    min_players = 2
    max_players = 2

    def new_game(self, *, players: int, seed: int, options: dict | None = None) -> dict:
        self.check_players(players)
        return {"path": ""}

    def to_act(self, state: Any) -> int | None:
        return None if self.is_over(state) else 0

    def legal_actions(self, state: Any) -> list[Action]:
        if self.is_over(state):
            return []
        choices = ("a", "b") if not state["path"] else ("1", "2")
        return [{"pick": c} for c in choices]

    def apply(self, state: Any, action: Action) -> Any:
        if action not in self.legal_actions(state):
            raise IllegalAction(f"not legal: {action!r}")
        state["path"] += action["pick"]
        return state

    def is_over(self, state: Any) -> bool:
        return len(state["path"]) == 2

    def outcome(self, state: Any) -> dict:
        mine = LEAVES[state["path"]]
        scores = [mine, 5]
        ranks = [1 if mine > 5 else 2, 1 if mine < 5 else 2]
        return {"scores": scores, "ranks": ranks}

    def observation(self, state: Any, seat: int | None) -> dict:
        return dict(state)

    def describe(self, state: Any, action: Action) -> str:
        return f"pick {action['pick']}"

    def to_json(self, state: Any) -> dict:
        return dict(state)

    def from_json(self, data: dict) -> Any:
        return dict(data)

    def determinize(self, state: Any, seat: int, rng: random.Random) -> Any:
        return self.clone(state)

    def num_players(self, state: Any) -> int:
        return 2

    def heuristic(self, state: Any, seat: int) -> float:
        if len(state["path"]) == 1:
            value = MIDWAY[state["path"]]
            return value if seat == 0 else 1 - value
        return 0.5


TWO_STEP = TwoStepEngine()
