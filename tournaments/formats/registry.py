"""Format classes by name."""

from __future__ import annotations

from .double_elimination import DoubleElimination
from .elimination import SingleElimination
from .league import League
from .round_robin import RoundRobin
from .swiss import Swiss
from .types import Config, Format, FormatError, gettext_noop

FORMATS: dict[str, type] = {
    RoundRobin.name: RoundRobin,
    Swiss.name: Swiss,
    SingleElimination.name: SingleElimination,
    DoubleElimination.name: DoubleElimination,
    League.name: League,
}


def get_format(name: str, config: Config | None = None) -> Format:
    """An instance of the format called ``name`` (FormatError if there is none)."""
    try:
        cls = FORMATS[name]
    except KeyError:
        raise FormatError(
            gettext_noop("Unknown tournament format %(name)s; choose from: %(known)s."),
            name=repr(name),
            known=", ".join(FORMATS),
        ) from None
    return cls(config or Config())
