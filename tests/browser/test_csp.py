"""Under the Content-Security-Policy the pages load and htmx works, with no violation."""

import pytest

from games import services
from tests.browser.conftest import click_first_listed_action, log_in
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, UserFactory
from tests.tournaments.factories import tournament_with_bots

pytestmark = pytest.mark.django_db(transaction=True)

# Every violation, whether the browser reports it as an event or only on the console.
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


def _watch(page) -> list[str]:
    seen: list[str] = []
    page.add_init_script(RECORD_VIOLATIONS)
    page.on("console", lambda m: seen.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: seen.append(str(exc)))
    return seen


def _violations(page, console: list[str]) -> list[str]:
    return page.evaluate("window.__csp") + [m for m in console if "Content Security Policy" in m]


def test_main_pages_load_without_violations_and_htmx_works(live_server, browser_page):
    page = browser_page
    console = _watch(page)
    pat = HumanPlayerFactory(user__username="pat")
    log_in(page, live_server.url, "pat")

    page.goto(f"{live_server.url}/")
    assert _violations(page, console) == []

    # A match where pat is to act: his click goes through htmx, without a page load.
    bot = EngineBotFactory(bot_name="random")
    match = services.create_match(game="silkroad", players=[pat, bot], seed=3, rated=False,
                                  created_by=pat.user)  # fmt: skip
    if match.to_act != 0:
        match = services.create_match(game="silkroad", players=[bot, pat], seed=3, rated=False,
                                      created_by=pat.user)  # fmt: skip
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    assert page.locator(".board svg.board-map").count() == 1
    page.evaluate("window.__same_page = true")
    ply = page.get_attribute("#match-live", "data-ply")
    click_first_listed_action(page)
    page.wait_for_selector(f"#match-live:not([data-ply='{ply}'])")
    assert page.evaluate("window.__same_page === true")  # swapped by htmx, not reloaded
    assert page.locator(".clock").count() <= 2  # clocks.js ran without complaint
    assert _violations(page, console) == []

    # A tournament page: its live fragment is polled by htmx.
    organiser = UserFactory()
    t = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 2}, organiser=organiser)
    with page.expect_response(lambda r: f"/tournaments/{t.pk}/live/" in r.url, timeout=15_000):
        page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    assert page.locator("progress.progress").count() == 1
    assert _violations(page, console) == []
    assert [m for m in console if "htmx" in m.lower()] == []


def test_admin_and_api_docs_work_under_their_policies(live_server, browser_page):
    page = browser_page
    console = _watch(page)
    UserFactory(username="root", is_staff=True, is_superuser=True)
    log_in(page, live_server.url, "root")
    page.goto(f"{live_server.url}/admin/tournaments/tournament/add/")
    page.wait_for_selector("input[name=name]")
    assert _violations(page, console) == []

    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".swagger-ui .info .title", timeout=20_000)
    assert "API" in page.locator(".swagger-ui .info .title").inner_text()
    assert _violations(page, console) == []

    page.goto(f"{live_server.url}/api/redoc/")
    page.wait_for_selector("h1", timeout=20_000)
    assert "API" in page.locator("h1").first.inner_text()
    # Redoc links web fonts and a logo on other hosts: refused (only our own files load),
    # and the page works without them. Nothing of its own, inline or not, is refused.
    ours = [v for v in page.evaluate("window.__csp") if "https://" not in v]
    assert ours == []
