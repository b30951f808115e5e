"""Points by finishing place, places and pairwise results of one finished table.

Conventions (used by every format and by the standings):

- A seat's *order key* is ``(forfeited, rank)``: a forfeited seat is behind every
  seat that did not forfeit, whatever rank it was given.
- Seats that did not forfeit and share a rank *span* the consecutive places they
  occupy in that order (ranks (1, 1, 3) -> places 1-2, 1-2, 3). Each such seat gets
  the average of the points of those places, and the average of those places as
  its finishing place. Dense ranks ((1, 1, 2)) give the same answer.
- A forfeited seat gets the points of the last place at the table and finishes
  last (place = table size), even if several seats forfeited.
- The pairwise result of seat i against seat j is 1 if i's order key is better,
  0.5 if equal, 0 if worse.
"""

from __future__ import annotations

from collections.abc import Sequence

from .types import (
    MAX_TABLE_SIZE,
    MIN_TABLE_SIZE,
    Config,
    FormatError,
    Table,
    TableResult,
    gettext_noop,
)

POINT_SCHEMES = ("scaled", "normalised", "places")
"""Named points schemes (``Config.points_scheme``), for the table sizes ``Config.points``
does not list:

- ``scaled`` (default): the configured table size's scale (``(1, 0)`` at two seats,
  ``(k-1, ..., 0)`` at k seats, or the listed one) stretched to every other size, so a
  win is worth the same at every table: place p of n gets the scale read at the same
  relative position (p-1)/(n-1), linearly between its places. Tables of 4 (3, 2, 1, 0)
  give (3, 1.5, 0) at a table of 3 and (3, 2.25, 1.5, 0.75, 0) at a table of 5.
- ``normalised``: 1 for a win, 0 for last place, evenly between at every size
  ((n-p)/(n-1): the share of the table's other players beaten), so (1, 0.5, 0) at 3.
- ``places``: n-1, ..., 0 at a table of n (a win at a bigger table is worth more; the
  scale before points were defined per size)."""


def default_place_points(size: int) -> tuple[float, ...]:
    """2 -> (1, 0); k > 2 -> (k-1, k-2, ..., 0)."""
    if size == 2:
        return (1.0, 0.0)
    return tuple(float(size - 1 - i) for i in range(size))


def stretch(scale: Sequence[float], size: int) -> tuple[float, ...]:
    """``scale`` (points by place at some table size) read at a table of ``size``: the first
    and last places keep the first and last values, the others are read linearly at the same
    relative position. Rounded to 4 decimals (standings compare at that precision)."""
    k = len(scale)
    if k == size:
        return tuple(float(v) for v in scale)
    out = []
    for p in range(size):
        x = p * (k - 1) / (size - 1) if size > 1 else 0.0
        lo = min(int(x), k - 2)
        frac = x - lo
        out.append(round(scale[lo] + (scale[lo + 1] - scale[lo]) * frac, 4) + 0.0)
    return tuple(out)


def place_points(config: Config, size: int) -> tuple[float, ...]:
    """Points for places 1..size at a table of ``size`` seats: the listed scale, else the
    scheme's (see ``POINT_SCHEMES``)."""
    if config.points and size in config.points:
        return tuple(float(p) for p in config.points[size])
    scheme = config.points_scheme
    if scheme == "normalised":
        return stretch((1.0, 0.0), size)
    if scheme == "places":
        return default_place_points(size)
    base = (config.points or {}).get(config.table_size) or default_place_points(config.table_size)
    return stretch(base, size)


def points_legend(config: Config, sizes) -> list[tuple[int, tuple[float, ...]]]:
    """(table size, points by place) for each of ``sizes`` (the sizes played, say) and the
    configured one, smallest first: what the standings' legend says."""
    wanted = {s for s in sizes if MIN_TABLE_SIZE <= s <= MAX_TABLE_SIZE} | {config.table_size}
    return [(s, place_points(config, s)) for s in sorted(wanted)]


def bye_points(config: Config) -> float:
    """Configured bye points, else the first-place points of a full table."""
    if config.bye_points is not None:
        return float(config.bye_points)
    return place_points(config, config.table_size)[0]


