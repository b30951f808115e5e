"""Accounts people can recover (issue #30): the e-mail address at sign-up, the links that
verify it, the password reset and the e-mail change, with mail on a real SMTP server
(the smtp_server fixture, tests/mail_server.py)."""

from __future__ import annotations

import re
import time
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.test import Client
from django.utils import translation

from core import accounts
from games.models import Player
from mail.models import OutgoingMail
from tests.games.factories import HumanPlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

User = get_user_model()
CZECH = {"HTTP_ACCEPT_LANGUAGE": "cs"}
PASSWORD = "a-long-passphrase-42"
FILE_BACKEND = "mail.backends.EmlFileBackend"


def _sign_up(client, username="nadia", email="nadia@example.org", **extra):
    return client.post("/signup/", {"username": username, "email": email,
                                    "password1": PASSWORD, "password2": PASSWORD}, **extra)  # fmt: skip


def _text(message) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


def _html(message) -> str:
    return message.get_body(preferencelist=("html",)).get_content()


def _link(message) -> str:
    """The path of the one link to the site in the plain-text body."""
    urls = set(re.findall(r"https?://\S+/accounts/\S+", _text(message)))
    assert len(urls) == 1, _text(message)
    return urlsplit(urls.pop()).path


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _no_django_look(response):
    html = response.content.decode()
    assert "Django site admin" not in html and "Django administration" not in html
    assert 'class="topbar"' in html  # templates/base.html


# ---- sign-up -----------------------------------------------------------------------------
def test_email_is_required_only_with_the_smtp_backend(settings):
    settings.EMAIL_BACKEND = FILE_BACKEND
    assert accounts.email_required() is False
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    assert accounts.email_required() is False
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    assert accounts.email_required() is True


def test_sign_up_without_an_address_works_when_mail_goes_to_files(client, settings):
    settings.EMAIL_BACKEND = FILE_BACKEND
    assert _sign_up(client, email="").status_code == 302
    assert User.objects.get(username="nadia").email == ""
    assert not OutgoingMail.objects.exists()


def test_sign_up_needs_an_address_with_smtp(client, smtp_server):
    response = _sign_up(client, email="")
    assert response.status_code == 200
    assert response.context["form"].errors["email"]
    assert not User.objects.filter(username="nadia").exists()
    assert smtp_server.messages == []


def test_sign_up_refuses_an_address_another_account_has_in_any_case(client, smtp_server):
    UserFactory(username="ann", email="Ann@Example.org")
    response = _sign_up(client, email="ann@example.ORG")
    assert response.status_code == 200
    assert response.context["form"].errors["email"] == [str(accounts.EMAIL_TAKEN)]
    assert not User.objects.filter(username="nadia").exists()
    assert smtp_server.messages == []


def test_sign_up_sends_one_verification_mail_in_the_page_language(client, smtp_server):
    assert _sign_up(client, **CZECH).status_code == 302
    player = Player.objects.get(user__username="nadia")
    assert player.language == "cs" and player.email_verified_at is None
    [message] = smtp_server.wait_for(1)
    assert message["To"] == "nadia@example.org"
    assert '<html lang="cs">' in _html(message)
    with translation.override("cs"):
        subject = translation.gettext("Confirm your e-mail address for %(site_name)s") % {
            "site_name": "Caravan Club"
        }
    assert message["Subject"] == subject
    assert OutgoingMail.objects.get().kind == accounts.VERIFY_KIND


def test_sign_up_in_english_sets_english(client, smtp_server):
    _sign_up(client)
    assert Player.objects.get(user__username="nadia").language == "en"
    [message] = smtp_server.wait_for(1)
    assert '<html lang="en">' in _html(message)
    assert message["Subject"] == "Confirm your e-mail address for Caravan Club"


def test_the_link_verifies_the_address(client, smtp_server):
    _sign_up(client)
    [message] = smtp_server.wait_for(1)
    page = client.get("/settings/").content.decode()
    assert 'id="email-not-verified"' in page and 'id="send-verification"' in page
    response = Client().get(_link(message))  # works without being logged in
    assert response.status_code == 200
    assert 'data-state="verified"' in response.content.decode()
    _no_django_look(response)
    assert Player.objects.get(user__username="nadia").email_verified_at is not None
    page = client.get("/settings/").content.decode()
    assert 'id="email-verified"' in page and 'id="send-verification"' not in page


def _expired_token(user, monkeypatch) -> str:
    real = time.time
    monkeypatch.setattr(
        time, "time", lambda: real() - accounts.EMAIL_LINK_MAX_AGE.total_seconds() - 60
    )
    try:
        return accounts.make_token(user, user.email)
    finally:
        monkeypatch.setattr(time, "time", real)


