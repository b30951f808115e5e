"""Value types shared by every tournament format.

Everything here is plain, immutable data: the Django side stores it however it
likes and hands it back to the formats, which recompute their state from
scratch (``entrants`` + the finished ``played`` rounds) on every call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

TIEBREAKS = (
    "buchholz",
    "median_buchholz",
    "sonneborn_berger",
    "average_place",
    "head_to_head",
    "rating",
)
"""Every tie-break name a :class:`Config` may list (see ``tiebreaks.py``)."""

SEEDINGS = ("snake", "random")
"""Swiss round-1 seedings of multiplayer tables (``Config.seeding``)."""

MIN_TABLE_SIZE = 2
MAX_TABLE_SIZE = 5


def gettext_noop(message: str) -> str:
    """Marks a message for the platform's catalog (Django's makemessages knows this name);
    the formats stay free of Django, the platform translates (FormatError.translated)."""
    return message


# Shared by the two bracket builders (elimination.py, bracket.py): the stored round lacks
# the table the bracket expects.
NO_TABLE_FOR = gettext_noop("Round %(round)s has no table for the entrants %(seats)s.")


class FormatError(ValueError):
    """A configuration, entrant list or history a format cannot work with.

    The message is meant for organisers: it says what is wrong in plain words. Give it as a
    marked template with named parameters, ``FormatError(gettext_noop("Tables have 2 to 5
    seats, not %(n)s."), n=7)``: ``str()`` is the English sentence, ``translated(gettext)``
    the reader's (the Django side passes its gettext). ``setting`` names the Config field
    at fault, when one is ("points"), so that a form can say it at that field.
    """

    def __init__(self, message: str, *, setting: str | None = None, **params) -> None:
        self.message, self.params, self.setting = message, params, setting
        super().__init__(message % params if params else message)

    def translated(self, gettext) -> str:
        text = gettext(self.message)
        return text % self.params if self.params else text


@dataclass(frozen=True)
class Entrant:
    """One player in one tournament.

    Seeding (``common.seeding_order``: seed, then rating, then id) decides the round
    robin schedule and the elimination brackets, which are recomputed on every call:
    pass the *same* seeds / ratings every time (freeze them when the tournament
    starts, e.g. give everyone ``seed`` 1..n), not live ratings.
    """

    id: int
    rating: float = 1500.0
    seed: int | None = None  # 1 = top seed; None = unseeded (ordered by rating desc, then id)
    withdrawn_after: int | None = None  # not paired in rounds > this number (0 = before round 1)
    joined_round: int = 1  # late entry: the first round the entrant can be paired in

    def active_in(self, round_number: int) -> bool:
        """Whether the entrant may be paired in ``round_number`` (1-based)."""
        if round_number < self.joined_round:
            return False
        return self.withdrawn_after is None or round_number <= self.withdrawn_after


@dataclass(frozen=True)
class TableResult:
    ranks: tuple[int, ...]  # per seat, 1 = best; equal ranks only for true ties
    forfeited: tuple[bool, ...] = ()  # per seat; () = nobody forfeited

    def is_forfeited(self, seat: int) -> bool:
        return bool(self.forfeited) and bool(self.forfeited[seat])


@dataclass(frozen=True)
class Table:
    seats: tuple[int, ...]  # entrant ids in seat order (seat 0 first)
    result: TableResult | None = None
    bracket: str = ""  # "W", "L", "GF", "GF2", "3rd" in elimination formats; "" otherwise


@dataclass(frozen=True)
class Round:
    number: int  # 1-based
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()  # entrants given a bye (bye points, counted as played)
    label: str = ""  # "Round 3", "Semifinals", "Grand final", ...


@dataclass(frozen=True)
class Config:
    table_size: int = 2
    """Seats per table, 2..5. Swiss, round robin and league make some tables one seat
    smaller when the entrants don't divide (never below ``min_table_size``)."""
    rounds: int | None = None
    """Swiss: number of rounds (None: ceil(log2 n) for two seats, ceil(log_k n) for k seats).
    Ignored by the other formats (their length is derived)."""
    double: bool = False
    """Round robin / league: every pair meets twice (two-player: once from each seat)."""
    points: dict[int, tuple[float, ...]] | None = None
    """Points by finishing place per table size. Sizes not listed follow
    ``points_scheme`` (``points.POINT_SCHEMES``; by default the configured size's scale,
    listed or (1, 0) / (k-1, ..., 0), stretched so that a win is worth the same at every
    size). Tied seats share (average) the points of the places they span, so a two-player
    draw is worth 0.5 each."""
    points_scheme: str = "scaled"
    """How sizes ``points`` does not list are scored: "scaled", "normalised", "places"."""
    seeding: str = "snake"
    """Swiss with 3-5 seats, round 1: "snake" spreads the seeding order over the tables
    (1 2 3 / 6 5 4 / 7 8 9 ...), "random" shuffles it with the tournament's seed."""
    bye_points: float | None = None
    """Points for a bye. None: the first-place points of a full table (1.0 with two
    seats, table_size - 1 with the default multiplayer points)."""
    tiebreaks: tuple[str, ...] = TIEBREAKS
    third_place: bool = False
    """Single elimination (two seats only): play a third-place match."""
    advance: int = 1
    """Elimination with multiplayer tables: the best ``advance`` of each table go through."""
    grand_final_reset: bool = True
    """Double elimination: a second grand final if the losers'-bracket finalist wins the first."""
    forbidden: frozenset[frozenset[int]] = frozenset()
    """Pairs of entrant ids that must not share a table when that can be avoided."""
    min_table_size: int | None = None
    """Addition: the smallest table Swiss / round robin / league may form (the game's
    minimum player count). None: table_size - 1 (at least 2). Set it to table_size to
    only ever form full tables (the rest get byes)."""

    @property
    def smallest_table(self) -> int:
        if self.min_table_size is not None:
            return max(MIN_TABLE_SIZE, min(self.min_table_size, self.table_size))
        return max(MIN_TABLE_SIZE, self.table_size - 1)


class Format(Protocol):
    name: str  # "round_robin", "swiss", "single_elimination", "double_elimination", "league"

    def __init__(self, config: Config): ...

    def validate(self, entrants: list[Entrant]) -> None:
        """Raise :class:`FormatError` with a readable reason if the event can't run."""

    def total_rounds(self, entrants: list[Entrant]) -> int | None:
        """The number of rounds if known in advance, else None (it depends on results)."""

    def next_round(
        self, entrants: list[Entrant], played: list[Round], seed: int = 0
    ) -> Round | None:
        """The next round given the finished rounds; None once the tournament is over."""

    def final_ranking(self, entrants: list[Entrant], played: list[Round]) -> list[list[int]]:
        """Placing groups, best first; equal placings share a group."""