def check_points(config: Config) -> None:
    """Raise FormatError if the configured points table is malformed."""
    if config.points_scheme not in POINT_SCHEMES:
        raise FormatError(
            gettext_noop("Points scheme %(name)s is unknown; use one of %(names)s."),
            setting="points", name=repr(config.points_scheme), names=", ".join(POINT_SCHEMES),
        )  # fmt: skip
    for size, values in (config.points or {}).items():
        if not isinstance(size, int) or not MIN_TABLE_SIZE <= size <= MAX_TABLE_SIZE:
            raise FormatError(
                gettext_noop(
                    "Points are given for tables of %(size)s seats; tables have 2-5 seats."
                ),
                setting="points", size=size,
            )  # fmt: skip
        if len(values) != size:
            raise FormatError(
                gettext_noop(
                    "Points for %(size)s-seat tables need %(size)s values (one per place), "
                    "got %(count)s."
                ),
                setting="points", size=size, count=len(values),
            )  # fmt: skip
        if any(values[i] < values[i + 1] for i in range(size - 1)):
            raise FormatError(
                gettext_noop("Points for %(size)s-seat tables must not increase with the place."),
                setting="points", size=size,
            )  # fmt: skip


def check_result(table: Table) -> TableResult:
    """The table's result, checked against its seats."""
    result = table.result
    if result is None:
        raise FormatError(gettext_noop("Table %(seats)s has no result."), seats=table.seats)
    n = len(table.seats)
    if len(result.ranks) != n:
        raise FormatError(
            gettext_noop("Table %(seats)s has %(ranks)s ranks for %(n)s seats."),
            seats=table.seats, ranks=len(result.ranks), n=n,
        )  # fmt: skip
    if result.forfeited and len(result.forfeited) != n:
        raise FormatError(
            gettext_noop("Table %(seats)s has %(flags)s forfeit flags."),
            seats=table.seats, flags=len(result.forfeited),
        )  # fmt: skip
    if any(r < 1 for r in result.ranks):
        raise FormatError(gettext_noop("Table %(seats)s has a rank below 1."), seats=table.seats)
    return result


def order_keys(result: TableResult) -> list[tuple[bool, int]]:
    return [(result.is_forfeited(i), r) for i, r in enumerate(result.ranks)]


def _plain(result: TableResult) -> bool:
    """No forfeit and the ranks are 1..n without ties (the common case)."""
    return not any(result.forfeited) and sorted(result.ranks) == list(
        range(1, len(result.ranks) + 1)
    )


def seat_places(result: TableResult) -> list[float]:
    """Finishing place per seat (tied seats: the average of the places they span)."""
    if _plain(result):
        return [float(r) for r in result.ranks]
    n = len(result.ranks)
    keys = order_keys(result)
    places = [0.0] * n
    order = sorted(range(n), key=lambda s: keys[s])
    start = 0
    while start < n:
        end = start
        while end + 1 < n and keys[order[end + 1]] == keys[order[start]]:
            end += 1
        for pos in range(start, end + 1):
            seat = order[pos]
            if keys[seat][0]:
                places[seat] = float(n)
            else:
                places[seat] = (start + end) / 2 + 1
        start = end + 1
    return places


def seat_points(config: Config, result: TableResult) -> list[float]:
    """Points per seat (tied seats share the points of the places they span)."""
    n = len(result.ranks)
    table = place_points(config, n)
    if _plain(result):
        return [table[r - 1] for r in result.ranks]
    keys = order_keys(result)
    order = sorted(range(n), key=lambda s: keys[s])
    points = [0.0] * n
    start = 0
    while start < n:
        end = start
        while end + 1 < n and keys[order[end + 1]] == keys[order[start]]:
            end += 1
        share = sum(table[start : end + 1]) / (end - start + 1)
        for pos in range(start, end + 1):
            seat = order[pos]
            points[seat] = table[-1] if keys[seat][0] else share
        start = end + 1
    return points


def pairwise(result: TableResult, i: int, j: int) -> float:
    """Result of seat i against seat j: 1 ahead, 0.5 level, 0 behind."""
    a = (result.is_forfeited(i), result.ranks[i])
    b = (result.is_forfeited(j), result.ranks[j])
    if a < b:
        return 1.0
    if a == b:
        return 0.5
    return 0.0


def finishing_order(result: TableResult, tiebreak: Sequence[int]) -> list[int]:
    """Seats from best to worst; equal order keys are broken by ``tiebreak[seat]`` (lower first)."""
    keys = order_keys(result)
    return sorted(range(len(keys)), key=lambda s: (keys[s], tiebreak[s]))
