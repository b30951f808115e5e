"""Tie-breaks and the ranking they produce.

Definitions (general for tables of 2-5 seats; with two seats they are the
classical chess ones). "Opponents" of an entrant are the other seats of each
finished table it sat at, counted once per table (meeting someone twice counts
twice). Byes bring no opponent and no finishing place.

- ``buchholz``: the sum, over every opponent met, of that opponent's points.
- ``median_buchholz``: Buchholz without the single highest and the single lowest
  opponent contribution, when there are at least 3 contributions (otherwise equal to
  Buchholz).
- ``sonneborn_berger``: the sum, over every opponent met, of (the pairwise result
  against that opponent at that table: 1 finished ahead, 0.5 level, 0 behind; a
  forfeit is behind) x (that opponent's points).
- ``average_place``: the mean finishing place over the entrant's finished tables
  (tied seats: the mean of the places they span; a forfeit is last place). Lower is
  better. An entrant without a finished table gets the neutral value
  (table_size + 1) / 2.
- ``head_to_head``: computed inside each group of entrants still tied on points and
  on every tie-break listed before it: the sum of the entrant's pairwise results
  (1 / 0.5 / 0) against the other members of its group, over all their meetings.
  0 for an entrant not tied with anyone at that point.
- ``rating``: the entrant's rating (Entrant.rating).

Ranking: by points, then by each configured tie-break in order. Entrants share a
rank only if their points and all configured tie-breaks are equal (compared after
rounding to 9 decimals); the order within a shared rank is by entrant id.
Ranks are "1224" style (a shared rank skips the next numbers).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from .types import TIEBREAKS, FormatError, gettext_noop

HIGHER_IS_BETTER: dict[str, bool] = {
    "buchholz": True,
    "median_buchholz": True,
    "sonneborn_berger": True,
    "average_place": False,
    "head_to_head": True,
    "rating": True,
}

PRECISION = 9


def clean(x: float) -> float:
    """Round to the precision ranks compare at (and turn -0.0 into 0.0)."""
    value = round(float(x), PRECISION)
    return value + 0.0


def check_tiebreaks(names: Iterable[str]) -> None:
    seen: set[str] = set()
    for name in names:
        if name not in HIGHER_IS_BETTER:
            raise FormatError(
                gettext_noop("Unknown tie-break %(name)s; choose from: %(known)s."),
                setting="tiebreaks",
                name=repr(name),
                known=", ".join(TIEBREAKS),
            )
        if name in seen:
            raise FormatError(
                gettext_noop("Tie-break %(name)s is listed twice."),
                setting="tiebreaks",
                name=repr(name),
            )
        seen.add(name)


def median_buchholz(contributions: list[float]) -> float:
    if len(contributions) < 3:
        return sum(contributions)
    return sum(contributions) - max(contributions) - min(contributions)


def rank_entrants(
    ids: list[int],
    points: Mapping[int, float],
    values: Mapping[str, Mapping[int, float]],
    head_to_head: Callable[[int, set[int]], float],
    order: tuple[str, ...],
) -> list[tuple[int, int, dict[str, float]]]:
    """Rank ``ids``: returns (rank, id, tie-break values) best first.

    ``values`` holds the precomputed value of every tie-break except head_to_head,
    which is computed per tied group with ``head_to_head(a, group)`` (a's pairwise
    results against the other members of ``group``, summed over their meetings).
    """
    check_tiebreaks(order)
    shown: dict[int, dict[str, float]] = {i: {} for i in ids}
    for name in order:
        if name == "head_to_head":
            for i in ids:
                shown[i][name] = 0.0
        else:
            column = values[name]
            for i in ids:
                shown[i][name] = clean(column[i])

    def split(group: list[int], keys: dict[int, float]) -> list[list[int]]:
        ordered = sorted(group, key=lambda i: (keys[i], i))
        out: list[list[int]] = [[ordered[0]]]
        for prev, i in zip(ordered, ordered[1:], strict=False):
            if keys[i] == keys[prev]:
                out[-1].append(i)
            else:
                out.append([i])
        return out

    groups = split(list(ids), {i: -clean(points[i]) for i in ids}) if ids else []
    for name in order:
        sign = -1.0 if HIGHER_IS_BETTER[name] else 1.0
        refined: list[list[int]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
                continue
            if name == "head_to_head":
                members = set(group)
                for i in group:
                    shown[i][name] = clean(head_to_head(i, members))
            refined.extend(split(group, {i: sign * shown[i][name] for i in group}))
        groups = refined

    out: list[tuple[int, int, dict[str, float]]] = []
    position = 1
    for group in groups:
        for i in sorted(group):
            out.append((position, i, shown[i]))
        position += len(group)
    return out
