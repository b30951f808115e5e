"""The settings page's API tokens in a browser: make one (the key shown once, copied from a
read-only field), revoke it after the question; axe finds nothing on the three pages, on a
laptop and on a phone."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from rest_framework.test import APIClient

from tests.browser.conftest import log_in
from tests.games.factories import HumanPlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

AXE = Axe()


def _violations(page):
    return [(v["id"], [n["target"][0] for n in v["nodes"]][:3])
            for v in AXE.run(page).response["violations"]]  # fmt: skip


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_make_and_revoke_a_token(live_server, browser_page, viewport, tmp_path):
    HumanPlayerFactory(user=UserFactory(username="tina"))
    page = browser_page
    page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
    log_in(page, live_server.url, "tina")
    page.goto(f"{live_server.url}/settings/")
    assert page.locator("#api-tokens-none").is_visible()
    assert _violations(page) == []
    page.fill("#api-token-name", "laptop")
    page.click("#api-token-create button[type=submit]")
    key = page.input_value("#api-token-key")
    assert len(key) == 40
    assert _violations(page) == []
    page.screenshot(path=str(tmp_path / f"token-created-{viewport[0]}.png"), full_page=True)
    api = APIClient(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/players/me/").status_code == 200
    page.click("#token-done")
    row = page.locator("#api-token-list tbody tr")
    page.locator("#api-tokens").screenshot(path=str(tmp_path / f"tokens-{viewport[0]}.png"))
    assert row.count() == 1 and "laptop" in row.inner_text() and key not in page.content()
    page.click("#api-token-list a.button")
    assert _violations(page) == []
    page.click("#go-back")
    assert page.locator("#api-token-list tbody tr").count() == 1
    page.click("#api-token-list a.button")
    page.click("#confirm")
    page.wait_for_url(f"{live_server.url}/settings/#api-tokens")
    assert page.locator("#api-tokens-none").is_visible()
    assert api.get("/api/players/me/").status_code == 401
