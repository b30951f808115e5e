"""The board data: what the rulebook asks for, and the checks made at load."""

from __future__ import annotations

import copy
import json

import networkx as nx
import pytest

from games.engines.greatwall.board import DATA, BoardError, build, default_board

B = default_board()
RAW = json.loads(DATA.read_text())


def test_the_components():
    assert len(B.vids) == 38
    assert RAW["wall_pieces"] == 28
    assert RAW["chips"] == {"chinese": 5, "mongol": 5, "peasant": 5, "plague": 1, "herb": 1}
    assert len(B.lids) == 59 and len(B.tids) == 52 and len(B.roads) == 48


def test_the_starting_wall_runs_along_the_middle_between_the_red_towers():
    assert [B.tids[t] for t in B.red_towers] == ["T03", "T73"]
    assert [B.lids[x] for x in B.start_wall] == [f"{c}3/{c}4" for c in "abcdefg"]
    mongol = {B.vids[v] for v in range(38) if B.start_side[v] == 0}
    assert mongol == {v for v in B.vids if v[1] in "123"}


def test_every_rim_tower_ends_at_most_one_line_and_interior_towers_have_four():
    # the omitted lines run from the notch rim towers T11, T61, T15, T65 inwards
    short = {"T12", "T62", "T14", "T64"}
    for t in range(len(B.tids)):
        if B.tedge[t]:
            assert len(B.lines_at_tower[t]) <= 1
        else:
            assert len(B.lines_at_tower[t]) == (3 if B.tids[t] in short else 4)


def test_roads_connect_each_side_and_every_village_has_two():
    g = nx.Graph()
    g.add_nodes_from(range(38))
    g.add_edges_from(B.roads)
    for side in (0, 1):
        nodes = [v for v in range(38) if B.start_side[v] == side]
        assert nx.is_connected(g.subgraph(nodes))
    assert min(dict(g.degree()).values()) >= 2
    crossing = {(B.vids[a], B.vids[b]) for a, b in B.roads if B.start_side[a] != B.start_side[b]}
    assert crossing == {("b3", "b4"), ("e3", "e4"), ("f3", "f4")}


def test_the_wall_lines_form_one_network_and_the_squares_are_simply_connected():
    g = nx.Graph([B.line_towers[x] for x in range(len(B.lids))])
    assert nx.is_connected(g)
    squares = nx.Graph()
    squares.add_nodes_from(range(38))
    squares.add_edges_from((a, w) for a, out in enumerate(B.nbrs) for w, _l, _r in out)
    assert nx.is_connected(squares)
    # Euler: the 38 squares have no hole (V - E + F = 1 for the tower/side graph)
    sides = {frozenset(p) for x, y in B.vxy for p in _square_sides(x, y)}
    corners = {c for s in sides for c in s}
    assert len(corners) - len(sides) + 38 == 1


def _square_sides(x, y):
    c = [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]
    return [(c[i], c[(i + 1) % 4]) for i in range(4)]


def test_neighbour_tables_agree_with_the_lines():
    for line, (a, b) in enumerate(B.line_villages):
        assert B.line_between(a, b) == line == B.line_between(b, a)
        assert line in B.village_lines[a] and line in B.village_lines[b]
    for a, b in B.omitted:
        assert B.line_between(a, b) == -1


def broken(mutate):
    data = copy.deepcopy(RAW)
    mutate(data)
    return data


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d["villages"].pop(),
        lambda d: d["villages"][0].update(id="zz"),
        lambda d: d["villages"][0].update(side="nowhere"),
        lambda d: d["towers"][0].update(edge=False),
        lambda d: d["lines"][0].update(towers=["T10", "T11"]),
        lambda d: d["lines"].pop(),
        lambda d: d["omitted_lines"].pop(),
        lambda d: d["roads"].append(["b1", "d1"]),
        lambda d: d["roads"].append(list(d["roads"][0])),
        lambda d: d["great_wall"].pop(),
        lambda d: d.update(red_towers=["T03", "T33"]),
        lambda d: d.update(wall_pieces=30),
        lambda d: d["villages"][13].update(side="chinese"),
    ],
)
def test_broken_board_data_is_refused(mutate):
    with pytest.raises((BoardError, KeyError, ValueError)):
        build(broken(mutate))


def test_the_shipped_board_builds():
    assert build(copy.deepcopy(RAW)).vids == B.vids
