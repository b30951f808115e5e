"""The ``greedy`` bot: the best-looking fragment of its own turn, by the engine's heuristic.

Decisions are atomic, so one decision alone ("play two silk") often says little
until the rest of the turn is decided. Greedy therefore follows its own
consecutive decisions (while it stays the seat to act) with a small beam, and
values a root action by the best own-turn fragment it starts. Hidden
information is handled by averaging over a few determinizations, shared by all
root actions so that they are compared on the same sampled worlds.
"""

from __future__ import annotations

import random
import time
from typing import Any

from games.engines.base import Action, Engine, IllegalAction
from games.engines.bots.common import MAX_TIME_S, check_int, outcome_rewards


class GreedyBot:
    name = "greedy"
    PARAMS = ("samples", "depth", "beam")
    # Bounds keep one decision within a second or so on every engine; no seed.
    PARAM_SCHEMA = {
        "samples": {"type": "integer", "minimum": 1, "maximum": 16, "default": 3},
        "depth": {"type": "integer", "minimum": 1, "maximum": 4, "default": 3},
        "beam": {"type": "integer", "minimum": 1, "maximum": 8, "default": 4},
    }

    def __init__(
        self,
        engine: Engine,
        *,
        seed: int,
        samples: int = 3,
        depth: int = 3,
        beam: int = 4,
        max_s: float | None = MAX_TIME_S,
    ) -> None:
        self.engine = engine
        self.max_s = max_s  # the wall-clock cap (see IsmctsBot)
        self.rng = random.Random(seed)
        self.samples = check_int("samples", samples, minimum=1)
        self.depth = check_int("depth", depth, minimum=1)
        self.beam = check_int("beam", beam, minimum=1)

    def choose(self, state: Any, seat: int) -> Action:
        engine = self.engine
        if engine.to_act(state) != seat:
            raise ValueError(f"seat {seat} is not the seat to act")
        legal = engine.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        deadline = None if self.max_s is None else time.perf_counter() + self.max_s
        totals = [0.0] * len(legal)
        counts = [0] * len(legal)
        for sample in range(self.samples):
            if sample and deadline is not None and time.perf_counter() >= deadline:
                break  # the cap: the worlds looked at so far decide
            world = self._determinize(state, seat)
            for i, action in enumerate(legal):
                try:
                    child = engine.apply(engine.clone(world), action)
                except IllegalAction:
                    # An engine whose determinization changes our own options; skip the world.
                    continue
                totals[i] += self._fragment_value(child, seat)
                counts[i] += 1
        means = [t / c if c else -1.0 for t, c in zip(totals, counts, strict=True)]
        best = max(means)
        # Ties are broken at random (seeded) rather than by list order, to avoid a bias.
        candidates = [i for i, m in enumerate(means) if m >= best - 1e-12]
        return legal[candidates[self.rng.randrange(len(candidates))]]

    def _determinize(self, state: Any, seat: int) -> Any:
        world = self.engine.determinize(state, seat, self.rng)
        return self.engine.clone(world) if world is state else world

    def _value(self, state: Any, seat: int) -> float:
        engine = self.engine
        if engine.is_over(state):
            return outcome_rewards(engine.outcome(state), engine.num_players(state))[seat]
        return engine.heuristic(state, seat)

    def _fragment_value(self, state: Any, seat: int) -> float:
        """The best value reachable by `seat`'s own further decisions from `state`."""
        engine = self.engine
        if engine.is_over(state) or engine.to_act(state) != seat or self.depth == 1:
            return self._value(state, seat)
        best = -1.0
        frontier = [state]
        for level in range(1, self.depth):
            growing: list[tuple[float, Any]] = []
            for node in frontier:
                for action in engine.legal_actions(node):
                    child = engine.apply(engine.clone(node), action)
                    value = self._value(child, seat)
                    ends = engine.is_over(child) or engine.to_act(child) != seat
                    if ends or level == self.depth - 1:
                        # Cut at the depth cap: the mid-turn heuristic is the best guess.
                        best = max(best, value)
                    else:
                        growing.append((value, child))
            if not growing:
                break
            growing.sort(key=lambda vc: vc[0], reverse=True)
            frontier = [child for _, child in growing[: self.beam]]
        return best
