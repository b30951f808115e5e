"""The pictures of an observation (``svg.board_set``): the map; the viewer's own panel
(turn, supplies, chips to choose); the players; the key.

Squares are shaded by territory (Mongolia sand, China green) and named;
roads are brown lines between villages, free wall lines faint dashes. Wall
pieces are thick bars: the Great Wall dark red, spurs dark grey; an open
piece shows its gate as a gap in the middle, a closed one is solid. Each
village shows its top chip large (the owner's colour, the face if the viewer
knows it) and the chips below it small; a scout is a pawn in its owner's
colour. On a laptop the map (at about 540 px wide) and the panels (about 330 px)
stand side by side: no text under 13 units in the panels and 14 on the map. On a phone
the map fits the screen's width (0.57:1), so the village names (class ``minor``) are
hidden there and the chip marks and stack heights are 20 units. Clickable parts carry
``data-target`` ids (README "Board ids"), a ``data-label`` and a ``<title>``.
"""

from __future__ import annotations

from html import escape

from games.engines.i18n import _, ngettext, pgettext
from games.engines.svg import (
    PANEL_W,
    board_set,
    hit_circle,
    hit_line,
    hit_rect,
    panel,
    sentence,
    svg_open,
    svg_text,
    target_open,
    wrap,
)

from . import labels as L
from .board import Board

CELL = 84
MARGIN = 30
TOP = 40
FONT = 13  # the smallest panel text: 13 x 334/380 = 11.4 px at 1280 px
MAP_FONT = 14  # the smallest map text on a laptop: 14 x 538/648 = 11.6 px
BIG = 20  # map text a phone shows: 20 x 369/648 = 11.4 px
SEAT_FILL = ("#d32f2f", "#2e7d32", "#1565c0", "#f9a825")
SIDE_FILL = {"mongol": "#f1e2b8", "chinese": "#d3e8cb"}
GREAT_WALL = "#8b1a1a"
SPUR = "#4a4a4a"


def _t(
    x: float, y: float, text: object, size: int = FONT, anchor: str = "start", extra: str = ""
) -> str:
    return svg_text(x, y, text, size=size, anchor=anchor, extra=extra, digits=1)


def _pt(board: Board, tower: int) -> tuple[float, float]:
    x, y = board.txy[tower]
    return MARGIN + x * CELL, TOP + y * CELL


def _corner(board: Board, v: int) -> tuple[float, float]:
    x, y = board.vxy[v]
    return MARGIN + x * CELL, TOP + y * CELL


def _centre(board: Board, v: int) -> tuple[float, float]:
    x, y = _corner(board, v)
    return x + CELL / 2, y + CELL / 2


def _chip_title(c: dict) -> str:
    face = L.face_name(c["chip"]) if c["chip"] is not None else _("face down")
    return f"{face} ({L.seat_name(c['owner'])})"


def _wall_label(lid: str, state: str | None, great: bool) -> str:
    a, _sep, b = lid.partition("/")
    name = _("Wall between {a} and {b}").format(a=L.village_name(a), b=L.village_name(b))
    if state is None:
        return name + ": " + _("free")
    what = _("open") if state == "open" else _("closed")
    if great:
        what += ", " + pgettext("wall", "Great Wall")  # the wall, not the game's title
    return f"{name}: {what}"


def _village_label(info: dict) -> str:
    name = L.village_name(info["id"])
    stack = info["stack"]
    if not stack:
        return name
    return ngettext(
        "{village}, {n} chip, top: {top}", "{village}, {n} chips, top: {top}", len(stack)
    ).format(village=name, n=len(stack), top=_chip_title(stack[-1]))


