"""Undoing a cancel within 10 minutes (tournaments.services.lifecycle.undo_cancel)."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from games.models import Match
from tests.games.factories import UserFactory
from tests.tournaments.factories import tournament_with_bots
from tournaments import services
from tournaments.models import Tournament
from tournaments.services import lifecycle

pytestmark = pytest.mark.django_db


def _board(organiser):
    return tournament_with_bots(n=4, organiser=organiser, over_the_board=True, auto_advance=False,
                                config={"table_size": 2, "rounds": 2})  # fmt: skip


def test_cancel_records_and_undo_restores_the_status():
    organiser = UserFactory()
    t = _board(organiser)
    services.start_tournament(tournament=t)
    lifecycle.cancel(tournament=t, by=organiser)
    t.refresh_from_db()
    assert t.status == "cancelled" and t.status_before_cancel == "running" and t.cancelled_at
    assert lifecycle.undo_cancel_until(t) == t.cancelled_at + lifecycle.UNDO_CANCEL_WINDOW
    with pytest.raises(PermissionDenied):
        lifecycle.undo_cancel(tournament=t, by=UserFactory())
    lifecycle.undo_cancel(tournament=t, by=organiser)
    t.refresh_from_db()
    assert t.status == "running" and t.cancelled_at is None and t.finished_at is None
    assert lifecycle.undo_cancel_until(t) is None
    with pytest.raises(ValidationError, match="not cancelled"):
        lifecycle.undo_cancel(tournament=t, by=organiser)


def test_undo_is_refused_after_ten_minutes():
    organiser = UserFactory()
    t = _board(organiser)
    lifecycle.cancel(tournament=t, by=organiser)
    Tournament.objects.filter(pk=t.pk).update(
        cancelled_at=t.__class__.objects.get(pk=t.pk).cancelled_at
        - timedelta(minutes=10, seconds=1)
    )
    t.refresh_from_db()
    assert lifecycle.undo_cancel_until(t) is None
    with pytest.raises(ValidationError, match="within 10 minutes") as exc:
        lifecycle.undo_cancel(tournament=t, by=organiser)
    assert exc.value.code == "too_late"
    t.refresh_from_db()
    assert t.status == "cancelled"


def test_a_cancel_that_aborted_matches_cant_be_undone():
    organiser = UserFactory()
    t = tournament_with_bots(n=4, organiser=organiser, config={"table_size": 2, "rounds": 2})
    services.start_tournament(tournament=t)  # online, auto-advance: matches in play
    assert Match.objects.filter(
        table__round__tournament=t, status__in=["pending", "running"]
    ).exists()
    lifecycle.cancel(tournament=t, by=organiser)
    t.refresh_from_db()
    assert lifecycle.undo_cancel_until(t) is None
    with pytest.raises(ValidationError, match="can't be restarted") as exc:
        lifecycle.undo_cancel(tournament=t, by=organiser)
    assert exc.value.code == "matches_aborted"


def test_undo_button_on_the_page_and_the_api(client, api_client):
    organiser = UserFactory()
    t = _board(organiser)
    client.force_login(organiser)
    response = client.post(reverse("tournament-cancel", args=[t.pk]), follow=True)
    assert 'id="undo-cancel"' in response.content.decode()
    response = client.post(reverse("tournament-undo-cancel", args=[t.pk]), follow=True)
    t.refresh_from_db()
    assert t.status == "registration" and 'id="undo-cancel"' not in response.content.decode()
    lifecycle.cancel(tournament=t, by=organiser)
    api_client.force_authenticate(organiser)
    answer = api_client.post(f"/api/tournaments/{t.pk}/undo-cancel/")
    assert answer.status_code == 200 and answer.json()["status"] == "registration"
    answer = api_client.post(f"/api/tournaments/{t.pk}/undo-cancel/")
    assert answer.status_code == 400
