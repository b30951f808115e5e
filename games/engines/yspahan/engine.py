"""The Yspahan engine object: the platform's contract (games/engines/base.py)."""

from __future__ import annotations

from games.engines.base import NoVariants, ObjectStateEngine, StateCodec

from . import labels, rules
from .describe import describe as _describe
from .flow import START_PLAYER, new_state
from .heuristic import evaluate
from .observation import determinize as _determinize
from .observation import observe
from .render import render_svg as _render_svg
from .scoring import ranks
from .state import State
from .state import from_json as _from_json
from .state import to_json as _to_json

ISMCTS_ROLLOUT_DEPTH = 10

_EMPTY_SCHEMA = {
    "type": "object",
    "properties": {},
    "additionalProperties": False,
    "description": "Yspahan has no variant options; two players use the published "
    "two-player rule (see the engine's README).",
}


class YspahanEngine(NoVariants, ObjectStateEngine):
    slug = "yspahan"
    codec = StateCodec(to_json=_to_json, from_json=_from_json, determinize=_determinize)
    title = "Yspahan"
    min_players = 2
    max_players = 4
    start_player = START_PLAYER
    # Three week-end scorings of all 14 souks (82 points, +2 each with building 5) give
    # 330, buildings 25, a card at most 10; 500 leaves room for the caravan.
    max_score = 500
    # Random playouts to the end (150-400 decisions) are slow and noisy; cut
    # after a few and scored by the heuristic, ismcts is much stronger per
    # second (README.md has the measurements).
    bot_defaults = {"ismcts": {"rollout_depth": ISMCTS_ROLLOUT_DEPTH}}

    # ---- variants
    def option_schema(self) -> dict:
        return {**_EMPTY_SCHEMA, "properties": {}}

    # ---- the game
    def new_game(self, *, players: int, seed: int, options: dict | None = None) -> State:
        self.check_players(players)
        opts = self.validate_options(options)
        return new_state(players, seed, opts)

    def to_act(self, state: State) -> int | None:
        return None if state.over else state.actor

    def legal_actions(self, state: State) -> list[dict]:
        return rules.legal_actions(state)

    def apply(self, state: State, action: dict) -> State:
        return rules.apply(state, action)

    def apply_unchecked(self, state: State, action: dict) -> State:
        return rules.apply_unchecked(state, action)

    def outcome(self, state: State) -> dict:
        scores = list(state.vp)
        return {
            "scores": scores,
            "ranks": ranks(scores),
            "final": state.over,
            "gold": list(state.gold),
            "camels": list(state.camels),
            "buildings": [sum(b) for b in state.built],
        }

    def observation(self, state: State, seat: int | None) -> dict:
        return observe(state, seat)

    def describe(self, state: State, action: dict) -> str:
        return _describe(state, action)

    # ---- bots and pages
    def heuristic(self, state: State, seat: int) -> float:
        return evaluate(state, seat)

    def render_svg(self, observation: dict) -> str:
        return _render_svg(observation)

    def action_targets(self, state: State, action: dict) -> list[str]:
        return labels.action_targets(state, action)

    def action_choice(self, state: State, action: dict) -> str | None:
        return labels.action_choice(state, action, _describe)
