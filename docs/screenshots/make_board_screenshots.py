"""Render each engine's board (a 4-player mid-game position, seen by the seat to act)
to PNG with the system Chromium, in a box 860 px wide as on the match page at 1280 px.

Run from the repository root: .venv/bin/python docs/screenshots/make_board_screenshots.py
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engines.registry import get_engine  # noqa: E402

OUT = Path(__file__).resolve().parent
PLIES = {"silkroad": 120, "yspahan": 110, "greatwall": 140}


def position(slug: str, seed: int = 7):
    engine = get_engine(slug)
    state = engine.new_game(players=4, seed=seed)
    rng = random.Random(seed)
    for _ in range(PLIES[slug]):
        if engine.is_over(state):
            break
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    return engine, state


def main() -> None:
    from playwright.sync_api import sync_playwright

    slugs = sys.argv[1:] or list(PLIES)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 900, "height": 800})
        for slug in slugs:
            engine, state = position(slug)
            svg = engine.render_svg(engine.observation(state, engine.to_act(state)))
            html = (
                "<!doctype html><html><body style='margin:0;background:#fff'>"
                f"<div id='b' style='width:860px'>{svg}</div>"
                "<style>#b svg{width:100%;height:auto;display:block}</style></body></html>"
            )
            page.set_content(html)
            page.locator("#b").screenshot(path=str(OUT / f"board-{slug}.png"))
            print(slug, "ok")
        browser.close()


if __name__ == "__main__":
    main()
