"""Notices: once per event, e-mailed as preferred (now, in the daily digest, never), read
through the page, the API and the bell, and the one-click unsubscribe of RFC 8058."""

import pytest
from django.urls import reverse

from notifications import services
from notifications.models import Delivery, Notification, NotificationPreference
from tests.notifications.helpers import body_text, member, unsubscribe_path

pytestmark = pytest.mark.django_db(transaction=True)

DATA = {"tournament": "Spring cup", "round": 1, "round_label": "Round 1", "table": 3,
        "table_name": "by the window", "opponents": ["ben"]}  # fmt: skip


def _paired(user, key="round_paired:1"):
    return services.notify(user=user, kind="round_paired", key=key, url="/tournaments/", data=DATA)


def test_the_same_event_twice_is_one_notice_and_one_mail(smtp_server):
    ann = member("ann")
    assert _paired(ann) is not None
    assert _paired(ann) is None
    assert Notification.objects.filter(recipient=ann).count() == 1
    [message] = smtp_server.wait_for(1)
    assert message["To"] == "ann@example.com"
    assert "table 3 (by the window) against ben" in body_text(message)
    assert smtp_server.messages == [message]  # nothing more came


def test_immediately_daily_and_never(smtp_server):
    now, daily, never = member("now"), member("daily"), member("never")
    services.set_preference(user=daily, kind="round_paired", delivery=Delivery.DAILY)
    services.set_preference(user=never, kind="round_paired", delivery=Delivery.NEVER)
    for user in (now, daily, never):
        _paired(user)
        _paired(user, key="round_paired:2")
    messages = smtp_server.wait_for(2)
    assert sorted(m["To"] for m in messages) == ["now@example.com"] * 2
    # The digest: one mail for the day's two notices of the "daily" person, none for "never".
    assert services.send_digests() == 1
    messages = smtp_server.wait_for(3)
    digest = messages[2]
    assert digest["To"] == "daily@example.com"
    assert body_text(digest).count("is paired") == 2
    assert digest["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert services.send_digests() == 0  # sent once
    # Everyone has both notices on the site.
    for user in (now, daily, never):
        assert Notification.objects.filter(recipient=user).count() == 2


def test_an_unverified_address_gets_no_mail(smtp_server):
    ann, ben = member("ann", verified=False), member("ben")
    _paired(ann)
    _paired(ben)
    [message] = smtp_server.wait_for(1)
    assert message["To"] == "ben@example.com"
    assert Notification.objects.filter(recipient=ann, emailed_at__isnull=True).count() == 1


def test_the_api_lists_and_marks_read_as_the_bell_counts(client):
    ann, ben = member("ann"), member("ben")
    for n in range(3):
        _paired(ann, key=f"round_paired:{n}")
    _paired(ben)
    client.force_login(ann)
    page = client.get(reverse("notifications"))
    assert 'id="notification-badge"' in page.content.decode()
    assert page.context["unread_notifications"] == 3
    listed = client.get("/api/me/notifications/").json()
    assert listed["count"] == 3  # only hers
    first = listed["results"][0]
    assert set(first) == {"id", "kind", "url", "text", "created_at", "read"}
    assert "against ben" in first["text"] and first["read"] is False
    # Czech reader: the text in her language.
    cs = client.get("/api/me/notifications/", HTTP_ACCEPT_LANGUAGE="cs").json()["results"][0]
    assert cs["text"] != first["text"]

    answer = client.post("/api/me/notifications/read/", {"ids": [first["id"]]},
                         content_type="application/json")  # fmt: skip
    assert answer.status_code == 200 and answer.json() == {"marked": 1, "unread": 2}
    assert client.get(reverse("header-counts")).json()["notifications"] == 2
    assert client.get(reverse("notifications")).context["unread_notifications"] == 2
    # Someone else's notice is not marked.
    other = Notification.objects.get(recipient=ben).pk
    assert client.post("/api/me/notifications/read/", {"ids": [other]},
                       content_type="application/json").json()["marked"] == 0  # fmt: skip
    assert Notification.objects.get(pk=other).read_at is None
    # Bad input: 400, nothing changes.
    for body in ({}, {"ids": []}, {"ids": ["x"]}, {"all": True, "ids": [1]}, {"ids": 5},
                 {"ids": [2**63]}):  # fmt: skip
        response = client.post("/api/me/notifications/read/", body, content_type="application/json")
        assert response.status_code == 400, body
    assert client.get(reverse("header-counts")).json()["notifications"] == 2
    assert client.post("/api/me/notifications/read/", {"all": True},
                       content_type="application/json").json() == {"marked": 2, "unread": 0}  # fmt: skip
    page = client.get(reverse("notifications"))
    assert 'id="notification-badge"' not in page.content.decode()


def test_mark_all_read_button(client):
    ann = member("ann")
    _paired(ann)
    client.force_login(ann)
    assert 'id="mark-all-read"' in client.get(reverse("notifications")).content.decode()
    client.post(reverse("notifications-read"))
    assert Notification.objects.get(recipient=ann).read_at is not None


def test_preferences_page(client):
    ann = member("ann")
    client.force_login(ann)
    page = client.get(reverse("notification-preferences"))
    assert page.status_code == 200 and 'name="match_finished"' in page.content.decode()
    form = {kind: "immediately" for kind in page.context["form"].fields}
    form["match_finished"] = "never"
    assert client.post(reverse("notification-preferences"), form).status_code == 302
    assert services.delivery_for(ann, "match_finished") == "never"
    form["your_move"] = "sometimes"
    assert client.post(reverse("notification-preferences"), form).status_code == 200
    assert NotificationPreference.objects.filter(user=ann, kind="your_move").count() == 0


def test_one_click_unsubscribe_stops_that_kind_only(client, smtp_server):
    ann = member("ann")
    _paired(ann)
    [message] = smtp_server.wait_for(1)
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "/notifications/preferences/" in body_text(message)
    path = unsubscribe_path(message)
    # GET: a page with a button, nothing changed yet.
    page = client.get(path)
    assert page.status_code == 200 and 'id="unsubscribe"' in page.content.decode()
    assert services.delivery_for(ann, "round_paired") == "immediately"
    # The mail program's POST: no session, no CSRF token.
    from django.test import Client

    response = Client(enforce_csrf_checks=True).post(path, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert services.delivery_for(ann, "round_paired") == "never"
    assert services.delivery_for(ann, "result_to_confirm") == "immediately"
    _paired(ann, key="round_paired:2")
    services.notify(user=ann, kind="result_to_confirm", key="result_to_confirm:1", data=DATA)
    messages = smtp_server.wait_for(2)
    assert len(messages) == 2 and "confirm" in body_text(messages[1])
    # A forged token: 400, nothing changes.
    assert client.post(path[:-5] + "xxxx/").status_code == 400
