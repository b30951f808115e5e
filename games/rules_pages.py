"""The "Learn the game" pages: one rules page per registered game, in the reader's language.

The prose lives in per-language templates (``games/rules/<game>.<lang>.html``, English
when a language has none). Beside it the page shows a demo board: a fresh seeded game drawn
by the engine's own ``render_svg`` from the public observation (seat None, as a spectator
sees a match), with numbered markers on the parts the page's legend names. Nothing of a
real match is read.
"""

from __future__ import annotations

import functools
import random
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from django.http import Http404
from django.shortcuts import render
from django.template import TemplateDoesNotExist
from django.template.loader import select_template
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from games.engines import i18n as engine_i18n
from games.engines.registry import ENGINES

SVG_NS = "{http://www.w3.org/2000/svg}"
DEMO_PLAYERS = 3
DEMO_SEED = 11

# What each legend number points at, in the legend's order (the templates' <ol> items):
# ("id", a board id, or "prefix:" for the first one so named: ids are stable, see the
# engines' README "Board ids"); ("text", engine msgid: the first <text> starting with its
# words up to the first placeholder); ("text=", msgid: the whole text, a placeholder
# standing for one word); ("row", msgid: that text and what follows it on its line);
# ("title", msgid: the first part whose tooltip starts so). The engine's own words keep
# the markers in the board's language.
CALLOUTS: dict[str, list[tuple[str, str]]] = {
    "silkroad": [
        ("id", "city:tashkent"),
        ("id", "village:v22"),
        ("title", "signpost to {city}#4"),
        ("id", "caravan:3"),
        ("id", "gem:"),
        ("row", "Caravanserai:"),
        ("text", "colourless gems {c}, 8-point tokens {t}, gems in the bag {b}"),
        ("id", "display:"),
        ("id", "deck"),
        ("text=", "Seat {seat}"),
        ("text", "Key"),
    ],
    "yspahan": [
        ("text", "Yspahan - week {week}, day {day}"),
        ("text", "Bag district"),
        ("id", "shop:vase-C-0"),
        ("id", "square:west-5"),
        ("id", "supervisor"),
        ("text", "Dice tower"),
        ("text", "Caravan"),
        ("id", "deck"),
        ("text", "Seat {seat} ({colour})"),
        ("text", "Key"),
    ],
    "greatwall": [
        ("id", "village:d2"),
        ("id", "village:d5"),
        ("id", "wall:a3/a4"),
        ("id", "wall:c1/c2"),
        ("id", "scout:2"),
        ("title", "face down#2"),
        ("id", "supply:wall"),
        ("text", "walls {w}, chips {c}, bag {b}, lost {l}"),
        ("text", "Key"),
    ],
}


def _demo_state(game: str):
    """A fresh seeded game, moved on to where its board shows something to name: Yspahan's
    dice rolled, the Great Wall's starting chips and scouts laid (deterministic choices)."""
    engine = ENGINES[game]
    state = engine.new_game(players=DEMO_PLAYERS, seed=DEMO_SEED)
    picks = random.Random(DEMO_SEED)
    for _ in range(40):  # a bound, in case an engine's setup grows
        actions = engine.legal_actions(state)
        kinds = {a.get("type") for a in actions}
        if game == "yspahan" and "yellow" in kinds:
            state = engine.apply(state, {"type": "yellow", "count": 0})
        elif game == "greatwall" and kinds <= {"setup", "scout"} and actions:
            state = engine.apply(state, picks.choice(actions))
        else:
            break
    return engine, state


@dataclass
class _Box:
    x0: float
    y0: float
    x1: float
    y1: float

    def add(self, other: _Box | None) -> _Box:
        if other is None:
            return self
        return _Box(
            min(self.x0, other.x0), min(self.y0, other.y0),
            max(self.x1, other.x1), max(self.y1, other.y1),
        )  # fmt: skip


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _f(el, name: str, default: float = 0.0) -> float:
    try:
        return float(el.get(name, default))
    except ValueError:
        return default


