"""Tournament formats: pure Python, no Django.

Every format recomputes its state from the entrants and the finished rounds:
``next_round(entrants, played, seed)`` gives the next round (None once over),
``final_ranking(entrants, played)`` the placing groups. Standings and tie-breaks
live in ``standings`` / ``tiebreaks``; points in ``points``.
"""

from .common import seeding_order, table_sizes
from .double_elimination import DoubleElimination
from .elimination import SingleElimination
from .league import League
from .points import bye_points, place_points, seat_places, seat_points
from .registry import FORMATS, get_format
from .round_robin import RoundRobin
from .standings import StandingRow, StandingsAccumulator, compute_standings
from .swiss import Swiss
from .tiebreaks import HIGHER_IS_BETTER
from .types import (
    TIEBREAKS,
    Config,
    Entrant,
    Format,
    FormatError,
    Round,
    Table,
    TableResult,
)

__all__ = [
    "FORMATS",
    "HIGHER_IS_BETTER",
    "TIEBREAKS",
    "Config",
    "DoubleElimination",
    "Entrant",
    "Format",
    "FormatError",
    "League",
    "Round",
    "RoundRobin",
    "SingleElimination",
    "StandingRow",
    "StandingsAccumulator",
    "Swiss",
    "Table",
    "TableResult",
    "bye_points",
    "compute_standings",
    "get_format",
    "place_points",
    "seat_places",
    "seat_points",
    "seeding_order",
    "table_sizes",
]
