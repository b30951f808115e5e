"""The pictures of an observation (``svg.board_set``): the decision and the dice tower,
the viewer's own board (hand, buildings), the map with its districts, souks, streets and
the supervisor; then the caravan and deck, the other players and the key.

Self-contained (no external fonts, images or scripts); drawn only from the
observation, so it never shows more than the viewer may know. The map is read at
the match page's size on a laptop (890 units in about 880 px): no text under 12
units; where it fits a phone's width its text (class ``minor``) is left out. Panels
are at most 380 units wide with no text under 13. Clickable parts carry
``data-target`` ids (README "Board ids"), a ``data-label`` and a ``<title>``.
"""

from __future__ import annotations

import functools
import math
from html import escape

from games.engines.i18n import _, ngettext
from games.engines.svg import (
    PANEL_W,
    board_set,
    hit_circle,
    hit_rect,
    panel,
    sentence,
    svg_open,
    target_open,
    wrap,
)
from games.engines.words import colour_name

from . import labels as L
from .board import BOARD
from .constants import BUILDING_COST, BUILDINGS, ROWS, SECTION_POINTS

SEAT_COLOURS = ("#2f6fd6", "#d63a2f", "#2f9e44", "#e0b000")
SEAT_NAMES = ("blue", "red", "green", "yellow")
DISTRICT_TINT = {"bag": "#f6e3c6", "barrel": "#e3eef8", "chest": "#f3dfe6", "vase": "#e2f1e0"}
DISTRICT_FILL = {"bag": "#d9a35f", "barrel": "#6f9fcf", "chest": "#c47a95", "vase": "#6fb36a"}
DISTRICT_DARK = {"bag": "#8a5a1c", "barrel": "#2d5c8c", "chest": "#7d3553", "vase": "#2f6e2b"}
FONT = 12  # the smallest text: 12 x 860/WIDTH = 11.6 px on the page
SCALE = 1.4  # board data units -> picture units
X0, Y0 = 30, 12  # board data origin (the content's top left)
BOARD_TOP = 40
WIDTH = 890
SHOP = 30


def _seat_name(p: int) -> str:
    return colour_name(SEAT_NAMES[p % 4])


def _t(x: float, y: float, text: str, size: int = FONT, anchor: str = "start", **extra) -> str:
    attrs = "".join(f' {k.replace("_", "-")}="{escape(str(v))}"' for k, v in extra.items())
    return (
        f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" '
        f'text-anchor="{anchor}"{attrs}>{escape(str(text))}</text>'
    )


def _xy(x: float, y: float) -> tuple[float, float]:
    return (x - X0) * SCALE, BOARD_TOP + (y - Y0) * SCALE


def _die(x: float, y: float, value: int, yellow: bool, gone: bool = False) -> str:
    fill = "#f5d142" if yellow else "#ffffff"
    extra = ' opacity="0.3"' if gone else ""
    return (
        f'<g{extra}><rect x="{x:.0f}" y="{y:.0f}" width="22" height="22" rx="4" fill="{fill}" '
        f'stroke="#333"/>'
        + _t(x + 11, y + 16, str(value), 14, "middle", font_weight="bold")
        + "</g>"
    )


@functools.cache
def _souk_tree(shops: tuple[int, ...]) -> list[tuple[int, int]]:
    """The shortest lines joining a souk's shops (Prim), drawn to show they belong together."""
    done, edges = [shops[0]], []
    while len(done) < len(shops):
        a, b = min(
            ((a, b) for a in done for b in shops if b not in done),
            key=lambda e: math.dist(BOARD.shop_xy[e[0]], BOARD.shop_xy[e[1]]),
        )
        edges.append((a, b))
        done.append(b)
    return edges


XMIN, XMAX, YMIN, YMAX = 30, 668, 12, 425  # the board's edges in data units


def _arm_cells(arm: str) -> list[tuple[int, int]]:
    cells = [
        (L.square_of(cid)[1], c)
        for c, cid in enumerate(BOARD.cell_ids)
        if L.square_of(cid)[0] == arm
    ]
    return [BOARD.cell_xy[c] for _k, c in sorted(cells)]


def _edge(arm: str, x: float, y: float) -> tuple[float, float]:
    return {"west": (XMIN, y), "east": (XMAX, y), "north": (x, YMIN), "south": (x, YMAX)}[arm]


