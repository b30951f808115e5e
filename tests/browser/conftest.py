import shutil

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture
def browser_page(monkeypatch):
    """A headless Chromium page driven by Playwright (the system Chromium, no download)."""
    # Playwright's sync API runs an event loop in this thread; the ORM calls the
    # test makes around it are ordinary blocking calls.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )  # fmt: skip
        page = browser.new_page()
        page.set_default_timeout(20_000)
        yield page
        browser.close()


def log_in(page, base_url: str, username: str, password: str = "correct-horse-battery") -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base_url}/")


def click_first_listed_action(page) -> None:
    """Answer from the button list, the board's fallback (a collapsed <details>)."""
    if not page.locator("details.fallback[open]").count():
        page.click("details.fallback > summary")
    page.locator("button.act").first.click()
