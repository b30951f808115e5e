"""The board data: validated at load, every city reachable as a target, movement well defined."""

import copy
import json

import pytest

from games.engines.silkroad.board import DATA, BoardError, build, default_board
from games.engines.silkroad.constants import ACTION_KINDS, NUM_CITIES

RAW = json.loads(DATA.read_text(encoding="utf-8"))
BOARD = default_board()


def test_shape():
    assert len(BOARD.ids) == 28
    assert BOARD.ids[:6] == ("tashkent", "changan", "amritsar", "yspahan", "byzanz", "samarkand")
    assert sum(RAW["default_tile_mix"].values()) == 22
    assert set(RAW["default_tile_mix"]) == set(ACTION_KINDS)  # every action kind is used
    printed = {}
    for v in BOARD.villages:
        printed[BOARD.printed_tiles[v]] = printed.get(BOARD.printed_tiles[v], 0) + 1
    assert printed == RAW["default_tile_mix"]


def test_every_city_reaches_every_other_city():
    for target in range(NUM_CITIES):
        for start in range(NUM_CITIES):
            if start == target:
                continue
            routes = BOARD.routes[target][start]
            assert routes, (start, target)
            for r in routes:
                assert r[-1] == target
                assert all(x >= NUM_CITIES for x in r[:-1])  # no other city on the way
                assert len(set(r)) == len(r)


def test_movement_follows_arrows_and_signposts():
    idx = BOARD.index
    links = set(BOARD.links)
    for target in range(NUM_CITIES):
        for space, nexts in enumerate(BOARD.succ[target]):
            for b in nexts:
                assert (space, b) in links  # only along arrows
            if (space, target) in BOARD.signposts:
                assert nexts == (BOARD.signposts[(space, target)],)
    # a fork with a route choice, and a signpost that forbids it for one target
    assert set(BOARD.succ[idx["samarkand"]][idx["v11"]]) == {idx["v12"], idx["v21"]}
    assert BOARD.succ[idx["byzanz"]][idx["v11"]] == (idx["v12"],)
    assert BOARD.succ[idx["byzanz"]][idx["v12"]] == (idx["byzanz"],)
    assert BOARD.succ[idx["samarkand"]][idx["v12"]] == (idx["v13"],)


def test_most_steps_and_ends_skip_occupied_spaces():
    idx = BOARD.index
    v10, sam = idx["v10"], idx["samarkand"]
    free = BOARD.most_steps(v10, sam, ())
    assert free == 6  # v11 v12 v13 v14 v15 Samarkand
    assert BOARD.ends(v10, sam, (), 3) == [idx["v13"], idx["v14"]]
    # Baghdad occupied: passed without counting
    occ = (idx["v11"],)
    assert BOARD.most_steps(v10, sam, occ) == 5
    assert BOARD.ends(v10, sam, occ, 1) == [idx["v12"], idx["v21"]]
    # the target is never passed: five steps may end in the city by the short way
    assert BOARD.ends(v10, sam, (), 5) == [sam, idx["v15"]]
    assert BOARD.ends(v10, sam, (), 6) == [sam]
    assert BOARD.ends(v10, sam, (), 7) == []


def _broken(mutate) -> dict:
    data = copy.deepcopy(RAW)
    mutate(data)
    return data


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["villages"].pop(), "22 villages"),
        (lambda d: d["cities"].pop(), "6 cities"),
        (lambda d: d["links"].append(["v01", "v01"]), "loops"),
        (lambda d: d["links"].append(["v01", "nowhere"]), "unknown space"),
        (lambda d: d["links"].append(["v01", "v02"]), "twice"),
        (lambda d: d["links"].append(["v01", "byzanz"]), "signpost"),
        (lambda d: d["signposts"].pop(0), "signpost"),  # Turfan -> Chang'an has no signpost left
        (
            lambda d: d["signposts"].append({"at": "v01", "city": "byzanz", "to": "v05"}),
            "does not exist",
        ),
        (lambda d: d["printed_tiles"].update(v01="teleport"), "printed action"),
        (lambda d: d["default_tile_mix"].update(bazaar=5), "exactly 22"),
        (lambda d: d["start"]["1"].update(target="amritsar"), "six different"),
        (lambda d: d["links"].remove(["v18", "v01"]), "stuck"),
        (
            lambda d: (
                d["signposts"].append({"at": "v04", "city": "tashkent", "to": "v05"})
                or d["links"].append(["v05", "v04"])
                or d["signposts"].append({"at": "v05", "city": "tashkent", "to": "v04"})
            ),
            "circle",
        ),
        (lambda d: [d["links"].remove(x) for x in (["v02", "v19"], ["v19", "v05"])], "ever reach"),
    ],
)
def test_broken_boards_are_rejected(mutate, message):
    with pytest.raises(BoardError, match=message):
        build(_broken(mutate))


def test_the_shipped_board_loads_cleanly():
    assert build(copy.deepcopy(RAW)).ids == BOARD.ids
