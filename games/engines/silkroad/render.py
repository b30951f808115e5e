"""The pictures of an observation (``svg.board_set``): the viewer's own panel (the
decision, their hand and laid-out cards) and the table (display, deck) first, then the
map, the other players and the key.

The map is read at the match page's size on a laptop (1000 units in about 880 px): no
text under 13 units. Where it fits a phone's width its text (class ``minor``) is left
out; the panels are at most 380 units wide, so 13-unit text is 11 px or more there.
Clickable parts carry ``data-target`` ids (README "Board ids"), a ``data-label`` and a
``<title>``.
"""

from __future__ import annotations

import math
from html import escape

from games.engines.i18n import _
from games.engines.svg import (
    PANEL_W,
    board_set,
    hit_circle,
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


def _gem(
    x: float, y: float, colour: str, r: int = 8, tid: str | None = None, label: str = ""
) -> str:
    circle = f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{r}" fill="{GEM_FILL[colour]}" stroke="#333"'
    if not tid:
        return f"{circle}><title>{escape(L.colour_name(colour))}</title></circle>"
    return target_open(tid, label) + hit_circle(x, y, 14) + circle + "/></g>"


def _gem_row(
    x: float, y: float, gems: dict[str, int], r: int = 8, city: str | None = None, name: str = ""
) -> list[str]:
    out = []
    i = 0
    for colour in COLOURS:
        for _k in range(gems.get(colour, 0)):
            tid = L.gem_target(city, colour) if city else None
            label = _("{colour} gem in {city}").format(colour=L.colour_name(colour), city=name)
            out.append(_gem(x + i * (2 * r + 3), y, colour, r, tid, sentence(label)))
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
    name = L.space_name(board, i)
    gems = obs["city_gems"].get(sid, {})
    label = name
    if sid in targets:
        label += ", " + _("target of the {size}-camel caravan").format(size=targets[sid])
    out = [
        target_open(L.space_target(board, i), label)
        + f'<circle cx="{x}" cy="{y}" r="44" fill="#fff8e1" stroke="#5d4037" stroke-width="3"/>'
        + _t(x, y + 6, name, 17, extra='font-weight="bold"')
        + "</g>"
    ]
    count = sum(gems.values())
    out += _gem_row(x - (count - 1) * 9.5, y + 58, gems, 8, sid, name)
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
    label = f"{L.space_name(board, i)}: {L.action_label(kind)}"
    return [
        target_open(L.space_target(board, i), label)
        + hit_circle(x, y, 26)
        + f'<circle cx="{x}" cy="{y}" r="20" fill="{fill}" stroke="#3e2723" stroke-width="2"/>'
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
            target_open(L.caravan_target(size), sentence(title))
            + f'<rect x="{bx:.0f}" y="{by - 3:.0f}" width="{w:.0f}" height="33" rx="6" '
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


CARD_H = 26
ROW = 50  # the step between rows of cards: their 48-unit hit areas never overlap


def _card(x: float, y: float, good: str, text: str, tid: str | None, label: str, w: int) -> str:
    """A card whose text's baseline is at y."""
    body = (
        f'<rect x="{x:.0f}" y="{y - 18:.0f}" width="{w}" height="{CARD_H}" rx="4" '
        f'fill="{GOOD_FILL[good]}" stroke="#222"/>'
        + _t(x + w / 2, y, text, 14, extra='fill="white" font-weight="bold"')
    )
    if not tid:
        return f"<g>{body}</g>"
    return target_open(tid, label) + hit_rect(x + w / 2, y - 5, w + 4, 48) + body + "</g>"


def _cards_flow(
    x: float, y: float, counts: dict[str, int], target=None, label=None
) -> tuple[list[str], float]:
    """Cards in rows from x to the panel's right edge; and the baseline of the last row."""
    out = []
    cx = x
    for good in GOODS:
        k = counts.get(good, 0)
        if not k:
            continue
        text = f"{L.good_name(good)} {k}" if k > 1 else L.good_name(good)
        w = max(60, round(18 + 8 * len(text)))
        if cx + w > PANEL_W - 8 and cx > x:
            cx, y = x, y + ROW
        tid = target(good) if target else None
        out.append(_card(cx, y, good, text, tid, label(good, k) if label else "", w))
        cx += w + 8
    return out, y


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
    right = PANEL_W - 8

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


def _panel(cls: str, label: str, body: tuple[list[str], float]) -> str:
    return panel(cls, label, body, PANEL_W, "#fafafa", 10)


def _lines(x: float, y: float, text: str, size: int, extra: str = "") -> tuple[list[str], float]:
    """``text`` wrapped to the panel's width from baseline y; and the next baseline."""
    out = []
    for line in wrap(text, size, PANEL_W - x - 8):
        out.append(_t(x, y, line, size, "start", extra))
        y += size + 6
    return out, y


def _table(obs: dict, board: Board) -> tuple[list[str], float]:
    """The caravanserai, the display and the deck."""
    x = 8
    out = []
    y = 26
    out.append(_t(x, y, _("Caravanserai:"), 15, "start"))
    camels = obs["caravanserai"]["camels"]
    for k, camel in enumerate(camels):
        out += _camel(x + 120 + 33 * (k % 7), y - 18 + 30 * (k // 7), camel["good"], camel["value"])
    y += 30 * max(1, (len(camels) + 6) // 7)
    sup = obs["caravanserai"]
    text = _("colourless gems {c}, 8-point tokens {t}, gems in the bag {b}").format(
        c=sup["colourless"], t=sup["tokens"], b=obs["bag"]
    )
    lines, y = _lines(x, y, text, FONT + 1)
    out += lines
    y += 6
    out.append(_t(x, y, _("Display:"), 15, "start"))
    y += 30
    display: dict[str, int] = {}
    for g in obs["display"]:
        display[g] = display.get(g, 0) + 1
    cards, y = _cards_flow(
        x,
        y,
        display,
        L.display_target,
        lambda g, k: (
            _("Display card: {good}").format(good=L.good_name(g)) + (f" ({k})" if k > 1 else "")
        ),
    )
    out += cards
    y += ROW
    deck = _("deck {n}").format(n=obs["deck"])
    out.append(
        target_open(L.DECK_TARGET, sentence(deck))
        + hit_rect(x + 60, y - 5, 124, 48)
        + f'<rect x="{x}" y="{y - 18}" width="120" height="{CARD_H}" rx="4" fill="#5d4037" '
        f'stroke="#222"/>' + _t(x + 60, y, deck, 14, extra='fill="white"') + "</g>"
    )
    top_card = L.good_name(obs["discard"][-1]) if obs["discard"] else "-"
    text = _("discard pile {n} (top: {top})").format(n=len(obs["discard"]), top=top_card)
    out.append(_t(x + 132, y, text, FONT, "start"))
    return out, y + 8


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


def _player(obs: dict, p: dict, own: bool) -> tuple[list[str], float]:
    """A player's panel; the viewer's own (``own``) starts with the decision and their hand."""
    x = 8
    out = []
    y = 24
    me = p["seat"] == obs["seat"]
    turn = obs.get("decision") and obs["decision"]["seat"] == p["seat"]
    board = obs["_board"]
    if own:
        title = _("Silk Road")
        if obs["seat"] is not None:
            title += " - " + _("you are seat {seat}").format(seat=obs["seat"] + 1)
        out.append(_t(x, y, title, 18, "start", 'font-weight="bold"'))
        y += 24
        lines, y = _lines(x, y, _decision_text(obs, board), 15, 'fill="#b71c1c"')
        out += lines
        y += 4
    head = _("Seat {seat}").format(seat=p["seat"] + 1)
    if me:
        head += " " + _("(you)")
    if turn:
        out.append(
            f'<rect x="2" y="{y - 18}" width="{PANEL_W - 4}" height="26" rx="4" fill="#fff3e0"/>'
        )
    out.append(_t(x, y, head, 15, "start", 'font-weight="bold"'))
    facts = [(_("camel driver:"), p["driver"]), (_("cards in hand:"), p["hand_count"])]
    if "score" in p:
        facts.append((_("points:"), p["score"]))
    out.append(_facts(PANEL_W - 8, y, facts))
    y += 26
    if me and "hand" in p:
        out.append(_t(x, y, _("hand:"), FONT, "start"))
        y += 28
        cards, y = _cards_flow(
            x, y, p["hand"], L.hand_target,
            lambda g, k: _("Hand card: {good}").format(good=L.good_name(g)) + (f" ({k})" if k > 1 else ""),
        )  # fmt: skip
        out += cards
        y += 34
    out.append(_t(x, y, _("laid out:"), FONT, "start"))
    if p["field"]:
        y += 28
        seat = p["seat"]
        cards, y = _cards_flow(
            x, y, p["field"], lambda g, s=seat: L.field_target(s, g),
            lambda g, k, s=seat: _("Laid-out {good} of seat {seat}").format(
                good=L.good_name(g), seat=s + 1
            ) + (f" ({k})" if k > 1 else ""),
        )  # fmt: skip
        out += cards
    else:
        out.append(_t(x + 80, y, "-", FONT, "start"))
    y += 30
    if "gems" in p:
        out.append(_t(x, y, _("gems:"), FONT, "start"))
        out += _gem_row(x + 60, y - 5, p["gems"], 7)
        gx = x + 60 + 17 * sum(p["gems"].values())
    else:
        out.append(_t(x, y, _("hidden gems: {n}").format(n=p["gem_count"]), FONT, "start"))
        gx = x + 140
    colourless = escape(_("colourless gem"))
    for k in range(p["colourless"]):
        out.append(
            f'<circle cx="{gx + 17 * k + 8}" cy="{y - 5}" r="7" fill="{CLEAR_FILL}" stroke="#333">'
            f"<title>{colourless}</title></circle>"
        )
    if p["tokens"]:
        y += 20
        out.append(_t(x, y, _("8-point tokens: {n}").format(n=p["tokens"]), FONT, "start"))
    frame = (
        f'<rect x="1" y="1" width="{PANEL_W - 2}" height="{y + 8}" rx="6" fill="none" '
        f'stroke="{"#e65100" if me else "#9e9e9e"}" stroke-width="{3 if me else 1.5}"/>'
    )
    return [frame, *out], y


def render_svg(obs: dict, board: Board) -> str:
    obs = {**obs, "_board": board}
    players = obs["players"]
    mine = next((p for p in players if p["seat"] == obs["seat"]), None)
    if mine is None:  # a spectator: the decision heads the table panel instead
        table_parts, bottom = _table(obs, board)
        lines, y = _lines(8, 24, _decision_text(obs, board), 15, 'fill="#b71c1c"')
        shift = y + 4
        table_parts = [f'<g transform="translate(0 {shift:.0f})">', *table_parts, "</g>"]
        table = (lines + table_parts, bottom + shift)
    else:
        table = _table(obs, board)
    pictures = []
    if mine is not None:
        pictures.append(_panel("board-own", _("Your turn and hand"), _player(obs, mine, True)))
    pictures.append(_panel("board-table", _("The table"), table))
    map_parts = [
        svg_open(WIDTH, MAP_H, "board-map", _("The map"), -MAP_TOP),
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
        'markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
        'fill="#a1887f"/></marker></defs>',
        *_map(obs, board),
        "</svg>",
    ]
    # every map text is "minor": left out where the map fits a phone's width
    pictures.append("\n".join(map_parts).replace("<text ", '<text class="minor" '))
    for p in players:
        if p is not mine:
            label = _("Seat {seat}").format(seat=p["seat"] + 1)
            pictures.append(_panel("board-player", label, _player(obs, p, False)))
    key, bottom = _key(8, 24)
    pictures.append(_panel("board-key", _("Key"), (key, bottom)))
    return board_set("silkroad", pictures)
