"""The Great Wall engine object: the platform's contract (games/engines/base.py)."""

from __future__ import annotations

from games.engines.base import NoVariants, ObjectStateEngine, StateCodec

from . import labels, rules
from .board import default_board
from .constants import HIDDEN
from .describe import describe as _describe
from .heuristic import evaluate
from .newgame import START_PLAYER, new_state
from .observation import determinize as _determinize
from .observation import observe
from .scoring import ranks, scores
from .state import State
from .state import from_json as _from_json
from .state import to_json as _to_json

# Defaults for the generic ismcts bot (README "Bots").
ISMCTS_DEFAULTS = {"rollout_depth": 0, "exploration": 0.1}


class GreatWallEngine(NoVariants, ObjectStateEngine):
    slug = "greatwall"
    codec = StateCodec(to_json=_to_json, from_json=_from_json, determinize=_determinize)
    # The German original: "Dschingis Khan – Bewegung an der Großen Mauer"; Czech Čingischán.
    title = "Great Wall"
    min_players = 2
    max_players = 4
    start_player = START_PLAYER
    # Random playouts to the end (~200-400 decisions, mostly random chip
    # placements) say little: ismcts scores its leaves by the heuristic, whose
    # values lie close together, hence less exploration (README "Bots").
    bot_defaults = {"ismcts": ISMCTS_DEFAULTS}

    def score_bounds(self, players: int) -> tuple[int, int]:
        # Each player owns 10 warriors (3 points) and 5 peasants (1); a village counts for the
        # chip on top, and plague turns every chip under it negative: at most all chips of the
        # table for one player, either way.
        bound = players * (10 * 3 + 5 * 1)
        return -bound, bound

    def __init__(self) -> None:
        self.board = default_board()

    # ---- the game (no variants: the rulebook has none, hence NoVariants)
    def new_game(self, *, players: int, seed: int, options: dict | None = None) -> State:
        self.check_players(players)
        opts = self.validate_options(options)
        return new_state(self.board, players, seed, opts)

    def to_act(self, state: State) -> int | None:
        return None if state.over else state.seat

    def legal_actions(self, state: State) -> list[dict]:
        return rules.legal_actions(state, self.board)

    def apply(self, state: State, action: dict) -> State:
        return rules.apply(state, self.board, action)

    def apply_unchecked(self, state: State, action: dict) -> State:
        """apply without validation, for actions taken from legal_actions (bot playouts)."""
        rules.execute(state, self.board, rules.parse_trusted(state, self.board, action))
        return state

    def outcome(self, state: State) -> dict:
        pts = scores(state)
        return {
            "scores": pts,
            "ranks": ranks(pts),
            "villages": [
                sum(1 for v in range(len(state.stacks)) if state.controller(v) == p)
                for p in range(state.n)
            ],
            "final": state.over,
            "announced_by": state.announced if state.announced >= 0 else None,
            "rounds": state.round,
        }

    def observation(self, state: State, seat: int | None) -> dict:
        return observe(state, self.board, seat)

    def describe(self, state: State, action: dict) -> str:
        return _describe(state, self.board, action)

    def redact_action(self, action: dict, actor: int, viewer: int | None) -> dict:
        if viewer == actor or not isinstance(action, dict):
            return action
        if action.get("type") in ("lay", "setup") and "chip" in action:
            return {**action, "chip": HIDDEN}
        return action

    # ---- bots and pages
    def heuristic(self, state: State, seat: int) -> float:
        return evaluate(state, self.board, seat)

    def render_svg(self, observation: dict) -> str:
        from .render import render_svg

        return render_svg(observation, self.board)

    def action_targets(self, state: State, action: dict) -> list[str]:
        return labels.action_targets(state, action)

    def action_choice(self, state: State, action: dict) -> str | None:
        return labels.action_choice(state, action, lambda s, a: _describe(s, self.board, a))