@functools.cache  # the board never changes: computed once, not on every render
def _quadrants() -> list[tuple[str, list[tuple[float, float]], tuple[float, float, str]]]:
    """(district, polygon, name position) for the four quadrants of the street cross."""
    cx, cy = BOARD.cell_xy[BOARD.centre]
    corners = {
        ("west", "north"): (XMIN, YMIN),
        ("north", "east"): (XMAX, YMIN),
        ("east", "south"): (XMAX, YMAX),
        ("south", "west"): (XMIN, YMAX),
    }
    out = []
    for (a, b), corner in corners.items():
        arm_a, arm_b = _arm_cells(a), _arm_cells(b)
        pts = [_edge(a, *arm_a[-1]), *reversed(arm_a), (cx, cy), *arm_b, _edge(b, *arm_b[-1])]
        pts.append(corner)
        qx = -1 if corner[0] == XMIN else 1
        qy = -1 if corner[1] == YMIN else 1
        # the district whose shops lie in this quadrant
        district = max(
            BOARD.districts,
            key=lambda d: sum(
                1
                for shop, (x, y) in enumerate(BOARD.shop_xy)
                if BOARD.districts[BOARD.souk_district[BOARD.shop_souk[shop]]] == d
                and (x - cx) * qx > 0
                and (y - cy) * qy > 0
            ),
        )
        px, py = _xy(*corner)
        name = (px + 10 * -qx, py + (22 if qy < 0 else -10), "start" if qx < 0 else "end")
        out.append((district, [_xy(x, y) for x, y in pts], name))
    return out


@functools.cache
def _label_spot(k: int) -> tuple[float, float]:
    """Where a souk's name is least in the way: beside one of its shops, as far as
    possible from the streets and the other shops."""
    mine = set(BOARD.souk_shops[k])
    others = [_xy(*xy) for c, xy in enumerate(BOARD.cell_xy)]
    others += [_xy(*xy) for s, xy in enumerate(BOARD.shop_xy) if s not in mine]
    others += [(x, y) for s in mine for x, y in [_xy(*BOARD.shop_xy[s])]]
    best, best_score = (0.0, 0.0), -1.0
    for shop in BOARD.souk_shops[k]:
        x, y = _xy(*BOARD.shop_xy[shop])
        for dx, dy in ((0, -SHOP / 2 - 6), (0, SHOP / 2 + 16), (-70, 5), (70, 5)):
            lx, ly = x + dx, y + dy
            if not (60 < lx < WIDTH - 60 and ly > BOARD_TOP + 12):
                continue
            # the label is ~100 wide: sample along it
            score = min(
                math.hypot((lx + off - ox) / 1.0, (ly - 4 - oy) * 1.6)
                for off in (-45, -15, 15, 45)
                for ox, oy in others
            )
            if score > best_score:
                best, best_score = (lx, ly), score
    return best


def _board(obs: dict) -> list[str]:
    out = []
    owners = obs.get("shops", {})
    souks = {s["id"]: s for s in obs.get("souks", [])}
    # districts: the quadrants the two streets cut the board into, named in a corner
    for district, poly, corner in _quadrants():
        pts = " ".join(f"{x:.0f},{y:.0f}" for x, y in poly)
        out.append(
            f'<polygon points="{pts}" fill="{DISTRICT_TINT[district]}" '
            f'stroke="{DISTRICT_FILL[district]}" stroke-width="2"/>'
        )
        x, y, anchor = corner
        out.append(
            _t(
                x,
                y,
                L.district_name(district),
                15,
                anchor,
                fill=DISTRICT_DARK[district],
                font_weight="bold",
            )
        )
    # souks: shops joined by a band, then the shops, the cubes and the souk's name
    for k in range(len(BOARD.souk_ids)):
        district = BOARD.districts[BOARD.souk_district[k]]
        for a, b in _souk_tree(BOARD.souk_shops[k]):
            (xa, ya), (xb, yb) = _xy(*BOARD.shop_xy[a]), _xy(*BOARD.shop_xy[b])
            out.append(
                f'<line x1="{xa:.0f}" y1="{ya:.0f}" x2="{xb:.0f}" y2="{yb:.0f}" '
                f'stroke="{DISTRICT_FILL[district]}" stroke-width="12" stroke-linecap="round"/>'
            )
    for k, souk_id in enumerate(BOARD.souk_ids):
        district = BOARD.districts[BOARD.souk_district[k]]
        name = L.souk_name(souk_id)
        for shop in BOARD.souk_shops[k]:
            x, y = _xy(*BOARD.shop_xy[shop])
            sid = BOARD.shop_ids[shop]
            who = owners.get(sid)
            title = name if who is None else f"{name}: {_seat_name(who)}"
            cube = ""
            if who is not None:
                cube = (
                    f'<rect x="{x - 9:.0f}" y="{y - 9:.0f}" width="18" height="18" '
                    f'fill="{SEAT_COLOURS[who % 4]}" stroke="#fff" stroke-width="2"/>'
                )
            out.append(
                target_open(L.shop_target(sid), title)
                + hit_circle(x, y, SHOP / 2 + 2)
                + f'<rect x="{x - SHOP / 2:.0f}" y="{y - SHOP / 2:.0f}" width="{SHOP}" '
                f'height="{SHOP}" rx="3" fill="{DISTRICT_FILL[district]}" '
                f'stroke="{DISTRICT_DARK[district]}" stroke-width="2"/>{cube}</g>'
            )
    for k, souk_id in enumerate(BOARD.souk_ids):
        district = BOARD.districts[BOARD.souk_district[k]]
        info = souks.get(souk_id, {})
        letter = souk_id.rsplit("-", 1)[-1]
        text = _("{letter}: {points} pts, {filled}/{size}").format(
            letter=letter,
            points=BOARD.souk_points[k],
            filled=info.get("filled", 0),
            size=BOARD.souk_size[k],
        )
        x, y = _label_spot(k)
        out.append(
            _t(
                x,
                y,
                text,
                FONT,
                "middle",
                fill=DISTRICT_DARK[district],
                font_weight="bold",
                stroke="#fffdf7",
                stroke_width="3",
                paint_order="stroke",
            )
        )
    out += _streets(obs)
    return out


