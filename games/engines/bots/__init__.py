"""Generic bots that play any Engine: ``random``, ``greedy`` and ``ismcts``.

Bots see only what ``observation``/``determinize`` give them, never mutate the
state passed to ``choose``, and are deterministic for a given seed (ismcts only
with an iteration budget)."""

from __future__ import annotations

from typing import Any

from games.engines.base import Bot, Engine
from games.engines.bots.common import check_seed
from games.engines.bots.greedy import GreedyBot
from games.engines.bots.ismcts import IsmctsBot
from games.engines.bots.random_bot import RandomBot

BOT_CLASSES: dict[str, Any] = {"random": RandomBot, "greedy": GreedyBot, "ismcts": IsmctsBot}
BOT_NAMES: tuple[str, ...] = tuple(BOT_CLASSES)


def bot_params(name: str) -> tuple[str, ...]:
    """The parameter names a bot accepts (besides ``seed``)."""
    return tuple(getattr(BOT_CLASSES[name], "PARAMS", ()))


def make_bot(engine: Engine, name: str, *, seed: int, **params: Any) -> Bot:
    """A bot for `engine`; ValueError for an unknown name or bad parameters."""
    if name not in BOT_CLASSES:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOT_NAMES)}")
    seed = check_seed(seed)
    unknown = sorted(set(params) - set(bot_params(name)))
    if unknown:
        accepted = ", ".join(bot_params(name)) or "none"
        raise ValueError(
            f"bot {name!r} has no parameter {', '.join(unknown)}; it accepts: {accepted}"
        )
    return BOT_CLASSES[name](engine, seed=seed, **params)


__all__ = ["BOT_NAMES", "GreedyBot", "IsmctsBot", "RandomBot", "bot_params", "make_bot"]