def _own_box(el, dx: float, dy: float) -> _Box | None:
    """The element's own extent (shapes and text; good enough to pin a marker to)."""
    tag = el.tag.removeprefix(SVG_NS)
    if "hit" in el.get("class", "").split():  # an invisible click area, wider than the part
        return None
    if tag == "circle":
        cx, cy, r = _f(el, "cx"), _f(el, "cy"), _f(el, "r")
        return _Box(cx - r + dx, cy - r + dy, cx + r + dx, cy + r + dy)
    if tag == "rect":
        x, y = _f(el, "x") + dx, _f(el, "y") + dy
        return _Box(x, y, x + _f(el, "width"), y + _f(el, "height"))
    if tag == "line":
        xs, ys = (_f(el, "x1"), _f(el, "x2")), (_f(el, "y1"), _f(el, "y2"))
        return _Box(min(xs) + dx, min(ys) + dy, max(xs) + dx, max(ys) + dy)
    if tag in {"path", "polygon", "polyline"}:
        nums = [float(n) for n in _NUMBER.findall(el.get("d") or el.get("points") or "")]
        if len(nums) < 2:
            return None
        xs, ys = nums[0::2], nums[1::2]
        return _Box(min(xs) + dx, min(ys) + dy, max(xs) + dx, max(ys) + dy)
    if tag == "text":
        size = _f(el, "font-size", 14)
        lines = [("".join(t.itertext())) for t in el.findall(f"{SVG_NS}tspan")] or [
            "".join(el.itertext())
        ]
        width = 0.56 * size * max(len(line) for line in lines)
        x, y = _f(el, "x") + dx, _f(el, "y") + dy
        shift = {"middle": width / 2, "end": width}.get(el.get("text-anchor", ""), 0)
        return _Box(x - shift, y - size, x - shift + width, y)
    return None


def _translate(el) -> tuple[float, float]:
    m = re.search(r"translate\(\s*(-?[\d.]+)[ ,]+(-?[\d.]+)", el.get("transform", ""))
    return (float(m.group(1)), float(m.group(2))) if m else (0.0, 0.0)


def _box(el, dx: float = 0.0, dy: float = 0.0) -> _Box | None:
    tx, ty = _translate(el)
    dx, dy = dx + tx, dy + ty
    box = _own_box(el, dx, dy)
    for child in el:
        inner = _box(child, dx, dy)
        box = inner if box is None else box.add(inner)
    return box


def _pattern(msgid: str, whole: bool) -> re.Pattern:
    """The engine's words for msgid in the current language as a pattern: up to its first
    placeholder (a long text may be wrapped over several lines), or ``whole``, with each
    placeholder standing for one word or number."""
    parts = re.split(r"\{[^}]*\}", engine_i18n._(msgid))
    if not whole and parts[0].strip():
        return re.compile(re.escape(parts[0].strip()))
    return re.compile(r"\S+".join(re.escape(p) for p in parts) + "$")


def _walk(svg):
    """Every element of a picture in document order, with the translation it is drawn at."""
    stack = [(svg, 0.0, 0.0)]
    while stack:
        el, dx, dy = stack.pop(0)
        yield el, dx, dy
        tx, ty = _translate(el)
        stack[:0] = [(child, dx + tx, dy + ty) for child in el]


def _find(svg, kind: str, key: str):
    """(element, its translate offset) of the first part of this picture matching the spec
    (the n-th with "#n" after the key)."""
    key, _hash, nth = key.partition("#")
    skip = int(nth) - 1 if nth else 0
    words = _pattern(key, kind.endswith("=")) if kind != "id" else None
    kind = "text" if kind in {"text=", "row"} else kind
    for el, dx, dy in _walk(svg):
        tag = el.tag.removeprefix(SVG_NS)
        target = el.get("data-target", "")
        found = False
        if kind == "id" and target:
            found = target == key or (key.endswith(":") and target.startswith(key))
        elif kind == "text" and tag == "text":
            found = bool(words.match("".join(el.itertext()).strip()))
        elif kind == "title" and tag != "title":
            title = el.find(f"{SVG_NS}title")
            found = title is not None and bool(words.match((title.text or "").strip()))
        if found:
            if not skip:
                return el, dx, dy
            skip -= 1
    return None


def _row(svg, label: _Box) -> _Box:
    """A label with the parts after it on its line (a queue of boxes, say): the marker goes
    at the end of the row, not over them."""
    out = label
    for el, dx, dy in _walk(svg):
        if el.tag.removeprefix(SVG_NS) not in {"rect", "circle", "text"}:
            continue
        box = _own_box(el, dx, dy)
        # (the label's width is estimated, so a box may seem to start inside it)
        if box is None or box.x0 < (label.x0 + label.x1) / 2 or box.x0 > out.x1 + 40:
            continue
        if box.y0 < label.y1 and box.y1 > label.y0 and box.y1 - box.y0 < 3 * (label.y1 - label.y0):
            out = out.add(_Box(box.x0, label.y0, box.x1, label.y1))
    return out


