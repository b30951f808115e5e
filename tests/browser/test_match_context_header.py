"""A tournament match's header (title, tournament · round · table, rules link) stays one line
at 1280 px, even with a long tournament name (cut short, whole in its tooltip); on a 390 px
phone it wraps and nothing runs off the screen."""

import pytest

from tests.games.factories import HumanPlayerFactory
from tournaments import services
from tournaments.services import table_names

pytestmark = pytest.mark.django_db(transaction=True)

LONG = "Spring Yspahan Open of the Caravan Club, Brno, second weekend of the month"


def _tournament_match() -> int:
    organiser = HumanPlayerFactory().user
    t = services.create_tournament(name=LONG, game="silkroad", format="swiss",
                                   organiser=organiser, auto_advance=False,
                                   config={"table_size": 2}, seed=3)  # fmt: skip
    for _ in range(6):
        services.add_entry(tournament=t, player=HumanPlayerFactory())
    table_names.set_table_names(tournament=t, names={3: "by the window"}, by=organiser)
    rnd = services.start_tournament(tournament=t)
    services.start_round(round_=rnd)
    return rnd.tables.get(number=3).match_id


def _boxes(page) -> dict:
    return {
        name: page.locator(selector).bounding_box()
        for name, selector in (("title", ".match-head h1"), ("context", ".match-context"),
                               ("rules", ".match-head .rules-link"), ("head", ".match-head"))
    }  # fmt: skip


def test_the_header_is_one_line_at_1280_px_and_wraps_on_a_phone(live_server, browser_page):
    page = browser_page
    url = f"{live_server.url}/matches/{_tournament_match()}/"
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(url)
    box = _boxes(page)
    title = box["title"]
    for part in ("context", "rules"):  # beside the title, not under it
        assert box[part]["y"] < title["y"] + title["height"], part
        assert box[part]["x"] > title["x"] + title["width"] - 1, part
    assert box["rules"]["x"] + box["rules"]["width"] <= box["head"]["x"] + box["head"]["width"] + 1
    assert page.get_attribute(".match-context", "title").startswith(LONG)
    # The long name is cut, round and table stay whole.
    table = page.locator(".match-context a", has_text="Table 3").bounding_box()
    assert table["x"] + table["width"] <= box["rules"]["x"]

    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(url)
    box = _boxes(page)
    assert box["context"]["y"] >= box["title"]["y"] + box["title"]["height"] - 1  # wrapped
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator(".match-context").inner_text().startswith(LONG)
