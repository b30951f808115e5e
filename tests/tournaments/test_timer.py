"""The round timer (tournaments.services.timer): start, pause, resume, reset; the time left
computed on the server; refusals with codes; the organiser's buttons on the page."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import F
from django.test import Client
from django.utils import timezone

from tests.games.factories import UserFactory
from tests.tournaments.factories import tournament_with_bots
from tournaments import services
from tournaments.models import Round, Tournament
from tournaments.services import timer

pytestmark = pytest.mark.django_db


def _round(organiser=None):
    organiser = organiser or UserFactory()
    t = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 2}, over_the_board=True,
                             auto_advance=False, organiser=organiser)  # fmt: skip
    services.start_tournament(tournament=t)
    rnd = t.rounds.get(number=1)
    services.start_round(round_=rnd)
    return Round.objects.select_related("tournament").get(pk=rnd.pk)


def _code(excinfo) -> str:
    return excinfo.value.error_list[0].code


def test_start_pause_resume_and_reset_keep_the_time_run():
    rnd = _round()
    by = rnd.tournament.organiser
    t0 = timezone.now()
    assert timer.state(rnd) is None  # no length: nothing to show
    timer.start_timer(round_=rnd, by=by, minutes=30, now=t0)
    state = timer.state(rnd, t0 + timedelta(seconds=90))
    assert state["running"] and state["remaining_s"] == 30 * 60 - 90
    assert state["remaining"] == "28:30" and not state["over"]
    timer.pause_timer(round_=rnd, by=by, now=t0 + timedelta(seconds=90))
    stored = Round.objects.get(pk=rnd.pk)
    assert stored.timer_started_at is None and stored.timer_elapsed_s == 90
    # Paused: the clock stands still however long the pause.
    assert timer.state(stored, t0 + timedelta(hours=2))["remaining_s"] == 30 * 60 - 90
    timer.start_timer(round_=rnd, by=by, now=t0 + timedelta(seconds=300))  # resume
    state = timer.state(Round.objects.get(pk=rnd.pk), t0 + timedelta(seconds=310))
    assert state["running"] and state["elapsed_s"] == 100 and state["minutes"] == 30
    # Past its length: 0:00, time is up (the round goes on).
    late = timer.state(rnd, t0 + timedelta(hours=1))
    assert late["remaining"] == "0:00" and late["over"] and late["remaining_s"] == 0
    timer.reset_timer(round_=rnd, by=by)
    stored = Round.objects.get(pk=rnd.pk)
    assert (stored.timer_started_at, stored.timer_elapsed_s, stored.timer_minutes) == (None, 0, 30)
    assert timer.state(stored)["remaining"] == "30:00" and not timer.state(stored)["started"]


def test_every_change_moves_the_results_version():
    rnd = _round()
    by = rnd.tournament.organiser
    before = Tournament.objects.get(pk=rnd.tournament_id).results_version
    timer.start_timer(round_=rnd, by=by, minutes=5)
    timer.pause_timer(round_=rnd, by=by)
    timer.reset_timer(round_=rnd, by=by)
    assert Tournament.objects.get(pk=rnd.tournament_id).results_version == before + 3


def test_refusals_say_why():
    rnd = _round()
    by = rnd.tournament.organiser
    for minutes in (0, 601, True, "10"):
        with pytest.raises(ValidationError) as excinfo:
            timer.start_timer(round_=rnd, by=by, minutes=minutes)
        assert _code(excinfo) == "timer_minutes", minutes
    with pytest.raises(ValidationError) as excinfo:
        timer.pause_timer(round_=rnd, by=by)
    assert _code(excinfo) == "timer_not_running"
    timer.start_timer(round_=rnd, by=by)  # no length given: the default
    assert Round.objects.get(pk=rnd.pk).timer_minutes == timer.DEFAULT_MINUTES
    with pytest.raises(ValidationError) as excinfo:
        timer.start_timer(round_=rnd, by=by, minutes=10)
    assert _code(excinfo) == "timer_running"
    with pytest.raises(PermissionDenied):
        timer.pause_timer(round_=rnd, by=UserFactory())
    Round.objects.filter(pk=rnd.pk).update(status="finished", timer_started_at=None)
    with pytest.raises(ValidationError) as excinfo:
        timer.start_timer(round_=Round.objects.get(pk=rnd.pk), by=by)
    assert _code(excinfo) == "round_finished"


def test_clock_text():
    assert [timer.clock(s) for s in (0, 9, 60, 599, 5400, -3)] == [
        "0:00", "0:09", "1:00", "9:59", "90:00", "0:00",
    ]  # fmt: skip


def test_the_organiser_starts_pauses_and_resets_from_the_page():
    organiser = UserFactory()
    rnd = _round(organiser)
    t = rnd.tournament
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="timer-start"' in page and f"/rounds/{rnd.number}/timer/start/" in page
    assert "js/round-timer.js" in page and 'id="timer-reset"' not in page
    base = f"/tournaments/{t.pk}/rounds/{rnd.number}/timer"
    done = client.post(f"{base}/start/", {"minutes": "25"}, follow=True)
    assert [str(m) for m in done.context["messages"]] == ["Timer of Round 1 running."]
    stored = Round.objects.get(pk=rnd.pk)
    assert stored.timer_minutes == 25 and stored.timer_started_at is not None
    page = done.content.decode()
    assert "data-round-timer" in page and 'data-running="true"' in page
    assert 'id="timer-pause"' in page
    bad = client.post(f"{base}/start/", {"minutes": "25"}, follow=True)  # already running
    assert "already running" in str(list(bad.context["messages"])[0])
    # A minute has run (paused within the same second it would still read "not started").
    Round.objects.filter(pk=rnd.pk).update(
        timer_started_at=F("timer_started_at") - timedelta(minutes=1)
    )
    client.post(f"{base}/pause/", follow=True)
    assert Round.objects.get(pk=rnd.pk).timer_started_at is None
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Resume timer" in page and 'id="timer-reset"' in page
    # Reset asks first (GET: what will happen), then acts (POST).
    Round.objects.filter(pk=rnd.pk).update(timer_elapsed_s=120)
    ask = client.get(f"{base}/reset/")
    assert ask.status_code == 200 and "Reset the timer of Round 1?" in ask.content.decode()
    assert Round.objects.get(pk=rnd.pk).timer_elapsed_s == 120  # a GET changes nothing
    reset = client.post(f"{base}/reset/", follow=True)
    assert [str(m) for m in reset.context["messages"]] == ["Timer of Round 1 reset."]
    assert Round.objects.get(pk=rnd.pk).timer_elapsed_s == 0
    wrong = client.post(f"{base}/start/", {"minutes": "ten"}, follow=True)
    assert "from 1 to 600 minutes" in str(list(wrong.context["messages"])[0])


def test_only_the_organiser_may_use_the_buttons():
    rnd = _round()
    t = rnd.tournament
    base = f"/tournaments/{t.pk}/rounds/{rnd.number}/timer"
    anonymous = Client().post(f"{base}/start/", {"minutes": "10"})
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    other = Client()
    other.force_login(UserFactory())
    assert other.post(f"{base}/start/", {"minutes": "10"}).status_code == 403
    assert other.get(f"{base}/reset/").status_code == 403
    assert Client().get(f"/tournaments/{t.pk}/").content.decode().count("timer-start") == 0
    assert Round.objects.get(pk=rnd.pk).timer_started_at is None