def _view_box(svg) -> tuple[float, float, float, float]:
    nums = [float(n) for n in _NUMBER.findall(svg.get("viewBox", ""))]
    if len(nums) == 4:
        return nums[0], nums[1], nums[2], nums[3]
    return 0.0, 0.0, _f(svg, "width", 1000), _f(svg, "height", 1000)


def _marker(n: int, box: _Box, view: tuple[float, float, float, float], after: bool) -> str:
    """A numbered disc at a part's top left corner, or just after a label's words (over
    their first letters it would hide the very name the legend explains)."""
    vx, vy, vw, vh = view
    # Sized by the picture's width, so a marker on the 1000-unit map reads on a phone
    # (drawn at about a third) as well as one on a 380-unit panel (drawn about 1:1).
    size = max(14.0, vw * 0.032)
    r = size * 0.8
    leader = ""
    if after:
        x, y = box.x1 + r + 2, (box.y0 + box.y1) / 2 + 1
    elif box.x1 - box.x0 < 1.5 * r and box.y1 - box.y0 < 1.5 * r:
        # A small part: the marker stands off, with a line to it, so the part stays visible.
        px, py = (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2
        x, y = px - r * 1.9, py - r * 1.9
        leader = (
            f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{px:.1f}" y2="{py:.1f}" stroke="#4a148c" '
            f'stroke-width="{r / 6:.1f}"/>'
        )
    else:
        x, y = box.x0 - r * 0.4, box.y0 - r * 0.4
    x = min(max(x, vx + r + 1), vx + vw - r - 1)
    y = min(max(y, vy + r + 1), vy + vh - r - 1)
    return (
        f'<g class="rules-callout" aria-hidden="true">{leader}<circle cx="{x:.1f}" cy="{y:.1f}" '
        f'r="{r:.1f}" fill="#4a148c" stroke="#fff" stroke-width="{r / 6:.1f}"/>'
        f'<text x="{x:.1f}" y="{y + size * 0.36:.1f}" font-size="{size:.0f}" '
        f'text-anchor="middle" fill="#fff" font-weight="bold">{n}</text></g>'
    )


def with_callouts(board: str, specs: list[tuple[str, str]]) -> tuple[str, int]:
    """The board with a numbered marker on each part of ``specs`` that it has, and how many
    it placed. The engine's markup is kept as it is: markers go in before the closing tag
    of the picture they belong to (a board may be one <svg> or a set of them)."""
    try:
        root = ET.fromstring(f"<root>{board}</root>")
    except ET.ParseError:
        return board, 0
    svgs = [el for el in root.iter(f"{SVG_NS}svg")]
    ends = [m.start() for m in re.finditer(r"</svg>", board)]
    if not svgs or len(svgs) != len(ends):  # nested pictures: no safe place to insert
        return board, 0
    extra: dict[int, list[str]] = {}
    for n, (kind, key) in enumerate(specs, start=1):
        for i, svg in enumerate(svgs):
            found = _find(svg, kind, key)
            if found is None:
                continue
            el, dx, dy = found
            box = _box(el, dx, dy)
            if box is not None and kind == "row":
                box = _row(svg, box)
            if box is not None:
                marker = _marker(n, box, _view_box(svg), after=kind in {"text", "text=", "row"})
                extra.setdefault(i, []).append(marker)
            break
    out, last = [], 0
    for i, end in enumerate(ends):
        out.append(board[last:end])
        out.extend(extra.get(i, []))
        last = end
    out.append(board[last:])
    return "".join(out), sum(len(v) for v in extra.values())


@functools.lru_cache(maxsize=16)
def demo_board(game: str, language: str) -> tuple[str, int]:
    """The demo board with its markers, per game and language: the caller's language is
    the engines' too (games.i18n's middleware sets both), so it keys the cache."""
    engine, state = _demo_state(game)
    return with_callouts(engine.render_svg(engine.observation(state, None)), CALLOUTS.get(game, []))


def game_rules(request, game: str):
    engine = ENGINES.get(game)
    if engine is None:
        raise Http404("No such game.")
    language = (get_language() or "en").split("-")[0]
    # The game's prose in the reader's language, English where there is none.
    try:
        content = select_template(
            [f"games/rules/{game}.{language}.html", f"games/rules/{game}.en.html"]
        )
    except TemplateDoesNotExist:
        raise Http404("This game has no rules page yet.") from None
    board, markers = demo_board(game, language)
    return render(request, content.template.name, {
        "engine": engine,
        "game": game,
        "board": mark_safe(board),  # our engine's own picture of a fresh demo game
        "markers": markers,
        "other_games": [e for slug, e in sorted(ENGINES.items()) if slug != game],
    })  # fmt: skip
