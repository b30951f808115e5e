"""The replay's steps when the server's answers are slow: a pause stops autoplay at once,
and quick steps add up, an answer overtaken by a newer step never showing (Chromium).

The page's requests for a position are held in the browser and released by the test,
so the answers arrive exactly where the race would be."""

import re

import pytest

from games import services
from games.models import MatchStatus
from tests.games.factories import EngineBotFactory

pytestmark = pytest.mark.django_db(transaction=True)

STEP = re.compile(r"/replay/\?ply=\d+$")


@pytest.fixture
def replay_url(live_server):
    match = services.create_match(
        game="greatwall", players=[EngineBotFactory(), EngineBotFactory()], seed=5
    )
    ply = match.ply
    while ply is not None:
        ply = services.play_bot_decisions(match_id=match.pk, ply=ply)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.ply > 5
    return f"{live_server.url}/matches/{match.pk}/replay/"


def hold_steps(page) -> list:
    held = []
    page.route(STEP, lambda route: held.append(route))
    return held


def wait_for_held(page, held: list, count: int) -> None:
    for _ in range(100):
        if len(held) >= count:
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"{len(held)} of {count} requests were made")


def release(page, route) -> None:
    with page.expect_response(route.request.url):
        route.continue_()
    page.wait_for_timeout(150)  # the answer's swap (or its refusal) has run


def test_a_pause_drops_the_step_autoplay_had_asked_for(replay_url, browser_page):
    page = browser_page
    page.goto(replay_url + "?ply=0")
    held = hold_steps(page)
    page.click("[data-step=play]")
    wait_for_held(page, held, 1)
    page.click("[data-step=play]")  # pause while the step to move 1 is on its way
    assert page.get_attribute("[data-step=play]", "aria-pressed") == "false"
    release(page, held[0])
    assert page.get_attribute("#replay", "data-ply") == "0"
    page.wait_for_timeout(1000)  # longer than autoplay's tick: nothing more is asked for
    assert len(held) == 1

    page.unroute_all()
    page.click("[data-step=next]")  # the dropped step leaves nothing pending
    page.wait_for_selector("#replay[data-ply='1']")
    assert page.input_value("#replay-slider") == "1"


def test_quick_steps_add_up_and_an_answer_overtaken_by_a_newer_step_is_dropped(
    replay_url, browser_page
):
    page = browser_page
    page.goto(replay_url + "?ply=0")
    held = hold_steps(page)
    page.focus("body")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    wait_for_held(page, held, 1)
    release(page, held[0])  # the answer for move 1, asked for before the second press
    assert page.get_attribute("#replay", "data-ply") == "0"
    # htmx sends one request at a time from the page and keeps only the latest waiting.
    wait_for_held(page, held, 2)
    assert [ply_of(route) for route in held] == ["1", "3"]
    release(page, held[1])
    assert page.get_attribute("#replay", "data-ply") == "3"
    assert page.locator("#replay-moves li.current").get_attribute("data-ply") == "3"
    assert page.input_value("#replay-slider") == "3"


def ply_of(route) -> str:
    return route.request.url.rsplit("=", 1)[1]


ROW_INSIDE_LIST = """() => {
  const list = document.getElementById('replay-moves').getBoundingClientRect();
  const row = document.querySelector('#replay-moves li.current').getBoundingClientRect();
  return row.top >= list.top - 1 && row.bottom <= list.bottom + 1;
}"""


def test_the_move_list_follows_the_replay_without_moving_a_phone_page(replay_url, browser_page):
    page = browser_page.context.browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(replay_url + "?ply=0")
    page.click("[data-step=play]")
    page.evaluate("window.scrollTo(0, 0)")  # watching the board, above the move list
    page.wait_for_selector("#replay[data-ply='2']")
    page.click("[data-step=play]")  # pause; off-screen clicks scroll the page themselves
    page.evaluate("window.scrollTo(0, 0)")
    page.keyboard.press("End")
    last = page.get_attribute("#replay", "data-last")
    page.wait_for_selector(f"#replay[data-ply='{last}']")
    assert page.evaluate("window.scrollY") == 0
    assert page.evaluate(ROW_INSIDE_LIST)  # the list itself scrolled to the last move
    page.keyboard.press("Home")
    page.wait_for_selector("#replay[data-ply='0']")
    assert page.evaluate("window.scrollY") == 0 and page.evaluate(ROW_INSIDE_LIST)
    page.close()


IN_VIEW = """(selector) => {
  const box = document.querySelector(selector).getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight;
}"""


def test_on_a_phone_the_steps_stay_on_screen_beside_the_board(replay_url, browser_page):
    """The steps come after the board and every hand in the page; on a phone they stay in
    a bar at the foot of the screen, so the board is watched while stepping."""
    page = browser_page.context.browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(replay_url + "?ply=0")
    assert page.evaluate("window.scrollY") == 0
    assert page.evaluate(IN_VIEW, "[data-step=next]")
    assert page.evaluate(IN_VIEW, "#replay-slider")
    board_top = page.locator("#replay svg").first.bounding_box()["y"]
    bar_top = page.locator("#replay-controls").bounding_box()["y"]
    assert board_top < bar_top  # the board's top shows above the bar
    page.click("[data-step=next]")
    page.wait_for_selector("#replay[data-ply='1']")
    assert page.evaluate("window.scrollY") == 0
    # At the page's end the bar covers nothing: the footer shows above it.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    footer = page.locator("footer").bounding_box()
    assert footer["y"] + footer["height"] <= page.locator("#replay-controls").bounding_box()["y"]
    page.close()
    wide = browser_page.context.browser.new_page(viewport={"width": 1280, "height": 900})
    wide.goto(replay_url + "?ply=0")
    position = "getComputedStyle(document.getElementById('replay-controls')).position"
    assert wide.evaluate(position) == "static"  # in the side column beside the board
    wide.close()
