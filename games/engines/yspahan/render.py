"""An SVG picture of an observation: board with souks, cubes and the supervisor,
the dice tower, the caravan, the players' boards and the time track.

Self-contained (no external fonts, images or scripts); drawn only from the
observation, so it never shows more than the viewer may know.
"""

from __future__ import annotations

from html import escape

from .board import BOARD
from .constants import BUILDINGS, ROWS

SEAT_COLOURS = ("#2f6fd6", "#d63a2f", "#2f9e44", "#e0b000")
SEAT_NAMES = ("blue", "red", "green", "yellow")
DISTRICT_FILL = {"bag": "#e9d8b4", "barrel": "#d9c2a0", "chest": "#cfd9b8", "vase": "#d8c8dc"}
SOUK_TINTS = ("#b5651d", "#6a8caf", "#8f6bb3", "#4f9d69")
BOARD_W, BOARD_H = BOARD.frame
TOWER_X = BOARD_W + 20
WIDTH = TOWER_X + 260
SHOP = 22


def _t(x: float, y: float, text: str, size: int = 12, anchor: str = "start", **extra: str) -> str:
    attrs = "".join(f' {k.replace("_", "-")}="{escape(str(v))}"' for k, v in extra.items())
    return (
        f'<text x="{x:.0f}" y="{y:.0f}" font-family="sans-serif" font-size="{size}" '
        f'text-anchor="{anchor}"{attrs}>{escape(str(text))}</text>'
    )


def _die(x: float, y: float, value: int, yellow: bool, gone: bool = False) -> str:
    fill = "#f5d142" if yellow else "#ffffff"
    extra = ' opacity="0.3"' if gone else ""
    return (
        f'<g{extra}><rect x="{x:.0f}" y="{y:.0f}" width="18" height="18" rx="3" fill="{fill}" '
        f'stroke="#333"/>' + _t(x + 9, y + 14, str(value), 11, "middle") + "</g>"
    )


def _board(obs: dict) -> list[str]:
    out = [f'<rect x="0" y="30" width="{BOARD_W}" height="{BOARD_H}" fill="#f3ead8"/>']
    owners = obs.get("shops", {})
    souk_info = {s["id"]: s for s in obs.get("souks", [])}
    label_done: set[str] = set()
    for k, souk_id in enumerate(BOARD.souk_ids):
        district = BOARD.districts[BOARD.souk_district[k]]
        tint = SOUK_TINTS[k % len(SOUK_TINTS)]
        for shop in BOARD.souk_shops[k]:
            x, y = BOARD.shop_xy[shop]
            y += 30
            sid = BOARD.shop_ids[shop]
            out.append(
                f'<rect x="{x - SHOP / 2:.0f}" y="{y - SHOP / 2:.0f}" width="{SHOP}" '
                f'height="{SHOP}" fill="{DISTRICT_FILL.get(district, "#ddd")}" stroke="{tint}" '
                f'stroke-width="3"><title>{escape(sid)}</title></rect>'
            )
            who = owners.get(sid)
            if who is not None:
                out.append(
                    f'<rect x="{x - 7}" y="{y - 7}" width="14" height="14" '
                    f'fill="{SEAT_COLOURS[who % 4]}" stroke="#111"/>'
                )
            if souk_id not in label_done:
                label_done.add(souk_id)
                info = souk_info.get(souk_id, {})
                filled = info.get("filled", 0)
                out.append(
                    _t(
                        x,
                        y - SHOP / 2 - 3,
                        f"{souk_id} {BOARD.souk_points[k]}p {filled}/{BOARD.souk_size[k]}",
                        9,
                        "middle",
                        fill=tint,
                    )
                )
    for a, (xa, ya) in enumerate(BOARD.cell_xy):
        for b in range(a + 1, len(BOARD.cell_xy)):
            if BOARD.dist[a][b] == 1:
                xb, yb = BOARD.cell_xy[b]
                out.append(
                    f'<line x1="{xa}" y1="{ya + 30}" x2="{xb}" y2="{yb + 30}" '
                    f'stroke="#c8b48a" stroke-width="8" stroke-linecap="round"/>'
                )
    for c, (x, y) in enumerate(BOARD.cell_xy):
        out.append(
            f'<circle cx="{x}" cy="{y + 30}" r="7" fill="#fff8e8" stroke="#8a7a5a">'
            f"<title>{escape(BOARD.cell_ids[c])}</title></circle>"
        )
    sup = obs.get("supervisor")
    if sup in BOARD.cell_index:
        x, y = BOARD.cell_xy[BOARD.cell_index[sup]]
        out.append(
            f'<circle cx="{x}" cy="{y + 30}" r="10" fill="#ffffff" stroke="#000" '
            f'stroke-width="3"><title>supervisor</title></circle>'
        )
    return out


