"""Helpers shared by the generic bots: action keys, rewards and parameter checks."""

from __future__ import annotations

import json
from typing import Any

from games.engines.base import Action

ActionKey = Any  # a hashable, canonical form of an action dict


# The longest a built-in bot may think per decision, whatever asked (the runner lowers it
# to the server's BOT_MAX_THINK_S and the match's clock).
MAX_TIME_S = 5.0


def _freeze(value: Any) -> Any:
    # Booleans are tagged so that {"x": true} and {"x": 1} stay distinct, as in JSON.
    if isinstance(value, bool):
        return ("!b", value)
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return ("!l", *(_freeze(v) for v in value))
    return value


def action_key(action: Action) -> ActionKey:
    """A hashable key equal for actions with the same canonical JSON.

    Cheaper than ``json.dumps(sort_keys=True)`` and just as canonical; flat dicts of
    strings and ints (the common case) take the fast path."""
    items = action.items()
    for v in action.values():
        if not (v.__class__ is str or v.__class__ is int or v is None):
            return tuple(sorted((k, _freeze(v)) for k, v in items))
    return tuple(sorted(items))


def canonical_json(action: Action) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def outcome_rewards(outcome: dict, players: int) -> list[float]:
    """Per-seat reward in [0, 1] from final ranks: the share of opponents beaten, ties half.

    In two-player games this is win 1, tie 0.5, loss 0; with more seats it is the
    pairwise score the multiplayer Elo uses, so every seat's incentive is consistent."""
    ranks = outcome["ranks"]
    if players < 2:
        return [1.0] * players
    rewards = []
    for i in range(players):
        won = sum(1 for j in range(players) if j != i and ranks[i] < ranks[j])
        tied = sum(1 for j in range(players) if j != i and ranks[i] == ranks[j])
        rewards.append((won + 0.5 * tied) / (players - 1))
    return rewards


# ---- parameter checks ---------------------------------------------------------
def check_int(name: str, value: Any, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, not {value!r}")
    return value


def check_float(name: str, value: Any, *, minimum: float, strict: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number, not {value!r}")
    value = float(value)
    if value != value or value < minimum or (strict and value == minimum):
        op = ">" if strict else ">="
        raise ValueError(f"{name} must be a number {op} {minimum}, not {value!r}")
    return value


def check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, not {seed!r}")
    return seed
