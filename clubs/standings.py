"""Season standings: pure functions over plain rows (no Django), so the rules are easy to
check by hand (tests/clubs/test_standings.py).

Input: one ``EventResult`` per player and event she played in (from the tournament's own
standings: her points and final place there). Output: one ``SeasonRow`` per player, best
first.

The rules (``Season.rule``):

- ``sum``: the sum of her event points;
- ``best``: the sum of her best ``best_n`` event points (equal scores: the earlier event,
  the lower id, counts first: it only names which events count, the sum is the same);
- ``places``: the sum of ``place_points[place - 1]`` over her events (0 beyond the table).
  Players sharing a place (an elimination's "3–4", or a place left level) share the points
  of the places they span, as tables share points in tournaments: two players at 3rd of
  [25, 18, 15, 12] get (15 + 12) / 2 = 13.5 each.

Tie-breaks, in order:

1. more event wins (events she finished 1st in; a shared 1st place is a win for each);
2. head-to-head in the season, among the players still level: the number of shared events
   in which she placed above each of the others, summed over the others (for two players:
   who was better placed in more of the events both played). One pass, not repeated
   inside the groups it leaves level;
3. rating (the site's rating pools; none, as for guests, comes last).

Players level on all of them share the rank (listed by player id).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

SUM, BEST, PLACES = "sum", "best", "places"
RULES = (SUM, BEST, PLACES)
# Formula 1's table since 2010: 1st to 10th.
DEFAULT_PLACE_POINTS = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)


@dataclass(frozen=True)
class EventResult:
    """One player's result in one event of the season."""

    event: int  # the tournament's id
    player: int  # the player's id
    points: float  # her points in the event's own standings
    place: int  # her final place there (1 = first; players sharing a place share the number)
    final: bool = True  # False: the event is still running (its standings are provisional)


@dataclass
class EventScore:
    """What one event gives one player in the season."""

    event: int
    points: float
    place: int
    score: float  # what the season's rule makes of it (points, or points by place)
    counted: bool  # counts in her season score (rule "best": among her best N)
    final: bool = True


@dataclass
class SeasonRow:
    player: int
    score: float
    events: int  # events played
    counted: int  # events counted in the score
    wins: int
    head_to_head: float = 0.0
    rating: float | None = None
    rank: int = 0
    provisional: bool = False  # a running event counts in her score
    history: list[EventScore] = field(default_factory=list)


def place_score(place: int, shared: int, table: tuple | list) -> float:
    """Points by place for `shared` players at `place`: the mean of the places they span
    (0 beyond the table)."""
    spanned = [table[p - 1] if 0 < p <= len(table) else 0 for p in range(place, place + shared)]
    return sum(spanned) / len(spanned) if spanned else 0.0


def _clean(value: float) -> float:
    """A whole number as an int-valued float, the rest rounded off float noise."""
    return round(float(value), 6)


def event_scores(results: Iterable[EventResult], *, rule: str,
                 place_points: tuple | list = DEFAULT_PLACE_POINTS) -> dict[int, list[EventScore]]:  # fmt: skip
    """Per player, her events with their score under `rule` (counted not yet decided)."""
    results = list(results)
    sharing: dict[tuple[int, int], int] = defaultdict(int)
    for r in results:
        sharing[(r.event, r.place)] += 1
    out: dict[int, list[EventScore]] = defaultdict(list)
    for r in sorted(results, key=lambda r: (r.player, r.event)):
        if rule == PLACES:
            score = place_score(r.place, sharing[(r.event, r.place)], place_points)
        else:
            score = r.points
        out[r.player].append(EventScore(r.event, r.points, r.place, _clean(score), True, r.final))
    return out


def _mark_counted(history: list[EventScore], rule: str, best_n: int | None) -> None:
    if rule != BEST:
        return
    ordered = sorted(history, key=lambda s: (-s.score, s.event))
    keep = {id(s) for s in ordered[: max(best_n or 0, 0)]}
    for s in history:
        s.counted = id(s) in keep


def _head_to_head(group: list[int], places: Mapping[int, Mapping[int, int]]) -> dict[int, float]:
    """For each player of `group`: shared events in which she placed above another member,
    summed over the other members."""
    out = {}
    for a in group:
        wins = 0
        for b in group:
            if a == b:
                continue
            shared = places[a].keys() & places[b].keys()
            wins += sum(1 for e in shared if places[a][e] < places[b][e])
        out[a] = float(wins)
    return out


def season_standings(
    results: Iterable[EventResult], *, rule: str, best_n: int | None = None,
    place_points: tuple | list | None = None, ratings: Mapping[int, float] | None = None,
) -> list[SeasonRow]:  # fmt: skip
    """The season's standings, best first (see the module's docstring for the rules)."""
    if rule not in RULES:
        raise ValueError(f"unknown season rule {rule!r}")
    table = tuple(place_points) if place_points else DEFAULT_PLACE_POINTS
    ratings = ratings or {}
    per_player = event_scores(results, rule=rule, place_points=table)
    rows: list[SeasonRow] = []
    places: dict[int, dict[int, int]] = {}
    for player, history in per_player.items():
        _mark_counted(history, rule, best_n)
        counted = [s for s in history if s.counted]
        rows.append(SeasonRow(
            player=player, score=_clean(sum(s.score for s in counted)), events=len(history),
            counted=len(counted), wins=sum(1 for s in history if s.place == 1),
            rating=ratings.get(player), provisional=any(not s.final for s in counted),
            history=history,
        ))  # fmt: skip
        places[player] = {s.event: s.place for s in history}
    # Head-to-head among those level on score and wins.
    level: dict[tuple[float, int], list[int]] = defaultdict(list)
    for row in rows:
        level[(row.score, row.wins)].append(row.player)
    h2h: dict[int, float] = {}
    for group in level.values():
        h2h.update(_head_to_head(group, places) if len(group) > 1 else {group[0]: 0.0})
    for row in rows:
        row.head_to_head = h2h[row.player]

    def key(row: SeasonRow) -> tuple:
        no_rating = row.rating is None
        return (-row.score, -row.wins, -row.head_to_head, no_rating, -(row.rating or 0.0))

    rows.sort(key=lambda r: (key(r), r.player))
    for i, row in enumerate(rows):
        row.rank = rows[i - 1].rank if i and key(rows[i - 1]) == key(row) else i + 1
    return rows
