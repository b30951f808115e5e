"""Consent: humans seated by someone else are invited; the match waits for them."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import RequestFactory
from django.utils import timezone

from core.context_processors import pending_invitations
from games import services, tasks
from games.models import Invitation, InvitationStatus, Match, MatchStatus, Seat
from tests.games.factories import HumanPlayerFactory

pytestmark = pytest.mark.django_db


def _invite(api_client, creator, *others, **extra):
    api_client.force_authenticate(creator.user)
    seats = [
        {"player": creator.name},
        *({"player": p.name} for p in others),
        *extra.pop("bots", []),
    ]
    body = {"game": "silkroad", "seats": seats, "time_control": {"per_move_s": 60}, **extra}
    response = api_client.post("/api/matches/", body, format="json")
    assert response.status_code == 201, response.content
    return Match.objects.get(pk=response.json()["id"]), response.json()


def _mine(api_client, player, **params):
    api_client.force_authenticate(player.user)
    response = api_client.get("/api/me/invitations/", params)
    assert response.status_code == 200
    return response.json()


def test_a_match_seating_another_human_waits_until_he_accepts(api_client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match, body = _invite(api_client, alice, bob)  # humans only: a clock runs from the start
    assert body["status"] == "pending" and body["deadline"] is None and body["ply"] == 0
    assert match.state is None and match.started_at is None
    assert api_client.get("/api/me/turns/").json() == []
    assert _mine(api_client, alice) == []  # the creator consented by creating
    [row] = _mine(api_client, bob)
    assert (row["kind"], row["match"], row["invited_by"], row["status"]) == (
        "match", match.pk, alice.name, "pending")  # fmt: skip
    assert row["expires_at"] and row["id"]
    url = f"/api/invitations/{row['id']}"
    api_client.force_authenticate(alice.user)
    assert api_client.post(f"{url}/accept/").status_code == 403
    assert api_client.post("/api/invitations/999999/accept/").status_code == 404
    api_client.force_authenticate(None)
    assert api_client.post(f"{url}/accept/").status_code in (401, 403)
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING
    api_client.force_authenticate(bob.user)
    accepted = api_client.post(f"{url}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING and match.deadline is not None
    again = api_client.post(f"{url}/decline/")
    assert again.status_code == 409 and again.json()["code"] == "invitation_closed"


def test_the_match_starts_only_when_every_invited_human_accepted(api_client):
    alice, bob, carol = HumanPlayerFactory(), HumanPlayerFactory(), HumanPlayerFactory()
    match, _ = _invite(api_client, alice, bob, carol)
    for i, player in enumerate([bob, carol]):
        [row] = _mine(api_client, player, status="pending")
        assert api_client.post(f"/api/invitations/{row['id']}/accept/").status_code == 200
        match.refresh_from_db()
        assert match.status == (MatchStatus.RUNNING if i == 1 else MatchStatus.PENDING)


def test_a_decline_cancels_the_match_and_the_other_invitations(api_client):
    alice, bob, carol = HumanPlayerFactory(), HumanPlayerFactory(), HumanPlayerFactory()
    match, _ = _invite(api_client, alice, bob, carol)
    [row] = _mine(api_client, bob)
    declined = api_client.post(f"/api/invitations/{row['id']}/decline/")
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED and match.started_at is None
    assert match.abort_reason == f"{bob.name} declined the invitation"
    [other] = _mine(api_client, carol)
    assert other["status"] == "cancelled"
    assert api_client.post(f"/api/invitations/{other['id']}/accept/").status_code == 409


def test_expired_invitations_cancel_the_match_by_the_periodic_task(api_client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match, _ = _invite(api_client, alice, bob)
    invitation = Invitation.objects.get(match=match)
    hours = (invitation.expires_at - invitation.created_at) / timedelta(hours=1)
    assert round(hours) == settings.INVITATION_HOURS == 24
    assert "games.tasks.expire_invitations" in {
        e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()
    }
    tasks.expire_invitations()  # not yet due: nothing changes
    assert Invitation.objects.get(pk=invitation.pk).status == InvitationStatus.PENDING
    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert _mine(api_client, bob, status="pending") == []
    tasks.expire_invitations()
    match.refresh_from_db()
    assert Invitation.objects.get(pk=invitation.pk).status == InvitationStatus.EXPIRED
    assert match.status == MatchStatus.ABORTED and "expired" in match.abort_reason


def test_an_expired_invitation_is_refused_on_accept_even_before_the_task_runs(api_client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match, _ = _invite(api_client, alice, bob)
    Invitation.objects.filter(match=match).update(expires_at=timezone.now() - timedelta(seconds=1))
    api_client.force_authenticate(bob.user)
    invitation = Invitation.objects.get(match=match)
    response = api_client.post(f"/api/invitations/{invitation.pk}/accept/")
    assert response.status_code == 409 and "expired" in response.json()["detail"]
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED
    assert Invitation.objects.get(pk=invitation.pk).status == InvitationStatus.EXPIRED


def test_own_external_bot_and_builtin_bots_need_no_invitation(api_client):
    alice = HumanPlayerFactory()
    bot, _ = services.create_external_bot(name="alices-bot", owner=alice.user)
    match, body = _invite(api_client, alice, bot, bots=[{"bot": "greedy"}])
    assert body["status"] == "running" and not Invitation.objects.exists()
    other_bot, _ = services.create_external_bot(name="bobs-bot", owner=HumanPlayerFactory().user)
    match, body = _invite(api_client, alice, other_bot)
    assert body["status"] == "pending"
    assert Invitation.objects.get(match=match).player == other_bot


def test_invitation_page_accepts_and_the_header_shows_the_count(api_client, client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match, _ = _invite(api_client, alice, bob)
    client.force_login(bob.user)
    home = client.get("/")
    assert (
        'id="invitation-badge"' in home.content.decode()
        and home.context["pending_invitations"] == 1
    )
    page = client.get("/invitations/")
    invitation = Invitation.objects.get(match=match)
    assert f'action="/invitations/{invitation.pk}/accept/"' in page.content.decode()
    assert "csrfmiddlewaretoken" in page.content.decode()
    client.force_login(alice.user)
    refused = client.post(f"/invitations/{invitation.pk}/accept/", follow=True)
    assert "only the invited player" in refused.content.decode()
    client.force_login(bob.user)
    response = client.post(f"/invitations/{invitation.pk}/accept/")
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING
    assert 'id="invitation-badge"' not in client.get("/").content.decode()


def test_declining_on_the_page_cancels_the_match(api_client, client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match, _ = _invite(api_client, alice, bob)
    client.force_login(bob.user)
    invitation = Invitation.objects.get(match=match)
    assert client.post(f"/invitations/{invitation.pk}/decline/").status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED
    assert client.get("/invitations/").status_code == 200
    client.logout()
    assert client.get("/invitations/").status_code == 302  # to the log-in page


def test_the_badge_costs_one_query_and_nothing_for_visitors(django_assert_num_queries):
    from django.contrib.auth.models import AnonymousUser

    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    with django_assert_num_queries(0):
        assert pending_invitations(request) == {}
    request.user = HumanPlayerFactory().user
    with django_assert_num_queries(1):
        assert pending_invitations(request) == {"pending_invitations": 0}


def test_platform_created_matches_seat_players_who_agreed_elsewhere():
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    organiser = HumanPlayerFactory().user
    match = services.create_match(
        game="silkroad", players=[alice, bob], created_by=organiser, consented=True
    )
    assert match.status == MatchStatus.RUNNING and not Invitation.objects.exists()
    assert Seat.objects.filter(match=match).count() == 2