def _streets(obs: dict) -> list[str]:
    out = []
    cells = BOARD.cell_xy
    for a in range(len(cells)):
        for b in range(a + 1, len(cells)):
            if BOARD.dist[a][b] == 1:
                (xa, ya), (xb, yb) = _xy(*cells[a]), _xy(*cells[b])
                out.append(
                    f'<line x1="{xa:.0f}" y1="{ya:.0f}" x2="{xb:.0f}" y2="{yb:.0f}" '
                    f'stroke="#c8b48a" stroke-width="12" stroke-linecap="round"/>'
                )
    ends: dict[str, tuple[int, int]] = {}
    for c, cid in enumerate(BOARD.cell_ids):
        x, y = _xy(*cells[c])
        arm, k = L.square_of(cid)
        if arm != "centre" and k > ends.get(arm, (0, -1))[1]:
            ends[arm] = (c, k)
        label = "" if arm == "centre" else str(k)
        r = 15 if arm == "centre" else 12
        out.append(
            target_open(L.square_target(cid), L.square_name(cid))
            + hit_circle(x, y, 15)
            + f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{r}" fill="#fff8e8" stroke="#8a7a5a" '
            f'stroke-width="2"/>' + _t(x, y + 4, label, FONT, "middle", fill="#5a4a2a") + "</g>"
        )
    # the street names at their far ends
    for arm, (c, _k) in ends.items():
        x, y = _xy(*cells[c])
        dx, dy = {"west": (-16, 26), "east": (-30, -22), "north": (20, 4), "south": (20, 4)}[arm]
        anchor = "end" if arm == "west" else "start"
        if arm == "west":
            anchor, dx, dy = "start", -10, 32
        out.append(
            _t(x + dx, y + dy, L.street_name(arm), 13, anchor, fill="#5a4a2a", font_weight="bold")
        )
    sup = obs.get("supervisor")
    if sup in BOARD.cell_index:
        x, y = _xy(*cells[BOARD.cell_index[sup]])
        title = sentence(_("the supervisor"))
        out.append(
            target_open(L.SUPERVISOR_TARGET, title)
            + hit_circle(x, y, 18)
            + f'<circle cx="{x:.0f}" cy="{y:.0f}" r="16" fill="#222" stroke="#fff" '
            f'stroke-width="3"/>' + _t(x, y + 5, _("S"), 14, "middle", fill="#fff") + "</g>"
        )
    return out


PANEL_FONT = 13  # the smallest panel text: 13 x 369/380 = 12.6 px on a phone


def _lines(x: float, y: float, text: str, size: int, **extra) -> tuple[list[str], float]:
    """``text`` wrapped to the panel's width from baseline y; and the next baseline."""
    out = []
    for line in wrap(text, size, PANEL_W - x - 8):
        out.append(_t(x, y, line, size, **extra))
        y += size + 5
    return out, y