def _board(obs: dict, board: Board) -> list[str]:
    out: list[str] = []
    villages = obs["villages"]
    for v, info in enumerate(villages):
        x, y = _corner(board, v)
        out.append(
            target_open(L.village_target(info["id"]), _village_label(info), "rect",
                        f'x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
                        f'fill="{SIDE_FILL[info["side"]]}" stroke="#b9b2a0" stroke-width="0.8"')
            + "</rect>"
        )  # fmt: skip
    for a, b in sorted(board.roads):
        (x1, y1), (x2, y2) = _centre(board, a), _centre(board, b)
        out.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            f'stroke="#a1887f" stroke-width="3" stroke-linecap="round" opacity="0.6" '
            f'pointer-events="none"/>'
        )
    pieces = obs["walls"]
    great = set(obs["great_wall"])
    for line, lid in enumerate(board.lids):
        (x1, y1), (x2, y2) = (_pt(board, t) for t in board.line_towers[line])
        state = pieces.get(lid)
        # A thin line is clicked by an invisible wide stroke that CSS never restyles.
        hit = hit_line(x1, y1, x2, y2)
        opening = target_open(L.wall_target(lid), _wall_label(lid, state, lid in great))
        if state is None:
            out.append(
                f"{opening}{hit}"
                f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#8d8d8d" '
                f'stroke-width="1.5" stroke-dasharray="4 5"/></g>'
            )
            continue
        colour = GREAT_WALL if lid in great else SPUR
        if state == "open":
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            gx, gy = (x2 - x1) * 0.14, (y2 - y1) * 0.14
            bars = (
                f'<line x1="{x1}" y1="{y1}" x2="{mx - gx:.1f}" y2="{my - gy:.1f}" '
                f'stroke="{colour}" stroke-width="9" stroke-linecap="square"/>'
                f'<line x1="{mx + gx:.1f}" y1="{my + gy:.1f}" x2="{x2}" y2="{y2}" '
                f'stroke="{colour}" stroke-width="9" stroke-linecap="square"/>'
            )
        else:
            bars = (
                f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" '
                f'stroke-width="9" stroke-linecap="square"/>'
            )
        out.append(f"{opening}{hit}{bars}</g>")
    towers = set()
    for lid in pieces:
        towers.update(board.line_towers[board.lindex[lid]])
    for t in sorted(towers | set(board.red_towers)):
        x, y = _pt(board, t)
        fill = "#c62828" if t in board.red_towers else "#5d4037"
        out.append(
            f'<rect x="{x - 7}" y="{y - 7}" width="14" height="14" fill="{fill}" '
            f'stroke="#222" stroke-width="1" pointer-events="none"/>'
        )
    for v, info in enumerate(villages):
        out.extend(_village(board, v, info))
    return out


def _village(board: Board, v: int, info: dict) -> list[str]:
    cx, cy = _centre(board, v)
    x0, y0 = _corner(board, v)
    out = [
        _t(x0 + 6, y0 + 16, L.village_name(info["id"]), MAP_FONT,
           extra='class="minor" fill="#4e4e4e" pointer-events="none"')
    ]  # fmt: skip
    stack = info["stack"]
    if stack:
        top = stack[-1]
        w, h = 40, 28
        out.append(
            f'<g pointer-events="none"><title>{escape(_chip_title(top))}</title>'
            f'<rect x="{cx - w / 2 - 10:.1f}" y="{cy - 10:.1f}" width="{w}" height="{h}" rx="3" '
            f'fill="{SEAT_FILL[top["owner"]]}" stroke="#222"/>'
            + (
                _t(cx - 10, cy + 11, L.face_mark(top["chip"]), BIG, "middle",
                   'fill="#fff" font-weight="bold"')
                if top["chip"] is not None
                else ""
            )
            + "</g>"
        )  # fmt: skip
        below = stack[:-1][::-1]  # next under the top first
        for i, c in enumerate(below[:4]):
            bx = x0 + 6 + i * 12
            out.append(
                f'<g pointer-events="none"><title>{escape(_chip_title(c))}</title>'
                f'<rect x="{bx}" y="{y0 + CELL - 15}" width="10" height="10" rx="2" '
                f'fill="{SEAT_FILL[c["owner"]]}" stroke="#222" stroke-width="0.7"/></g>'
            )
        if len(stack) > 1:
            # the stack's height, in the cell's bottom right corner
            out.append(
                _t(x0 + CELL - 5, y0 + CELL - 5, len(stack), BIG, "end",
                   'fill="#333" font-weight="bold" pointer-events="none"')
            )  # fmt: skip
    if info["scout"] is not None:
        p = info["scout"]
        sx, sy = x0 + CELL - 16, cy - 6
        # Translated outside the f-string, where xgettext finds it.
        label = sentence(_("scout of {seat}").format(seat=L.seat_name(p)))
        out.append(
            target_open(L.scout_target(p), label)
            + hit_circle(sx, sy, 16)
            + f'<circle cx="{sx}" cy="{sy - 8}" r="6" fill="{SEAT_FILL[p]}" stroke="#000"/>'
            f'<path d="M{sx - 8},{sy + 10} L{sx},{sy - 3} L{sx + 8},{sy + 10} Z" '
            f'fill="{SEAT_FILL[p]}" stroke="#000"/></g>'
        )
    return out


