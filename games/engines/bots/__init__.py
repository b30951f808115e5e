"""Generic bots that play any Engine: ``random``, ``greedy`` and ``ismcts``.

Bots see only what ``observation``/``determinize`` give them, never mutate the
state passed to ``choose``, and are deterministic for a given seed (ismcts only
with an iteration budget)."""

from __future__ import annotations

import copy
from typing import Any

from games.engines.base import Bot, Engine
from games.engines.bots.common import MAX_TIME_S, check_seed
from games.engines.bots.greedy import GreedyBot
from games.engines.bots.ismcts import IsmctsBot
from games.engines.bots.random_bot import RandomBot
from games.engines.i18n import _

BOT_CLASSES: dict[str, Any] = {"random": RandomBot, "greedy": GreedyBot, "ismcts": IsmctsBot}
BOT_NAMES: tuple[str, ...] = tuple(BOT_CLASSES)


def _unknown(name: str) -> str:
    return _("unknown bot {name!r}; known: {known}").format(name=name, known=", ".join(BOT_NAMES))


def bot_params(name: str) -> tuple[str, ...]:
    """The parameter names a bot accepts (besides ``seed``)."""
    return tuple(getattr(BOT_CLASSES[name], "PARAMS", ()))


def param_schema(
    name: str, *, defaults: dict | None = None, max_time_s: float | None = None
) -> dict:
    """JSON Schema of a bot's parameters, with bounds; unknown keys are refused.
    `defaults` (an engine's bot_defaults) fill in each property's default;
    `max_time_s` lowers the thinking-time ceiling (e.g. to a match's time limit)."""
    if name not in BOT_CLASSES:
        raise ValueError(_unknown(name))
    properties = copy.deepcopy(getattr(BOT_CLASSES[name], "PARAM_SCHEMA", {}))
    for key, value in (defaults or {}).items():
        if key in properties:
            properties[key]["default"] = value
    if "time_s" in properties:
        ceiling = MAX_TIME_S if max_time_s is None else min(MAX_TIME_S, max_time_s)
        properties["time_s"]["maximum"] = ceiling
    # Titles name the bot and its parameters in messages (games.engines.schema), in the
    # current language: built on each call, like the schema.
    titles = _param_titles()
    for key, prop in properties.items():
        if key in titles:
            prop.setdefault("title", titles[key])
    return {
        "type": "object",
        "title": _bot_title(name),
        "properties": properties,
        "additionalProperties": False,
    }


def _bot_title(name: str) -> str:
    titles = {"random": _("Random bot"), "greedy": _("Greedy bot"), "ismcts": _("Search bot")}
    return titles.get(name, name)


def _param_titles() -> dict[str, str]:
    return {
        "samples": _("sampled deals"),
        "depth": _("look-ahead depth"),
        "beam": _("moves followed"),
        "iterations": _("iterations"),
        "time_s": _("seconds per decision"),
        "exploration": _("exploration"),
        "rollout_depth": _("playout depth"),
        "rollout_candidates": _("playout candidates"),
    }


def make_bot(engine: Engine, name: str, *, seed: int, max_s: float | None = None,
             **params: Any) -> Bot:  # fmt: skip
    """A bot for `engine`; ValueError for an unknown name or bad parameters. `max_s` lowers
    a thinking bot's wall-clock cap per decision (MAX_TIME_S at most)."""
    if name not in BOT_CLASSES:
        raise ValueError(_unknown(name))
    seed = check_seed(seed)
    unknown = sorted(set(params) - set(bot_params(name)))
    if unknown:
        accepted = ", ".join(bot_params(name)) or "none"
        raise ValueError(
            f"bot {name!r} has no parameter {', '.join(unknown)}; it accepts: {accepted}"
        )
    bot = BOT_CLASSES[name](engine, seed=seed, **params)
    if max_s is not None and hasattr(bot, "max_s"):
        bot.max_s = min(max_s, MAX_TIME_S)
    return bot


__all__ = [
    "BOT_NAMES",
    "MAX_TIME_S",
    "param_schema",
    "GreedyBot",
    "IsmctsBot",
    "RandomBot",
    "bot_params",
    "make_bot",
]
