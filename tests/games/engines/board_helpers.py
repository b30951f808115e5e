"""Helpers for the board tests: find positions by random play, read an SVG's targets."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET


def find_state(engine, predicate, *, players: int, seeds=range(60), max_steps: int = 600):
    """The first state of random play (over the seeds) for which predicate(state) holds."""
    for seed in seeds:
        state = engine.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        for _ in range(max_steps):
            if engine.is_over(state):
                break
            if predicate(state):
                return state
            state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    raise AssertionError("no such position in random play")


def drawn_targets(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [el.attrib["data-target"] for el in root.iter() if "data-target" in el.attrib]


def has_action(engine, predicate):
    return lambda s: any(predicate(a) for a in engine.legal_actions(s))