def test_an_expired_link_is_refused_and_can_be_sent_again(smtp_server, monkeypatch):
    user = HumanPlayerFactory().user
    token = _expired_token(user, monkeypatch)
    client = Client()
    response = client.get(f"/accounts/email/verify/{token}/")
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-state="expired"' in html and 'name="token"' in html
    _no_django_look(response)
    assert Player.objects.get(user=user).email_verified_at is None
    # "Send again" without logging in: a fresh link to the same address.
    response = client.post("/accounts/email/verify/", {"token": token})
    assert response.status_code == 200 and 'data-state="sent"' in response.content.decode()
    [message] = smtp_server.wait_for(1)
    assert message["To"] == user.email
    assert client.get(_link(message)).status_code == 200
    assert Player.objects.get(user=user).email_verified_at is not None


def test_a_tampered_link_is_refused_and_cannot_be_sent_again(smtp_server):
    user = HumanPlayerFactory().user
    token = accounts.make_token(user, user.email)
    forged = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    client = Client()
    response = client.get(f"/accounts/email/verify/{forged}/")
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-state="invalid"' in html and 'name="token"' not in html
    # A link signed for another account's pk does not verify it either.
    other = HumanPlayerFactory().user
    data = signing.TimestampSigner(salt="x").sign_object(
        {"u": other.pk, "e": other.email, "o": other.email}
    )
    assert client.get(f"/accounts/email/verify/{data}/").status_code == 400
    response = client.post("/accounts/email/verify/", {"token": forged})
    assert response.status_code == 400
    assert not Player.objects.filter(email_verified_at__isnull=False).exists()
    assert smtp_server.messages == []


def test_send_again_from_the_settings_page(smtp_server):
    user = HumanPlayerFactory().user
    client = _logged_in(user)
    response = client.post("/accounts/email/verify/", follow=True)
    assert response.redirect_chain[-1][0] == "/settings/"
    [message] = smtp_server.wait_for(1)
    assert message["To"] == user.email
    assert _link(message).startswith("/accounts/email/verify/")


def test_send_again_is_rate_limited(smtp_server, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "email_verification": "1/hour"}}  # fmt: skip
    client = _logged_in(HumanPlayerFactory().user)
    client.post("/accounts/email/verify/")
    response = client.post("/accounts/email/verify/", follow=True)
    assert "Too many attempts" in response.content.decode()
    assert len(smtp_server.messages) == 1


# ---- the password reset ------------------------------------------------------------------
def test_reset_mails_a_known_address_only_with_the_same_answer(smtp_server):
    player = HumanPlayerFactory(user__email="kim@example.org", language="cs")
    client = Client()
    form = client.get("/accounts/password_reset/")
    assert form.status_code == 200
    _no_django_look(form)
    unknown = client.post("/accounts/password_reset/", {"email": "nobody@example.org"})
    known = client.post("/accounts/password_reset/", {"email": "KIM@example.org"})
    assert unknown.status_code == known.status_code == 302
    assert unknown["Location"] == known["Location"] == "/accounts/password_reset/done/"
    done = client.get(known["Location"])
    _no_django_look(done)
    [message] = smtp_server.wait_for(1)
    assert message["To"] == "kim@example.org"
    assert '<html lang="cs">' in _html(message)  # the recipient's language, not the page's
    mail = OutgoingMail.objects.get()
    assert mail.kind == "password_reset" and mail.user_id == player.user_id
    # The link sets a new password, once.
    link = _link(message)
    response = client.get(link)
    assert response.status_code == 302  # Django moves the token into the session
    set_page = client.get(response["Location"])
    assert set_page.context["validlink"]
    _no_django_look(set_page)
    response = client.post(response["Location"], {"new_password1": "another-long-pass-7",
                                                  "new_password2": "another-long-pass-7"})  # fmt: skip
    assert response["Location"] == "/accounts/reset/done/"
    _no_django_look(client.get("/accounts/reset/done/"))
    assert Client().login(username=player.user.username, password="another-long-pass-7")
    # Following it proved the address, and used the link up.
    assert Player.objects.get(pk=player.pk).email_verified_at is not None
    again = Client().get(link, follow=True)
    assert again.context["validlink"] is False
    assert 'id="reset-link-refused"' in again.content.decode()


