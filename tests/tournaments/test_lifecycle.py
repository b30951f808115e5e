"""Pause, resume, cancel and the cap on rounds (tournaments.services.lifecycle)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from games import services as game_services
from games.models import Match
from tests.games.factories import UserFactory
from tests.tournaments.factories import tournament_with_bots
from tournaments import services
from tournaments.models import RoundStatus, Tournament
from tournaments.services import lifecycle

pytestmark = pytest.mark.django_db


def _finish_round(t: Tournament) -> None:
    rnd = t.rounds.get(number=t.current_round if t.current_round else 1)
    for table in rnd.tables.all():
        services.record_result(table=table, ranks=list(range(1, table.seats.count() + 1)))


def test_paused_tournament_pairs_no_new_round_until_resumed():
    organiser = UserFactory()
    t = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 3}, organiser=organiser,
                             over_the_board=True)  # fmt: skip
    services.start_tournament(tournament=t)
    lifecycle.pause(tournament=t, by=organiser)
    # The running round goes on: results still count.
    _finish_round(t)
    t.refresh_from_db()
    assert t.rounds.get(number=1).status == RoundStatus.FINISHED
    assert services.advance_tournament(tournament_id=t.pk) is None
    with pytest.raises(ValidationError, match="paused"):
        services.pair_next_round(tournament=t)
    assert t.rounds.count() == 1
    lifecycle.resume(tournament=t, by=organiser)
    assert t.rounds.count() == 2  # the finished round moved on at once
    with pytest.raises(ValidationError, match="not paused"):
        lifecycle.resume(tournament=t, by=organiser)


def test_only_the_organiser_pauses_resumes_or_cancels(api_client):
    organiser = UserFactory()
    t = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 2}, organiser=organiser)
    api_client.force_authenticate(UserFactory())
    for action in ("pause", "resume", "cancel"):
        assert api_client.post(f"/api/tournaments/{t.pk}/{action}/").status_code == 403
    with pytest.raises(PermissionDenied):
        lifecycle.cancel(tournament=t, by=UserFactory())
    api_client.force_authenticate(organiser)
    paused = api_client.post(f"/api/tournaments/{t.pk}/pause/")
    assert paused.status_code == 200 and paused.json()["paused"] is True
    again = api_client.post(f"/api/tournaments/{t.pk}/pause/")
    # A state the request cannot change names itself by code, as the games' errors do.
    assert again.status_code == 400 and again.json()["code"] == "already_paused"
    resumed = api_client.post(f"/api/tournaments/{t.pk}/resume/")
    assert resumed.json() == {"id": t.pk, "status": "registration", "paused": False}
    cancelled = api_client.post(f"/api/tournaments/{t.pk}/cancel/")
    assert cancelled.json()["status"] == "cancelled"
    for action in ("pause", "cancel"):
        assert api_client.post(f"/api/tournaments/{t.pk}/{action}/").status_code == 400
    assert api_client.get(f"/api/tournaments/{t.pk}/").json()["status"] == "cancelled"


def test_cancel_aborts_matches_nobody_has_played_in_and_is_final():
    organiser = UserFactory()
    t = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 2}, organiser=organiser)
    services.start_tournament(tournament=t)
    matches = list(Match.objects.filter(table__round__tournament=t))
    assert len(matches) == 2 and all(m.status in ("running", "pending") for m in matches)
    lifecycle.cancel(tournament=t, by=organiser)
    t.refresh_from_db()
    assert t.status == "cancelled" and t.finished_at is not None
    # Bots only: no human decided, so both could be (and were) aborted.
    assert set(
        Match.objects.filter(pk__in=[m.pk for m in matches]).values_list("status", flat=True)
    ) == {"aborted"}
    with pytest.raises(ValidationError):
        services.pair_next_round(tournament=t)
    with pytest.raises(ValidationError):
        services.start_tournament(tournament=t)


def test_cancel_leaves_a_match_that_can_no_longer_be_aborted(monkeypatch):
    organiser = UserFactory()
    t = tournament_with_bots(n=2, config={"table_size": 2, "rounds": 1}, organiser=organiser)
    services.start_tournament(tournament=t)
    match = Match.objects.get(table__round__tournament=t)
    # A match past its first decisions refuses to abort (games' rule); cancel goes on.
    monkeypatch.setattr(game_services.matches, "everyone_has_decided", lambda runner: True)
    lifecycle.cancel(tournament=t, by=organiser)
    match.refresh_from_db()
    t.refresh_from_db()
    assert t.status == "cancelled" and match.status != "aborted"


def test_rounds_are_capped_by_the_format_and_a_hard_cap():
    organiser = UserFactory()
    t = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 2}, organiser=organiser,
                             over_the_board=True, auto_advance=False)  # fmt: skip
    assert lifecycle.round_cap(t) == 2
    league = tournament_with_bots(n=4, format="league", config={"table_size": 2, "double": True})
    assert lifecycle.round_cap(league) == 6
    elim = tournament_with_bots(n=4, format="single_elimination", config={"table_size": 2})
    assert lifecycle.round_cap(elim) == lifecycle.HARD_ROUND_CAP
    services.start_tournament(tournament=t)
    for _ in range(2):
        _finish_round(t)
        services.pair_next_round(tournament=t)
        t.refresh_from_db()
    assert t.status == "finished" and t.rounds.count() == 2
    # A stored row beyond the checks (as from before them): the hard cap still ends it.
    Tournament.objects.filter(pk=league.pk).update(config={"table_size": 2, "rounds": 10**12})
    league.refresh_from_db()
    assert lifecycle.round_cap(league) == lifecycle.HARD_ROUND_CAP


def test_lifecycle_buttons_on_the_page(client):
    organiser = UserFactory()
    t = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 2}, organiser=organiser)
    client.force_login(UserFactory())
    assert client.post(reverse("tournament-pause", args=[t.pk])).status_code == 403
    client.force_login(organiser)
    page = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    assert 'id="pause"' in page and 'id="cancel"' in page
    response = client.post(reverse("tournament-pause", args=[t.pk]), follow=True)
    assert 'id="resume"' in response.content.decode()
    response = client.post(reverse("tournament-cancel", args=[t.pk]), follow=True)
    assert response.status_code == 200
    t.refresh_from_db()
    assert t.status == "cancelled" and not t.paused
    assert 'id="cancel"' not in response.content.decode()


def test_the_hard_cap_ends_a_tournament_whatever_its_format_plans(monkeypatch):
    organiser = UserFactory()
    t = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 3}, organiser=organiser,
                             over_the_board=True, auto_advance=False)  # fmt: skip
    monkeypatch.setattr(lifecycle, "HARD_ROUND_CAP", 1)
    services.start_tournament(tournament=t)
    _finish_round(t)
    assert services.pair_next_round(tournament=t) is None
    t.refresh_from_db()
    assert t.status == "finished" and t.rounds.count() == 1