BOX_H = 34  # a panel button's height; its hit area is 48 (44 px on a phone)
ROW = 52  # the step between rows of buttons: hit areas never overlap


def _box(x: float, y: float, w: float, text: str, tid: str | None, fill: str = "#fff") -> str:
    """A button-like box whose top is at y."""
    body = (
        f'<rect x="{x}" y="{y}" width="{w}" height="{BOX_H}" rx="4" fill="{fill}" stroke="#555"/>'
        + _t(x + w / 2, y + 22, text, 14, "middle")
    )
    if not tid:
        return f"<g>{body}</g>"
    return target_open(tid, text) + hit_rect(x + w / 2, y + BOX_H / 2, w, 48) + body + "</g>"


def _chips_row(x: float, y: float, faces: dict[str, int], owner: int) -> list[str]:
    out = []
    for face, k in faces.items():
        for _k in range(k):
            label = _("Chip: {face}").format(face=L.face_name(face))
            out.append(
                target_open(L.chip_target(face), label)
                + hit_rect(x + 17, y + 14, 48, 48)
                + f'<rect x="{x}" y="{y}" width="34" height="28" rx="3" '
                f'fill="{SEAT_FILL[owner]}" stroke="#222"/>'
                + _t(x + 17, y + 20, L.face_mark(face), 16, "middle",
                     'fill="#fff" font-weight="bold"')
                + "</g>"
            )  # fmt: skip
            x += 52
    return out


def _lines(x: float, y: float, text: str, size: int, extra: str = "") -> tuple[list[str], float]:
    """``text`` wrapped to the panel's width from baseline y; and the next baseline."""
    out = []
    for line in wrap(text, size, PANEL_W - x - 8):
        out.append(_t(x, y, line, size, extra=extra))
        y += size + 5
    return out, y


def _own(obs: dict) -> tuple[list[str], float]:
    """The viewer's panel: the turn, the supplies and their own pieces and chips."""
    x0 = 8
    out = []
    y = 24
    out.append(_t(x0, y, _("Great Wall"), 20, extra='font-weight="bold"'))
    y += 24
    turn = obs["turn"]
    me = obs["seat"]
    if obs["over"]:
        out.append(_t(x0, y, _("Game over"), 16, extra='font-weight="bold"'))
        y += 20
    else:
        seat = turn["seat"]
        text = _("Turn {n}, round {r}: {seat} to {what}").format(
            n=obs["turn_number"],
            r=obs["round"] + 1,
            seat=L.seat_name(seat),
            what=L.stage_name(turn["stage"]),
        )
        lines, y = _lines(x0, y, text, 14, 'fill="#b71c1c"')
        out += lines
    ending = obs["ending"]
    if ending["announced_by"] is not None:
        text = _("End announced by {seat}").format(seat=L.seat_name(ending["announced_by"]))
        if ending["final_round"]:
            text += " - " + _("final round")
        lines, y = _lines(x0, y, text, FONT, 'fill="#b71c1c"')
        out += lines
    mine = next((p for p in obs["players"] if p["seat"] == me), None)
    if mine is not None:
        # the chips to choose first: the first legal parts of a decision stand highest
        faces = turn.get("starting_faces") if turn["seat"] == me else None
        shown = faces if faces else mine.get("active_chips", {})
        if shown:
            label = _("starting chips:") if faces else _("chips in hand:")
            out.append(_t(x0, y + 6, label, FONT))
            y += 14
            out += _chips_row(x0 + 8, y, shown, me)
            y += ROW
    supply = obs["supply"]
    y += 2
    text = _("wall supply: {n}").format(n=supply["walls"])
    out.append(_box(x0, y, 180, text, L.supply_target("wall"), "#efe7dc"))
    if supply["walls_out"]:
        out.append(
            _t(x0 + 188, y + 22, _("{n} out of the game").format(n=supply["walls_out"]), FONT)
        )
    y += ROW
    if mine is not None:
        passive = sum(mine.get("passive_chips", {}).values())
        text = _("your chip bag: {n}").format(n=passive)
        out.append(_box(x0, y, 180, text, L.supply_target("chip")))
        y += ROW
        text = _("your walls: {n}").format(n=mine["walls"])
        out.append(_box(x0, y, 176, text, L.active_target("walls")))
        text = _("your chips: {n}").format(n=mine["chips"])
        out.append(_box(x0 + 188, y, 176, text, L.active_target("chips")))
        y += ROW
    return out, y


