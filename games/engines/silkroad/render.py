"""A self-contained SVG picture of an observation: the map on top, the table below.

Drawn for reading at the match page's size (the SVG scaled to about 860 px
wide): no text under 13 user units, so at least 11 px on screen. Clickable
parts carry ``data-target`` ids (README "Board ids").
"""

from __future__ import annotations

import math
from html import escape

from games.engines.i18n import _
from games.engines.svg import svg_text
from games.engines.svg import target_attr as _target

from . import labels as L
from .board import Board
from .constants import ACTION_KINDS, COLOURS, GOODS

GOOD_FILL = {
    "silk": "#c2185b",
    "porcelain": "#1e88e5",
    "spice": "#ef6c00",
    "ivory": "#8d6e63",
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
ACTION_FILL = {
    "black_market": "#263238",
    "camels_1": "#6d4c41",
    "camels_2": "#6d4c41",
    "camels_3": "#6d4c41",
    "customs": "#546e7a",
    "sandstorm": "#f9a825",
    "robbers": "#b71c1c",
    "bazaar": "#6a1b9a",
    "baksheesh": "#00838f",
}
WIDTH = 1000
MAP_TOP = 60  # room above Tashkent for a caravan standing in it
MAP_H = 985
FONT = 13  # the smallest text; 13 x 860/1000 = 11.2 px on the page
PANEL_TOP = MAP_H


def _t(
    x: float,
    y: float,
    text: object,
    size: int = FONT,
    anchor: str = "middle",
    extra: str = "",
) -> str:
    return svg_text(x, y, text, size=size, anchor=anchor, extra=extra)


def _links(board: Board) -> list[str]:
    out = []
    for a, b in board.links:
        (x1, y1), (x2, y2) = board.xy[a], board.xy[b]
        dx, dy = x2 - x1, y2 - y1
        d = math.hypot(dx, dy) or 1.0
        ra = 44 if board.is_city(a) else 22
        rb = 46 if board.is_city(b) else 24
        sx, sy = x1 + dx * ra / d, y1 + dy * ra / d
        ex, ey = x2 - dx * rb / d, y2 - dy * rb / d
        out.append(
            f'<line x1="{sx:.0f}" y1="{sy:.0f}" x2="{ex:.0f}" y2="{ey:.0f}" '
            f'stroke="#a1887f" stroke-width="3" marker-end="url(#arrow)"/>'
        )
    for (at, city), to in board.signposts.items():
        (x1, y1), (x2, y2) = board.xy[at], board.xy[to]
        mx, my = x1 + (x2 - x1) * 0.4, y1 + (y2 - y1) * 0.4
        # Texts are translated outside f-strings, where xgettext can find them.
        title = _("signpost to {city}").format(city=L.space_name(board, city))
        out.append(
            f'<rect x="{mx - 5:.0f}" y="{my - 5:.0f}" width="10" height="10" fill="#ffd54f" '
            f'stroke="#6d4c41"><title>{escape(title)}</title></rect>'
        )
    return out


def _gem(x: float, y: float, colour: str, r: int = 8, tid: str | None = None) -> str:
    extra = f" {_target(tid)}" if tid else ""
    return (
        f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{r}" fill="{GEM_FILL[colour]}" stroke="#333"'
        f"{extra}><title>{escape(L.colour_name(colour))}</title></circle>"
    )


def _gem_row(
    x: float, y: float, gems: dict[str, int], r: int = 8, city: str | None = None
) -> list[str]:
    out = []
    i = 0
    for colour in COLOURS:
        for _k in range(gems.get(colour, 0)):
            tid = L.gem_target(city, colour) if city else None
            out.append(_gem(x + i * (2 * r + 3), y, colour, r, tid))
            i += 1
    return out


def _camel(x: float, y: float, good: str, value: int) -> list[str]:
    return [
        f'<rect x="{x:.0f}" y="{y:.0f}" width="30" height="24" rx="5" fill="{GOOD_FILL[good]}" '
        f'stroke="#222"><title>{escape(L.good_name(good))} {value}</title></rect>',
        _t(x + 15, y + 17, value, 15, extra='fill="white" font-weight="bold"'),
    ]


def _city(obs: dict, board: Board, i: int, targets: dict) -> list[str]:
    sid = board.ids[i]
    x, y = board.xy[i]
    out = [
        f"<g {_target(L.space_target(board, i))}>"
        f'<circle cx="{x}" cy="{y}" r="44" fill="#fff8e1" stroke="#5d4037" stroke-width="3"/>'
        + _t(x, y + 6, L.space_name(board, i), 17, extra='font-weight="bold"')
        + "</g>"
    ]
    gems = obs["city_gems"].get(sid, {})
    count = sum(gems.values())
    out += _gem_row(x - (count - 1) * 9.5, y + 58, gems, 8, sid)
    if sid in targets:
        size = targets[sid]
        # above northern cities, below southern ones (where villages crowd above)
        ly = y - 52 if y < 440 else y + 86
        out.append(
            _t(
                x,
                ly,
                _("target of the {size}-camel caravan").format(size=size),
                FONT,
                extra=f'fill="{CARAVAN_STROKE[size]}" font-weight="bold"',
            )
        )
    return out


def _village(obs: dict, board: Board, i: int) -> list[str]:
    x, y = board.xy[i]
    kind = obs["board"]["tiles"][board.ids[i]]
    good = kind.rsplit("_", 1)[-1]
    fill = GOOD_FILL.get(good) or ACTION_FILL.get(kind, "#5d4037")
    title = f"{L.space_name(board, i)}: {L.action_label(kind)}"
    return [
        f"<g {_target(L.space_target(board, i))}><title>{escape(title)}</title>"
        f'<circle cx="{x}" cy="{y}" r="20" fill="{fill}" stroke="#3e2723" stroke-width="2"/>'
        + _t(x, y + 5, L.action_mark(kind), 14, extra='fill="white" font-weight="bold"')
        + "</g>",
        _t(
            x,
            y + 36,
            L.space_name(board, i),
            FONT,
            extra='fill="#3e2723" stroke="#f3e5c0" stroke-width="3" paint-order="stroke"',
        ),
    ]


def _box_spot(board: Board, i: int, w: float, r: float, taken: list) -> tuple:
    """Where a caravan's box stands: beside its space on the side that covers fewest other
    spaces and boxes, preferring the side pointing away from the map's middle."""
    x, y = board.xy[i]
    dx, dy = x - 500, y - 440
    sides = {
        "right": (x + r + 22, y - 15, (x + r + 22, y, x + r + 5, y)),
        "left": (x - r - 22 - w, y - 15, (x - r - 22, y, x - r - 5, y)),
        "below": (x - w / 2, y + r + 28, (x, y + r + 25, x, y + r + 5)),
        "above": (x - w / 2, y - r - 58, (x, y - r - 28, x, y - r - 5)),
    }
    if not board.is_city(i) and abs(dx) > 1.2 * abs(dy):
        order = ["right", "left"] if dx > 0 else ["left", "right"]
    else:
        order = []
    order += ["below", "above"] if dy > 0 and not board.is_city(i) else ["above", "below"]
    order += [side for side in sides if side not in order]

    def covered(side: str) -> int:
        bx, by, _pin = sides[side]
        top, bottom = by - 3, by + 30
        n = 0 if bx >= 0 and bx + w <= 1000 and top >= 0 else 10
        for j, (sx, sy) in enumerate(board.xy):
            rad = (44 if board.is_city(j) else 20) + 6
            nx, ny = min(max(sx, bx), bx + w), min(max(sy, top), bottom)
            n += j != i and math.hypot(sx - nx, sy - ny) < rad
        n += sum(bx < ox + ow and ox < bx + w and top < oy + 33 and oy < bottom
                 for ox, oy, ow, _h in taken)  # fmt: skip
        return n

    best = min(order, key=lambda side: (covered(side), order.index(side)))
    return sides[best]


def _caravans(obs: dict, board: Board) -> list[str]:
    out = []
    taken: list = []
    for c in obs["caravans"]:
        i = board.index[c["space"]]
        x, y = board.xy[i]
        size = c["size"]
        stroke = CARAVAN_STROKE[size]
        w = 32 * len(c["camels"]) + 30
        r = 44 if board.is_city(i) else 20
        bx, by, pin = _box_spot(board, i, w, r, taken)
        taken.append((bx, by - 3, w, 33))
        target_name = L.space_name(board, board.index[c["target"]])
        title = _("the {size}-camel caravan to {city}").format(size=size, city=target_name)
        out.append(
            f'<circle cx="{x}" cy="{y}" r="{r + 5}" fill="none" stroke="{stroke}" '
            f'stroke-width="4"/>'
        )
        out.append(
            f'<line x1="{pin[0]:.0f}" y1="{pin[1]:.0f}" x2="{pin[2]:.0f}" y2="{pin[3]:.0f}" '
            f'stroke="{stroke}" stroke-width="4"/>'
        )
        out.append(
            f"<g {_target(L.caravan_target(size))}><title>{escape(title)}</title>"
            f'<rect x="{bx:.0f}" y="{by - 3:.0f}" width="{w:.0f}" height="33" rx="6" '
            f'fill="#fffde7" stroke="{stroke}" stroke-width="3"/>'
            + f'<circle cx="{bx + 13:.0f}" cy="{by + 13:.0f}" r="10" fill="{stroke}"/>'
            + _t(bx + 13, by + 19, size, 15, extra='fill="white" font-weight="bold"')
        )
        for k, camel in enumerate(c["camels"]):
            out += _camel(bx + 26 + 32 * k, by + 1, camel["good"], camel["value"])
        out.append("</g>")
    return out


def _map(obs: dict, board: Board) -> list[str]:
    out = [f'<rect x="0" y="{-MAP_TOP}" width="{WIDTH}" height="{MAP_H}" fill="#f3e5c0"/>']
    out += _links(board)
    targets = {c["target"]: c["size"] for c in obs["caravans"]}
    for i in range(len(board.ids)):
        if board.is_city(i):
            out += _city(obs, board, i, targets)
        else:
            out += _village(obs, board, i)
    out += _caravans(obs, board)
    return out


def _card(
    x: float, y: float, good: str, text: str, tid: str | None, w: int = 96, size: int = 14
) -> list[str]:
    target = f" {_target(tid)}" if tid else ""
    return [
        f"<g{target}>"
        f'<rect x="{x:.0f}" y="{y - 17:.0f}" width="{w}" height="24" rx="4" '
        f'fill="{GOOD_FILL[good]}" stroke="#222"/>'
        + _t(x + w / 2, y, text, size, extra='fill="white" font-weight="bold"')
        + "</g>"
    ]


def _cards_line(
    x: float, y: float, counts: dict[str, int], target=None, w: int = 96, size: int = 14
) -> tuple[list[str], float]:
    out = []
    cx = x
    for good in GOODS:
        k = counts.get(good, 0)
        if not k:
            continue
        text = f"{L.good_name(good)} {k}" if k > 1 else L.good_name(good)
        out += _card(cx, y, good, text, target(good) if target else None, w, size)
        cx += w + 4
    return out, cx


def _decision_text(obs: dict, board: Board) -> str:
    d = obs.get("decision")
    if d is None:
        if obs.get("stalled"):
            return _("Game over (nobody could move any more)")
        return _("Game over")
    who = _("Seat {seat}").format(seat=d["seat"] + 1)  # people count from 1
    kind = d["kind"]
    if kind in ("sell", "gem"):
        m = d["market"]
        place = L.space_name(board, board.index[m["place"]])
        market = {"great": _("great market"), "small": _("small market")}.get(
            m["kind"], _("black market")
        )
        what = _("{good} ({value})").format(good=L.good_name(d["good"]), value=d["value"])
        if kind == "sell":
            text = _("sell or decline {what} at the {market} in {place}")
        else:
            text = _("choose a gem for {what} at the {market} in {place}")
        return f"{who}: " + text.format(what=what, market=market, place=place)
    texts = {
        "play": _("play cards and move a caravan"),
        "route": _("choose the route"),
        "draw": _("take a card ({left} to take)").format(left=d.get("left", 1)),
        "customs": _("customs: discard {n} more from hand").format(n=d.get("discard", 1)),
        "sandstorm": _("sandstorm: discard a laid-out card"),
        "rob": _("robbers: take a laid-out card"),
        "bazaar": _("bazaar: trade three goods or pass"),
        "baksheesh": _("baksheesh: take a display card"),
        "baksheesh_discard": _("baksheesh: discard a hand card"),
        "layout": _("final market: lay out {good} from hand").format(
            good=L.good_name(d.get("good", ""))
        ),
    }
    return f"{who}: {texts.get(kind, kind)}"


def _key(x: float, y: float) -> tuple[list[str], float]:
    """The colour key: goods (camels and cards), gems, and the village marks; and its bottom
    (the key grows a row where a language's names are longer)."""
    out = [_t(x, y, _("Key"), 15, "start", 'font-weight="bold"')]
    y += 22
    # The row titles and item names differ in length by language (Czech is longer):
    # the items start after the longest title and wrap inside the key's width.
    titles = (_("Goods:"), _("Gems:"), _("Villages:"))
    left = x + max(62, 14 + 8 * max(len(t) for t in titles))
    right = x + 430

    def row_of(items, draw, y):
        gx, row = left, 0
        for item, name in items:
            width = 30 + 8 * len(name)
            if gx + width > right and gx > left:
                gx, row = left, row + 1
            out.extend(draw(gx, y + row * 22, item, name))
            gx += width
        return y + row * 22

    out.append(_t(x, y, titles[0], FONT, "start"))
    y = row_of(
        [(g, L.good_name(g)) for g in GOODS],
        lambda gx, gy, good, name: [
            f'<rect x="{gx}" y="{gy - 13}" width="16" height="16" rx="3" fill="{GOOD_FILL[good]}"/>',
            _t(gx + 20, gy, name, FONT, "start"),
        ],
        y,
    )
    y += 22
    out.append(_t(x, y, titles[1], FONT, "start"))
    y = row_of(
        [(c, L.colour_name(c)) for c in COLOURS],
        lambda gx, gy, colour, name: [
            _gem(gx + 7, gy - 5, colour, 7),
            _t(gx + 18, gy, name, FONT, "start"),
        ],
        y,
    )
    y += 24
    out.append(_t(x, y, titles[2], FONT, "start"))
    seen: list[str] = []
    items = []
    for kind in ACTION_KINDS:
        mark = L.action_mark(kind)
        if mark in seen:
            continue
        seen.append(mark)
        label = _("small market") if kind.startswith("small_market_") else L.action_label(kind)
        fill = "#9e9e9e" if kind.startswith("small_market_") else ACTION_FILL[kind]
        items.append((mark, label, fill))
    gx, row = left, 0
    for mark, label, fill in items:
        width = 40 + 8 * len(label)
        if gx + width > right + 10 and gx > left:
            gx, row = left, row + 1
        cy = y + row * 24 - 5
        out.append(f'<circle cx="{gx + 10}" cy="{cy}" r="11" fill="{fill}" stroke="#3e2723"/>')
        out.append(_t(gx + 10, cy + 5, mark, FONT, extra='fill="white" font-weight="bold"'))
        out.append(_t(gx + 25, cy + 5, label, FONT, "start"))
        gx += width
    y += row * 24 + 22
    out.append(_t(x, y, _("market colour = its good; yellow squares are signposts"), FONT, "start"))
    return out, y + 12


def _table(obs: dict, board: Board, top: float) -> tuple[list[str], float]:
    x = 14
    out = []
    y = top + 24
    title = _("Silk Road")
    if obs["seat"] is not None:
        title += " - " + _("you are seat {seat}").format(seat=obs["seat"] + 1)
    out.append(_t(x, y, title, 19, "start", 'font-weight="bold"'))
    y += 26
    out.append(_t(x, y, _decision_text(obs, board), 16, "start", 'fill="#b71c1c"'))
    y += 34
    out.append(_t(x, y, _("Caravanserai:"), 15, "start"))
    for k, camel in enumerate(obs["caravanserai"]["camels"]):
        out += _camel(x + 120 + 33 * k, y - 18, camel["good"], camel["value"])
    y += 28
    sup = obs["caravanserai"]
    out.append(
        _t(
            x,
            y,
            _("colourless gems {c}, 8-point tokens {t}, gems in the bag {b}").format(
                c=sup["colourless"], t=sup["tokens"], b=obs["bag"]
            ),
            FONT + 1,
            "start",
        )
    )
    y += 32
    out.append(_t(x, y, _("Display:"), 15, "start"))
    display: dict[str, int] = {}
    for g in obs["display"]:
        display[g] = display.get(g, 0) + 1
    cards, cx = _cards_line(x + 80, y, display, L.display_target)
    out += cards
    out.append(
        f'<g {_target(L.DECK_TARGET)}><rect x="{cx + 10:.0f}" y="{y - 17}" width="110" '
        f'height="24" rx="4" fill="#5d4037" stroke="#222"/>'
        + _t(cx + 65, y, _("deck {n}").format(n=obs["deck"]), 14, extra='fill="white"')
        + "</g>"
    )
    top_card = L.good_name(obs["discard"][-1]) if obs["discard"] else "-"
    y += 26
    out.append(
        _t(
            x,
            y,
            _("discard pile {n} (top: {top})").format(n=len(obs["discard"]), top=top_card),
            FONT + 1,
            "start",
        )
    )
    y += 22
    key, key_bottom = _key(560, top + 24)
    out += key
    return out, max(y, top + 190, key_bottom)


def _facts(x: float, y: float, facts: list[tuple[str, object]]) -> str:
    """Label/value pairs in one line ending at x: small brown labels, bold values, spaced
    apart (SVG collapses runs of spaces, so the gaps are dx offsets, not spaces)."""
    parts = []
    for k, (label, value) in enumerate(facts):
        parts.append(
            f'<tspan dx="{18 if k else 0}" fill="#6d4c41" font-size="{FONT}">{escape(label)}</tspan>'
            f'<tspan dx="4" font-weight="bold">{escape(str(value))}</tspan>'
        )
    return f'<text x="{x:.0f}" y="{y:.0f}" font-size="15" text-anchor="end">{"".join(parts)}</text>'


def _player(obs: dict, p: dict, x: float, y: float, w: float) -> list[str]:
    me = p["seat"] == obs["seat"]
    turn = obs.get("decision") and obs["decision"]["seat"] == p["seat"]
    h = 124
    out = [
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="6" '
        f'fill="{"#fff3e0" if turn else "#ffffff"}" stroke="{"#e65100" if me else "#9e9e9e"}" '
        f'stroke-width="{3 if me else 1.5}"/>'
    ]
    head = _("Seat {seat}").format(seat=p["seat"] + 1)
    if me:
        head += " " + _("(you)")
    out.append(_t(x + 10, y + 22, head, 15, "start", 'font-weight="bold"'))
    facts = [(_("camel driver:"), p["driver"]), (_("cards in hand:"), p["hand_count"])]
    if "score" in p:
        facts.append((_("points:"), p["score"]))
    out.append(_facts(x + w - 10, y + 22, facts))
    out.append(_t(x + 10, y + 46, _("laid out:"), FONT, "start"))
    cards, _cx = _cards_line(
        x + 72, y + 46, p["field"], lambda g, s=p["seat"]: L.field_target(s, g), 74, 13
    )
    out += cards
    gy = y + 78
    if "gems" in p:
        out.append(_t(x + 10, gy + 5, _("gems:"), FONT, "start"))
        out += _gem_row(x + 70, gy, p["gems"], 7)
        gx = x + 70 + 17 * sum(p["gems"].values())
    else:
        out.append(
            _t(x + 10, gy + 5, _("hidden gems: {n}").format(n=p["gem_count"]), FONT, "start")
        )
        gx = x + 140
    colourless = escape(_("colourless gem"))
    for k in range(p["colourless"]):
        out.append(
            f'<circle cx="{gx + 17 * k + 8}" cy="{gy}" r="7" fill="{CLEAR_FILL}" stroke="#333">'
            f"<title>{colourless}</title></circle>"
        )
    if p["tokens"]:
        out.append(
            _t(gx + 50, gy + 5, _("8-point tokens: {n}").format(n=p["tokens"]), FONT, "start")
        )
    if me and "hand" in p:
        out.append(_t(x + 10, y + 112, _("hand:"), FONT, "start"))
        cards, _cx = _cards_line(x + 72, y + 112, p["hand"], L.hand_target, 74, 13)
        out += cards
    return out


def render_svg(obs: dict, board: Board) -> str:
    table, y = _table(obs, board, PANEL_TOP)
    players = obs["players"]
    cols = 2
    col_w = (WIDTH - 14 * 3) / cols
    rows = (len(players) + cols - 1) // cols
    height = y + 10 + rows * 134 + 6
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:.0f}" '
        f'viewBox="0 0 {WIDTH} {height:.0f}" font-family="sans-serif">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
        'markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
        'fill="#a1887f"/></marker></defs>',
        f'<rect width="{WIDTH}" height="{height:.0f}" fill="#fafafa"/>',
        f'<g transform="translate(0 {MAP_TOP})">',
    ]
    parts += _map(obs, board)
    parts.append("</g>")
    parts += table
    for k, p in enumerate(players):
        px = 14 + (k % cols) * (col_w + 14)
        py = y + 10 + (k // cols) * 134
        parts += _player(obs, p, px, py, col_w)
    parts.append("</svg>")
    return "\n".join(parts)
