"""Screenshots of the small user-visible fixes (not run in CI): the home page's bot chips,
the Silk Road player panels, the replay controls, the lobby's seat choices, the admin
index and the Great Wall log, at 1280 and 390 px in English and Czech, into var/shots/
(or SHOTS_DIR) with an optional SHOTS_TAG suffix (e.g. "before").

Run from the repository root (Czech needs the catalogs compiled):
    .venv/bin/python -m pytest docs/screenshots/make_polish_screenshots.py -p no:cacheprovider
"""

import os
from pathlib import Path

import pytest
from make_page_screenshots import mid_game, play_to_end

from games import services
from tests.browser.conftest import browser_page, log_in  # noqa: F401 - the fixture
from tests.games.factories import HumanPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path(__file__).resolve().parents[2] / "var" / "shots"

DEMO_BOTS = [
    ("random-rita", "random", {}, "Plays any legal move, uniformly at random."),
    ("greedy-gus", "greedy", {}, "Takes the move that looks best one step ahead."),
    ("mcts-mia", "ismcts", {"iterations": 300}, "Monte-Carlo tree search, 300 iterations."),
    ("mcts-max", "ismcts", {"time_s": 1.0}, "Monte-Carlo tree search, one second a move."),
]


def test_polish_screenshots(live_server, browser_page):  # noqa: F811
    out = Path(os.environ.get("SHOTS_DIR") or SHOTS)
    out.mkdir(parents=True, exist_ok=True)
    tag = os.environ.get("SHOTS_TAG", "")
    suffix = f"-{tag}" if tag else ""
    alice = HumanPlayerFactory(user__username="alice")
    HumanPlayerFactory(user__username="boss", user__is_staff=True, user__is_superuser=True)
    for name, bot, params, description in DEMO_BOTS:
        services.create_engine_bot(name=name, bot_name=bot, params=params, description=description)
    silkroad = mid_game(alice, "silkroad", plies=30)
    greatwall = mid_game(alice, "greatwall", plies=40)
    finished = play_to_end(alice, "silkroad")
    browser = browser_page.context.browser
    for lang, locale in (("en", "en-GB"), ("cs", "cs-CZ")):
        for width, height in ((1280, 900), (390, 844)):
            page = browser.new_page(locale=locale, viewport={"width": width, "height": height})

            def shot(name, selector=None, page=page, lang=lang, width=width):
                path = str(out / f"{name}-{lang}-{width}{suffix}.png")
                if selector:
                    page.locator(selector).first.screenshot(path=path)
                else:
                    page.screenshot(path=path, full_page=True)

            log_in(page, live_server.url, "alice")
            page.goto(live_server.url + "/")
            shot("home")
            page.goto(f"{live_server.url}/matches/{silkroad.pk}/")
            page.wait_for_timeout(300)
            shot("silkroad-board", ".board svg")
            box = page.locator(".board svg").bounding_box()  # the player panels, close up
            if width == 1280:  # (at 390 px the board scrolls sideways in its frame)
                panels = min(box["height"], 0.27 * box["width"])
                page.screenshot(path=str(out / f"silkroad-panels-{lang}-{width}{suffix}.png"),
                                full_page=True, clip={**box, "y": box["y"] + box["height"] - panels,
                                                      "height": panels, "width": min(box["width"], width)})  # fmt: skip
            page.goto(f"{live_server.url}/matches/{greatwall.pk}/")
            shot("greatwall-log", "ol.log")
            page.goto(f"{live_server.url}/matches/{finished.pk}/replay/?ply=5")
            shot("replay-controls", "#replay-controls")
            shot("replay")
            page.goto(f"{live_server.url}/play/")
            page.select_option("select[name=seats]", "3")
            page.select_option("select[name=seat_1]", "ismcts-strong")
            page.select_option("select[name=seat_2]", "open")
            shot("lobby-seats", "fieldset.seat-list")
            page.close()
            page = browser.new_page(locale=locale, viewport={"width": width, "height": height})
            log_in(page, live_server.url, "boss")
            page.goto(live_server.url + "/admin/")
            shot("admin", page=page)
            page.close()