def _panel(cls: str, label: str, body: tuple[list[str], float]) -> str:
    return panel(cls, label, body, PANEL_W, "#fffdf7", 10)


def _row_label(row: dict, rolled: bool) -> str:
    name = sentence(L.row_name(row.get("row", "")))
    dice = row.get("white", 0) + row.get("yellow", 0)
    if row.get("taken"):
        return f"{name}: " + _("taken")
    if not rolled or not dice:
        return name
    text = ngettext("{row}: {n} die showing {value}", "{row}: {n} dice showing {value}", dice)
    return text.format(row=name, n=dice, value=row.get("value", 0))


def _tower(obs: dict, x0: float, top: float) -> tuple[list[str], float]:
    out = [_t(x0, top + 16, _("Dice tower"), 15, font_weight="bold")]
    rows = obs.get("tower", [])
    rolled = obs.get("rolled", True)
    step = 48  # rows' hit areas (44 px on a phone) never overlap
    for i, row in enumerate(reversed(rows)):
        y = top + 26 + i * step
        taken = row.get("taken")
        name = row.get("row", "")
        out.append(
            target_open(L.row_target(name), _row_label(row, rolled))
            + f'<rect x="{x0}" y="{y}" width="{PANEL_W - 2 * x0}" height="44" rx="4" '
            f'fill="{"#ccc" if taken else "#fbf6ea"}" stroke="#777"/>'
            + _t(x0 + 8, y + 19, L.row_name(name), PANEL_FONT, font_weight="bold")
            + _t(x0 + 8, y + 36, L.row_action(name), PANEL_FONT, fill="#555")
        )
        x = x0 + 190
        if rolled:
            for _k in range(row.get("white", 0)):
                out.append(_die(x, y + 11, row.get("value", 0), False))
                x += 25
            gone = not obs.get("yellow_active", True)
            for _k in range(row.get("yellow", 0)):
                out.append(_die(x, y + 11, row.get("value", 0), True, gone))
                x += 25
        if taken:
            out.append(_t(PANEL_W - x0 - 6, y + 27, _("taken"), PANEL_FONT, "end"))
        out.append("</g>")
    y = top + 26 + len(rows) * step + 16
    if not rolled:
        out.append(_t(x0, y, _("dice not rolled yet"), PANEL_FONT))
    elif obs.get("yellow_bought"):
        out.append(
            _t(
                x0,
                y,
                ngettext(
                    "{n} yellow die bought", "{n} yellow dice bought", obs["yellow_bought"]
                ).format(n=obs["yellow_bought"]),
                PANEL_FONT,
            )
        )
    return out, y


def _caravan(obs: dict, x0: float, top: float) -> tuple[list[str], float]:
    car = obs.get("caravan", {})
    per = max(1, car.get("per_section", 4))
    cubes = car.get("cubes", [])
    label = ngettext("Caravan: {n} cube", "Caravan: {n} cubes", len(cubes)).format(n=len(cubes))
    out = [
        target_open(L.CARAVAN_TARGET, label),
        _t(x0, top + 16, _("Caravan"), 15, font_weight="bold"),
    ]
    step = 22
    width = per * step + 8
    for section in range(3):
        sx = x0 + 4 + section * (width + 10)
        out.append(
            f'<rect x="{sx - 4}" y="{top + 24}" width="{width}" height="62" rx="5" '
            f'fill="#f7efdc" stroke="#b09a70"/>'
        )
        out.append(_t(sx, top + 40, _("section {n}").format(n=section + 1), PANEL_FONT))
        pts = SECTION_POINTS[section]
        out.append(_t(sx, top + 80, _("{n} pt each").format(n=pts), PANEL_FONT, fill="#555"))
        for i in range(per):
            space = section * per + i
            x = sx + i * step
            y = top + 46
            out.append(
                f'<rect x="{x}" y="{y}" width="19" height="19" fill="#efe3c8" stroke="#8a7a5a"/>'
            )
            if space < len(cubes):
                out.append(
                    f'<rect x="{x + 2}" y="{y + 2}" width="15" height="15" '
                    f'fill="{SEAT_COLOURS[cubes[space] % 4]}" stroke="#111"/>'
                )
    out.append("</g>")
    return out, top + 90


