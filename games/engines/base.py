"""The engine contract every game implements (docs/architecture.md, The engine contract).

Everything the platform, bots, benchmarks and tests do with a game goes
through an :class:`Engine`. States are engine-specific objects; they are
serialised with ``to_json``/``from_json`` and never leave the engine raw.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from games.engines import schema as schema_checks
from games.engines.i18n import _

Action = dict[str, Any]


class IllegalAction(ValueError):
    """An action that the rules forbid in the current state; the state is unchanged."""


class InvalidOptions(ValueError):
    """Variant options (or bot parameters) that do not satisfy the engine's schema or checks.

    The message is for the reader, in the current language; `path` names the offending
    option as keys ("tile_mix", "bazaar"), so that a form can put it on the right field."""

    def __init__(self, message: str = "", *, path: tuple | list = ()) -> None:
        super().__init__(message)
        self.path = tuple(path)


class Bot(Protocol):
    def choose(self, state: Any, seat: int) -> Action: ...


def _complete(base: Any, other: Any) -> Any:
    """`base` with what only `other` knows filled in: keys it lacks, None it holds."""
    if base is None:
        return copy.deepcopy(other)
    if isinstance(base, dict) and isinstance(other, dict):
        out = dict(base)
        for key, value in other.items():
            out[key] = copy.deepcopy(value) if key not in base else _complete(base[key], value)
        return out
    if isinstance(base, list) and isinstance(other, list) and len(base) == len(other):
        return [_complete(b, o) for b, o in zip(base, other, strict=True)]
    return base


class Engine(ABC):
    slug: str
    title: str
    min_players: int
    max_players: int

    # ---- variants -------------------------------------------------------
    def option_schema(self) -> dict:
        """JSON Schema (draft 2020-12) of the variant options, every property with a default."""
        return {"type": "object", "properties": {}, "additionalProperties": False}

    def default_options(self) -> dict:
        props = self.option_schema().get("properties", {})
        return {k: copy.deepcopy(v["default"]) for k, v in props.items() if "default" in v}

    def validate_options(self, options: dict | None) -> dict:
        """Return the options with defaults filled in; raise InvalidOptions with a readable reason."""
        merged = self.default_options()
        merged.update(options or {})
        schema = self.option_schema()
        error = schema_checks.best_error(schema, merged)
        if error is not None:
            raise InvalidOptions(schema_checks.explain(error, schema), path=error.absolute_path)
        self.check_options(merged)
        return merged

    def check_options(self, options: dict) -> None:
        """Engine-specific checks the JSON Schema cannot express; raise InvalidOptions."""
        return None

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptions(
                _("{game} takes {low}-{high} players, not {n}").format(
                    game=_(self.title), low=self.min_players, high=self.max_players, n=players
                )
            )

    # ---- the game -------------------------------------------------------
    @abstractmethod
    def new_game(self, *, players: int, seed: int, options: dict | None = None) -> Any: ...

    @abstractmethod
    def to_act(self, state: Any) -> int | None: ...

    @abstractmethod
    def legal_actions(self, state: Any) -> list[Action]: ...

    @abstractmethod
    def apply(self, state: Any, action: Action) -> Any: ...

    @abstractmethod
    def is_over(self, state: Any) -> bool: ...

    @abstractmethod
    def outcome(self, state: Any) -> dict: ...

    @abstractmethod
    def observation(self, state: Any, seat: int | None) -> dict: ...

    # ---- results of games played over the board ----------------------------
    #: What breaks a tie on points at the table (entered per seat, higher wins), or None
    #: if ties are shared. Silk Road: the camel driver's value.
    tiebreak_label: str | None = None

    #: Who moves first, as the lobby states it: an English msgid the platform translates
    #: (games/i18n.py). Each engine states its own rule next to the code that applies it.
    start_player: str = "Seat 1 moves first."

    #: The highest final score one player can reach (the rules' components bound it);
    #: typed-in results above it are refused. Subclasses set it from their rulebook.
    max_score: int = 1000
    #: The lowest final score (0 unless the rules take points away).
    min_score: int = 0

    def score_bounds(self, players: int) -> tuple[int, int]:
        """(lowest, highest) final score of one player at a table of `players`."""
        return self.min_score, self.max_score

    def ranks_from_result(
        self, scores: list[float], tiebreak: list[float] | None = None
    ) -> list[int]:
        """Finishing places from a typed-in result: by score, then the game's tie-break;
        equal ranks only when both are equal. Raises InvalidOptions on malformed input."""
        n = len(scores)
        if not self.min_players <= n <= self.max_players:
            raise InvalidOptions(
                _("{game} is played by {low}-{high} players").format(
                    game=_(self.title), low=self.min_players, high=self.max_players
                )
            )
        if self.tiebreak_label is not None and (tiebreak is None or len(tiebreak) != n):
            raise InvalidOptions(
                _("give the {label} of every seat to break ties").format(
                    label=_(self.tiebreak_label)
                )
            )
        if tiebreak is not None and len(tiebreak) != n:
            raise InvalidOptions(_("one tie-break value per seat"))
        keys = [(scores[i], tiebreak[i] if tiebreak else 0) for i in range(n)]
        return [1 + sum(1 for k in keys if k > keys[i]) for i in range(n)]

    @abstractmethod
    def describe(self, state: Any, action: Action) -> str: ...

    def full_observation(self, state: Any) -> dict:
        """Everything any seat knows, at once (every hand): for replays of finished games
        only. By default the spectator's view completed from each seat's own view;
        engines with secrets no seat knows may override."""
        merged = self.observation(state, None)
        for seat in range(self.num_players(state)):
            merged = _complete(merged, self.observation(state, seat))
        merged["seat"] = None
        merged.pop("legal", None)
        return merged

    def redact_action(self, action: Action, actor: int, viewer: int | None) -> Action:
        """The action as `viewer` may see it in a log while the game runs (hide secret choices)."""
        return action

    @abstractmethod
    def to_json(self, state: Any) -> dict: ...

    @abstractmethod
    def from_json(self, data: dict) -> Any: ...

    def clone(self, state: Any) -> Any:
        return self.from_json(self.to_json(state))

    @abstractmethod
    def determinize(self, state: Any, seat: int, rng: random.Random) -> Any: ...

    @abstractmethod
    def num_players(self, state: Any) -> int: ...

    # ---- bots -----------------------------------------------------------
    def heuristic(self, state: Any, seat: int) -> float:
        """How good `state` looks for `seat`, roughly in [0, 1]; used by greedy and ismcts.

        Must only use what `seat` may know (it is called on determinized states)."""
        return 0.5

    # Per-bot parameter defaults an engine tunes for itself (e.g. how deep
    # ismcts plays out before the heuristic judges); callers may override.
    bot_defaults: dict[str, dict[str, Any]] = {}

    def bot_names(self) -> list[str]:
        return ["random", "greedy", "ismcts"]

    def bot_param_schema(self, name: str, *, max_time_s: float | None = None) -> dict:
        """JSON Schema (with bounds) of a built-in bot's parameters on this engine;
        `max_time_s` caps its thinking time (a match's time limit, a server maximum)."""
        from games.engines import bots

        return bots.param_schema(name, defaults=self.bot_defaults.get(name), max_time_s=max_time_s)

    def check_bot_params(self, name: str, params: dict | None, *,
                         max_time_s: float | None = None) -> None:  # fmt: skip
        """Raise InvalidOptions with a readable reason unless `params` fit the schema."""
        try:
            schema = self.bot_param_schema(name, max_time_s=max_time_s)
        except ValueError as exc:
            raise InvalidOptions(str(exc)) from None
        error = schema_checks.best_error(schema, params or {})
        if error is not None:
            # The schema's title is the bot's name: "Greedy bot / Depth: at least 1."
            raise InvalidOptions(schema_checks.explain(error, schema), path=error.absolute_path)

    def make_bot(self, name: str, *, seed: int, max_s: float | None = None, **params: Any) -> Bot:
        from games.engines import bots

        params = {**self.bot_defaults.get(name, {}), **params}
        return bots.make_bot(self, name, seed=seed, max_s=max_s, **params)

    # ---- rendering and playing on the board -----------------------------
    def render_svg(self, observation: dict) -> str:
        """An SVG picture of an observation, for match pages.

        Every clickable part of the board carries ``data-target="<id>"`` with a
        stable id (the engine's README documents its scheme); ids are not labels,
        every text a player reads is a human name."""
        raise NotImplementedError

    def action_targets(self, state: Any, action: Action) -> list[str]:
        """The board ids (``data-target``) an action involves, in the order a player
        clicks them; [] when the board has nothing to click for it (a count, yes/no).

        The page narrows the legal actions to those whose target lists start with
        the ids clicked so far. Every id must be drawn in the SVG of the acting
        seat's observation."""
        return []

    def action_choice(self, state: Any, action: Action) -> str | None:
        """A short human label for what an action decides beyond its board targets
        (offered as a ``data-choice`` button once the targets are clicked), or None.

        Contract: among the legal actions of a state, (targets, choice) is unique,
        so clicking the targets and then the choice names exactly one action. An
        action whose targets are empty must have a choice (the default: its
        describe() text)."""
        if not self.action_targets(state, action):
            return self.describe(state, action)
        return None


@dataclass(frozen=True)
class StateCodec:
    """An engine's module functions for its state objects (see ObjectStateEngine)."""

    to_json: Callable[[Any], dict]
    from_json: Callable[[dict], Any]
    determinize: Callable[[Any, int, random.Random], Any]


class ObjectStateEngine(Engine):
    """Base of the engines whose state is an object with ``n`` (players), ``over`` and
    ``copy()``, serialised and determinized by module functions (``codec``): the
    contract's methods that only pass the state on, written once."""

    codec: StateCodec

    def is_over(self, state: Any) -> bool:
        return state.over

    def to_json(self, state: Any) -> dict:
        return self.codec.to_json(state)

    def from_json(self, data: dict) -> Any:
        return self.codec.from_json(data)

    def clone(self, state: Any) -> Any:
        return state.copy()

    def determinize(self, state: Any, seat: int, rng: random.Random) -> Any:
        return self.codec.determinize(state, seat, rng)

    def num_players(self, state: Any) -> int:
        return state.n


class NoVariants(Engine):
    """For an engine without variant options: none given (the usual case, bots and
    tests start many games) is answered without the schema check."""

    def validate_options(self, options: dict | None) -> dict:
        if not options:
            return {}
        return super().validate_options(options)
