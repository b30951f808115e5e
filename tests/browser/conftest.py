import asyncio
import shutil
from contextlib import contextmanager

import pytest
from django.db import connections

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="session")
def _chromium():
    """One headless Chromium per test session (per xdist worker), driven by Playwright
    (the system Chromium, no download); each test gets its own context (browser_page).

    Playwright's sync API keeps its event loop registered as the thread's running loop:
    Django would then take every test's ORM calls for async code and give them their own
    connections. The loop is detached between browser tests (see `_attached`), as if
    Playwright had been stopped, and attached again only while one runs."""
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    loop = asyncio.get_running_loop()
    try:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )  # fmt: skip
    except BaseException:
        pw.stop()
        raise
    asyncio.events._set_running_loop(None)
    yield browser, loop
    with _attached(loop):
        browser.close()
        pw.stop()


@contextmanager
def _attached(loop):
    asyncio.events._set_running_loop(loop)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(None)


@pytest.fixture
def browser_page(_chromium, monkeypatch):
    """A page in a fresh browser context: no cookies or storage left by another test."""
    browser, loop = _chromium
    # Playwright's sync API runs an event loop in this thread; the ORM calls the
    # test makes around it are ordinary blocking calls.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with _attached(loop):
        # The browser in the site's zone: static/js/timezone.js reports it to the server,
        # and the tests write the times they type and read in that zone.
        context = browser.new_context(timezone_id="Europe/Prague")
        try:
            page = context.new_page()
            page.set_default_timeout(20_000)
            yield page
        finally:
            context.close()
            # Under Playwright's sync API the test's ORM calls get their own Django
            # connections (context-local storage); closed here, inside it, or they stayed
            # open and the test database could not be dropped at the end of the run.
            connections.close_all()


def log_in(page, base_url: str, username: str, password: str = "correct-horse-battery") -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base_url}/")


def click_first_listed_action(page) -> None:
    """Answer from the button list, the board's fallback (a collapsed <details>). A live
    swap may replace the opened list with a closed one before the click: open it again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(3):
        if not page.locator("details.fallback[open]").count():
            page.click("details.fallback > summary")
        try:
            page.locator("button.act").first.click(timeout=5_000)
            return
        except PlaywrightTimeout:
            continue
    page.locator("button.act").first.click()


def sign_up(page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", "a-long-passphrase-42")
    page.fill("input[name=password2]", "a-long-passphrase-42")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base_url}/")


# What a player may click: a highlighted part of the board, or a choice button board.js
# shows for what the board does not draw (never the fallback list's buttons).
CLICKABLE = ".board .legal, #board-choices button[data-choice]"


def wait_for_my_decision(page, timeout: int = 30_000) -> bool:
    """Wait until the board offers a decision (True) or the result is shown (False)."""
    found = page.wait_for_selector(f"{CLICKABLE}, #result-banner", state="attached",
                                   timeout=timeout)  # fmt: skip
    return found.get_attribute("id") != "result-banner"


def decide_by_clicking(page, rng) -> int:
    """Make one decision on the board: click random highlighted parts (or choice buttons)
    until board.js sends the move, then wait for the answer. Returns the clicks made."""
    ply = page.get_attribute("#match-live", "data-ply")
    answered = f"#match-live:not([data-ply='{ply}'])"
    clicks = missed = 0
    while True:
        options = page.locator(CLICKABLE)
        n = options.count()
        assert n, f"ply {ply}: a selection is half made and nothing is left to click"
        # force: a real mouse click at the part's centre without Playwright's visibility
        # guess, which calls a wall drawn as a thin line "not visible".
        options.nth(rng.randrange(n)).click(force=True)
        clicks += 1
        # board.js notes each click on #board at once: how many parts are picked, or
        # "sent" (unless the answer has already replaced the board).
        state = page.locator(f"{answered}, #board").first.get_attribute("data-picked")
        if state in ("sent", None):  # None: the first match is the new #match-live
            break
        if state != str(clicks - missed):
            missed += 1  # the click landed on something drawn over the part
            assert missed < 5, f"ply {ply}: highlighted parts do not take clicks"
    page.wait_for_selector(answered, state="attached")
    return clicks


def correct_table_result(page, tournament_id: int, table, scores: list[int], before: str):
    """From the tournament page, open a table and correct its result (it asks first: the
    confirmation page shows the result before); check the log then holds the entry and the
    correction (with the result before). Returns the log items."""
    page.click(f"a.table-link[href='/tournaments/{tournament_id}/tables/{table.pk}/']")
    page.wait_for_selector("#save-result")
    for index, score in enumerate(scores):
        page.fill(f"input[name=score_{index}]", str(score))
    page.click("#save-result")
    page.wait_for_selector("#confirm")
    consequences = page.locator("ul.consequences").inner_text()
    assert "Before: " in consequences and before in consequences
    page.click("#confirm")
    page.wait_for_selector(f"text={table} corrected")
    log = page.locator("ol.result-log li")
    assert log.count() == 2
    assert "Entered" in log.nth(0).inner_text() and "Corrected" in log.nth(1).inner_text()
    assert f"before: {before}" in log.nth(1).inner_text()
    return log


@pytest.fixture
def club(live_server):
    """Alice with a match at her decision in every game, a finished one, and a tournament
    (for the modules that visit every main page)."""
    from games import services
    from games.engines.registry import ENGINES
    from tests.games.factories import EngineBotFactory, HumanPlayerFactory
    from tests.tournaments.factories import tournament_with_bots

    alice = HumanPlayerFactory(user__username="alice")
    matches = {}
    for game in sorted(ENGINES):
        match = services.create_match(game=game, players=[alice, EngineBotFactory()], seed=3)
        while match.to_act != 0:
            services.play_bot_decisions(match_id=match.pk, ply=match.ply)
            match.refresh_from_db()
        matches[game] = match
    finished = services.create_match(game="yspahan", players=[alice, EngineBotFactory()], seed=4)
    services.resign(match_id=finished.pk, user=alice.user)
    tournament = tournament_with_bots(n=4, game="silkroad", format="round_robin")
    return {"alice": alice, "matches": matches, "finished": finished, "tournament": tournament}
