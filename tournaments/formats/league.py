"""League: a season played as a round robin (single or double) of tables.

The schedule, seats, byes, withdrawals, late entries and repair mode are exactly
those of ``round_robin.py``; rounds are labelled "Matchday N". Deadlines and
results typed in by the organiser (over-the-board play) are the Django side's
business: this format only needs the finished rounds.
"""

from __future__ import annotations

from .round_robin import RoundRobin


class League(RoundRobin):
    """A season of matchdays, every entrant meeting every other (see round_robin.py)."""

    name = "league"
    round_word = "Matchday"
