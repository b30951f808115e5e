"""An admin makes a blank-board Silk Road variant by clicking through the admin, sees its
preview, and a player starts a match with it from the lobby: the board shows the tiles
shuffled, not the printed layout (Chromium).

With SCREENSHOT_DIR set, the variant form and the preview are saved there at 1280 px
(docs/screenshots/admin-variant-form.png, admin-variant-preview.png)."""

import os
import re
from pathlib import Path

import pytest

from games.engines.registry import ENGINES
from games.models import Match, MatchStatus, Variant
from tests.browser.conftest import log_in
from tests.games.factories import HumanPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

VILLAGE_TITLES = '.board g[data-target^="village:"] > title'


def printed_layout() -> list[str]:
    """The village titles ("Almaliq: small market (silk)") of the printed board side."""
    engine = ENGINES["silkroad"]
    state = engine.new_game(players=2, seed=1, options={})
    svg = engine.render_svg(engine.observation(state, None))
    return re.findall(r'data-target="village:v\d+"><title>([^<]*)</title>', svg)


def shot(target, tmp_path: Path, name: str) -> None:
    """A page (whole) or one element of it, into SCREENSHOT_DIR when set."""
    path = str(Path(os.environ.get("SCREENSHOT_DIR") or tmp_path) / name)
    if hasattr(target, "goto"):
        target.screenshot(path=path, full_page=True)
    else:
        target.screenshot(path=path)


def test_an_admin_clicks_a_blank_board_variant_and_a_match_shows_it_shuffled(
    live_server, browser_page, tmp_path
):
    admin = HumanPlayerFactory(user__username="boss", user__is_staff=True, user__is_superuser=True)
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, live_server.url, "boss")

    page.goto(f"{live_server.url}/admin/games/variant/")
    page.click(".object-tools a.addlink")
    page.select_option("#id_game", "silkroad")
    page.click("#choose-game input[type=submit]")
    page.wait_for_selector("#id_opt_board_side")
    page.fill("#id_name", "Blank board")
    page.fill("#id_description", "The action tiles shuffled onto the blank side.")
    page.select_option("#id_opt_board_side", "blank")
    # The running total follows the typing (static/js/running-total.js).
    total = "table[data-total] output[data-total-output]"
    assert page.inner_text(total) == "22"
    page.fill("#id_opt_tile_mix__robbers", "3")
    page.wait_for_selector(f"{total}.off", state="attached")
    assert page.inner_text(total) == "23"
    page.fill("#id_opt_tile_mix__bazaar", "0")
    page.wait_for_selector(f"{total}:not(.off)", state="attached")
    assert page.inner_text(total) == "22"
    shot(page.locator("#variant_form"), tmp_path, "admin-variant-form.png")
    page.click("input[name=_continue]")
    page.wait_for_selector("#variant-preview svg")
    variant = Variant.objects.get()
    assert variant.options["board_side"] == "blank"
    assert variant.options["tile_mix"]["robbers"] == 3
    first = page.locator('#variant-preview g[data-target^="village:"] > title').all_text_contents()
    assert len(first) == 22 and first != printed_layout()
    shot(page.locator("#variant-preview"), tmp_path, "admin-variant-preview.png")
    page.click("#shuffle-again")
    page.wait_for_url(re.compile(r"\?seed=\d+"))
    again = page.locator('#variant-preview g[data-target^="village:"] > title').all_text_contents()
    assert len(again) == 22 and again != first

    page.goto(f"{live_server.url}/play/")
    page.select_option("#id_game", "silkroad")
    page.select_option("#id_variant", str(variant.pk))
    page.select_option("#id_seat_1", "greedy")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    match = Match.objects.get()
    assert match.variant == variant and match.status == MatchStatus.RUNNING
    assert match.options["board_side"] == "blank" and match.seats.first().player == admin
    page.wait_for_selector(VILLAGE_TITLES, state="attached")
    on_board = page.locator(VILLAGE_TITLES).all_text_contents()
    assert len(on_board) == 22 and on_board != printed_layout()
    kinds = sorted(t.split(": ", 1)[1] for t in on_board)
    assert kinds.count("robbers") == 3 and kinds.count("bazaar") == 0
