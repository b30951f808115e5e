"""A self-contained SVG picture of an observation: the board on the left, the table
and the key on the right.

Squares are shaded by territory (Mongolia sand, China green) and named;
roads are brown lines between villages, free wall lines faint dashes. Wall
pieces are thick bars: the Great Wall dark red, spurs dark grey; an open
piece shows its gate as a gap in the middle, a closed one is solid. Each
village shows its top chip large (the owner's colour, the face if the viewer
knows it) and the chips below it small; a scout is a pawn in its owner's
colour. Drawn for reading at the match page's size (scaled to about 860 px
wide): no text under 13 user units, 11.2 px on the page. Clickable parts
carry ``data-target`` ids (README "Board ids").
"""

from __future__ import annotations

from html import escape

from games.engines.i18n import _
from games.engines.svg import svg_text
from games.engines.svg import target_attr as _tgt

from . import labels as L
from .board import Board

CELL = 84
MARGIN = 30
TOP = 40
PANEL_W = 352
FONT = 13  # the smallest text: 13 x 860/WIDTH = 11.2 px on the page
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


def _board(obs: dict, board: Board) -> list[str]:
    out: list[str] = []
    villages = obs["villages"]
    for v, info in enumerate(villages):
        x, y = _corner(board, v)
        out.append(
            f'<rect {_tgt(L.village_target(info["id"]))} x="{x}" y="{y}" width="{CELL}" '
            f'height="{CELL}" fill="{SIDE_FILL[info["side"]]}" stroke="#b9b2a0" '
            f'stroke-width="0.8"><title>{escape(L.village_name(info["id"]))}</title></rect>'
        )
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
        # a wide invisible stroke makes a thin line easy to click
        hit = (
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#000" stroke-opacity="0" '
            f'stroke-width="16"/>'
        )
        name = L.line_name(lid)
        if state is None:
            out.append(
                f"<g {_tgt(L.wall_target(lid))}><title>{escape(name)}</title>{hit}"
                f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#8d8d8d" '
                f'stroke-width="1.5" stroke-dasharray="4 5"/></g>'
            )
            continue
        colour = GREAT_WALL if lid in great else SPUR
        what = _("open") if state == "open" else _("closed")
        if lid in great:
            what += ", " + _("Great Wall")
        title = f"<title>{escape(name)}: {escape(what)}</title>"
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
        out.append(f"<g {_tgt(L.wall_target(lid))}>{title}{hit}{bars}</g>")
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
        _t(
            x0 + 10,
            y0 + 16,
            L.village_name(info["id"]),
            FONT,
            extra='fill="#4e4e4e" pointer-events="none"',
        )
    ]
    stack = info["stack"]
    if stack:
        top = stack[-1]
        w, h = 36, 22
        out.append(
            f'<g pointer-events="none"><title>{escape(_chip_title(top))}</title>'
            f'<rect x="{cx - w / 2 - 8:.1f}" y="{cy - 6:.1f}" width="{w}" height="{h}" rx="3" '
            f'fill="{SEAT_FILL[top["owner"]]}" stroke="#222"/>'
            + (
                _t(cx - 8, cy + 11, L.face_mark(top["chip"]), 15, "middle",
                   'fill="#fff" font-weight="bold"')
                if top["chip"] is not None
                else ""
            )
            + "</g>"
        )  # fmt: skip
        below = stack[:-1][::-1]  # next under the top first
        for i, c in enumerate(below[:5]):
            bx = x0 + 8 + i * 13
            out.append(
                f'<g pointer-events="none"><title>{escape(_chip_title(c))}</title>'
                f'<rect x="{bx}" y="{y0 + CELL - 17}" width="11" height="11" rx="2" '
                f'fill="{SEAT_FILL[c["owner"]]}" stroke="#222" stroke-width="0.7"/></g>'
            )
        if len(stack) > 1:
            # the stack's height, just after the small chips
            out.append(
                _t(x0 + 12 + min(len(below), 5) * 13, y0 + CELL - 7, len(stack), FONT, "start",
                   'fill="#333" font-weight="bold" pointer-events="none"')
            )  # fmt: skip
    if info["scout"] is not None:
        p = info["scout"]
        sx, sy = x0 + CELL - 16, cy - 6
        # Translated outside the f-string, where xgettext finds it.
        title = escape(_("scout of {seat}").format(seat=L.seat_name(p)))
        out.append(
            f"<g {_tgt(L.scout_target(p))}><title>{title}</title>"
            f'<circle cx="{sx}" cy="{sy - 8}" r="6" fill="{SEAT_FILL[p]}" stroke="#000"/>'
            f'<path d="M{sx - 8},{sy + 10} L{sx},{sy - 3} L{sx + 8},{sy + 10} Z" '
            f'fill="{SEAT_FILL[p]}" stroke="#000"/></g>'
        )
    return out


def _box(x: float, y: float, w: float, text: str, tid: str | None, fill: str = "#fff") -> str:
    target = f" {_tgt(tid)}" if tid else ""
    return (
        f'<g{target}><rect x="{x}" y="{y}" width="{w}" height="26" rx="4" fill="{fill}" '
        f'stroke="#555"/>' + _t(x + w / 2, y + 18, text, 14, "middle") + "</g>"
    )


def _chips_row(x: float, y: float, faces: dict[str, int], owner: int) -> list[str]:
    out = []
    for face, k in faces.items():
        for _k in range(k):
            out.append(
                f"<g {_tgt(L.chip_target(face))}><title>{escape(L.face_name(face))}</title>"
                f'<rect x="{x}" y="{y}" width="30" height="24" rx="3" '
                f'fill="{SEAT_FILL[owner]}" stroke="#222"/>'
                + _t(x + 15, y + 17, L.face_mark(face), 15, "middle",
                     'fill="#fff" font-weight="bold"')
                + "</g>"
            )  # fmt: skip
            x += 34
    return out


