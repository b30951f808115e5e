"""Final actions ask first: GET says what will happen, POST acts (tournaments.views.actions.final)."""

import pytest
from django.urls import reverse

from tests.games.factories import UserFactory
from tests.tournaments.factories import tournament_with_bots
from tournaments import services
from tournaments.models import TableStatus

pytestmark = pytest.mark.django_db


def _board(organiser, n=4):
    return tournament_with_bots(n=n, organiser=organiser, over_the_board=True, auto_advance=False,
                                config={"table_size": 2, "rounds": 2})  # fmt: skip


def test_start_asks_then_starts(client):
    organiser = UserFactory()
    t = _board(organiser)
    url = reverse("tournament-start", args=[t.pk])
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    detail = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    assert f'href="{url}" id="start"' in detail  # a link, not a form that acts
    page = client.get(url).content.decode()
    assert "4 entrants are paired for round 1." in page and 'id="confirm"' in page
    t.refresh_from_db()
    assert t.status == "registration"  # asking changed nothing
    assert client.post(url).status_code == 302
    t.refresh_from_db()
    assert t.status == "running"


def test_withdraw_asks_then_withdraws(client):
    organiser = UserFactory()
    t = _board(organiser)
    services.start_tournament(tournament=t)
    entry = t.entries.first()
    url = reverse("tournament-withdraw", args=[t.pk, entry.pk])
    client.force_login(organiser)
    assert (
        f'id="withdraw-{entry.pk}"'
        in client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    )
    page = client.get(url).content.decode()
    assert "is not paired in any later round" in page
    entry.refresh_from_db()
    assert entry.withdrawn_after is None
    client.post(url)
    entry.refresh_from_db()
    assert entry.withdrawn_after is not None


def test_cancel_asks_and_is_set_apart_from_pause(client):
    organiser = UserFactory()
    t = _board(organiser)
    client.force_login(organiser)
    detail = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    assert 'class="danger-zone"' in detail and 'class="button danger" id="cancel"' in detail
    page = client.get(reverse("tournament-cancel", args=[t.pk])).content.decode()
    assert "You can undo it" in page and "10 minutes" in page
    t.refresh_from_db()
    assert t.status == "registration"


def test_forfeit_asks_then_records(client):
    organiser = UserFactory()
    t = _board(organiser)
    services.start_tournament(tournament=t)
    table = t.rounds.get().tables.first()
    seat = table.seats.first()
    url = reverse("table-forfeit", args=[t.pk, table.pk, seat.entry_id])
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    table_page = client.get(reverse("table-detail", args=[t.pk, table.pk])).content.decode()
    assert f'id="forfeit-{seat.entry_id}"' in table_page
    page = client.get(url).content.decode()
    assert "forfeits table" in page and "ranked last" in page
    table.refresh_from_db()
    assert table.status != TableStatus.FINISHED
    client.post(url)
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED and table.result["forfeited"][seat.index]
