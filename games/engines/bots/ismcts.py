"""The ``ismcts`` bot: single-observer information-set Monte-Carlo tree search.

Each iteration samples a world consistent with what the bot's seat knows
(``engine.determinize``), walks one shared tree whose edges are actions (keyed
canonically, with the seat that takes them) using UCB with availability counts
(an action only competes in the worlds where it is legal), adds one node,
evaluates it and backs up one reward per seat. Each node is credited with the
reward of the seat that chose the action leading to it, which handles 2-5
seats and turns made of several decisions by different seats.

Evaluation: by default (``rollout_depth=0``) the new node is scored with the
engine's heuristic for every seat; ``rollout_depth=k`` first plays k random
decisions, ``None`` plays to the end and scores the final ranks. On Silk Road
random playouts mostly ruin a position, and heuristic evaluation won clearly
(see benchmarks/README.md). Engines without a heuristic always play to the end.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from games.engines.base import Action, Engine
from games.engines.bots.common import (
    MAX_TIME_S,
    action_key,
    check_float,
    check_int,
    outcome_rewards,
)

DEFAULT_ITERATIONS = 1000


class _Node:
    __slots__ = ("action", "avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int, action: Action | None) -> None:
        self.seat = seat  # who chose the action leading here; -1 at the root
        self.action = action
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


class IsmctsBot:
    name = "ismcts"
    PARAMS = (
        "iterations",
        "time_s",
        "exploration",
        "rollout_depth",
        "rollout_candidates",
    )
    # time_s's maximum is set per use (bot_param_schema's max_time_s); see bots.param_schema.
    # Bounds near what the 5 s cap (MAX_TIME_S) lets a decision do on a 2-core server
    # (benchmarks/README.md, "Search bot cost"): 10,000 iterations take 1-5 s with the
    # engines' default playouts; deeper or guided playouts cost several times more, and
    # the cap stops the search there, whatever the numbers say.
    PARAM_SCHEMA = {
        "iterations": {"type": "integer", "minimum": 1, "maximum": 10000},
        "time_s": {"type": "number", "minimum": 0.01},
        "exploration": {"type": "number", "minimum": 0, "maximum": 10},
        "rollout_depth": {"type": ["integer", "null"], "minimum": 0, "maximum": 40},
        "rollout_candidates": {"type": "integer", "minimum": 1, "maximum": 4},
    }

    def __init__(
        self,
        engine: Engine,
        *,
        seed: int,
        iterations: int | None = None,
        time_s: float | None = None,
        exploration: float = 0.7,
        rollout_depth: int | None = 0,
        rollout_candidates: int = 1,
        max_s: float | None = MAX_TIME_S,
    ) -> None:
        self.engine = engine
        # The wall-clock cap on one decision, whatever the budget asks; not a parameter a
        # player sets: the runner lowers it to the match's clock.
        self.max_s = max_s
        self.rng = random.Random(seed)
        if iterations is None and time_s is None:
            iterations = DEFAULT_ITERATIONS
        self.iterations = (
            None if iterations is None else check_int("iterations", iterations, minimum=1)
        )
        self.time_s = (
            None if time_s is None else check_float("time_s", time_s, minimum=0.0, strict=True)
        )
        self.exploration = check_float("exploration", exploration, minimum=0.0)
        self.rollout_depth = (
            None if rollout_depth is None else check_int("rollout_depth", rollout_depth, minimum=0)
        )
        self.rollout_candidates = check_int("rollout_candidates", rollout_candidates, minimum=1)
        # Without an engine heuristic a truncated playout would score every seat 0.5,
        # so playouts then run to the end whatever rollout_depth says.
        self._has_heuristic = type(engine).heuristic is not Engine.heuristic
        # Engines may offer an apply that skips validation; playouts only apply legal actions.
        self._apply_trusted = getattr(engine, "apply_unchecked", engine.apply)
        self.last_iterations = 0
        self.last_seconds = 0.0

    # ---- the search -----------------------------------------------------
    def choose(self, state: Any, seat: int) -> Action:
        engine = self.engine
        if engine.to_act(state) != seat:
            raise ValueError(f"seat {seat} is not the seat to act")
        legal = engine.legal_actions(state)
        self.last_iterations = 0
        self.last_seconds = 0.0
        if len(legal) == 1:
            return legal[0]
        started = time.perf_counter()
        limits = [t for t in (self.time_s, self.max_s) if t is not None]
        deadline = started + min(limits) if limits else None
        players = engine.num_players(state)
        root = _Node(-1, None)
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            self._iterate(root, state, seat, players)
            done += 1
        self.last_iterations = done
        self.last_seconds = time.perf_counter() - started
        return self._pick(root, seat, legal)

    def _pick(self, root: _Node, seat: int, legal: list[Action]) -> Action:
        best: Action = legal[0]
        best_rank = (-1, -1.0)
        for action in legal:
            node = root.children.get((seat, action_key(action)))
            if node is None:
                continue
            rank = (node.visits, node.total / node.visits if node.visits else 0.0)
            if rank > best_rank:
                best, best_rank = action, rank
        return best

    def _iterate(self, root: _Node, state: Any, seat: int, players: int) -> None:
        engine = self.engine
        rng = self.rng
        world = engine.determinize(state, seat, rng)
        if world is state:  # never let the search touch the caller's state
            world = engine.clone(world)
        node = root
        path: list[_Node] = []
        log = math.log
        sqrt = math.sqrt
        c = self.exploration
        # Selection and expansion.
        while not engine.is_over(world):
            mover = engine.to_act(world)
            legal = engine.legal_actions(world)
            children = node.children
            untried: list[tuple[Any, Action]] = []
            available: list[_Node] = []
            for action in legal:
                # Keyed by who acts too: after hidden or chance events the same action
                # may belong to different seats in different worlds.
                key = (mover, action_key(action))
                child = children.get(key)
                if child is None:
                    untried.append((key, action))
                else:
                    available.append(child)
            for child in available:
                child.avail += 1
            if untried:
                key, action = untried[rng.randrange(len(untried))]
                child = _Node(mover, action)
                children[key] = child
                world = self._apply_trusted(world, action)
                path.append(child)
                break
            best_child = available[0]
            best_score = -math.inf
            for child in available:
                score = child.total / child.visits + c * sqrt(log(child.avail) / child.visits)
                if score > best_score:
                    best_child, best_score = child, score
            world = self._apply_trusted(world, best_child.action)
            path.append(best_child)
            node = best_child
        rewards = self._playout(world, players, {n.seat for n in path})
        for n in path:
            n.visits += 1
            n.total += rewards[n.seat]

    def _playout(self, world: Any, players: int, seats: set[int]) -> list[float]:
        """Rewards per seat; with a heuristic, only `seats` (those on the path) are evaluated."""
        engine = self.engine
        rng = self.rng
        apply = self._apply_trusted
        limit = self.rollout_depth if self._has_heuristic else None
        k = self.rollout_candidates if self._has_heuristic else 1
        steps = 0
        while not engine.is_over(world):
            if limit is not None and steps >= limit:
                rewards = [0.5] * players
                for s in seats:
                    h = engine.heuristic(world, s)
                    rewards[s] = 0.0 if h < 0.0 else 1.0 if h > 1.0 else h
                return rewards
            legal = engine.legal_actions(world)
            if k == 1 or len(legal) == 1:
                world = apply(world, legal[rng.randrange(len(legal))])
            else:
                world = self._guided_step(world, legal, k)
            steps += 1
        return outcome_rewards(engine.outcome(world), players)

    def _guided_step(self, world: Any, legal: list[Action], k: int) -> Any:
        """Light guidance: the best of k sampled actions by the mover's heuristic."""
        engine = self.engine
        mover = engine.to_act(world)
        picks = self.rng.sample(legal, k) if k < len(legal) else legal
        best_state, best_value = None, -math.inf
        for action in picks:
            child = self._apply_trusted(engine.clone(world), action)
            value = (
                outcome_rewards(engine.outcome(child), engine.num_players(child))[mover]
                if engine.is_over(child)
                else engine.heuristic(child, mover)
            )
            if value > best_value:
                best_state, best_value = child, value
        return best_state
