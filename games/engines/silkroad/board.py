"""The board: loaded from data/board.json, validated, and turned into movement tables.

Spaces are numbered: the 6 cities first (clockwise, as listed), then the 22
villages in file order. Movement is precomputed per target city as the list
of every route from a space to that target, so a move only has to skip the
spaces occupied by the other caravans.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from .constants import ACTION_KINDS, CARAVAN_SIZES, NUM_CITIES, NUM_VILLAGES

DATA = Path(__file__).with_name("data") / "board.json"


class BoardError(ValueError):
    """The board data breaks a rule of the game or of the file format."""


@dataclass(eq=False)
class Board:
    ids: tuple[str, ...]
    names: tuple[str, ...]
    xy: tuple[tuple[int, int], ...]
    index: dict[str, int]
    links: tuple[tuple[int, int], ...]
    signposts: dict[tuple[int, int], int]  # (village, target city) -> next space
    printed_tiles: tuple[str | None, ...]  # per space; None for cities
    default_tile_mix: dict[str, int]
    start: dict[int, tuple[int, int]]  # caravan size -> (start city, target city)
    succ: tuple[tuple[tuple[int, ...], ...], ...] = ()  # [target][space] -> next spaces
    routes: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = ()  # [target][space]
    route_sets: tuple = ()  # [target][space] -> ((route, frozenset(route)), ...)
    dist: tuple = ()  # [target][space] -> fewest steps on an empty board (99: unreachable)
    _most: dict = field(default_factory=dict)

    @property
    def villages(self) -> range:
        return range(NUM_CITIES, len(self.ids))

    def is_city(self, space: int) -> bool:
        return space < NUM_CITIES

    def most_steps(self, pos: int, target: int, occupied: tuple[int, ...]) -> int:
        """How many cards may be played on a caravan at `pos` heading for `target`.

        Spaces in `occupied` (the other caravans) are passed without being
        counted; the caravan may not pass its target, so the longest route
        decides."""
        key = (pos, target, occupied)
        most = self._most.get(key)
        if most is None:
            most = 0
            for route, spaces in self.route_sets[target][pos]:
                steps = len(route)
                for o in occupied:
                    if o in spaces:
                        steps -= 1
                if steps > most:
                    most = steps
            self._most[key] = most
        return most

    def ends(self, pos: int, target: int, occupied: tuple[int, ...], steps: int) -> list[int]:
        """The spaces where a move of exactly `steps` counted steps can end, sorted."""
        found = set()
        for route in self.routes[target][pos]:
            n = 0
            for space in route:
                if space in occupied:
                    continue
                n += 1
                if n == steps:
                    found.add(space)
                    break
        return sorted(found)


def _fail(msg: str) -> None:
    raise BoardError(msg)


def build(data: dict) -> Board:
    """Validate board data and build the movement tables; raise BoardError."""
    cities = data.get("cities")
    villages = data.get("villages")
    if not isinstance(cities, list) or len(cities) != NUM_CITIES:
        _fail(f"the board needs exactly {NUM_CITIES} cities")
    if not isinstance(villages, list) or len(villages) != NUM_VILLAGES:
        _fail(f"the board needs exactly {NUM_VILLAGES} villages")
    spaces = cities + villages
    ids = tuple(s["id"] for s in spaces)
    if len(set(ids)) != len(ids):
        _fail("space ids must be unique")
    index = {sid: i for i, sid in enumerate(ids)}

    links: list[tuple[int, int]] = []
    for pair in data.get("links", []):
        a, b = pair
        if a not in index or b not in index:
            _fail(f"link {a}->{b} names an unknown space")
        if a == b:
            _fail(f"link {a}->{b} loops")
        links.append((index[a], index[b]))
    if len(set(links)) != len(links):
        _fail("a link is listed twice")
    out: dict[int, list[int]] = {i: [] for i in range(len(ids))}
    for a, b in links:
        out[a].append(b)

    signposts: dict[tuple[int, int], int] = {}
    for sp in data.get("signposts", []):
        at, city, to = index.get(sp["at"]), index.get(sp["city"]), index.get(sp["to"])
        if at is None or city is None or to is None:
            _fail(f"signpost {sp} names an unknown space")
        if at < NUM_CITIES or city >= NUM_CITIES:
            _fail(f"signpost {sp} must stand in a village and name a city")
        if to not in out[at]:
            _fail(f"signpost {sp} points along a link that does not exist")
        if (at, city) in signposts:
            _fail(f"two signposts to {sp['city']} in {sp['at']}")
        signposts[(at, city)] = to

    for a, b in links:
        if b < NUM_CITIES and signposts.get((a, b)) != b:
            _fail(f"link {ids[a]}->{ids[b]} enters a city without that city's signpost")
        if a < NUM_CITIES and b < NUM_CITIES:
            _fail(f"link {ids[a]}->{ids[b]} joins two cities")
    for c in range(NUM_CITIES):
        if not out[c]:
            _fail(f"no road leaves {ids[c]}")

    printed = data.get("printed_tiles", {})
    tiles: list[str | None] = [None] * NUM_CITIES
    for v in range(NUM_CITIES, len(ids)):
        kind = printed.get(ids[v])
        if kind not in ACTION_KINDS:
            _fail(f"village {ids[v]} has no valid printed action ({kind!r})")
        tiles.append(kind)
    if set(printed) - set(ids[NUM_CITIES:]):
        _fail("printed_tiles names a space that is not a village")

    mix = data.get("default_tile_mix", {})
    check_tile_mix(mix)

    start: dict[int, tuple[int, int]] = {}
    for size in CARAVAN_SIZES:
        entry = data.get("start", {}).get(str(size), {})
        start[size] = (index.get(entry.get("start"), -1), index.get(entry.get("target"), -1))
    check_start(start)

    board = Board(
        ids=ids,
        names=tuple(s.get("name", s["id"]) for s in spaces),
        xy=tuple((int(s["x"]), int(s["y"])) for s in spaces),
        index=index,
        links=tuple(links),
        signposts=signposts,
        printed_tiles=tuple(tiles),
        default_tile_mix=dict(mix),
        start=start,
    )
    _movement_tables(board, out)
    return board


def check_tile_mix(mix: dict) -> None:
    unknown = set(mix) - set(ACTION_KINDS)
    if unknown:
        _fail(f"unknown action kinds in tile mix: {sorted(unknown)}")
    if any(not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in mix.values()):
        _fail("tile counts must be whole numbers >= 0")
    total = sum(mix.values())
    if total != NUM_VILLAGES:
        _fail(f"the tile mix must hold exactly {NUM_VILLAGES} tiles, not {total}")


def check_start(start: dict[int, tuple[int, int]]) -> None:
    cities = [c for pair in start.values() for c in pair]
    if any(not 0 <= c < NUM_CITIES for c in cities):
        _fail("start and target cities must be cities")
    if len(set(cities)) != len(cities):
        # one caravan per city, one gem pile per city, and a target must be free
        _fail("the three start and three target cities must be six different cities")


def _movement_tables(board: Board, out: dict[int, list[int]]) -> None:
    n = len(board.ids)
    succ: list[tuple[tuple[int, ...], ...]] = []
    for target in range(NUM_CITIES):
        row = []
        for s in range(n):
            if s == target:
                row.append(())
            elif s < NUM_CITIES:
                row.append(tuple(out[s]))
            elif (s, target) in board.signposts:
                row.append((board.signposts[(s, target)],))
            else:
                row.append(tuple(b for b in out[s] if b >= NUM_CITIES))
        succ.append(tuple(row))
    board.succ = tuple(succ)

    routes: list[list[tuple[tuple[int, ...], ...]]] = []
    used: set[int] = set()
    for target in range(NUM_CITIES):
        memo: dict[int, tuple[tuple[int, ...], ...]] = {}

        def walk(s: int, stack: tuple[int, ...], target: int = target, memo: dict = memo):
            if s in memo:
                return memo[s]
            if s in stack:
                _fail(
                    f"caravans heading for {board.ids[target]} can circle forever via {board.ids[s]}"
                )
            nexts = board.succ[target][s]
            if s == target:
                res: tuple[tuple[int, ...], ...] = ((),)
            elif not nexts:
                _fail(f"a caravan heading for {board.ids[target]} gets stuck in {board.ids[s]}")
            else:
                acc = []
                for b in nexts:
                    if b < NUM_CITIES and b != target:
                        _fail(
                            f"a caravan heading for {board.ids[target]} would enter {board.ids[b]}"
                        )
                    for r in walk(b, stack + (s,)):
                        acc.append((b,) + r)
                res = tuple(acc)
            memo[s] = res
            return res

        for c in range(NUM_CITIES):
            if c != target:
                for r in walk(c, ()):
                    used.update(r)
        routes.append([memo.get(s, ()) for s in range(n)])
    missing = [board.ids[v] for v in board.villages if v not in used]
    if missing:
        _fail(f"no caravan can ever reach villages {missing}")
    board.routes = tuple(tuple(r) for r in routes)
    board.dist = tuple(
        tuple(min((len(r) for r in per_space), default=99) for per_space in per_target)
        for per_target in board.routes
    )
    board.route_sets = tuple(
        tuple(tuple((r, frozenset(r)) for r in per_space) for per_space in per_target)
        for per_target in board.routes
    )


def load(path: Path | str = DATA) -> Board:
    with open(path, encoding="utf-8") as fh:
        return build(json.load(fh))


@cache
def default_board() -> Board:
    return load()
