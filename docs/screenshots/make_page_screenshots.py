"""Screenshots of real match pages (not run in CI): each game's match page at 1280 px,
one at 390 px, one in Czech, and a half-made board selection.

Run from the repository root:
    .venv/bin/python -m pytest docs/screenshots/make_page_screenshots.py -p no:cacheprovider
"""

from pathlib import Path

import pytest

from games import services
from games.engines.registry import ENGINES, get_engine
from tests.browser.conftest import browser_page, log_in  # noqa: F401 - the fixture
from tests.games.factories import EngineBotFactory, HumanPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

OUT = Path(__file__).resolve().parent


def mid_game(alice, slug: str, plies: int = 40):
    """A three-player match some moves in, waiting for Alice (seat 0)."""
    engine = get_engine(slug)
    bots = [EngineBotFactory(bot_name="greedy") for _ in range(2)]
    match = services.create_match(game=slug, players=[alice, *bots], seed=11)
    while match.to_act != 0 or match.ply < plies:
        if match.to_act == 0:
            actions = engine.legal_actions(engine.from_json(match.state))
            services.submit_action(match_id=match.pk, user=alice.user, ply=match.ply,
                                   action=actions[match.ply % len(actions)])  # fmt: skip
        else:
            services.play_bot_decisions(match_id=match.pk, ply=match.ply)
        match.refresh_from_db()
    return match


def test_match_page_screenshots(live_server, browser_page):  # noqa: F811
    alice = HumanPlayerFactory(user__username="alice")
    matches = {slug: mid_game(alice, slug) for slug in sorted(ENGINES)}
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, live_server.url, "alice")
    for slug, match in matches.items():
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        page.wait_for_selector("#board .legal, #board-choices button", state="attached")
        page.screenshot(path=str(OUT / f"match-{slug}-1280.png"), full_page=True)

    # A selection half made: the picked part in green, the next parts highlighted.
    page.goto(f"{live_server.url}/matches/{matches['silkroad'].pk}/")
    page.locator("#board .legal").first.click(force=True)
    page.screenshot(path=str(OUT / "board-click-1280.png"), full_page=True)

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/matches/{matches['yspahan'].pk}/")
    page.screenshot(path=str(OUT / "match-390.png"), full_page=True)

    czech = page.context.browser.new_page(locale="cs-CZ", viewport={"width": 1280, "height": 900})
    log_in(czech, live_server.url, "alice")
    czech.goto(f"{live_server.url}/matches/{matches['silkroad'].pk}/")
    czech.screenshot(path=str(OUT / "match-cs-1280.png"), full_page=True)
