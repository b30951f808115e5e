"""Web Push of notices: the subscription API, the service worker's URL, and a real push to
a push service this test runs (decrypted with the subscription's own keys)."""

from __future__ import annotations

import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.urls import reverse
from rest_framework.test import APIClient

from notifications.models import Delivery, NoticeKind, PushSubscription
from notifications.push import new_vapid_keys
from notifications.services import notify, set_preference
from tests.notifications.helpers import member

pytestmark = pytest.mark.django_db
API = "/api/me/push/"


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


class BrowserKeys:
    """What a browser keeps for a subscription: its P-256 key pair and auth secret."""

    def __init__(self) -> None:
        self.private = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.p256dh = b64(
            self.private.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    def body(self, endpoint: str) -> dict:
        return {
            "endpoint": endpoint,
            "expirationTime": None,
            "keys": {"p256dh": self.p256dh, "auth": b64(self.auth)},
        }


class PushService:
    """A push service on a free local port: records each POST, answers `status`."""

    def __init__(self) -> None:
        self.received: list[tuple] = []  # (path, headers, body)
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                service.received.append((self.path, self.headers, body))  # case-blind names
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(autouse=True)
def example_push_service(settings):
    """push.example.org stands for a real push service in these tests."""
    settings.PUSH_SERVICE_HOSTS = ["push.example.org"]


@pytest.fixture
def push_on(settings):
    public, private = new_vapid_keys()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
    settings.VAPID_SUBJECT = "mailto:club@example.org"
    settings.PUSH_SEND_EAGER = True
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = True
    return public


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.stop()


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


# ---- the API -------------------------------------------------------------------------------
def test_store_refresh_and_delete_a_subscription(push_on):
    anna = member("anna")
    endpoint = "https://push.example.org/send/abc"
    first, second = BrowserKeys(), BrowserKeys()
    client = client_of(anna)

    made = client.post(API, first.body(endpoint), format="json", HTTP_USER_AGENT="Firefox/140")
    assert made.status_code == 201, made.content
    sub = PushSubscription.objects.get(endpoint=endpoint)
    assert (sub.user, sub.p256dh, sub.user_agent) == (anna, first.p256dh, "Firefox/140")

    again = client.post(API, second.body(endpoint), format="json")
    assert again.status_code == 200
    assert PushSubscription.objects.filter(endpoint=endpoint).count() == 1
    assert PushSubscription.objects.get(endpoint=endpoint).p256dh == second.p256dh

    gone = client.delete(API, {"endpoint": endpoint}, format="json")
    assert gone.status_code == 204
    assert not PushSubscription.objects.exists()
    assert client.delete(API, {"endpoint": endpoint}, format="json").status_code == 404


@pytest.mark.parametrize(
    "change",
    [
        {"endpoint": "http://push.example.org/x"},  # not https
        {"endpoint": "https://10.0.0.5/x"},  # an address, not a push service
        {"endpoint": "https://intranet.example.com/x"},  # not a known push service
        {"endpoint": "https://evilpush.example.org/x"},  # a look-alike, not a subdomain
        {"endpoint": "https://fcm.googleapis.com.evil.test/x"},
        {"endpoint": "http://127.0.0.1:9/x"},  # this machine, outside DEBUG and tests' setting
        {"endpoint": "https://push.example.org/" + "a" * 1100},  # too long
        {"endpoint": "https://push.example.org/a b"},
        {"endpoint": 12},
        {"keys": {"p256dh": "short", "auth": b64(os.urandom(16))}},
        {"keys": {"p256dh": BrowserKeys().p256dh, "auth": b64(os.urandom(8))}},
        {"keys": {"p256dh": "A" * 500, "auth": "B"}},
        {"keys": "nope"},
        {"expirationTime": "soon"},
    ],
)
def test_bad_subscriptions_are_refused(settings, change):
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = False
    body = {**BrowserKeys().body("https://push.example.org/send/abc"), **change}
    answer = client_of(member("anna")).post(API, body, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"]
    assert not PushSubscription.objects.exists()


def test_the_browsers_push_services_are_accepted(settings):
    settings.PUSH_SERVICE_HOSTS = ["fcm.googleapis.com", "push.apple.com"]
    for endpoint in ("https://fcm.googleapis.com/fcm/send/abc", "https://web.push.apple.com/x"):
        answer = client_of(member("anna")).post(API, BrowserKeys().body(endpoint), format="json")
        assert answer.status_code == 201, answer.content


def test_local_endpoints_only_when_allowed(settings):
    body = BrowserKeys().body("http://127.0.0.1:8123/push/abc")
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = False
    assert client_of(member("anna")).post(API, body, format="json").status_code == 400
    settings.DEBUG = True
    assert client_of(member("bob")).post(API, body, format="json").status_code == 201


def test_only_own_subscriptions_are_deleted_and_anonymous_refused():
    anna, bob = member("anna"), member("bob")
    endpoint = "https://push.example.org/send/anna"
    assert client_of(anna).post(API, BrowserKeys().body(endpoint), format="json").status_code == 201
    assert client_of(bob).delete(API, {"endpoint": endpoint}, format="json").status_code == 404
    assert PushSubscription.objects.get(endpoint=endpoint).user == anna
    assert APIClient().post(API, BrowserKeys().body(endpoint), format="json").status_code in (
        401,
        403,
    )
    assert APIClient().delete(API, {"endpoint": endpoint}, format="json").status_code in (401, 403)
    assert client_of(anna).delete(API, {}, format="json").status_code == 400
    assert PushSubscription.objects.filter(user=anna).count() == 1


# ---- the service worker and the page --------------------------------------------------------
def test_service_worker_is_served_for_the_whole_site(client):
    answer = client.get("/push-sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    assert "showNotification" in answer.content.decode()
    assert "notificationclick" in answer.content.decode()
    # The page's policy lets it register a worker of the site's own (worker-src falls back
    # to script-src 'self').
    policy = client.get("/").get("Content-Security-Policy", "")
    assert "script-src 'self'" in policy and "worker-src" not in policy


def test_the_button_shows_only_with_keys(client, settings, push_on):
    client.force_login(member("anna"))
    page = client.get(reverse("notification-preferences")).content.decode()
    assert "Allow notices in this browser" in page and "js/push.js" in page
    assert f'data-key="{push_on}"' in page
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    page = client.get(reverse("notification-preferences")).content.decode()
    assert "Allow notices in this browser" not in page and "js/push.js" not in page


# ---- delivery --------------------------------------------------------------------------------
def decrypt(keys: BrowserKeys, body: bytes) -> dict:
    return json.loads(
        http_ece.decrypt(body, private_key=keys.private, auth_secret=keys.auth, version="aes128gcm")
    )


def test_a_notice_is_pushed_encrypted_with_vapid(
    push_on, push_service, django_capture_on_commit_callbacks
):
    anna = member("anna", language="cs", verified=False)  # push needs no verified address
    keys = BrowserKeys()
    assert (
        client_of(anna)
        .post(API, keys.body(push_service.url("/push/abc")), format="json")
        .status_code
        == 201
    )
    with django_capture_on_commit_callbacks(execute=True):
        notice = notify(
            user=anna,
            kind=NoticeKind.INVITATION,
            key="inv:1",
            url="/invitations/",
            data={"by": "Bob", "target": "Spring Cup"},
        )
    assert len(push_service.received) == 1
    path, headers, body = push_service.received[0]
    assert path == "/push/abc"
    assert headers["Content-Encoding"] == "aes128gcm"
    scheme, _, params = headers["Authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == push_on and fields["t"].count(".") == 2  # a signed JWT
    payload = decrypt(keys, body)
    assert payload["url"].endswith("/invitations/") and payload["url"].startswith("http")
    assert "Spring Cup" in payload["title"] and "Bob" in payload["body"]
    assert payload["tag"] == f"notice-{notice.pk}"
    assert PushSubscription.objects.get().last_error == ""


def test_no_push_when_the_kind_is_not_immediate(
    push_on, push_service, django_capture_on_commit_callbacks
):
    anna = member("anna")
    set_preference(user=anna, kind=NoticeKind.INVITATION, delivery=Delivery.DAILY)
    client_of(anna).post(API, BrowserKeys().body(push_service.url("/push/abc")), format="json")
    with django_capture_on_commit_callbacks(execute=True):
        notify(user=anna, kind=NoticeKind.INVITATION, key="inv:1", data={"by": "Bob"})
    assert push_service.received == []


def test_gone_subscriptions_are_deleted_and_errors_kept(
    push_on, push_service, django_capture_on_commit_callbacks
):
    anna = member("anna")
    client_of(anna).post(API, BrowserKeys().body(push_service.url("/push/abc")), format="json")
    push_service.status = 500
    with django_capture_on_commit_callbacks(execute=True):
        notify(user=anna, kind=NoticeKind.INVITATION, key="inv:1", data={"by": "Bob"})
    sub = PushSubscription.objects.get()
    assert "500" in sub.last_error

    push_service.status = 410
    with django_capture_on_commit_callbacks(execute=True):
        notify(user=anna, kind=NoticeKind.INVITATION, key="inv:2", data={"by": "Bob"})
    assert len(push_service.received) == 2
    assert not PushSubscription.objects.exists()
