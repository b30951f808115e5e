"""A self-contained SVG picture of an observation (map on the left, table on the right)."""

from __future__ import annotations

import math
from html import escape

from .board import Board
from .constants import ACTION_LABELS, COLOURS, GOODS

GOOD_FILL = {
    "silk": "#c2185b",
    "porcelain": "#1e88e5",
    "spice": "#ef6c00",
    "ivory": "#a1887f",
    "tea": "#43a047",
}
GEM_FILL = {
    "blue": "#1e5bd8",
    "yellow": "#f4c20d",
    "green": "#1f9e4a",
    "red": "#d32f2f",
    "purple": "#8e24aa",
}
CLEAR_FILL = "#eceff1"
CARAVAN_STROKE = {1: "#5d4037", 2: "#283593", 3: "#00695c"}
ACTION_SHORT = {
    **{f"small_market_{g}": f"market {g}" for g in GOODS},
    "black_market": "black market",
    "camels_1": "1 camel",
    "camels_2": "2 camels",
    "camels_3": "3 camels",
    "customs": "customs",
    "sandstorm": "sandstorm",
    "robbers": "robbers",
    "bazaar": "bazaar",
    "baksheesh": "baksheesh",
}
MAP_W = 1000
MAP_H = 940
MAP_DY = 36  # room above Tashkent for a caravan standing in it
PANEL_X = 1010
WIDTH = 1460


def _t(
    x: float, y: float, text: str, size: int = 13, anchor: str = "middle", extra: str = ""
) -> str:
    return (
        f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" text-anchor="{anchor}" {extra}>'
        f"{escape(str(text))}</text>"
    )


def _links(board: Board) -> list[str]:
    out = []
    for a, b in board.links:
        (x1, y1), (x2, y2) = board.xy[a], board.xy[b]
        dx, dy = x2 - x1, y2 - y1
        d = math.hypot(dx, dy) or 1.0
        ra = 40 if board.is_city(a) else 22
        rb = 42 if board.is_city(b) else 24
        sx, sy = x1 + dx * ra / d, y1 + dy * ra / d
        ex, ey = x2 - dx * rb / d, y2 - dy * rb / d
        out.append(
            f'<line x1="{sx:.0f}" y1="{sy:.0f}" x2="{ex:.0f}" y2="{ey:.0f}" '
            f'stroke="#8d6e63" stroke-width="3" marker-end="url(#arrow)"/>'
        )
    for (at, city), to in board.signposts.items():
        (x1, y1), (x2, y2) = board.xy[at], board.xy[to]
        mx, my = x1 + (x2 - x1) * 0.35, y1 + (y2 - y1) * 0.35
        out.append(
            f'<rect x="{mx - 4:.0f}" y="{my - 4:.0f}" width="8" height="8" fill="#ffd54f" '
            f'stroke="#6d4c41"><title>signpost to {escape(board.names[city])}</title></rect>'
        )
    return out


def _gem_row(x: float, y: float, gems: dict[str, int], r: int = 7) -> list[str]:
    out = []
    i = 0
    for colour in COLOURS:
        for _ in range(gems.get(colour, 0)):
            out.append(
                f'<circle cx="{x + i * (2 * r + 3):.0f}" cy="{y:.0f}" r="{r}" '
                f'fill="{GEM_FILL[colour]}" stroke="#333"/>'
            )
            i += 1
    return out


def _camel(x: float, y: float, good: str, value: int) -> list[str]:
    return [
        f'<rect x="{x:.0f}" y="{y:.0f}" width="30" height="22" rx="5" fill="{GOOD_FILL[good]}" stroke="#222"/>',
        _t(x + 15, y + 16, value, 13, extra='fill="white" font-weight="bold"'),
    ]


