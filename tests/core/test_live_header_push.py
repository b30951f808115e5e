"""The header's counts by push (core/live_header.py, the feed "user" on <body>) through the
production web server's `/events/`: an invitation, its answer and a notice move the
counts on the invitee's stream, nobody else's; anonymous readers are refused.
(tests/core/test_live_header.py tests the polling endpoint these replace.)"""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from notifications import services as notices
from notifications.models import NoticeKind
from tests.games.factories import HumanPlayerFactory
from tests.live_server import open_stream

pytestmark = pytest.mark.django_db(transaction=True)  # the server reads what was committed


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _cookies(client: Client) -> dict:
    return {"sessionid": client.cookies["sessionid"].value}


def _counts_until(stream, wanted: dict) -> dict:
    """The counts pushed, read until they are `wanted` (one change may come in steps)."""
    seen = []
    for _ in range(5):
        event = stream.next_event()
        assert event is not None, f"counts never became {wanted}: {seen}"
        assert event.name == "user" and set(event.json) == {"counts"}
        seen.append(event.json["counts"])
        if event.json["counts"] == wanted:
            return event.json["counts"]
    raise AssertionError(f"counts never became {wanted}: {seen}")


def test_a_signed_in_page_names_the_user_feed_with_its_counts():
    alice = HumanPlayerFactory()
    page = _signed_in(alice.user).get("/").content.decode()
    assert 'data-live-feed="user@0-0-0"' in page
    assert "data-live-feed" not in Client().get("/").content.decode()


def test_an_invitation_moves_the_invitees_counts_and_nobody_elses(server):
    alice, bob, carol = HumanPlayerFactory(), HumanPlayerFactory(), HumanPlayerFactory()
    as_alice = _signed_in(alice.user)
    mine = open_stream(server, ["user@0-0-0"], cookies=_cookies(as_alice))
    others = open_stream(server, ["user@0-0-0"], cookies=_cookies(_signed_in(carol.user)))
    assert (mine.status, others.status) == (200, 200)
    assert mine.next_event(timeout=1.0) is None  # current when it opened

    match = services.create_match(game="silkroad", players=[bob, alice], created_by=bob.user)
    # The invitation, and the notice telling of it.
    invited = {"turns": 0, "invitations": 1, "notifications": 1}
    assert _counts_until(mine, invited) == as_alice.get("/header/counts/").json()
    assert others.next_event(timeout=1.5) is None

    invitation = match.invitations.get()
    services.accept_invitation(invitation_id=invitation.pk, user=alice.user)
    match.refresh_from_db()
    started = {"turns": 1 if match.to_act == 1 else 0, "invitations": 0, "notifications": 1}
    assert _counts_until(mine, started) == as_alice.get("/header/counts/").json()
    assert others.next_event(timeout=1.0) is None
    mine.close()
    others.close()


def test_a_notice_made_and_read_moves_the_bell(server):
    alice = HumanPlayerFactory()
    stream = open_stream(server, ["user@0-0-0"], cookies=_cookies(_signed_in(alice.user)))
    notice = notices.notify(user=alice.user, kind=NoticeKind.MATCH_FINISHED, key="test:1")
    _counts_until(stream, {"turns": 0, "invitations": 0, "notifications": 1})
    notices.mark_read(user=alice.user, ids=[notice.pk])
    _counts_until(stream, {"turns": 0, "invitations": 0, "notifications": 0})
    stream.close()


def test_a_stale_page_gets_the_counts_at_once_and_a_visitor_is_refused(server):
    alice = HumanPlayerFactory()
    stream = open_stream(server, ["user@3-1-4"], cookies=_cookies(_signed_in(alice.user)))
    event = stream.next_event()
    assert event.json == {"counts": {"turns": 0, "invitations": 0, "notifications": 0}}
    assert event.id == "user@0-0-0"
    stream.close()
    for spec, status, cookies in [("user@0-0-0", 403, None), ("user:1@0-0-0", 400, None)]:
        refused = open_stream(server, [spec], cookies=cookies)
        assert refused.status == status, spec
        refused.close()
