"""Where engines are registered: ``get_engine(slug)`` and ``ENGINES``."""

from __future__ import annotations

from games.engines.base import Engine

ENGINES: dict[str, Engine] = {}


class UnknownGame(KeyError):
    pass


def register(engine: Engine) -> Engine:
    ENGINES[engine.slug] = engine
    return engine


def get_engine(slug: str) -> Engine:
    try:
        return ENGINES[slug]
    except KeyError:
        raise UnknownGame(f"unknown game {slug!r}; known: {', '.join(sorted(ENGINES))}") from None


def _load() -> None:
    # Each engine package registers itself on import; listed here explicitly
    # so the set of games is visible in one place.
    from games.engines import greatwall, silkroad, yspahan  # noqa: F401


_load()
