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
  (1 / 0.5 / 0) against the other members of its group, over all their meetings (A
  beat B in one round and B beat A in another: one point each). When that splits the
  group but leaves some still level, it is computed again among those only (as FIDE's
  "mini-table"), until it separates nobody more; the value shown is the one of the
  smallest group it was computed in. 0 for an entrant not tied with anyone at that
  point.
- ``rating``: the entrant's rating (Entrant.rating).

Ranking: withdrawn entrants after every active one (a withdrawn player cannot win,
whatever his points: he no longer plays the rounds the others play), then by points,
then by each configured tie-break in order. Entrants share a
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
    withdrawn: frozenset[int] | set[int] = frozenset(),
) -> list[tuple[int, int, dict[str, float]]]:
    """Rank ``ids``: returns (rank, id, tie-break values) best first; the ``withdrawn``
    ones after every other.

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

    def mini_tables(group: list[int]) -> list[list[int]]:
        """Head to head among ``group``, again among each part it leaves level."""
        members = set(group)
        for i in group:
            shown[i]["head_to_head"] = clean(head_to_head(i, members))
        parts = split(group, {i: -shown[i]["head_to_head"] for i in group})
        if len(parts) == 1:
            return parts
        return [sub for part in parts for sub in (mini_tables(part) if len(part) > 1 else [part])]

    active = [i for i in ids if i not in withdrawn]
    out_of_it = [i for i in ids if i in withdrawn]
    groups = [
        g
        for part in (active, out_of_it)
        if part
        for g in split(part, {i: -clean(points[i]) for i in part})
    ]
    for name in order:
        sign = -1.0 if HIGHER_IS_BETTER[name] else 1.0
        refined: list[list[int]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
            elif name == "head_to_head":
                refined.extend(mini_tables(group))
            else:
                refined.extend(split(group, {i: sign * shown[i][name] for i in group}))
        groups = refined

    out: list[tuple[int, int, dict[str, float]]] = []
    position = 1
    for group in groups:
        for i in sorted(group):
            out.append((position, i, shown[i]))
        position += len(group)
    return out