def _panel(obs: dict, x0: float) -> tuple[list[str], float]:
    out = []
    y = TOP + 4
    out.append(_t(x0, y, _("Great Wall"), 20, extra='font-weight="bold"'))
    y += 24
    turn = obs["turn"]
    me = obs["seat"]
    if obs["over"]:
        out.append(_t(x0, y, _("Game over"), 16, extra='font-weight="bold"'))
    else:
        seat = turn["seat"]
        text = _("Turn {n}, round {r}: {seat} to {what}").format(
            n=obs["turn_number"],
            r=obs["round"] + 1,
            seat=L.seat_name(seat),
            what=L.stage_name(turn["stage"]),
        )
        out.append(_t(x0, y, text, 14, extra='fill="#b71c1c"'))
    y += 20
    ending = obs["ending"]
    if ending["announced_by"] is not None:
        text = _("End announced by {seat}").format(seat=L.seat_name(ending["announced_by"]))
        if ending["final_round"]:
            text += " - " + _("final round")
        out.append(_t(x0, y, text, FONT, extra='fill="#b71c1c"'))
        y += 20
    supply = obs["supply"]
    y += 4
    out.append(
        _box(
            x0,
            y,
            170,
            _("wall supply: {n}").format(n=supply["walls"]),
            L.supply_target("wall"),
            "#efe7dc",
        )
    )
    if supply["walls_out"]:
        out.append(
            _t(x0 + 178, y + 18, _("{n} out of the game").format(n=supply["walls_out"]), FONT)
        )
    y += 34
    mine = next((p for p in obs["players"] if p["seat"] == me), None)
    if mine is not None:
        faces = turn.get("starting_faces") if turn["seat"] == me else None
        passive = sum(mine.get("passive_chips", {}).values())
        out.append(
            _box(x0, y, 170, _("your chip bag: {n}").format(n=passive), L.supply_target("chip"))
        )
        y += 34
        out.append(
            _box(
                x0,
                y,
                150,
                _("your walls: {n}").format(n=mine["walls"]),
                L.active_target("walls"),
            )
        )
        out.append(
            _box(
                x0 + 160,
                y,
                150,
                _("your chips: {n}").format(n=mine["chips"]),
                L.active_target("chips"),
            )
        )
        y += 32
        shown = faces if faces else mine.get("active_chips", {})
        if shown:
            label = _("starting chips:") if faces else _("chips in hand:")
            out.append(_t(x0, y + 17, label, FONT))
            out += _chips_row(x0 + 110, y, shown, me)
            y += 30
    y += 14
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
            head += ": " + _("{n} points, rank {r}").format(n=scores[seat], r=obs["ranks"][seat])
        out.append(_t(x0 + 22, y, head, 15, extra='font-weight="bold"'))
        y += 18
        out.append(
            _t(
                x0 + 22,
                y,
                _("walls {w}, chips {c}, bag {b}, lost {l}").format(
                    w=p["walls"], c=p["chips"], b=p["passive"], l=p["lost"]
                ),
                FONT,
            )
        )
        y += 17
        where = L.village_name(p["scout"]) if p["scout"] else _("off the board")
        out.append(
            _t(
                x0 + 22,
                y,
                _("villages {v}, scout: {where}").format(v=p["villages"], where=where),
                FONT,
            )
        )
        y += 24
    key, y = _key(x0, y)
    return out + key, y


def _key(x0: float, y: float) -> tuple[list[str], float]:
    out = [_t(x0, y, _("Key"), 15, extra='font-weight="bold"')]
    y += 20
    for side in ("mongol", "chinese"):
        out.append(
            f'<rect x="{x0}" y="{y - 12}" width="22" height="15" fill="{SIDE_FILL[side]}" '
            f'stroke="#999"/>'
        )
        out.append(_t(x0 + 28, y, L.side_name(side), FONT))
        x0 += 110
    x0 -= 220
    y += 20
    out.append(
        f'<line x1="{x0}" y1="{y - 5}" x2="{x0 + 22}" y2="{y - 5}" stroke="{GREAT_WALL}" '
        f'stroke-width="8"/>'
    )
    out.append(_t(x0 + 28, y, _("Great Wall"), FONT))
    out.append(
        f'<line x1="{x0 + 110}" y1="{y - 5}" x2="{x0 + 132}" y2="{y - 5}" stroke="{SPUR}" '
        f'stroke-width="8"/>'
    )
    out.append(_t(x0 + 138, y, _("spur (gap = open gate)"), FONT))
    y += 20
    marks = ", ".join(
        f"{L.face_mark(f)} {L.face_name(f)}" for f in ("chinese", "mongol", "peasant")
    )
    out.append(_t(x0, y, marks, FONT))
    y += 18
    marks = ", ".join(f"{L.face_mark(f)} {L.face_name(f)}" for f in ("plague", "herb"))
    out.append(_t(x0, y, marks + ", " + _("number: chips in the stack"), FONT))
    return out, y + 12


def render_svg(obs: dict, board: Board) -> str:
    bw = 2 * MARGIN + board.columns * CELL
    bh = TOP + board.rows * CELL + MARGIN
    width = bw + PANEL_W
    panel, bottom = _panel(obs, bw + 4)
    height = round(max(bh, bottom))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#fbfaf6"/>',
        _t(MARGIN, TOP - 12, _("north: Mongolia - south: China (at the start)"), FONT,
           extra='fill="#555"'),
    ]  # fmt: skip
    parts.extend(_board(obs, board))
    parts.extend(panel)
    parts.append("</svg>")
    return "".join(parts)
