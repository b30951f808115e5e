"""The table's page: the organiser's form (enter, correct), the log, players' reports."""

import pytest
from django.urls import reverse

from tests.games.factories import UserFactory
from tests.tournaments.result_fixtures import club_event, first_table
from tournaments.models import ReportStatus, ResultChange, ResultReport
from tournaments.services import results

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    t, _players = club_event()
    table, seated = first_table(t)
    return t, table, seated


def _form(scores, tiebreak, prefix=""):
    p = f"{prefix}-" if prefix else ""
    data = {f"{p}score_{i}": str(s) for i, s in enumerate(scores)}
    data |= {f"{p}tiebreak_{i}": str(v) for i, v in enumerate(tiebreak)}
    return data


def test_the_organiser_corrects_on_the_page_and_the_log_shows_both(client, event):
    t, table, seated = event
    client.force_login(t.organiser)
    url = reverse("table-result", args=[t.pk, table.pk])
    first = client.post(url, _form([30, 10], [1, 2]))
    assert first.status_code == 302 and first["Location"] == reverse(
        "tournament-detail", args=[t.pk]
    )
    page = client.get(reverse("table-detail", args=[t.pk, table.pk])).content.decode()
    assert "Correct result" in page and 'value="30"' in page  # the form holds the result
    asked = client.post(url, _form([10, 30], [1, 2]))  # a correction asks first
    assert asked.status_code == 200 and 'id="confirm"' in asked.content.decode()
    assert ResultChange.objects.filter(table=table).count() == 1
    fixed = client.post(url, {**_form([10, 30], [1, 2]), "confirmed": "1"})
    assert fixed.status_code == 302
    page = client.get(fixed["Location"]).content.decode()
    names = [str(s.entry.player) for s in table.seats.order_by("index")]
    assert "Entered" in page and "Corrected" in page
    assert f"before: {names[0]} 30 (1.), {names[1]} 10 (2.)" in page
    assert f"after: {names[0]} 10 (2.), {names[1]} 30 (1.)" in page
    assert ResultChange.objects.filter(table=table).count() == 2
    detail = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    assert reverse("table-detail", args=[t.pk, table.pk]) in detail


@pytest.mark.parametrize("score", ["-50", "1e300", "0.5", "201", "abc", ""])
def test_bad_scores_are_form_errors_and_change_nothing(client, event, score):
    t, table, _seated = event
    client.force_login(t.organiser)
    response = client.post(reverse("table-result", args=[t.pk, table.pk]),
                           {**_form([5, 3], [1, 2]), "score_0": score})  # fmt: skip
    assert response.status_code == 200
    assert "Scores are whole numbers from 0 to 200." in response.content.decode()
    table.refresh_from_db()
    assert table.result is None and not ResultChange.objects.exists()


def test_a_bad_correction_keeps_the_result(client, event):
    t, table, _seated = event
    results.set_result(table=table, scores=[30, 10], tiebreak=[1, 2], by=t.organiser)
    client.force_login(t.organiser)
    response = client.post(reverse("table-result", args=[t.pk, table.pk]), _form([30, 10], [3, 3]))
    assert response.status_code == 200
    assert "camel driver" in response.content.decode()
    table.refresh_from_db()
    assert table.result["scores"] == [30, 10] and ResultChange.objects.count() == 1


def test_others_may_not_use_the_organisers_form(client, event):
    t, table, seated = event
    for user in (seated[0], UserFactory()):
        client.force_login(user)
        url = reverse("table-result", args=[t.pk, table.pk])
        assert client.get(url).status_code == 403
        assert client.post(url, _form([30, 10], [1, 2])).status_code == 403
    # Anyone sees the table's page; only the seated players get the report form.
    client.force_login(UserFactory())
    page = client.get(reverse("table-detail", args=[t.pk, table.pk])).content.decode()
    assert "Report result" not in page and "Record result" not in page


def test_a_player_reports_on_the_page_and_the_organiser_confirms_on_the_tournament_page(
    client, event
):
    t, table, seated = event
    client.force_login(seated[0])
    page = client.get(reverse("table-detail", args=[t.pk, table.pk])).content.decode()
    assert "Report result" in page
    url = reverse("table-report", args=[t.pk, table.pk])
    bad = client.post(url, _form([0.5, 20], [5, 4], prefix="report"))
    assert bad.status_code == 200 and "whole numbers" in bad.content.decode()
    assert not ResultReport.objects.exists()
    made = client.post(url, _form([12, 20], [5, 4], prefix="report"))
    assert made.status_code == 302
    report = ResultReport.objects.get()
    # The other player sees it with a confirm button; a stranger sees it without one.
    client.force_login(UserFactory())
    detail = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    assert 'class="pending-report"' in detail and "confirm-report" not in detail
    other = str(table.seats.get(index=1).entry.player)
    assert f"waiting for {other} or the organiser" in detail
    client.force_login(t.organiser)
    detail = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    assert "confirm-report" in detail and "reject-report" in detail
    confirmed = client.post(reverse("report-confirm", args=[t.pk, table.pk, report.pk]),
                            {"next": "tournament"})  # fmt: skip
    assert confirmed.status_code == 302
    assert confirmed["Location"] == reverse("tournament-detail", args=[t.pk])
    report.refresh_from_db()
    table.refresh_from_db()
    assert report.status == ReportStatus.CONFIRMED and table.result["ranks"] == [2, 1]
    detail = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    assert 'class="pending-report"' not in detail


def test_a_stranger_cannot_report_confirm_or_reject(client, event):
    t, table, seated = event
    report = results.report_result(table=table, by=seated[0], scores=[1, 2], tiebreak=[1, 2])
    client.force_login(UserFactory())
    assert client.post(reverse("table-report", args=[t.pk, table.pk]),
                       _form([1, 2], [1, 2], prefix="report")).status_code == 403  # fmt: skip
    for name in ("report-confirm", "report-reject"):
        assert client.post(reverse(name, args=[t.pk, table.pk, report.pk])).status_code == 403
    report.refresh_from_db()
    assert report.status == ReportStatus.PENDING
