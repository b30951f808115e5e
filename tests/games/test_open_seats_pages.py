"""The lobby's open seats: create with an open seat, list, join, cancel; match page."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Match, MatchStatus, TimeControl
from tests.games.factories import HumanPlayerFactory

pytestmark = pytest.mark.django_db


def _open_from_lobby(client, player, **fields):
    client.force_login(player.user)
    data = {"game": "greatwall", "seats": 2, "seat_0": "me", "seat_1": "open", "time_control": ""}
    data.update(fields)
    response = client.post(reverse("play"), data)
    assert response.status_code == 302, response.context["form"].errors
    return Match.objects.latest("pk")


def test_a_lobby_match_with_an_open_seat_waits_and_is_listed(client):
    alice, bob = HumanPlayerFactory(user__username="alice"), HumanPlayerFactory()
    TimeControl.objects.create(name="Blitz", initial_s=300, increment_s=3)
    match = _open_from_lobby(client, alice, time_control="cl:300+3")
    assert match.status == MatchStatus.PENDING and match.open_seats.count() == 1
    page = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    assert "Open seat — anyone may take it" in page and "Cancel the match" in page
    assert 'hx-trigger="every 2s"' in page  # the creator's page notices the start
    client.force_login(bob.user)
    lobby = client.get(reverse("play")).content.decode()
    row = lobby[lobby.index(f'id="open-game-{match.pk}"') :].split("</tr>")[0]
    assert "Great Wall" in row and "alice" in row and "1 of 2" in row and "5 min + 3 s" in row
    assert reverse("play-join", args=[match.pk]) in row


def test_joining_from_the_lobby_starts_the_match_for_both(client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = _open_from_lobby(client, alice)
    client.force_login(bob.user)
    response = client.post(reverse("play-join", args=[match.pk]))
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING
    assert f'id="open-game-{match.pk}"' not in client.get(reverse("play")).content.decode()
    page = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    assert "you are seat 2" in page and "<svg" in page


def test_joining_twice_or_late_shows_a_message_and_changes_nothing(client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = _open_from_lobby(client, alice)
    own = client.post(reverse("play-join", args=[match.pk]), follow=True)
    assert "You already have a seat in this match." in own.content.decode()
    assert match.seats.count() == 1
    Match.objects.filter(pk=match.pk).update(created_at=timezone.now() - timedelta(days=2))
    client.force_login(bob.user)
    assert f'id="open-game-{match.pk}"' not in client.get(reverse("play")).content.decode()
    late = client.post(reverse("play-join", args=[match.pk]), follow=True)
    assert "Nobody joined in time" in late.content.decode()
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED and match.seats.count() == 1


def test_the_creator_cancels_from_the_lobby_and_others_cannot(client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = _open_from_lobby(client, alice)
    assert reverse("play-cancel", args=[match.pk]) in client.get(reverse("play")).content.decode()
    client.force_login(bob.user)
    client.post(reverse("play-cancel", args=[match.pk]))
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING
    client.force_login(alice.user)
    response = client.post(reverse("play-cancel", args=[match.pk]), follow=True)
    assert "The match was cancelled." in response.content.decode()
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED


def test_join_and_cancel_want_a_login_and_a_post(client):
    alice = HumanPlayerFactory()
    match = _open_from_lobby(client, alice)
    client.logout()
    response = client.post(reverse("play-join", args=[match.pk]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(HumanPlayerFactory().user)
    assert client.get(reverse("play-join", args=[match.pk])).status_code == 405
    assert client.post(reverse("play-join", args=[match.pk + 99]), follow=True).status_code == 200
    match.refresh_from_db()
    assert match.seats.count() == 1


def test_open_seats_only_is_a_form_error(client):
    alice = HumanPlayerFactory()
    client.force_login(alice.user)
    data = {"game": "silkroad", "seats": 2, "seat_0": "open", "seat_1": "open"}
    response = client.post(reverse("play"), data)
    assert response.status_code == 200 and not Match.objects.exists()
    assert "Choose “Me” for exactly one seat." in response.content.decode()


def test_people_count_seats_from_one_on_the_match_page(client):
    alice = HumanPlayerFactory()
    match = _open_from_lobby(client, alice, game="silkroad", seats=3, seat_2="greedy")
    waiting = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    assert "Prediction" not in waiting  # nobody to predict for the open seat yet
    client.force_login(HumanPlayerFactory().user)
    client.post(reverse("play-join", args=[match.pk]))
    client.force_login(alice.user)
    page = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    prediction = page[page.index('class="predictions"') :].split("</p>")[0]
    # The forecast names the players (the seats table gives their seat numbers).
    assert f"{alice}: place" in prediction and prediction.count(": place") == 3
    assert "seat 0" not in prediction
    assert "you are seat 1" in page
    seats_table = page[page.index('class="grid seats"') :].split("</table>")[0]
    assert (
        '<td class="seat-no">1</td>' in seats_table and '<td class="seat-no">3</td>' in seats_table
    )
    assert '<td class="seat-no">0</td>' not in seats_table


def test_a_running_match_is_not_cancelled_from_the_lobby(client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = _open_from_lobby(client, alice)
    client.force_login(bob.user)
    client.post(reverse("play-join", args=[match.pk]))
    client.force_login(alice.user)
    response = client.post(reverse("play-cancel", args=[match.pk]), follow=True)
    assert "Only a match still waiting for players" in response.content.decode()
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING
