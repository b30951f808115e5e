"""The tournament's calendar (/tournaments/<id>/calendar.ics): RFC 5545 lines (CR LF,
folded at 75 octets, TEXT escaped), UTC times with Z; the planned start, the rounds and
their deadlines; UIDs that stay the same from one download to the next."""

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tests.games.factories import UserFactory
from tests.tournaments.factories import tournament_with_bots
from tournaments import exports, services
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db

# A name as long as a tournament's may be (120 characters; PostgreSQL refuses more), in
# two-byte letters: its SUMMARY line folds more than once.
LONG = ("Hedvábná stezka; podzimní liga, Žluťoučký kůň úpěl ďábelské ódy — " * 3)[:120]


def _unfold(body: str) -> list[str]:
    return body.replace("\r\n ", "").split("\r\n")[:-1]


def _events(lines: list[str]) -> list[dict]:
    events, current = [], None
    for line in lines:
        if line == "BEGIN:VEVENT":
            current = {}
        elif line == "END:VEVENT":
            events.append(current)
            current = None
        elif current is not None:
            key, _, value = line.partition(":")
            current[key] = value
    return events


def test_fold_keeps_lines_short_and_characters_whole():
    line = "SUMMARY:" + "ř" * 100
    folded = exports.fold(line)
    parts = folded.split("\r\n")
    assert len(parts) > 1 and all(len(p.encode("utf-8")) <= 75 for p in parts)
    assert all(p.startswith(" ") for p in parts[1:])
    assert "".join([parts[0]] + [p[1:] for p in parts[1:]]) == line
    assert exports.fold("SHORT:x") == "SHORT:x"
    assert exports._ical_text("a,b;c\\d\ne") == "a\\,b\\;c\\\\d\\ne"


def test_the_calendar_has_the_start_the_rounds_and_their_deadlines():
    organiser = UserFactory()
    starts = (timezone.now() + timedelta(hours=3)).replace(microsecond=0)
    t = tournament_with_bots(n=4, format="league", config={"table_size": 2}, over_the_board=True,
                             organiser=organiser, round_days=7, venue="Klub, 1. patro",
                             starts_at=starts)  # fmt: skip
    Tournament.objects.filter(pk=t.pk).update(name=LONG.strip())
    t.refresh_from_db()
    services.start_tournament(tournament=t)
    rnd = Round.objects.get(tournament=t, number=1)
    started = datetime(2026, 12, 1, 17, 30, tzinfo=UTC)
    Round.objects.filter(pk=rnd.pk).update(started_at=started, timer_minutes=90)
    response = Client().get(f"/tournaments/{t.pk}/calendar.ics")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response["Content-Disposition"].endswith('.ics"')
    body = response.content.decode("utf-8")
    assert body.endswith("\r\n") and "\n" not in body.replace("\r\n", "")
    assert all(len(line.encode("utf-8")) <= 75 for line in body.split("\r\n"))
    lines = _unfold(body)
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-1] == "END:VCALENDAR"
    assert "VERSION:2.0" in lines and any(line.startswith("PRODID:") for line in lines)
    events = _events(lines)
    by_summary = {e["SUMMARY"]: e for e in events}
    name = exports._ical_text(LONG.strip())
    start = by_summary[f"{name}: start"]
    assert start["DTSTART"] == starts.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    round_1 = by_summary[f"{name}: Matchday 1"]
    assert round_1["DTSTART"] == "20261201T173000Z" and round_1["DTEND"] == "20261201T190000Z"
    deadlines = [e for e in events if e["SUMMARY"].endswith(" due")]
    rounds = list(Round.objects.filter(tournament=t, deadline__isnull=False))
    assert rounds and len(deadlines) == len(rounds)
    assert {e["DTSTART"] for e in deadlines} == {
        r.deadline.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ") for r in rounds
    }
    for e in events:
        assert e["LOCATION"] == "Klub\\, 1. patro"
        assert e["DTSTART"].endswith("Z") and e["DTSTAMP"].endswith("Z")
        assert e["URL"] == f"http://testserver/tournaments/{t.pk}/"
    uids = [e["UID"] for e in events]
    assert len(set(uids)) == len(uids)
    again = _events(_unfold(Client().get(f"/tournaments/{t.pk}/calendar.ics").content.decode()))
    assert [e["UID"] for e in again] == uids  # stable: a subscribed calendar updates in place


def test_a_cancelled_tournament_says_so_and_an_unknown_one_is_404():
    t = tournament_with_bots(n=4, config={"table_size": 2}, starts_at=timezone.now()
                             + timedelta(days=1))  # fmt: skip
    Tournament.objects.filter(pk=t.pk).update(status="cancelled")
    events = _events(_unfold(Client().get(f"/tournaments/{t.pk}/calendar.ics").content.decode()))
    assert len(events) == 1 and events[0]["STATUS"] == "CANCELLED"
    assert Client().get("/tournaments/999999/calendar.ics").status_code == 404