def test_reset_is_rate_limited_per_client_and_quietly_per_address(smtp_server, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "password_reset": "1/hour"}}  # fmt: skip
    HumanPlayerFactory(user__email="kim@example.org")
    client = Client()
    assert client.post("/accounts/password_reset/", {"email": "kim@example.org"}).status_code == 302
    response = client.post("/accounts/password_reset/", {"email": "kim@example.org"})
    assert response.status_code == 200 and "Too many attempts" in response.content.decode()
    # From another address the same mailbox gets nothing more, and the answer is the usual.
    other = Client(REMOTE_ADDR="10.9.8.7")
    response = other.post("/accounts/password_reset/", {"email": "kim@example.org"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password_reset/done/"
    assert len(smtp_server.messages) == 1


def test_the_log_in_page_links_to_the_reset():
    response = Client().get("/accounts/login/")
    assert 'href="/accounts/password_reset/"' in response.content.decode()
    _no_django_look(response)


def test_password_change_in_the_site_look():
    user = HumanPlayerFactory().user
    client = _logged_in(user)
    assert 'href="/accounts/password_change/"' in client.get("/settings/").content.decode()
    page = client.get("/accounts/password_change/")
    _no_django_look(page)
    response = client.post("/accounts/password_change/", {
        "old_password": "correct-horse-battery",
        "new_password1": "another-long-pass-7", "new_password2": "another-long-pass-7"})  # fmt: skip
    assert response["Location"] == "/accounts/password_change/done/"
    _no_django_look(client.get("/accounts/password_change/done/"))
    assert Client().login(username=user.username, password="another-long-pass-7")


# ---- the e-mail change -------------------------------------------------------------------
def test_changing_the_address_waits_for_its_link(smtp_server):
    player = HumanPlayerFactory(user__email="old@example.org", language="en")
    user = player.user
    accounts.mark_verified(user)
    client = _logged_in(user)
    _no_django_look(client.get("/accounts/email/"))
    # The wrong password changes nothing and sends nothing.
    response = client.post("/accounts/email/", {"email": "new@example.org", "password": "nope"})
    assert response.status_code == 200 and response.context["form"].errors["password"]
    assert smtp_server.messages == []
    response = client.post("/accounts/email/", {"email": "new@example.org",
                                                "password": "correct-horse-battery"})  # fmt: skip
    assert response["Location"] == "/settings/"
    [message] = smtp_server.wait_for(1)
    assert message["To"] == "new@example.org"
    user.refresh_from_db()
    assert user.email == "old@example.org"  # kept meanwhile
    page = client.get("/settings/").content.decode()
    assert 'id="email-pending"' in page and "new@example.org" in page
    assert 'id="email-verified"' in page  # the old address stays verified meanwhile
    old_link = accounts.make_token(user, user.email)  # a link for the old address
    # Following the link changes it, verified, and tells the old address.
    response = Client().get(_link(message))
    assert response.status_code == 200 and 'data-state="changed"' in response.content.decode()
    user.refresh_from_db()
    assert user.email == "new@example.org"
    assert Player.objects.get(pk=player.pk).email_verified_at is not None
    messages = smtp_server.wait_for(2)
    assert messages[1]["To"] == "old@example.org"
    assert "new@example.org" in _text(messages[1])
    page = client.get("/settings/").content.decode()
    assert 'id="email-pending"' not in page and 'id="email-verified"' in page
    # Links made for the old address no longer do anything.
    response = Client().get(f"/accounts/email/verify/{old_link}/")
    assert response.status_code == 400 and 'data-state="stale"' in response.content.decode()
    user.refresh_from_db()
    assert user.email == "new@example.org"


def test_a_change_to_an_address_taken_meanwhile_is_refused(smtp_server):
    user = HumanPlayerFactory(user__email="old@example.org").user
    client = _logged_in(user)
    UserFactory(username="taken", email="Taken@example.org")
    response = client.post("/accounts/email/", {"email": "taken@EXAMPLE.org",
                                                "password": "correct-horse-battery"})  # fmt: skip
    assert response.status_code == 200 and response.context["form"].errors["email"]
    # A link sent before the other account took it does not take it over either.
    client.post(
        "/accounts/email/", {"email": "late@example.org", "password": "correct-horse-battery"}
    )
    [message] = smtp_server.wait_for(1)
    UserFactory(username="late", email="LATE@example.org")
    response = Client().get(_link(message))
    assert response.status_code == 400 and 'data-state="taken"' in response.content.decode()
    user.refresh_from_db()
    assert user.email == "old@example.org"
    assert len(smtp_server.messages) == 1  # no notice: nothing changed


def test_an_older_change_link_is_stale_after_another_change(smtp_server):
    user = HumanPlayerFactory(user__email="old@example.org").user
    first = accounts.make_token(user, "first@example.org")
    second = accounts.make_token(user, "second@example.org")
    assert Client().get(f"/accounts/email/verify/{second}/").status_code == 200
    assert Client().get(f"/accounts/email/verify/{first}/").status_code == 400
    user.refresh_from_db()
    assert user.email == "second@example.org"


def test_an_address_changed_elsewhere_is_unverified_again():
    player = HumanPlayerFactory(user__email="old@example.org")
    user = player.user
    accounts.mark_verified(user)
    user.last_name = "Nováková"
    user.save()  # the same address: still verified
    assert Player.objects.get(pk=player.pk).email_verified_at is not None
    user.email = "other@example.org"
    user.save()  # e.g. in the admin
    assert Player.objects.get(pk=player.pk).email_verified_at is None
