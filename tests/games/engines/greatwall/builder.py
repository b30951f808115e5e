"""Build Great Wall states by hand for scenario tests (rulebook figures, territory)."""

from __future__ import annotations

from games.engines.greatwall import ENGINE
from games.engines.greatwall.constants import (
    CLOSED,
    FACE_COUNTS,
    FACE_INDEX,
    FACES,
    MONGOLIA,
    OPEN,
    WALL_PIECES,
    chip,
    chip_face,
    chip_owner,
)
from games.engines.greatwall.flow import advance
from games.engines.greatwall.state import State
from games.engines.greatwall.walls import tree_path
from games.engines.rng import GameRandom

E = ENGINE
BOARD = ENGINE.board
START_WALL = [BOARD.lids[x] for x in BOARD.start_wall]


def v(vid: str) -> int:
    return BOARD.vindex[vid]


def ln(lid: str) -> int:
    return BOARD.lindex[lid]


def faces(d: dict[str, int] | None) -> list[int]:
    out = [0] * 5
    for name, k in (d or {}).items():
        out[FACE_INDEX[name]] = k
    return out


def build(
    players: int = 2,
    *,
    walls: dict[str, str] | None = None,
    great_wall: list[str] | None = None,
    stacks: dict[str, list[tuple[int, str]]] | None = None,
    scouts: dict[int, str | None] | None = None,
    active: dict[int, dict[str, int]] | None = None,
    active_walls: dict[int, int] | None = None,
    passive: dict[int, dict[str, int]] | None = None,
    seat: int = 0,
    stage: str = "start_turn",
    mongol: str = "b1",
    wall_supply: int | None = None,
    seed: int = 0,
    known_by_controllers: bool = True,
) -> State:
    """A state at the start of `seat`'s turn (advanced to its first decision).

    walls: line id -> "open"/"closed" for every piece on the board (default: the
    starting Great Wall, open). The Great Wall and the sides are computed from
    the pieces (`mongol` names a village of Mongolia). stacks: village ->
    [(owner, face), ...] bottom to top; each chip is known to its owner and,
    with known_by_controllers, to the player on top. Passive supplies default
    to whatever the player's 17 chips leave; the common wall supply to what
    28 pieces leave."""
    wall_list = [0] * BOARD.num_lines
    pieces = walls if walls is not None else dict.fromkeys(START_WALL, "open")
    for lid, state in pieces.items():
        wall_list[ln(lid)] = OPEN if state == "open" else CLOSED
    stack_list: list[tuple[int, ...]] = [() for _ in BOARD.vids]
    for vid, chips in (stacks or {}).items():
        top = chips[-1][0] if chips else -1
        built = []
        for owner, face in chips:
            known = 1 << owner
            if known_by_controllers:
                known |= 1 << top
            built.append(chip(FACE_INDEX[face], owner, known))
        stack_list[v(vid)] = tuple(built)
    scout_list = [-1] * players
    for p, vid in (scouts or {}).items():
        scout_list[p] = v(vid) if vid else -1
    act = [faces((active or {}).get(p)) for p in range(players)]
    act_walls = [(active_walls or {}).get(p, 0) for p in range(players)]
    if passive is not None:
        pas = [faces(passive.get(p)) for p in range(players)]
    else:
        pas = []
        for p in range(players):
            left = list(FACE_COUNTS)
            for st in stack_list:
                for c in st:
                    if chip_owner(c) == p:
                        left[chip_face(c)] -= 1
            for f in range(5):
                left[f] -= act[p][f]
            assert min(left) >= 0, f"too many chips of seat {p}"
            pas.append(left)
    on_board = sum(1 for w in wall_list if w)
    supply = WALL_PIECES - on_board - sum(act_walls) if wall_supply is None else wall_supply
    s = State(
        n=players,
        rng=GameRandom(seed),
        options={},
        walls=wall_list,
        age=[0] * BOARD.num_lines,
        great_wall=[],
        side=[MONGOLIA] * len(BOARD.vids),
        stacks=stack_list,
        scouts=scout_list,
        wall_supply=supply,
        walls_out=0,
        active_walls=act_walls,
        active_chips=act,
        passive=pas,
        lost=[[0] * 5 for _ in range(players)],
        hand=[0] * 5,
        seat=seat,
        stage=stage,
    )
    set_great_wall(s, great_wall, mongol)
    advance(s, BOARD)
    return s


def set_great_wall(s: State, great_wall: list[str] | None, mongol: str) -> None:
    """Compute the Great Wall (path between the two rim towers of the network) and sides."""
    towers = {t for x, w in enumerate(s.walls) if w for t in BOARD.line_towers[x]}
    rims = sorted(t for t in towers if BOARD.tedge[t])
    assert len(rims) == 2, f"the pieces touch the rim at {len(rims)} towers"
    path = tree_path(s, BOARD, rims[0], rims[1])
    if great_wall is not None:
        assert sorted(path) == sorted(ln(x) for x in great_wall), [BOARD.lids[x] for x in path]
    s.great_wall = path
    gw = set(path)
    side = [-1] * len(BOARD.vids)
    side[v(mongol)] = MONGOLIA
    todo = [v(mongol)]
    while todo:
        a = todo.pop()
        for b, line, _road in BOARD.nbrs[a]:
            if side[b] < 0:
                side[b] = side[a] ^ (1 if line in gw else 0)
                todo.append(b)
    s.side = side


def act(s: State, **action) -> State:
    """Apply one action given as keywords, checking it is listed as legal."""
    legal = E.legal_actions(s)
    assert action in legal, (action, s.stage, legal)
    return E.apply(s, action)


def wall(s: State, line: str) -> State:
    return act(s, type="wall", line=line)


def move(s: State, to: str, *via: str) -> State:
    """A step: no line = road, one line = gate, two lines = up and down the wall."""
    if len(via) == 1:
        return act(s, type="move", to=to, gate=via[0])
    if len(via) == 2:
        return act(s, type="move", to=to, up=via[0], down=via[1])
    return act(s, type="move", to=to)


def lay(s: State, face: str) -> State:
    return act(s, type="lay", chip=face)


def targets(s: State) -> set[str]:
    """Villages the scout may step to now."""
    return {a["to"] for a in E.legal_actions(s) if a["type"] == "move"}


def moves(s: State) -> list[tuple[str, tuple[str, ...]]]:
    """The legal steps as (target, lines used): () road, (gate,), (up, down)."""
    out = []
    for a in E.legal_actions(s):
        if a["type"] == "move":
            via = (a["gate"],) if "gate" in a else (a["up"], a["down"]) if "up" in a else ()
            out.append((a["to"], via))
    return out


def pieces(s: State) -> dict[str, str]:
    return {BOARD.lids[x]: ("open" if w == OPEN else "closed") for x, w in enumerate(s.walls) if w}


def great_wall(s: State) -> list[str]:
    return [BOARD.lids[x] for x in s.great_wall]


def side(s: State, vid: str) -> str:
    return "mongol" if s.side[v(vid)] == MONGOLIA else "chinese"


def mongolia(s: State) -> set[str]:
    return {BOARD.vids[i] for i, x in enumerate(s.side) if x == MONGOLIA}


def stack(s: State, vid: str) -> list[tuple[int, str]]:
    return [(chip_owner(c), FACES[chip_face(c)]) for c in s.stacks[v(vid)]]


def wall_count(s: State) -> int:
    """Every wall piece, wherever it is (must stay 28)."""
    return sum(1 for w in s.walls if w) + s.wall_supply + sum(s.active_walls) + s.walls_out
