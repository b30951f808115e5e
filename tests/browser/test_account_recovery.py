"""An account she can recover, in a real browser and in Czech (issue #30): sign up with an
e-mail address, follow the verification mail that reaches the test's SMTP server, log out,
"forgot password", follow the reset mail, set a new password and log in with it. Every
page is the site's own (templates/base.html), never Django's admin look."""

import re

import pytest

from games.models import Player

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD, NEW_PASSWORD = "a-long-passphrase-42", "another-passphrase-77"


def _site_look(page):
    html = page.content()
    assert "Django site admin" not in html and "Django administration" not in html
    assert page.locator("header.topbar .brand").count() == 1
    assert page.locator("html").get_attribute("lang") == "cs"


def _link(message, base_url: str) -> str:
    text = message.get_body(preferencelist=("plain",)).get_content()
    [url] = set(re.findall(rf"{re.escape(base_url)}/accounts/\S+", text))
    return url


def test_sign_up_verify_forget_and_reset_the_password_in_czech(
    live_server, browser_page, smtp_server, settings
):
    settings.SITE_URL = live_server.url  # the links in the mails lead to this server
    page, base = browser_page, live_server.url
    page.set_extra_http_headers({"Accept-Language": "cs"})

    # ---- sign up: the address is required (mail goes out by SMTP here) ----------------
    page.goto(f"{base}/signup/")
    _site_look(page)
    assert page.locator("input[name=email][required]").count() == 1
    page.fill("input[name=username]", "vera")
    page.fill("input[name=email]", "vera@example.org")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")
    [verification] = smtp_server.wait_for(1)
    assert verification["To"] == "vera@example.org"
    assert '<html lang="cs">' in verification.get_body(preferencelist=("html",)).get_content()
    assert Player.objects.get(user__username="vera").language == "cs"

    page.goto(f"{base}/settings/")
    assert page.locator("#email-not-verified").is_visible()
    page.goto(_link(verification, base))
    page.wait_for_selector("#email-link[data-state=verified]")
    _site_look(page)
    assert Player.objects.get(user__username="vera").email_verified_at is not None
    page.goto(f"{base}/settings/")
    assert page.locator("#email-verified").is_visible()
    _site_look(page)

    # ---- log out, forget the password, reset it by mail ---------------------------------
    page.click("header form[action='/accounts/logout/'] button")
    page.wait_for_url(f"{base}/")
    page.goto(f"{base}/accounts/login/")
    _site_look(page)
    page.click("#forgot-password")
    page.wait_for_url(f"{base}/accounts/password_reset/")
    _site_look(page)
    page.fill("input[name=email]", "vera@example.org")
    page.click("#password-reset-form button[type=submit]")
    page.wait_for_selector("#reset-sent")
    _site_look(page)
    reset = smtp_server.wait_for(2)[1]
    assert reset["To"] == "vera@example.org"
    assert '<html lang="cs">' in reset.get_body(preferencelist=("html",)).get_content()

    page.goto(_link(reset, base))
    page.wait_for_selector("#set-password-form")
    _site_look(page)
    page.fill("input[name=new_password1]", NEW_PASSWORD)
    page.fill("input[name=new_password2]", NEW_PASSWORD)
    page.click("#set-password-form button[type=submit]")
    page.wait_for_selector("#reset-complete")
    _site_look(page)

    # ---- the old password is gone, the new one logs her in ------------------------------
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "vera")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_selector("main .errorlist")
    assert page.url.startswith(f"{base}/accounts/login/")
    page.fill("input[name=username]", "vera")
    page.fill("input[name=password]", NEW_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")
    assert page.locator("header .account a.profile").inner_text() == "vera"
    assert len(smtp_server.messages) == 2  # the verification and the reset, nothing else
