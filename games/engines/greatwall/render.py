"""A self-contained SVG picture of an observation: the board on the left, the table on the right.

Squares are shaded by territory (Mongolia sand, China green), roads are thin
brown lines between villages, free wall lines faint dashes. Wall pieces are
thick bars: the Great Wall dark red, spurs dark grey; an open piece shows
its gate as a gap in the middle, a closed one is solid. Each village shows
its stack as coloured chips (owner colours, bottom to top) with the faces
the viewer knows written on them; a scout is a pawn in its owner's colour.
"""

from __future__ import annotations

from html import escape

from .board import Board

CELL = 72
MARGIN = 36
PANEL_W = 330
SEAT_FILL = ("#d32f2f", "#2e7d32", "#1565c0", "#f9a825")
SEAT_NAME = ("red", "green", "blue", "yellow")
SIDE_FILL = {"mongol": "#f1e2b8", "chinese": "#d7ead0"}
FACE_MARK = {"chinese": "C", "mongol": "M", "peasant": "P", "plague": "X", "herb": "H"}
FACE_TITLE = {
    "chinese": "Chinese warrior",
    "mongol": "Mongol rider",
    "peasant": "peasant",
    "plague": "plague",
    "herb": "healing herb",
}


def _t(
    x: float, y: float, text: object, size: int = 13, anchor: str = "start", extra: str = ""
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" {extra}>'
        f"{escape(str(text))}</text>"
    )


def _pt(board: Board, tower: int) -> tuple[float, float]:
    x, y = board.txy[tower]
    return MARGIN + x * CELL, MARGIN + y * CELL


def _centre(board: Board, v: int) -> tuple[float, float]:
    x, y = board.vxy[v]
    return MARGIN + (x + 0.5) * CELL, MARGIN + (y + 0.5) * CELL


def _board(obs: dict, board: Board) -> list[str]:
    out: list[str] = []
    villages = obs["villages"]
    for v, info in enumerate(villages):
        x, y = board.vxy[v]
        out.append(
            f'<rect x="{MARGIN + x * CELL}" y="{MARGIN + y * CELL}" width="{CELL}" height="{CELL}" '
            f'fill="{SIDE_FILL[info["side"]]}" stroke="#b9b2a0" stroke-width="0.6"/>'
        )
    for a, b in sorted(board.roads):
        (x1, y1), (x2, y2) = _centre(board, a), _centre(board, b)
        out.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            f'stroke="#a1887f" stroke-width="3" stroke-linecap="round" opacity="0.7"/>'
        )
    pieces = obs["walls"]
    great = set(obs["great_wall"])
    for line, lid in enumerate(board.lids):
        (x1, y1), (x2, y2) = (_pt(board, t) for t in board.line_towers[line])
        state = pieces.get(lid)
        if state is None:
            out.append(
                f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#8d8d8d" '
                f'stroke-width="1.2" stroke-dasharray="3 4"/>'
            )
            continue
        colour = "#8b1a1a" if lid in great else "#4a4a4a"
        title = f"<title>{escape(lid)}: {state}{' (Great Wall)' if lid in great else ''}</title>"
        if state == "open":
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            gx, gy = (x2 - x1) * 0.14, (y2 - y1) * 0.14
            out.append(
                f'<g>{title}<line x1="{x1}" y1="{y1}" x2="{mx - gx:.1f}" y2="{my - gy:.1f}" '
                f'stroke="{colour}" stroke-width="8" stroke-linecap="square"/>'
                f'<line x1="{mx + gx:.1f}" y1="{my + gy:.1f}" x2="{x2}" y2="{y2}" '
                f'stroke="{colour}" stroke-width="8" stroke-linecap="square"/></g>'
            )
        else:
            out.append(
                f'<g>{title}<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" '
                f'stroke-width="8" stroke-linecap="square"/></g>'
            )
    # towers of the network, red towers marked
    towers = set()
    for lid in pieces:
        towers.update(board.line_towers[board.lindex[lid]])
    for t in sorted(towers | set(board.red_towers)):
        x, y = _pt(board, t)
        fill = "#c62828" if t in board.red_towers else "#5d4037"
        out.append(
            f'<rect x="{x - 6}" y="{y - 6}" width="12" height="12" fill="{fill}" '
            f'stroke="#222" stroke-width="1"/>'
        )
    for v, info in enumerate(villages):
        out.extend(_village(board, v, info))
    return out


