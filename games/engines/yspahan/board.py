"""The board as data (data/board.json) and the tables the rules need, built once.

Indices used everywhere in the engine:
  district 0..3  bag, barrel, chest, vase (tower rows 1..4)
  souk     0..13 in board order (bag-A .. vase-C)
  shop     0..46 in board order (bag-A-0 .. vase-C-2)
  cell     0..28 street cells in board order (s0 .. s29, there is no s22)
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA = Path(__file__).with_name("data") / "board.json"


class BoardError(ValueError):
    """The board data is inconsistent."""


@dataclass(frozen=True)
class Board:
    districts: tuple[str, ...]
    souk_ids: tuple[str, ...]
    souk_points: tuple[int, ...]
    souk_size: tuple[int, ...]
    souk_district: tuple[int, ...]
    souk_shops: tuple[tuple[int, ...], ...]
    district_souks: tuple[tuple[int, ...], ...]
    shop_ids: tuple[str, ...]
    shop_souk: tuple[int, ...]
    shop_xy: tuple[tuple[int, int], ...]
    shop_cells: tuple[tuple[int, ...], ...]
    shop_index: dict[str, int]
    cell_ids: tuple[str, ...]
    cell_xy: tuple[tuple[int, int], ...]
    cell_index: dict[str, int]
    centre: int
    cell_shops: tuple[tuple[int, ...], ...]  # shops touching each street cell
    dist: tuple[tuple[int, ...], ...]  # steps along the streets between two cells
    # moves[cell][pips] = ((|steps - pips|, destination), ...) for every other cell
    moves: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    frame: tuple[int, int]


def _bfs(start: int, nbrs: list[list[int]]) -> list[int]:
    dist = [-1] * len(nbrs)
    dist[start] = 0
    todo = deque([start])
    while todo:
        c = todo.popleft()
        for d in nbrs[c]:
            if dist[d] < 0:
                dist[d] = dist[c] + 1
                todo.append(d)
    return dist


def build(data: dict) -> Board:
    districts: list[str] = []
    souk_ids: list[str] = []
    souk_points: list[int] = []
    souk_district: list[int] = []
    souk_shops: list[tuple[int, ...]] = []
    district_souks: list[tuple[int, ...]] = []
    shop_ids: list[str] = []
    shop_souk: list[int] = []
    shop_xy: list[tuple[int, int]] = []
    shop_streets: list[list[str]] = []
    for d, district in enumerate(data["districts"]):
        districts.append(district["id"])
        mine = []
        for souk in district["souks"]:
            k = len(souk_ids)
            mine.append(k)
            souk_ids.append(souk["id"])
            souk_points.append(int(souk["points"]))
            souk_district.append(d)
            shops = []
            for shop in souk["shops"]:
                shops.append(len(shop_ids))
                shop_ids.append(shop["id"])
                shop_souk.append(k)
                shop_xy.append((int(shop["x"]), int(shop["y"])))
                shop_streets.append(list(shop["streets"]))
            if not shops:
                raise BoardError(f"souk {souk['id']} has no shop")
            souk_shops.append(tuple(shops))
        district_souks.append(tuple(mine))
    cells = data["streets"]["cells"]
    cell_ids = [c["id"] for c in cells]
    cell_index = {c: i for i, c in enumerate(cell_ids)}
    shop_index = {s: i for i, s in enumerate(shop_ids)}
    for ids, what in ((cell_ids, "street cell"), (shop_ids, "shop"), (souk_ids, "souk")):
        if len(set(ids)) != len(ids):
            raise BoardError(f"duplicate {what} ids")
    nbrs: list[list[int]] = []
    for c in cells:
        try:
            nbrs.append([cell_index[x] for x in c["neighbours"]])
        except KeyError as exc:
            raise BoardError(f"unknown neighbour {exc} of {c['id']}") from None
    for a, ns in enumerate(nbrs):
        for b in ns:
            if a not in nbrs[b]:
                raise BoardError(f"street link {cell_ids[a]}-{cell_ids[b]} is one-way")
    dist = [_bfs(c, nbrs) for c in range(len(cells))]
    if any(x < 0 for row in dist for x in row):
        raise BoardError("the streets are not connected")
    shop_cells: list[tuple[int, ...]] = []
    for sid, streets in zip(shop_ids, shop_streets, strict=True):
        try:
            shop_cells.append(tuple(cell_index[c] for c in streets))
        except KeyError as exc:
            raise BoardError(f"shop {sid} touches unknown cell {exc}") from None
    cell_shops = tuple(
        tuple(s for s in range(len(shop_ids)) if c in shop_cells[s]) for c in range(len(cells))
    )
    if any(len(x) > 2 for x in cell_shops):
        raise BoardError("a street cell touches more than two shops")
    max_pips = 6
    moves = tuple(
        tuple(
            tuple((abs(dist[c][d] - pips), d) for d in range(len(cells)) if d != c)
            for pips in range(max_pips + 1)
        )
        for c in range(len(cells))
    )
    centre = cell_index[data["streets"]["centre"]]
    return Board(
        districts=tuple(districts),
        souk_ids=tuple(souk_ids),
        souk_points=tuple(souk_points),
        souk_size=tuple(len(s) for s in souk_shops),
        souk_district=tuple(souk_district),
        souk_shops=tuple(souk_shops),
        district_souks=tuple(district_souks),
        shop_ids=tuple(shop_ids),
        shop_souk=tuple(shop_souk),
        shop_xy=tuple(shop_xy),
        shop_cells=tuple(shop_cells),
        shop_index=shop_index,
        cell_ids=tuple(cell_ids),
        cell_xy=tuple((int(c["x"]), int(c["y"])) for c in cells),
        cell_index=cell_index,
        centre=centre,
        cell_shops=cell_shops,
        dist=tuple(tuple(r) for r in dist),
        moves=moves,
        frame=(int(data["frame"]["width"]), int(data["frame"]["height"])),
    )


@cache
def board_data() -> dict:
    with DATA.open(encoding="utf-8") as fh:
        return json.load(fh)


@cache
def default_board() -> Board:
    return build(board_data())


BOARD = default_board()
