"""The planned start (tournaments.services.scheduling): the sweep starts a tournament at its time
through the Start button's service, once; a refusal is recorded once and shown."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone, translation

from tests.games.factories import UserFactory
from tests.tournaments.factories import tournament_with_bots
from tournaments import services, tasks
from tournaments.models import Tournament, TournamentStatus
from tournaments.selectors import my_tournaments
from tournaments.services import entrants, lifecycle, scheduling

pytestmark = pytest.mark.django_db


def _planned(*, n: int, check_in: bool = False, organiser=None, **kwargs) -> Tournament:
    """A Swiss event of n bots planned to start automatically in an hour."""
    return tournament_with_bots(
        n=n, config={"table_size": 2, "rounds": 2}, organiser=organiser or UserFactory(),
        over_the_board=True, check_in=check_in, auto_start=True,
        starts_at=timezone.now() + timedelta(hours=1), **kwargs,
    )  # fmt: skip


def _time_passes(t: Tournament, minutes: int = 1) -> None:
    """The planned start is now in the past (the row as the clock would leave it)."""
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(minutes=minutes))


def test_not_before_its_time_then_started_once_with_check_in_applied():
    t = _planned(n=4, check_in=True)
    entries = list(t.entries.order_by("pk"))
    for e in entries[:3]:
        entrants.check_in(entry=e, by=t.organiser)
    tasks.sweep_tournaments()
    t.refresh_from_db()
    assert t.status == TournamentStatus.REGISTRATION and t.rounds.count() == 0

    _time_passes(t)
    assert scheduling.start_due() == {t.pk: scheduling.STARTED}
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING and t.started_at is not None
    assert t.auto_start_failed_at is None
    # As the Start button: the entrant who did not check in is withdrawn before round 1.
    assert t.entries.get(pk=entries[3].pk).withdrawn_after == 0
    rnd = t.rounds.get(number=1)
    seated = {s.entry_id for table in rnd.tables.all() for s in table.seats.all()}
    byes = {b.entry_id for b in rnd.byes.all()}
    assert seated | byes == {e.pk for e in entries[:3]}
    # Again: nothing more happens.
    assert scheduling.start_due() == {}
    tasks.sweep_tournaments()
    assert t.rounds.count() == 1


def test_without_auto_start_a_past_planned_start_does_nothing():
    t = _planned(n=4)
    Tournament.objects.filter(pk=t.pk).update(auto_start=False)
    _time_passes(t)
    tasks.sweep_tournaments()
    t.refresh_from_db()
    assert t.status == TournamentStatus.REGISTRATION and t.auto_start_failed_at is None


def test_too_few_entrants_is_recorded_once_and_shown(client):
    t = _planned(n=3, check_in=True)
    entrants.check_in(entry=t.entries.first(), by=t.organiser)
    _time_passes(t, minutes=5)
    assert scheduling.start_due() == {t.pk: scheduling.FAILED}
    t.refresh_from_db()
    assert t.status == TournamentStatus.REGISTRATION and t.rounds.count() == 0
    assert t.auto_start_failure == {"code": "too_few", "entrants": 1, "needed": 2}
    # The refused start changed nothing else: nobody was withdrawn.
    assert not t.entries.filter(withdrawn_after__isnull=False).exists()
    failed_at = t.auto_start_failed_at
    assert failed_at is not None
    # Not retried by later sweeps.
    assert scheduling.start_due() == {}
    tasks.sweep_tournaments()
    t.refresh_from_db()
    assert t.auto_start_failed_at == failed_at

    text = scheduling.failure_text(t)
    assert "too few entrants (1; the format needs at least 2)" in text
    (row,) = my_tournaments(t.organiser)
    assert text in row["todo"] and "Start time reached: start the tournament." in row["todo"]
    client.force_login(t.organiser)
    page = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    assert 'class="autostart-failure"' in page and "the format needs at least 2" in page
    assert "Start it yourself once enough entrants are in" in page
    assert "Starts automatically" not in page and "Planned start:" in page
    mine = client.get(reverse("my-tournaments")).content.decode()
    assert "the format needs at least 2" in mine

    # The organiser starts it by hand once another entrant checks in: the button works.
    entrants.check_in(entry=t.entries.order_by("pk")[1], by=t.organiser)
    services.start_tournament(tournament=t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING


def test_a_new_planned_start_forgets_the_refusal_and_is_tried_again():
    t = _planned(n=2, check_in=True)
    _time_passes(t)
    assert scheduling.start_due() == {t.pk: scheduling.FAILED}
    later = timezone.now() + timedelta(hours=2)
    scheduling.plan_start(tournament=t, by=t.organiser, starts_at=later, auto_start=True)
    t.refresh_from_db()
    assert (t.starts_at, t.auto_start_failed_at, t.auto_start_failure) == (later, None, None)
    for e in t.entries.all():
        entrants.check_in(entry=e, by=t.organiser)
    assert scheduling.start_due() == {}  # not yet
    _time_passes(t)
    assert scheduling.start_due() == {t.pk: scheduling.STARTED}


def test_paused_waits_until_resumed_and_cancelled_never_starts():
    paused = _planned(n=2)
    lifecycle.pause(tournament=paused, by=paused.organiser)
    cancelled = _planned(n=2)
    lifecycle.cancel(tournament=cancelled, by=cancelled.organiser)
    _time_passes(paused)
    _time_passes(cancelled)
    assert scheduling.start_due() == {}
    paused.refresh_from_db()
    assert paused.status == TournamentStatus.REGISTRATION and paused.auto_start_failed_at is None
    lifecycle.resume(tournament=paused, by=paused.organiser)
    tasks.sweep_tournaments()
    paused.refresh_from_db()
    cancelled.refresh_from_db()
    assert paused.status == TournamentStatus.RUNNING
    assert cancelled.status == TournamentStatus.CANCELLED and cancelled.auto_start_failed_at is None


def test_started_by_hand_first_is_left_alone():
    t = _planned(n=2)
    services.start_tournament(tournament=t)
    _time_passes(t)
    assert scheduling.start_due() == {}
    assert t.rounds.count() == 1


def test_a_refusal_other_than_the_count_is_recorded_with_its_reason():
    # A late-entry rule of elimination brackets: the format refuses, not the count.
    t = tournament_with_bots(
        n=4, format="single_elimination", config={"table_size": 2}, organiser=UserFactory(),
        auto_start=True, starts_at=timezone.now() + timedelta(hours=1),
    )  # fmt: skip
    t.entries.update(joined_round=2)
    _time_passes(t)
    assert scheduling.start_due() == {t.pk: scheduling.FAILED}
    t.refresh_from_db()
    assert t.auto_start_failure["code"] == "refused"
    assert "late entries" in t.auto_start_failure["reason"]
    assert "late entries" in scheduling.failure_text(t)


def test_plan_start_checks_who_when_and_what():
    t = _planned(n=2)
    with pytest.raises(PermissionDenied):
        scheduling.plan_start(tournament=t, by=UserFactory(), starts_at=None, auto_start=False)
    with pytest.raises(ValidationError, match="future"):
        scheduling.plan_start(tournament=t, by=t.organiser, auto_start=True,
                             starts_at=timezone.now() - timedelta(minutes=1))  # fmt: skip
    with pytest.raises(ValidationError, match="planned start"):
        scheduling.plan_start(tournament=t, by=t.organiser, starts_at=None, auto_start=True)
    t.refresh_from_db()
    assert t.auto_start and t.starts_at > timezone.now()  # unchanged
    scheduling.plan_start(tournament=t, by=t.organiser, starts_at=None, auto_start=False)
    t.refresh_from_db()
    assert (t.starts_at, t.auto_start) == (None, False)
    services.start_tournament(tournament=t)
    with pytest.raises(ValidationError, match="before the tournament starts"):
        scheduling.plan_start(tournament=t, by=t.organiser, starts_at=None, auto_start=False)


def test_minimum_entrants_is_the_formats():
    assert scheduling.minimum_entrants(_planned(n=0)) == 2
    three = tournament_with_bots(n=0, game="yspahan", format="single_elimination",
                                 config={"table_size": 3, "advance": 2})  # fmt: skip
    assert scheduling.minimum_entrants(three) == 3


def test_the_page_says_when_it_starts_in_the_readers_language(client):
    t = _planned(n=2)
    # 18:30 in Prague, the site's zone for a visitor (winter time: CET, UTC+1).
    t.starts_at = datetime(timezone.now().year + 1, 3, 14, 18, 30, tzinfo=ZoneInfo("Europe/Prague"))
    t.save(update_fields=["starts_at"])
    url = reverse("tournament-detail", args=[t.pk])
    page = client.get(url, headers={"accept-language": "en"}).content.decode()
    assert f"Starts automatically at March 14, {t.starts_at.year}, 6:30 p.m. (CET)" in page
    page = client.get(url, headers={"accept-language": "cs"}).content.decode()
    assert f"Automatický start 14. března {t.starts_at.year} 18:30 (CET)" in page
    Tournament.objects.filter(pk=t.pk).update(auto_start=False)
    page = client.get(url, headers={"accept-language": "cs"}).content.decode()
    assert f"Plánovaný začátek: 14. března {t.starts_at.year} 18:30 (CET)" in page


def test_czech_failure_text_and_todo():
    t = _planned(n=1)
    _time_passes(t)
    scheduling.start_due()
    t.refresh_from_db()
    with translation.override("cs"):
        text = scheduling.failure_text(t)
        (row,) = my_tournaments(t.organiser)
    assert "automaticky nespustil" in text and "potřebuje alespoň 2" in text, text
    assert text in row["todo"]


def test_the_organiser_sets_the_planned_start_on_the_page(client):
    t = _planned(n=2)
    url = reverse("tournament-planned-start", args=[t.pk])
    client.force_login(UserFactory())
    assert client.post(url, {"starts_at": "", "auto_start": ""}).status_code == 403
    client.force_login(t.organiser)
    before = (t.starts_at, t.auto_start)
    bad = client.post(url, {"starts_at": "2020-01-01T10:00", "auto_start": "on"}, follow=True)
    assert "The planned start must be in the future." in bad.content.decode()
    t.refresh_from_db()
    assert (t.starts_at, t.auto_start) == before
    missing = client.post(url, {"starts_at": "", "auto_start": "on"}, follow=True)
    assert "Set the planned start to start automatically." in missing.content.decode()
    # Typed as the organiser's wall time (the site's zone here), stored as that moment.
    later = timezone.localtime(timezone.now() + timedelta(days=3)).replace(second=0, microsecond=0)
    done = client.post(url, {"starts_at": later.strftime("%Y-%m-%dT%H:%M"), "auto_start": ""},
                       follow=True)  # fmt: skip
    assert "Planned start saved." in done.content.decode()
    t.refresh_from_db()
    assert (t.starts_at, t.auto_start) == (later, False)
    # The form shows the stored plan back.
    assert f'value="{later.strftime("%Y-%m-%dT%H:%M")}"' in done.content.decode()


def test_api_create_and_planned_start(api_client):
    organiser = UserFactory()
    api_client.force_authenticate(organiser)
    soon = timezone.now() + timedelta(hours=1)
    made = api_client.post("/api/tournaments/", {
        "name": "Friday", "game": "silkroad", "format": "swiss", "config": {"table_size": 2},
        "starts_at": soon.isoformat(), "auto_start": True,
    }, format="json")  # fmt: skip
    assert made.status_code == 201, made.json()
    body = made.json()
    assert body["auto_start"] is True and body["auto_start_failure"] is None
    url = f"/api/tournaments/{body['id']}/planned-start/"
    past = api_client.post(url, {"starts_at": "2020-01-01T10:00:00Z", "auto_start": True},
                           format="json")  # fmt: skip
    assert past.status_code == 400 and "starts_at" in past.json()["fields"]
    assert Tournament.objects.get(pk=body["id"]).auto_start is True
    off = api_client.post(url, {"starts_at": None, "auto_start": False}, format="json")
    assert off.status_code == 200 and off.json()["starts_at"] is None
    api_client.force_authenticate(UserFactory())
    assert api_client.post(url, {"starts_at": None}, format="json").status_code == 403


def test_after_a_refusal_auto_start_can_be_turned_off_keeping_the_past_time(client):
    t = _planned(n=1)
    _time_passes(t)
    scheduling.start_due()
    t.refresh_from_db()
    shown = timezone.localtime(t.starts_at).strftime("%Y-%m-%dT%H:%M")  # as the page shows it
    client.force_login(t.organiser)
    url = reverse("tournament-planned-start", args=[t.pk])
    again = client.post(url, {"starts_at": shown, "auto_start": "on"}, follow=True)
    assert "The planned start must be in the future." in again.content.decode()
    off = client.post(url, {"starts_at": shown, "auto_start": ""}, follow=True)
    assert "Planned start saved." in off.content.decode()
    t.refresh_from_db()
    assert not t.auto_start and t.auto_start_failed_at is None and t.starts_at is not None
    assert 'class="autostart-failure"' not in off.content.decode()


def test_czech_pages_leave_no_english_behind(client):
    """Needs locale/cs/pending/scheduling.po merged into the catalog."""
    from tests.config.test_i18n import CZECH, untranslated

    t = _planned(n=0)
    entrants.add_guest(tournament=t, name="Jana", by=t.organiser)  # one entrant: too few
    client.force_login(t.organiser)
    detail = reverse("tournament-detail", args=[t.pk])
    html = client.get(detail, **CZECH).content.decode()
    assert "Automatický start" in html and "Spustit automaticky" in html
    assert untranslated(html) == []
    _time_passes(t)
    scheduling.start_due()
    for url in (detail, reverse("my-tournaments")):
        html = client.get(url, **CZECH).content.decode()
        assert "automaticky nespustil" in html and untranslated(html) == [], url
    translation.activate("en")
