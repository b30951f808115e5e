"""The lobby offers only the chosen game's variants (static/js/game-options.js) and the
chosen one reaches the match (Chromium); tests/games/test_lobby.py covers the server check."""

import re

import pytest

from games.models import Match, Variant
from tests.browser.conftest import log_in
from tests.games.factories import HumanPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_variant_list_follows_the_chosen_game(live_server, browser_page):
    HumanPlayerFactory(user__username="alice")
    blank = Variant.objects.create(game="silkroad", name="Blank board", options={})
    plain = Variant.objects.create(game="yspahan", name="Plain", options={})
    page = browser_page
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/play/")
    page.select_option("#id_game", "silkroad")
    page.wait_for_selector(f"#id_variant option[value='{plain.pk}'][disabled]", state="attached")
    assert page.locator(f"#id_variant option[value='{blank.pk}']").get_attribute("disabled") is None
    page.select_option("#id_variant", str(blank.pk))

    # Switching the game drops the other game's variant and offers this game's.
    page.select_option("#id_game", "yspahan")
    page.wait_for_selector(f"#id_variant option[value='{blank.pk}'][disabled]", state="attached")
    assert page.input_value("#id_variant") == ""
    assert page.locator(f"#id_variant option[value='{plain.pk}']").get_attribute("disabled") is None
    page.select_option("#id_variant", str(plain.pk))
    page.click("form.lobby button[type=submit]")
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    match = Match.objects.get()
    assert match.game == "yspahan" and match.variant == plain