def _map(obs: dict, board: Board) -> list[str]:
    out = [f'<rect x="0" y="{-MAP_DY}" width="{MAP_W}" height="{MAP_H}" fill="#f3e5c0"/>']
    out += _links(board)
    tiles = obs["board"]["tiles"]
    targets = {c["target"]: c["size"] for c in obs["caravans"]}
    for i, sid in enumerate(board.ids):
        x, y = board.xy[i]
        if board.is_city(i):
            out.append(
                f'<circle cx="{x}" cy="{y}" r="38" fill="#fff8e1" stroke="#5d4037" stroke-width="3"/>'
            )
            out.append(_t(x, y + 5, board.names[i], 14, extra='font-weight="bold"'))
            gems = obs["city_gems"].get(sid, {})
            out += _gem_row(x - 20, y + 52, gems)
            if sid in targets:
                size = targets[sid]
                out.append(
                    _t(
                        x,
                        y - 46,
                        f"target of the {size}-camel caravan",
                        11,
                        extra=f'fill="{CARAVAN_STROKE[size]}"',
                    )
                )
        else:
            kind = tiles[sid]
            out.append(
                f'<circle cx="{x}" cy="{y}" r="20" fill="#ffffff" stroke="#6d4c41" stroke-width="2"/>'
            )
            fill = GOOD_FILL.get(kind.rsplit("_", 1)[-1], "#5d4037")
            out.append(
                f'<text x="{x}" y="{y + 4}" font-size="9" text-anchor="middle" fill="{fill}">'
                f"{escape(ACTION_SHORT[kind])}<title>{escape(ACTION_LABELS[kind])}</title></text>"
            )
            out.append(_t(x, y + 33, board.names[i], 11, extra='fill="#4e342e"'))
    for c in obs["caravans"]:
        i = board.index[c["space"]]
        x, y = board.xy[i]
        w = 32 * len(c["camels"]) + 6
        bx, by = x - w / 2, y - 84 if board.is_city(i) else y - 48
        stroke = CARAVAN_STROKE[c["size"]]
        out.append(
            f'<rect x="{bx:.0f}" y="{by - 4:.0f}" width="{w:.0f}" height="30" rx="6" fill="#fffde7" '
            f'stroke="{stroke}" stroke-width="3"><title>{c["size"]}-camel caravan to '
            f"{escape(board.names[board.index[c['target']]])}</title></rect>"
        )
        for k, camel in enumerate(c["camels"]):
            out += _camel(bx + 4 + 32 * k, by, camel["good"], camel["value"])
    return out


def _cards_line(x: float, y: float, counts: dict[str, int]) -> list[str]:
    out = []
    cx = x
    for good in GOODS:
        k = counts.get(good, 0)
        if not k:
            continue
        out.append(
            f'<rect x="{cx:.0f}" y="{y - 13:.0f}" width="52" height="18" rx="3" fill="{GOOD_FILL[good]}"/>'
        )
        out.append(_t(cx + 26, y, f"{good[:5]} {k}", 11, extra='fill="white"'))
        cx += 56
    return out


def _decision_text(obs: dict, board: Board) -> str:
    d = obs.get("decision")
    if d is None:
        return "game over" + (" (nobody could move any more)" if obs.get("stalled") else "")
    who = f"seat {d['seat']}"
    kind = d["kind"]
    if kind in ("sell", "gem"):
        m = d["market"]
        place = board.names[board.index[m["place"]]]
        verb = "sell or decline" if kind == "sell" else "choose a gem for"
        return f"{who}: {verb} {d['good']} ({d['value']}) at the {m['kind']} market in {place}"
    texts = {
        "play": "play cards and move a caravan",
        "route": "choose the route",
        "draw": f"take a card ({d.get('left', 1)} to take, {d.get('reason', '')})",
        "customs": f"customs: discard {d.get('discard', 1)} more from hand",
        "sandstorm": "sandstorm: discard a laid-out card",
        "rob": "robbers: take a laid-out card",
        "bazaar": "bazaar: trade three goods or pass",
        "baksheesh": "baksheesh: take a display card",
        "baksheesh_discard": "baksheesh: discard a hand card",
        "layout": f"final market: lay out {d.get('good', '')} from hand",
    }
    return f"{who}: {texts.get(kind, kind)}"


