"""The board: loaded from data/board.json, validated, and turned into lookup tables.

Villages, towers and wall lines are numbered in file order. Everything the
rules need in the hot path (neighbours with the line between them, the
lines around a village, the lines at a tower) is precomputed here, so the
rules never search the geometry.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .constants import FACE_COUNTS, FACES, SIDES, WALL_PIECES

DATA = Path(__file__).with_name("data") / "board.json"
VILLAGES = 38


class BoardError(ValueError):
    """The board data breaks a rule of the game or of the file format."""


@dataclass(frozen=True, eq=False)
class Board:
    vids: tuple[str, ...]  # village ids, index = village number
    vindex: dict[str, int]
    vxy: tuple[tuple[int, int], ...]  # square of each village (column, row), 0-based
    start_side: tuple[int, ...]  # 0 Mongolia, 1 China
    tids: tuple[str, ...]
    tindex: dict[str, int]
    txy: tuple[tuple[int, int], ...]
    tedge: tuple[bool, ...]  # tower on the board's rim
    lids: tuple[str, ...]  # wall lines
    lindex: dict[str, int]
    line_towers: tuple[tuple[int, int], ...]
    line_villages: tuple[tuple[int, int], ...]
    lines_at_tower: tuple[tuple[int, ...], ...]
    village_lines: tuple[tuple[int, ...], ...]  # wall lines on the sides of a village's square
    nbrs: tuple[tuple[tuple[int, int, bool], ...], ...]  # (village, line or -1, road)
    roads: frozenset[tuple[int, int]]  # (a, b) with a < b
    red_towers: tuple[int, int]
    start_wall: tuple[int, ...]  # lines from red_towers[0] to red_towers[1]
    omitted: tuple[tuple[int, int], ...]  # neighbouring villages with no wall line between
    columns: int
    rows: int
    line_tmask: tuple[int, ...]  # per line: bitmask of its two towers
    tower_adj: tuple[tuple[tuple[int, int], ...], ...]  # per tower: (line, other tower)

    @property
    def num_lines(self) -> int:
        return len(self.lids)

    @property
    def num_towers(self) -> int:
        return len(self.tids)

    def line_between(self, a: int, b: int) -> int:
        """The wall line between neighbouring villages a and b (-1 if none or not neighbours)."""
        for w, line, _road in self.nbrs[a]:
            if w == b:
                return line
        return -1


def _fail(msg: str) -> None:
    raise BoardError(msg)


def _ids(items: list, what: str) -> tuple[str, ...]:
    ids = tuple(item["id"] for item in items)
    if len(set(ids)) != len(ids):
        _fail(f"{what} ids must be unique")
    return ids


def build(data: dict) -> Board:
    """Validate board data and build the lookup tables; raise BoardError."""
    if data.get("wall_pieces") != WALL_PIECES:
        _fail(f"the game has {WALL_PIECES} wall pieces")
    if data.get("chips") != dict(zip(FACES, FACE_COUNTS, strict=True)):
        _fail("each player has 5 Chinese, 5 Mongols, 5 peasants, 1 plague and 1 herb")
    villages = data["villages"]
    if len(villages) != VILLAGES:
        _fail(f"the board has {VILLAGES} villages, not {len(villages)}")
    vids = _ids(villages, "village")
    vindex = {v: i for i, v in enumerate(vids)}
    vxy = tuple((v["x"], v["y"]) for v in villages)
    if len(set(vxy)) != len(vxy):
        _fail("two villages share a square")
    columns, rows = len(data["columns"]), data["rows"]
    square = {xy: i for i, xy in enumerate(vxy)}
    for v, (x, y) in zip(vids, vxy, strict=True):
        if not (0 <= x < columns and 0 <= y < rows):
            _fail(f"village {v} lies outside the grid")
        if v != f"{data['columns'][x]}{y + 1}":
            _fail(f"village {v} should be named after its square")
    for v in villages:
        if v.get("side") not in SIDES:
            _fail(f"village {v['id']} has no starting side")
    start_side = tuple(SIDES.index(v["side"]) for v in villages)

    # Towers: exactly the corners of the squares; rim towers are "edge" towers.
    towers = data["towers"]
    tids = _ids(towers, "tower")
    tindex = {t: i for i, t in enumerate(tids)}
    txy = tuple((t["x"], t["y"]) for t in towers)
    corners = {(x + dx, y + dy) for x, y in vxy for dx in (0, 1) for dy in (0, 1)}
    if set(txy) != corners or len(txy) != len(corners):
        _fail("towers must stand exactly on the corners of the squares")
    tedge = []
    for t in towers:
        x, y = t["x"], t["y"]
        rim = not all((x + dx, y + dy) in square for dx in (-1, 0) for dy in (-1, 0))
        if t.get("edge") is not rim:
            _fail(f"tower {t['id']} is {'' if rim else 'not '}on the rim")
        tedge.append(rim)

    # Wall lines: between two towers one step apart, separating two squares.
    lines = data["lines"]
    lids = _ids(lines, "line")
    lindex = {line: i for i, line in enumerate(lids)}
    line_towers, line_villages = [], []
    for line in lines:
        a, b = (vindex.get(v, -1) for v in line["villages"])
        t1, t2 = (tindex.get(t, -1) for t in line["towers"])
        if min(a, b, t1, t2) < 0:
            _fail(f"line {line['id']} names an unknown village or tower")
        if line["id"] != f"{vids[a]}/{vids[b]}":
            _fail(f"line {line['id']} should be named after its villages")
        (ax, ay), (bx, by) = vxy[a], vxy[b]
        if (bx - ax, by - ay) == (1, 0):
            expect = {(bx, ay), (bx, ay + 1)}
        elif (bx - ax, by - ay) == (0, 1):
            expect = {(ax, by), (ax + 1, by)}
        else:
            _fail(f"line {line['id']} does not separate neighbouring squares (left/top first)")
        if {txy[t1], txy[t2]} != expect:
            _fail(f"line {line['id']} does not run between the towers of that side")
        if tedge[t1] and tedge[t2]:
            _fail(f"line {line['id']} joins two rim towers")
        line_towers.append((t1, t2))
        line_villages.append((a, b))
    lines_at = [[] for _ in tids]
    for i, (t1, t2) in enumerate(line_towers):
        lines_at[t1].append(i)
        lines_at[t2].append(i)
    for t, at in enumerate(lines_at):
        if tedge[t] and len(at) > 1:
            _fail(f"rim tower {tids[t]} may end at most one wall line")

    # Neighbouring squares without a wall line must be listed as omitted.
    between = {frozenset(p): i for i, p in enumerate(line_villages)}
    omitted = set()
    for pair in data.get("omitted_lines", []):
        a, b = (vindex[v] for v in pair.split("/"))
        omitted.add(frozenset((a, b)))
    pairs = set()
    for (x, y), a in square.items():
        for dx, dy in ((1, 0), (0, 1)):
            b = square.get((x + dx, y + dy))
            if b is not None:
                pairs.add(frozenset((a, b)))
    if set(between) | omitted != pairs or set(between) & omitted:
        _fail("every pair of neighbouring squares has a wall line or is listed as omitted")

    roads = set()
    for a_id, b_id in data["roads"]:
        a, b = vindex.get(a_id, -1), vindex.get(b_id, -1)
        if a < 0 or b < 0 or frozenset((a, b)) not in pairs:
            _fail(f"road {a_id}-{b_id} does not join neighbouring villages")
        key = (min(a, b), max(a, b))
        if key in roads:
            _fail(f"road {a_id}-{b_id} is listed twice")
        roads.add(key)

    nbrs = []
    village_lines = []
    for a, (x, y) in enumerate(vxy):
        out = []
        for dx, dy in ((0, -1), (-1, 0), (1, 0), (0, 1)):
            b = square.get((x + dx, y + dy))
            if b is None:
                continue
            line = between.get(frozenset((a, b)), -1)
            out.append((b, line, (min(a, b), max(a, b)) in roads))
        nbrs.append(tuple(out))
        village_lines.append(tuple(line for _b, line, _r in out if line >= 0))

    # The starting Great Wall: a path of lines between the two red rim towers.
    red = tuple(tindex.get(t, -1) for t in data["red_towers"])
    if len(red) != 2 or min(red) < 0 or not all(tedge[t] for t in red):
        _fail("the two red towers must be rim towers")
    start = [lindex.get(line, -1) for line in data["great_wall"]]
    if min(start, default=-1) < 0 or len(set(start)) != len(start):
        _fail("the starting Great Wall names unknown or repeated lines")
    at = red[0]
    for line in start:
        t1, t2 = line_towers[line]
        if at not in (t1, t2):
            _fail("the starting Great Wall is not a path from the first red tower")
        at = t2 if at == t1 else t1
    if at != red[1]:
        _fail("the starting Great Wall does not end at the second red tower")
    if len(lids) <= WALL_PIECES:
        # then the pieces could fill every line around the network (see walls.placeable)
        _fail("the board needs more wall lines than there are pieces")
    if len(start) >= WALL_PIECES:
        _fail("the starting Great Wall uses too many pieces")
    wall = set(start)
    for a, out in enumerate(nbrs):
        for b, line, _road in out:
            if (start_side[a] != start_side[b]) != (line in wall):
                _fail(f"starting sides of {vids[a]} and {vids[b]} disagree with the wall")
    if len(set(start_side)) != 2:
        _fail("both sides need villages")

    # The wall lines form one connected network (spurs can reach everywhere).
    seen = {red[0]}
    todo = [red[0]]
    while todo:
        t = todo.pop()
        for line in lines_at[t]:
            for u in line_towers[line]:
                if u not in seen:
                    seen.add(u)
                    todo.append(u)
    if any(lines_at[t] and t not in seen for t in range(len(tids))):
        _fail("the wall lines do not form one network")

    return Board(
        vids=vids,
        vindex=vindex,
        vxy=vxy,
        start_side=start_side,
        tids=tids,
        tindex=tindex,
        txy=txy,
        tedge=tuple(tedge),
        lids=lids,
        lindex=lindex,
        line_towers=tuple(line_towers),
        line_villages=tuple(line_villages),
        lines_at_tower=tuple(tuple(x) for x in lines_at),
        village_lines=tuple(village_lines),
        nbrs=tuple(nbrs),
        roads=frozenset(roads),
        red_towers=(red[0], red[1]),
        start_wall=tuple(start),
        omitted=tuple(sorted(tuple(sorted(p)) for p in omitted)),
        columns=columns,
        rows=rows,
        line_tmask=tuple(1 << t1 | 1 << t2 for t1, t2 in line_towers),
        tower_adj=tuple(
            tuple((x, line_towers[x][0] + line_towers[x][1] - t) for x in at)
            for t, at in enumerate(lines_at)
        ),
    )


def load(path: Path = DATA) -> Board:
    return build(json.loads(path.read_text()))


@cache
def default_board() -> Board:
    return load()