def _decision(obs: dict, x0: float, top: float) -> tuple[list[str], float]:
    d = obs.get("decision")
    if not d:
        return [_t(x0, top, _("game over"), 15, font_weight="bold")], top + 20
    stages = {
        "yellow": _("buy yellow dice, then roll"),
        "row": _("choose a row of the tower"),
        "action": _("supervisor, the row's action or a card"),
        "boost": _("discard cards for +1, or go"),
        "place": _("place cubes"),
        "move": _("move the supervisor"),
        "first": _("who sends to the caravan first"),
        "send": _("send a cube to the caravan"),
        "build": _("build or pass"),
        "end": _("play a card or end the turn"),
    }
    stage = stages.get(d.get("stage"), _("play a card"))
    lines = [
        _("{seat} to decide: {what}").format(seat=_seat_name(d.get("seat", 0)).title(), what=stage)
    ]
    if "row" in d:
        lines.append(
            ngettext(
                "{row}: {n} die, +{boost}", "{row}: {n} dice, +{boost}", d.get("row_value", 0)
            ).format(row=L.row_name(d["row"]), n=d.get("row_value", 0), boost=d.get("boost", 0))
        )
    if "remaining" in d:
        lines.append(
            ngettext(
                "{n} cube for the {district}", "{n} cubes for the {district}", d["remaining"]
            ).format(n=d["remaining"], district=L.district_name(d.get("district", "")))
        )
    for send in d.get("sends", []):
        lines.append(
            _("send: {souk} ({seat})").format(
                souk=L.souk_name(L.shop_souk(send["shop"])), seat=_seat_name(send["seat"])
            )
        )
    out = []
    y = top
    for i, line in enumerate(lines):
        size = 15 if i == 0 else PANEL_FONT
        parts, y = _lines(x0, y, line, size, fill="#b71c1c" if i == 0 else "#222")
        out += parts
    return out, y