def _village(board: Board, v: int, info: dict) -> list[str]:
    cx, cy = _centre(board, v)
    out = [
        _t(cx - CELL / 2 + 4, cy - CELL / 2 + 12, info["id"], 10, extra='fill="#6d6d6d"'),
    ]
    stack = info["stack"]
    shown = stack[-5:]
    w, h = 26, 8
    base = cy + 22
    for i, c in enumerate(shown):
        y = base - (i + 1) * (h + 1)
        face = c["chip"]
        title = FACE_TITLE.get(face, "face down") + f" ({SEAT_NAME[c['owner']]})"
        out.append(
            f'<g><title>{escape(title)}</title><rect x="{cx - w / 2:.1f}" y="{y:.1f}" width="{w}" '
            f'height="{h}" rx="2" fill="{SEAT_FILL[c["owner"]]}" stroke="#222" stroke-width="0.7"/>'
        )
        if face is not None:
            out.append(
                _t(cx, y + h - 1, FACE_MARK[face], 8, "middle", 'fill="#fff" font-weight="bold"')
            )
        out.append("</g>")
    if len(stack) > len(shown):
        out.append(_t(cx + w / 2 + 3, base - 2, f"+{len(stack) - len(shown)}", 9))
    if stack:
        out.append(_t(cx - w / 2 - 3, base - 2, len(stack), 9, "end", 'fill="#333"'))
    if info["scout"] is not None:
        p = info["scout"]
        sx, sy = cx + 18, cy - 14
        out.append(
            f"<g><title>scout of {SEAT_NAME[p]}</title>"
            f'<circle cx="{sx}" cy="{sy - 7}" r="5" fill="{SEAT_FILL[p]}" stroke="#000"/>'
            f'<path d="M{sx - 7},{sy + 8} L{sx},{sy - 3} L{sx + 7},{sy + 8} Z" '
            f'fill="{SEAT_FILL[p]}" stroke="#000"/></g>'
        )
    return out


def _panel(obs: dict, x0: float) -> list[str]:
    out = []
    y = MARGIN + 6
    out.append(_t(x0, y, "Great Wall", 18, extra='font-weight="bold"'))
    y += 22
    turn = obs["turn"]
    if obs["over"]:
        out.append(_t(x0, y, "Game over", 14, extra='font-weight="bold"'))
    else:
        seat = turn["seat"]
        out.append(
            _t(
                x0,
                y,
                f"Turn {obs['turn_number']}, round {obs['round'] + 1}: "
                f"{SEAT_NAME[seat]} ({turn['stage']})",
                13,
            )
        )
    y += 18
    supply = obs["supply"]
    text = f"Common supply: {supply['walls']} walls"
    if supply["walls_out"]:
        text += f" ({supply['walls_out']} out of the game)"
    out.append(_t(x0, y, text, 12))
    y += 18
    ending = obs["ending"]
    if ending["announced_by"] is not None:
        text = f"End announced by {SEAT_NAME[ending['announced_by']]}"
        if ending["final_round"]:
            text += " - final round"
        out.append(_t(x0, y, text, 12, extra='fill="#b71c1c"'))
        y += 18
    y += 6
    scores = obs.get("scores")
    for p in obs["players"]:
        seat = p["seat"]
        out.append(
            f'<rect x="{x0}" y="{y - 11}" width="14" height="14" fill="{SEAT_FILL[seat]}" '
            f'stroke="#222"/>'
        )
        head = f"{SEAT_NAME[seat]} (seat {seat})"
        if scores is not None:
            head += f": {scores[seat]} points, rank {obs['ranks'][seat]}"
        out.append(_t(x0 + 20, y, head, 13, extra='font-weight="bold"'))
        y += 16
        out.append(
            _t(
                x0 + 20,
                y,
                f"walls {p['walls']}, chips {p['chips']}, passive {p['passive']}, "
                f"lost {p['lost']}, villages {p['villages']}",
                11,
            )
        )
        y += 15
        where = p["scout"] or "off the board"
        out.append(_t(x0 + 20, y, f"scout: {where}", 11))
        y += 15
        if "active_chips" in p:
            faces = ", ".join(f"{k} {f}" for f, k in p["active_chips"].items()) or "none"
            out.append(_t(x0 + 20, y, f"your chips: {faces}", 11))
            y += 15
        y += 8
    legend = "C Chinese  M Mongol  P peasant  X plague  H herb"
    out.append(_t(x0, y + 4, legend, 10, extra='fill="#555"'))
    return out


def render_svg(obs: dict, board: Board) -> str:
    bw = 2 * MARGIN + board.columns * CELL
    bh = 2 * MARGIN + board.rows * CELL
    width = bw + PANEL_W
    height = max(bh, 120 + 80 * len(obs["players"]))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#fbfaf6"/>',
        _t(MARGIN, MARGIN - 12, "Mongolia / China", 12, extra='fill="#555"'),
    ]
    parts.extend(_board(obs, board))
    parts.extend(_panel(obs, bw + 10))
    parts.append("</svg>")
    return "".join(parts)