def _players(obs: dict) -> tuple[list[str], float]:
    x0 = 8
    out = []
    y = 24
    me = obs["seat"]
    scores = obs.get("scores")
    for p in obs["players"]:
        seat = p["seat"]
        out.append(
            f'<rect x="{x0}" y="{y - 13}" width="16" height="16" fill="{SEAT_FILL[seat]}" '
            f'stroke="#222"/>'
        )
        head = L.seat_name(seat).title()
        if seat == me:
            head += " " + _("(you)")
        if scores is not None:
            n = scores[seat]  # may be below zero: "-1 point"
            text = ngettext("{n} point, rank {r}", "{n} points, rank {r}", abs(n))
            head += ": " + text.format(n=n, r=obs["ranks"][seat])
        out.append(_t(x0 + 22, y, head, 15, extra='font-weight="bold"'))
        y += 18
        text = _("walls {w}, chips {c}, bag {b}, lost {l}").format(
            w=p["walls"], c=p["chips"], b=p["passive"], l=p["lost"]
        )
        lines, y = _lines(x0 + 22, y, text, FONT)
        out += lines
        where = L.village_name(p["scout"]) if p["scout"] else _("off the board")
        text = _("villages {v}, scout: {where}").format(v=p["villages"], where=where)
        lines, y = _lines(x0 + 22, y, text, FONT)
        out += lines
        y += 8
    return out, y - 6


def _key() -> tuple[list[str], float]:
    x0 = 8
    y = 22
    out = [_t(x0, y, _("Key"), 15, extra='font-weight="bold"')]
    y += 20
    for k, side in enumerate(("mongol", "chinese")):
        x = x0 + k * 150
        out.append(
            f'<rect x="{x}" y="{y - 12}" width="22" height="15" fill="{SIDE_FILL[side]}" '
            f'stroke="#999"/>'
        )
        out.append(_t(x + 28, y, L.side_name(side), FONT))
    y += 20
    out.append(
        f'<line x1="{x0}" y1="{y - 5}" x2="{x0 + 22}" y2="{y - 5}" stroke="{GREAT_WALL}" '
        f'stroke-width="8"/>'
    )
    out.append(_t(x0 + 28, y, pgettext("wall", "Great Wall"), FONT))
    out.append(
        f'<line x1="{x0 + 150}" y1="{y - 5}" x2="{x0 + 172}" y2="{y - 5}" stroke="{SPUR}" '
        f'stroke-width="8"/>'
    )
    out.append(_t(x0 + 178, y, _("spur (gap = open gate)"), FONT))
    y += 20
    lines, y = _lines(x0, y, _("north: Mongolia - south: China (at the start)"), FONT)
    out += lines
    for faces in (("chinese", "mongol", "peasant"), ("plague", "herb")):
        marks = ", ".join(f"{L.face_mark(f)} {L.face_name(f)}" for f in faces)
        lines, y = _lines(x0, y, marks, FONT)
        out += lines
    lines, y = _lines(x0, y, _("number: chips in the stack"), FONT)
    out += lines
    return out, y - 6


def _panel(cls: str, label: str, body: tuple[list[str], float]) -> str:
    return panel(cls, label, body, PANEL_W, "#fbfaf6", 8)


def render_svg(obs: dict, board: Board) -> str:
    bw = 2 * MARGIN + board.columns * CELL
    bh = TOP + board.rows * CELL + MARGIN
    top = TOP - 14  # the map needs no caption above it: the key explains north and south
    parts = [
        svg_open(bw, bh - top, "board-map", _("The board"), top),
        f'<rect y="{top}" width="{bw}" height="{bh - top}" fill="#fbfaf6"/>',
    ]
    parts.extend(_board(obs, board))
    parts.append("</svg>")
    return board_set(
        "greatwall",
        [
            "".join(parts),
            _panel("board-own", _("Your turn and pieces"), _own(obs)),
            _panel("board-players", _("Players"), _players(obs)),
            _panel("board-key", _("Key"), _key()),
        ],
    )