def _key(obs: dict, x0: float, top: float) -> tuple[list[str], float]:
    out = [_t(x0, top + 16, _("Key"), 15, font_weight="bold")]
    y = top + 36
    for i, district in enumerate(BOARD.districts):
        x = x0 + (i % 2) * 170
        yy = y + (i // 2) * 20
        out.append(
            f'<rect x="{x}" y="{yy - 12}" width="14" height="14" fill="{DISTRICT_FILL[district]}" '
            f'stroke="{DISTRICT_DARK[district]}"/>'
        )
        out.append(_t(x + 19, yy, L.district_name(district), PANEL_FONT))
    y += 46
    for text in (_("souk: letter, points, filled/shops"), _("S: the supervisor")):
        parts, y = _lines(x0, y, text, PANEL_FONT)
        out += parts
    y += 6
    parts, y = _lines(x0, y, _("Buildings (cost camels + gold):"), PANEL_FONT, font_weight="bold")
    out += parts
    for b, name in enumerate(BUILDINGS):
        camels, gold = BUILDING_COST[b]
        what = _(L.BUILDING_LABELS[name])
        parts, y = _lines(x0, y, f"{b + 1}: {what} ({camels} + {gold})", PANEL_FONT, fill="#333")
        out += parts
    return out, y - 8


def _player(obs: dict, pl: dict, i: int) -> tuple[list[str], float]:
    seat = obs.get("seat")
    decision = obs.get("decision") or {}
    p = pl.get("seat", i)
    colour = SEAT_COLOURS[p % 4]
    hand = pl.get("hand") or {}
    mark = " " + _("(you)") if p == seat else ""
    if decision.get("seat") == p:
        mark += "  \u25c0 " + _("to decide")
    out = [f'<rect x="8" y="9" width="18" height="18" fill="{colour}"/>']
    name = _("Seat {seat} ({colour})").format(seat=p + 1, colour=_seat_name(p))
    parts, y = _lines(32, 24, name + mark, 15, font_weight="bold")
    out += parts
    vp, gold, camels, cards = (pl.get(k, 0) for k in ("vp", "gold", "camels", "cards"))
    text = " · ".join(
        [
            ngettext("{n} point", "{n} points", vp).format(n=vp),
            ngettext("{n} gold", "{n} gold", gold).format(n=gold),
            ngettext("{n} camel", "{n} camels", camels).format(n=camels),
            ngettext("{n} card", "{n} cards", cards).format(n=cards),
        ]
    )
    parts, y = _lines(8, y + 2, " ".join(text.split()), 14)
    out += parts
    built = set(pl.get("buildings", []))
    out.append(_t(8, y + 14, _("buildings"), PANEL_FONT))
    bx0 = 100
    for b, bname in enumerate(BUILDINGS):
        x = bx0 + b * 46
        on = bname in built
        body = (
            f'<rect x="{x}" y="{y - 4}" width="36" height="30" rx="3" '
            f'fill="{colour if on else "#eee"}" stroke="#555"/>'
            + _t(x + 18, y + 16, str(b + 1), 15, "middle", font_weight="bold")
        )
        label = L.building_name(bname)
        if on:
            label += ": " + _("built")
        if p == seat:
            label = sentence(label)
            out.append(
                target_open(L.building_target(bname), label)
                + hit_rect(x + 18, y + 11, 46, 46)
                + body
                + "</g>"
            )
        else:
            out.append(f"<g><title>{escape(label)}</title>{body}</g>")
    y += 48
    if p == seat and hand:
        out.append(_t(8, y + 4, _("hand:"), PANEL_FONT))
        y += 16
        x = 8
        for card, k in hand.items():
            text = L.card_name(card) + (f" \u00d7{k}" if k > 1 else "")
            w = round(16 + 7.2 * len(text))
            if x + w > PANEL_W - 8 and x > 8:
                x, y = 8, y + 48
            label = _("Card: {card}").format(card=text)
            out.append(
                target_open(L.hand_target(card), label)
                + hit_rect(x + w / 2, y + 15, w + 4, 46)
                + f'<rect x="{x}" y="{y + 2}" width="{w}" height="26" rx="4" fill="#fff" '
                f'stroke="#8a5a1c" stroke-width="2"/>'
                + _t(x + w / 2, y + 20, text, PANEL_FONT, "middle")
                + "</g>"
            )
            x += w + 6
        y += 44  # room for the cards' hit areas inside the picture
    frame = (
        f'<rect x="2" y="2" width="{PANEL_W - 4}" height="{y - 4}" rx="5" fill="none" '
        f'stroke="{colour}" stroke-width="{3 if p == seat else 2}" pointer-events="none"/>'
    )
    return [*out, frame], y - 8


def render_svg(obs: dict) -> str:
    board_bottom = BOARD_TOP + (425 - Y0) * SCALE
    week, day = obs.get("week", "?"), obs.get("day", "?")
    header = _("Yspahan - week {week}, day {day}").format(week=week, day=day)
    if obs.get("over"):
        header += " - " + _("game over")
    else:
        header += " - " + _("start player: {colour}").format(
            colour=_seat_name(obs.get("start_player", 0))
        )
    # the decision and the tower first: the first legal parts of most decisions
    own, y = _lines(8, 22, header, 15, font_weight="bold")
    parts, y = _decision(obs, 8, y + 4)
    own += parts
    tower, y = _tower(obs, 8, y)
    own += tower
    pictures = [_panel("board-own", _("The decision and the dice tower"), (own, y))]
    players = obs.get("players", [])
    seat = obs.get("seat")
    for i, pl in enumerate(players):
        if pl.get("seat", i) == seat:
            pictures.append(_panel("board-you", _("Your board"), _player(obs, pl, i)))
    top = BOARD_TOP - 8
    height = board_bottom - top
    map_body = [
        svg_open(WIDTH, height, "board-map", _("The board"), top),
        f'<rect y="{top}" width="{WIDTH}" height="{height:.0f}" fill="#f3ead8"/>',
        *_board(obs),
        "</svg>",
    ]
    # every map text is "minor": left out where the map fits a phone's width
    pictures.append("\n".join(map_body).replace("<text ", '<text class="minor" '))
    table, y = _caravan(obs, 8, 4)
    deck_y = y + 10
    deck = _("deck {n}").format(n=obs.get("deck", 0))
    table.append(
        target_open(L.DECK_TARGET, sentence(deck))
        + hit_rect(68, deck_y + 15, 120, 46)
        + f'<rect x="8" y="{deck_y}" width="120" height="30" rx="4" fill="#5d4037"/>'
        + _t(68, deck_y + 20, deck, 14, "middle", fill="#fff")
        + "</g>"
    )
    played = sum(obs.get("discard", {}).values())
    table.append(
        _t(
            140,
            deck_y + 20,
            ngettext("{n} card played", "{n} cards played", played).format(n=played),
            PANEL_FONT,
        )
    )
    pictures.append(_panel("board-table", _("Caravan and deck"), (table, deck_y + 34)))
    for i, pl in enumerate(players):
        if pl.get("seat", i) != seat:
            label = _("Seat {seat}").format(seat=pl.get("seat", i) + 1)
            pictures.append(_panel("board-player", label, _player(obs, pl, i)))
    pictures.append(_panel("board-key", _("Key"), _key(obs, 8, 0)))
    return board_set("yspahan", pictures)


__all__ = ["ROWS", "render_svg"]
