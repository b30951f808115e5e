"""The Silk Road engine object: the platform's contract (games/engines/base.py)."""

from __future__ import annotations

from games.engines.base import InvalidOptions, ObjectStateEngine, StateCodec
from games.engines.i18n import _

from . import flow, labels, options, rules
from .board import default_board
from .describe import describe as _describe
from .heuristic import evaluate
from .newgame import START_PLAYER, new_state
from .observation import determinize as _determinize
from .observation import observe
from .render import render_svg as _render_svg
from .scoring import colourless_points, set_points
from .state import State
from .state import from_json as _from_json
from .state import to_json as _to_json

ISMCTS_ROLLOUT_DEPTH = 12


class SilkRoadEngine(ObjectStateEngine):
    slug = "silkroad"
    codec = StateCodec(to_json=_to_json, from_json=_from_json, determinize=_determinize)
    title = "Silk Road"  # the German "Seidenstraße"
    min_players = 2
    max_players = 5
    # Random playouts to the end of a Silk Road game are long (~250
    # decisions) and noisy; cut after a dozen and scored by the heuristic,
    # ismcts is far stronger per second.
    bot_defaults = {"ismcts": {"rollout_depth": ISMCTS_ROLLOUT_DEPTH}}
    # Over-the-board results: equal points go to the higher camel driver.
    tiebreak_label = "camel driver value"
    start_player = START_PLAYER
    # Whole gems only: 20 coloured gems as four sets of five colours make 60; colourless gems
    # count 2 and every third becomes an 8-point token, and the six tokens in the box are no
    # limit (README, reading of example 21). 200 leaves room for any real game.
    max_score = 200

    def __init__(self) -> None:
        self.board = default_board()

    def ranks_from_result(
        self, scores: list[float], tiebreak: list[float] | None = None
    ) -> list[int]:
        # Each player holds one of the five drivers (1-5), so the values differ.
        if tiebreak is not None and (
            len(set(tiebreak)) != len(tiebreak) or not set(tiebreak) <= {1, 2, 3, 4, 5}
        ):
            raise InvalidOptions(_("each seat holds a different camel driver from 1 to 5"))
        return super().ranks_from_result(scores, tiebreak)

    # ---- variants
    def option_schema(self) -> dict:
        return options.option_schema()

    def check_options(self, opts: dict) -> None:
        options.check_options(opts)

    def validate_options(self, opts: dict | None) -> dict:
        # Same checks as Engine.validate_options, with the schema compiled
        # once: bots and tests start many games.
        if not opts:
            return self.default_options()  # the defaults are valid
        merged = self.default_options()
        merged.update(opts)
        options.validate_schema(merged)
        self.check_options(merged)
        return merged

    # ---- the game
    def new_game(self, *, players: int, seed: int, options: dict | None = None) -> State:
        self.check_players(players)
        opts = self.validate_options(options)
        s = new_state(self.board, players, seed, opts)
        flow.advance(s, self.board)
        return s

    def to_act(self, state: State) -> int | None:
        return None if state.over else state.actor

    def legal_actions(self, state: State) -> list[dict]:
        return rules.legal_actions(state, self.board)

    def apply(self, state: State, action: dict) -> State:
        return rules.apply(state, self.board, action)

    def outcome(self, state: State) -> dict:
        n = state.n
        gem_pts = [set_points(state.gems[p]) for p in range(n)]
        clear_pts = [colourless_points(state.colourless[p], state.tokens[p]) for p in range(n)]
        scores = [gem_pts[p] + clear_pts[p] for p in range(n)]
        # ties go to the higher camel driver; drivers are all different
        order = sorted(range(n), key=lambda p: (-scores[p], -state.drivers[p]))
        ranks = [0] * n
        for place, p in enumerate(order):
            ranks[p] = place + 1
        return {
            "scores": scores,
            "ranks": ranks,
            "drivers": state.drivers[:],
            "gem_points": gem_pts,
            "colourless_points": clear_pts,
            "final": state.over,
            "stalled": state.stalled,
        }

    def observation(self, state: State, seat: int | None) -> dict:
        return observe(state, self.board, seat)

    def describe(self, state: State, action: dict) -> str:
        return _describe(state, self.board, action)

    # ---- bots and pages
    def heuristic(self, state: State, seat: int) -> float:
        return evaluate(state, self.board, seat)

    def render_svg(self, observation: dict) -> str:
        return _render_svg(observation, self.board)

    def action_targets(self, state: State, action: dict) -> list[str]:
        return labels.action_targets(state, self.board, action)

    def action_choice(self, state: State, action: dict) -> str | None:
        return labels.action_choice(state, self.board, action, _describe)