def _panel(obs: dict, board: Board) -> list[str]:
    x = PANEL_X
    out = [f'<rect x="{MAP_W}" y="0" width="{WIDTH - MAP_W}" height="{MAP_H}" fill="#fafafa"/>']
    y = 26
    title = "Silk Road" + (f" - seat {obs['seat']}" if obs["seat"] is not None else " - spectator")
    out.append(_t(x, y, title, 18, "start", 'font-weight="bold"'))
    y += 22
    out.append(_t(x, y, _decision_text(obs, board), 13, "start", 'fill="#b71c1c"'))
    y += 26
    out.append(_t(x, y, "Caravanserai:", 13, "start"))
    for k, camel in enumerate(obs["caravanserai"]["camels"]):
        out += _camel(x + 100 + 33 * k, y - 16, camel["good"], camel["value"])
    y += 26
    sup = obs["caravanserai"]
    out.append(
        _t(
            x,
            y,
            f"colourless gems {sup['colourless']}, 8-point tokens {sup['tokens']}, "
            f"bag {obs['bag']}",
            12,
            "start",
        )
    )
    y += 24
    display = {}
    for g in obs["display"]:
        display[g] = display.get(g, 0) + 1
    out.append(_t(x, y, "Display:", 13, "start"))
    out += _cards_line(x + 60, y, display)
    y += 22
    top = obs["discard"][-1] if obs["discard"] else "-"
    out.append(
        _t(x, y, f"Deck {obs['deck']}   Discard {len(obs['discard'])} (top: {top})", 12, "start")
    )
    y += 20
    for p in obs["players"]:
        y += 10
        me = p["seat"] == obs["seat"]
        turn = p["seat"] == obs["on_turn"]
        out.append(
            f'<rect x="{x - 4}" y="{y}" width="{WIDTH - x - 6}" height="{108 if me else 92}" rx="6" '
            f'fill="{"#fff3e0" if turn else "#ffffff"}" stroke="{"#e65100" if me else "#9e9e9e"}"/>'
        )
        y += 18
        head = f"Seat {p['seat']}  driver {p['driver']}  hand {p['hand_count']}"
        if "score" in p:
            head += f"  score {p['score']}"
        out.append(_t(x + 4, y, head, 13, "start", 'font-weight="bold"'))
        y += 20
        out.append(_t(x + 4, y, "laid out:", 11, "start"))
        out += _cards_line(x + 60, y, p["field"])
        y += 22
        if "gems" in p:
            out += _gem_row(x + 12, y - 4, p["gems"], 6)
            gx = x + 12 + 15 * sum(p["gems"].values())
        else:
            out.append(_t(x + 4, y, f"{p['gem_count']} coloured gems (hidden)", 11, "start"))
            gx = x + 170
        for k in range(p["colourless"]):
            out.append(
                f'<circle cx="{gx + 15 * k + 6}" cy="{y - 4}" r="6" fill="{CLEAR_FILL}" stroke="#333"/>'
            )
        if p["tokens"]:
            out.append(_t(gx + 40, y, f"8-point tokens: {p['tokens']}", 11, "start"))
        y += 20
        if me and "hand" in p:
            out.append(_t(x + 4, y, "hand:", 11, "start"))
            out += _cards_line(x + 60, y, p["hand"])
            y += 18
    return out


def render_svg(obs: dict, board: Board) -> str:
    height = max(MAP_H, 300 + 120 * len(obs["players"]))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
        'markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
        'fill="#8d6e63"/></marker></defs>',
    ]
    parts.append(f'<g transform="translate(0 {MAP_DY})">')
    parts += _map(obs, board)
    parts.append("</g>")
    parts += _panel(obs, board)
    parts.append("</svg>")
    return "\n".join(parts)
