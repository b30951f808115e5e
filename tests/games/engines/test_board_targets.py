"""Playing on the board (docs/architecture.md, "Playing on the board"), for every engine:

* every legal action's ``action_targets`` are drawn as ``data-target`` elements
  in the SVG of the acting seat's observation;
* clicking through an action's targets, then its non-board choice, names
  exactly that action;
* the board is readable at the match page's size (no text under 11 px): the map at
  its width on a 1280 px laptop, its text that a phone shows at 369 px, the panels
  (at most 380 units wide) at the narrower of their laptop and phone widths;
* every clickable part names itself: a ``data-label`` and a ``<title>`` with the same words;
* labels and describe() never show internal identifiers.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from games.engines.i18n import reset_language, set_language
from games.engines.registry import ENGINES, get_engine
from games.engines.silkroad.engine import SilkRoadEngine
from games.engines.testkit import ContractViolation, check_board_targets
from tests.games.engines.board_helpers import find_state

SLUGS = sorted(ENGINES)
LOCALE = Path(__file__).resolve().parents[3] / "locale"
POSITIONS = 30
BOARD_PX = 880  # the board's box on a 1280 px wide match page
PHONE_PX = 369  # ... and on a 390 px phone
# each picture's width on screen at 1280 px (site.css, ".board-set"): Silk Road's and
# Yspahan's maps take the board's width and their panels pair up; the Great Wall's map
# and panels share it 1.6 : 1
MAP_PX = {"silkroad": BOARD_PX, "yspahan": BOARD_PX, "greatwall": 538}
PANEL_PX = {"silkroad": 436, "yspahan": 436, "greatwall": 334}
MIN_PX = 11
SVG = "{http://www.w3.org/2000/svg}"

# Internal identifiers that must never reach a reader: snake_case words, Python
# reprs, and each engine's own id patterns.
RAW = [re.compile(r"\b[a-z]+_[a-z0-9_]+\b"), re.compile(r"[{}\[\]']\s*\w+'")]
ENGINE_RAW = {
    "silkroad": [re.compile(r"\bv\d\d\b"), re.compile(r"\b(changan|byzanz|samarkand)\b")],
    "yspahan": [
        re.compile(r"\bs\d{1,2}\b"),
        re.compile(r"\b(bag|barrel|chest|vase)-[A-D]"),
    ],
    "greatwall": [re.compile(r"\b[a-g][1-6]\b"), re.compile(r"\bT\d\d\b")],
}


def _positions(slug: str) -> list:
    """POSITIONS states from random play: several seeds and every player count."""
    engine = get_engine(slug)
    counts = list(range(engine.min_players, engine.max_players + 1))
    out = []
    seed = 0
    while len(out) < POSITIONS:
        players = counts[seed % len(counts)]
        rng = random.Random(1000 + seed)
        state = engine.new_game(players=players, seed=seed)
        history = []
        while not engine.is_over(state) and len(history) < 400:
            history.append(engine.clone(state))
            state = engine.apply(state, rng.choice(engine.legal_actions(state)))
        # three decisions from anywhere in the game; every third game its first one
        picks = {rng.randrange(len(history)) for _ in range(3)}
        if seed % 3 == 0:
            picks = {0} | set(sorted(picks)[1:])
        out += [history[i] for i in sorted(picks)]
        seed += 1
    return out[:POSITIONS]


_CACHE: dict[str, list] = {}


def positions(slug: str) -> list:
    if slug not in _CACHE:
        _CACHE[slug] = _positions(slug)
    return _CACHE[slug]


def svg_targets(svg: str) -> set[str]:
    root = ET.fromstring(svg)
    return {el.attrib["data-target"] for el in root.iter() if "data-target" in el.attrib}


def pictures(board: str) -> list[ET.Element]:
    """The <svg> pictures of a board set, in order."""
    root = ET.fromstring(board)
    assert root.tag == "div" and "board-set" in root.attrib["class"]
    return [el for el in root if el.tag == f"{SVG}svg"]


def screen_texts(slug: str, board: str) -> list[tuple[float, str]]:
    """(px on screen, text) of every text a reader sees, on a laptop and on a phone."""
    out = []
    for pic in pictures(board):
        width, texts = font_sizes(pic)
        if "board-map" in pic.attrib["class"]:
            for size, text, minor in texts:
                out.append((size * MAP_PX[slug] / width, text))
                if not minor:  # shown on a phone too
                    out.append((size * PHONE_PX / width, text))
        else:
            box = min(PANEL_PX[slug], PHONE_PX)
            out += [(size * box / width, text) for size, text, _m in texts]
    return out


def font_sizes(root: ET.Element) -> tuple[float, list[tuple[float, str, bool]]]:
    """The viewBox width and (font size, text, minor) of every <text> of one picture,
    sizes inherited from parents; minor: left out where the map fits a phone."""
    width = float(root.attrib["viewBox"].split()[2])
    found: list[tuple[float, str, bool]] = []

    def size_of(el, inherited):
        style = el.attrib.get("style", "")
        m = re.search(r"font-size:\s*([\d.]+)", style)
        if m:
            return float(m.group(1))
        if "font-size" in el.attrib:
            return float(el.attrib["font-size"].removesuffix("px"))
        return inherited

    def walk(el, inherited):
        size = size_of(el, inherited)
        if el.tag == f"{SVG}text":
            text = "".join(el.itertext()).strip()
            assert size is not None, f"text without a font size: {text!r}"
            found.append((size, text, "minor" in el.attrib.get("class", "")))
        for child in el:
            walk(child, size)

    walk(root, None)
    return width, found


def raw_ids(slug: str, text: str) -> list[str]:
    return [m.group(0) for p in RAW + ENGINE_RAW[slug] for m in p.finditer(text)]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_target_is_drawn_for_the_acting_seat(slug):
    engine = get_engine(slug)
    checked = 0
    for state in positions(slug):
        seat = engine.to_act(state)
        drawn = svg_targets(engine.render_svg(engine.observation(state, seat)))
        for action in engine.legal_actions(state):
            targets = engine.action_targets(state, action)
            missing = [t for t in targets if t not in drawn]
            assert not missing, (slug, action, missing)
            checked += len(targets)
    assert checked > POSITIONS  # most actions are played on the board


@pytest.mark.parametrize("slug", SLUGS)
def test_clicking_through_the_targets_names_exactly_one_action(slug):
    engine = get_engine(slug)
    for state in positions(slug):
        legal = engine.legal_actions(state)
        keyed = [
            (engine.action_targets(state, a), engine.action_choice(state, a), a) for a in legal
        ]
        for targets, choice, action in keyed:
            if not targets:
                assert choice, (slug, action, "nothing to click and no choice button")
            # every step of the way leaves some action to click on
            for k in range(len(targets) + 1):
                assert any(t[:k] == targets[:k] for t, _c, _a in keyed)
            left = [a for t, c, a in keyed if t[: len(targets)] == targets and c == choice]
            assert left == [action], (slug, targets, choice, left)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_decision_of_a_whole_game_can_be_clicked(slug):
    engine = get_engine(slug)
    state = engine.new_game(players=engine.max_players, seed=99)
    rng = random.Random(99)
    decisions = 0
    while not engine.is_over(state) and decisions < 600:
        check_board_targets(engine, state)
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
        decisions += 1
    assert decisions > 50


@pytest.mark.parametrize("slug", SLUGS)
def test_choice_labels_are_human(slug):
    engine = get_engine(slug)
    for state in positions(slug):
        for action in engine.legal_actions(state):
            choice = engine.action_choice(state, action)
            if choice is not None:
                assert choice.strip() and not raw_ids(slug, choice), (slug, action, choice)


@pytest.mark.parametrize("slug", SLUGS)
def test_board_text_is_at_least_11_px_at_the_page_size(slug):
    engine = get_engine(slug)
    smallest = None
    for state in positions(slug)[::3]:
        n = engine.num_players(state)
        for seat in [None, *range(n)]:
            texts = screen_texts(slug, engine.render_svg(engine.observation(state, seat)))
            assert texts
            for px, text in texts:
                assert px >= MIN_PX, (slug, text, round(px, 2))
                smallest = px if smallest is None else min(smallest, px)
    assert smallest is not None and smallest >= MIN_PX


@pytest.mark.parametrize("slug", SLUGS)
def test_board_text_shows_no_internal_ids(slug):
    engine = get_engine(slug)
    for state in positions(slug)[::3]:
        svg = engine.render_svg(engine.observation(state, engine.to_act(state)))
        texts = [t for pic in pictures(svg) for _s, t, _m in font_sizes(pic)[1]]
        root = ET.fromstring(svg)
        titles = ["".join(t.itertext()) for t in root.iter(f"{SVG}title")]
        labels = [el.attrib["data-label"] for el in root.iter() if "data-label" in el.attrib]
        for text in texts + titles + labels:
            assert not raw_ids(slug, text), (slug, text)


@pytest.mark.parametrize("slug", SLUGS)
def test_describe_shows_no_internal_ids(slug):
    engine = get_engine(slug)
    for state in positions(slug):
        for action in engine.legal_actions(state):
            text = engine.describe(state, action)
            assert text and not raw_ids(slug, text), (slug, action, text)


class _NoDestinations(SilkRoadEngine):
    """Plays without destinations or counts: plays of one good on one caravan collide."""

    def action_targets(self, state, action):
        return super().action_targets(state, action)[:2]

    def action_choice(self, state, action):
        return None if self.action_targets(state, action) else "x"


class _Undrawn(SilkRoadEngine):
    def action_targets(self, state, action):
        return ["city:atlantis"]


def test_the_board_check_catches_ambiguous_and_undrawn_targets():
    good = SilkRoadEngine()

    def two_counts(state):
        plays = [
            (a["good"], a["caravan"]) for a in good.legal_actions(state) if a["type"] == "play"
        ]
        return len(plays) > len(set(plays))

    state = find_state(good, two_counts, players=3)
    check_board_targets(good, state)
    with pytest.raises(ContractViolation, match="leaves"):
        check_board_targets(_NoDestinations(), state)
    with pytest.raises(ContractViolation, match="not drawn"):
        check_board_targets(_Undrawn(), state)


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("language", ["en", "cs"])
def test_every_clickable_part_names_itself(slug, language):
    """Every data-target has a data-label in words and a <title> child with the same words,
    for every viewer, at several points of random games (board.js reads the label)."""
    engine = get_engine(slug)
    token = set_language(language, LOCALE)
    try:
        checked = 0
        for state in positions(slug)[::2]:
            for seat in [engine.to_act(state), None]:
                root = ET.fromstring(engine.render_svg(engine.observation(state, seat)))
                for el in root.iter():
                    if "data-target" not in el.attrib:
                        continue
                    label = el.attrib.get("data-label", "")
                    assert label.strip(), (slug, el.attrib["data-target"], "no data-label")
                    assert not raw_ids(slug, label), (slug, label)
                    title = el.find(f"{SVG}title")
                    assert title is not None, (slug, el.attrib["data-target"], "no <title>")
                    assert "".join(title.itertext()) == label
                    checked += 1
        assert checked > 100
    finally:
        reset_language(token)