def _tower(obs: dict) -> list[str]:
    out = [_t(TOWER_X, 48, "Tower", 14, font_weight="bold")]
    rows = obs.get("tower", [])
    rolled = obs.get("rolled", True)
    for i, row in enumerate(reversed(rows)):
        y = 58 + i * 38
        taken = row.get("taken")
        out.append(
            f'<rect x="{TOWER_X}" y="{y}" width="240" height="32" rx="4" '
            f'fill="{"#ccc" if taken else "#fbf6ea"}" stroke="#777"/>'
        )
        out.append(_t(TOWER_X + 6, y + 20, row.get("row", ""), 11))
        x = TOWER_X + 62
        if rolled:
            for _ in range(row.get("white", 0)):
                out.append(_die(x, y + 7, row.get("value", 0), False))
                x += 20
            gone = not obs.get("yellow_active", True)
            for _ in range(row.get("yellow", 0)):
                out.append(_die(x, y + 7, row.get("value", 0), True, gone))
                x += 20
        if taken:
            out.append(_t(TOWER_X + 234, y + 20, "taken", 10, "end"))
    y = 58 + 6 * 38 + 8
    if not rolled:
        out.append(_t(TOWER_X, y, "dice not rolled yet", 11))
    elif obs.get("yellow_bought"):
        out.append(_t(TOWER_X, y, f"{obs['yellow_bought']} yellow dice bought", 11))
    return out


def _caravan(obs: dict, top: float) -> list[str]:
    car = obs.get("caravan", {})
    per = max(1, car.get("per_section", 4))
    cubes = car.get("cubes", [])
    out = [_t(TOWER_X, top, "Caravan", 14, font_weight="bold")]
    for section in range(3):
        out.append(_t(TOWER_X + section * (per * 19 + 8), top + 16, f"section {section + 1}", 9))
        for i in range(per):
            space = section * per + i
            x = TOWER_X + section * (per * 19 + 8) + i * 19
            y = top + 22
            out.append(
                f'<rect x="{x}" y="{y}" width="17" height="17" fill="#efe3c8" stroke="#8a7a5a"/>'
            )
            if space < len(cubes):
                out.append(
                    f'<rect x="{x + 3}" y="{y + 3}" width="11" height="11" '
                    f'fill="{SEAT_COLOURS[cubes[space] % 4]}" stroke="#111"/>'
                )
    return out


def _players(obs: dict, top: float) -> list[str]:
    out = []
    seat = obs.get("seat")
    decision = obs.get("decision") or {}
    for i, pl in enumerate(obs.get("players", [])):
        p = pl.get("seat", i)
        y = top + i * 56
        colour = SEAT_COLOURS[p % 4]
        mark = " (you)" if p == seat else ""
        if decision.get("seat") == p:
            mark += "  \u25c0 to decide"
        out.append(
            f'<rect x="0" y="{y}" width="{WIDTH}" height="50" fill="#fbf8f0" stroke="{colour}" '
            f'stroke-width="2"/>'
        )
        out.append(f'<rect x="8" y="{y + 8}" width="16" height="16" fill="{colour}"/>')
        out.append(
            _t(
                32,
                y + 21,
                f"Seat {p} ({SEAT_NAMES[p % 4]}){mark}",
                13,
                font_weight="bold",
            )
        )
        out.append(
            _t(
                32,
                y + 41,
                f"{pl.get('vp', 0)} points   {pl.get('gold', 0)} gold   "
                f"{pl.get('camels', 0)} camels   {pl.get('cards', 0)} cards",
                12,
            )
        )
        hand = pl.get("hand")
        if hand:
            text = ", ".join(f"{k} x{v}" if v > 1 else k for k, v in hand.items())
            out.append(_t(420, y + 41, f"hand: {text}", 11))
        built = set(pl.get("buildings", []))
        for b, name in enumerate(BUILDINGS):
            x = 420 + b * 34
            on = name in built
            out.append(
                f'<rect x="{x}" y="{y + 6}" width="28" height="20" rx="3" '
                f'fill="{colour if on else "#eee"}" stroke="#555"><title>{escape(name)}</title>'
                f"</rect>"
            )
            out.append(_t(x + 14, y + 20, str(b + 1), 11, "middle"))
    return out


def _decision(obs: dict, top: float) -> list[str]:
    d = obs.get("decision")
    if not d:
        return []
    lines = [f"seat {d.get('seat')}: {d.get('stage')}"]
    if "row" in d:
        lines.append(f"row {d['row']} ({d.get('row_value', 0)} dice, +{d.get('boost', 0)})")
    if "remaining" in d:
        lines.append(f"{d['remaining']} cube(s) for {d.get('district')}")
    for send in d.get("sends", []):
        lines.append(f"send: {send['shop']} (seat {send['seat']})")
    return [_t(TOWER_X, top + 14 * i, line, 11) for i, line in enumerate(lines)]


def render_svg(obs: dict) -> str:
    n = len(obs.get("players", []))
    caravan_top = 58 + 6 * 38 + 40
    players_top = 30 + BOARD_H + 12
    height = players_top + n * 56 + 8
    header = f"Yspahan - week {obs.get('week', '?')}, day {obs.get('day', '?')}"
    if obs.get("over"):
        header += " - game over"
    else:
        decision = obs.get("decision") or {}
        header += (
            f" - start player: seat {obs.get('start_player', '?')}; "
            f"seat {decision.get('seat', '?')} to decide ({decision.get('stage', '?')})"
        )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}">',
        f'<rect width="{WIDTH}" height="{height}" fill="#fffdf7"/>',
        _t(8, 20, header, 15, font_weight="bold"),
        _t(
            WIDTH - 8,
            20,
            f"deck {obs.get('deck', 0)}, played {sum(obs.get('discard', {}).values())}",
            11,
            "end",
        ),
    ]
    parts += _board(obs)
    parts += _tower(obs)
    parts += _caravan(obs, caravan_top)
    parts += _decision(obs, caravan_top + 62)
    parts += _players(obs, players_top)
    parts.append("</svg>")
    return "\n".join(parts)


__all__ = ["ROWS", "render_svg"]
