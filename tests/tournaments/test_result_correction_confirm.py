"""Correcting a finished table's result on its page asks first (the confirmation page says
what will happen; its button posts the same values again, confirmed); a first entry is one
step."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from tests.tournaments.result_fixtures import club_event, first_table, next_round, organiser
from tournaments.models import ResultChange, TableStatus
from tournaments.services import results

pytestmark = pytest.mark.django_db


def _form(scores, tiebreak):
    data = {f"score_{i}": str(s) for i, s in enumerate(scores)}
    return data | {f"tiebreak_{i}": str(v) for i, v in enumerate(tiebreak)}


def _event(**kwargs):
    t, _players = club_event(**kwargs)
    table, _seated = first_table(t)
    names = [str(s.entry.player) for s in table.seats.select_related("entry__player")
             .order_by("index")]  # fmt: skip
    return t, table, names


@pytest.fixture
def finished():
    """A table whose result is in: the first seat won 30 to 10."""
    t, table, names = _event()
    results.set_result(table=table, scores=[30, 10], tiebreak=[1, 2], by=t.organiser)
    table.refresh_from_db()
    return t, table, names


def _unchanged(table) -> bool:
    table.refresh_from_db()
    return (
        table.result["scores"] == [30, 10] and ResultChange.objects.filter(table=table).count() == 1
    )


def test_a_different_result_shows_what_will_happen_and_changes_nothing(client, finished):
    t, table, names = finished
    client.force_login(t.organiser)
    url = reverse("table-result", args=[t.pk, table.pk])
    asked = client.post(url, _form([10, 30], [1, 2]))
    assert asked.status_code == 200
    assert [tp.name for tp in asked.templates][0] == "tournaments/confirm.html"
    page = asked.content.decode()
    assert f"Before: {names[0]} 30 (1.), {names[1]} 10 (2.)" in page
    assert f"After: {names[0]} 10 (2.), {names[1]} 30 (1.)" in page
    assert "The standings follow; later rounds stay as they were paired." in page
    assert "Ratings are recomputed." in page  # a rated event, a rated match
    assert 'id="confirm"' in page and f'action="{url}"' in page
    for name, value in {**_form([10, 30], [1, 2]), "confirmed": "1"}.items():
        assert f'name="{name}" value="{value}"' in page
    # "Go back" leads to the table's form, still filled in.
    back = asked.context["back"]
    assert back.startswith(url + "?")
    refilled = client.get(back).content.decode()
    assert 'name="score_0" value="10"' in refilled and 'name="score_1" value="30"' in refilled
    assert _unchanged(table)


def test_confirming_corrects_and_logs(client, finished):
    t, table, names = finished
    client.force_login(t.organiser)
    url = reverse("table-result", args=[t.pk, table.pk])
    done = client.post(url, {**_form([10, 30], [1, 2]), "confirmed": "1"})
    assert done.status_code == 302 and done["Location"] == reverse(
        "table-detail", args=[t.pk, table.pk]
    )
    assert [str(m) for m in get_messages(done.wsgi_request)] == [f"{table} corrected"]
    table.refresh_from_db()
    assert table.result["ranks"] == [2, 1] and table.result["scores"] == [10, 30]
    log = list(ResultChange.objects.filter(table=table))
    assert [c.kind for c in log] == ["entered", "corrected"]
    assert log[1].before["scores"] == [30, 10] and log[1].changed_by == t.organiser


def test_an_unrated_event_says_nothing_of_ratings(client):
    t, table, _names = _event(by=organiser(rated=False))
    assert not t.rated
    results.set_result(table=table, scores=[30, 10], tiebreak=[1, 2], by=t.organiser)
    client.force_login(t.organiser)
    asked = client.post(reverse("table-result", args=[t.pk, table.pk]), _form([10, 30], [1, 2]))
    page = asked.content.decode()
    assert "The standings follow" in page and "Ratings are recomputed" not in page


def test_the_same_result_asks_nothing(client, finished):
    t, table, _names = finished
    client.force_login(t.organiser)
    same = client.post(reverse("table-result", args=[t.pk, table.pk]), _form([30, 10], [1, 2]))
    assert same.status_code == 302
    assert [str(m) for m in get_messages(same.wsgi_request)] == [
        "Same result as before: nothing changed."
    ]
    assert _unchanged(table)


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (_form(["abc", 10], [1, 2]), "Scores are whole numbers from 0 to 200."),
        (_form([30, 30], [3, 3]), "camel driver"),  # the rules' refusal, from the service
    ],
)
def test_a_bad_correction_is_the_forms_error_not_a_confirmation(client, finished, data, error):
    t, table, _names = finished
    client.force_login(t.organiser)
    response = client.post(reverse("table-result", args=[t.pk, table.pk]), data)
    assert response.status_code == 200
    assert [tp.name for tp in response.templates][0] == "tournaments/table.html"
    assert error in response.content.decode() and 'id="confirm"' not in response.content.decode()
    assert _unchanged(table)


def test_a_bracket_correction_that_changes_who_went_on_is_refused_before_asking(client):
    t, table, _names = _event(format="single_elimination")
    for other in t.rounds.get(number=1).tables.all():
        results.set_result(table=other, scores=[30, 10], tiebreak=[1, 2], by=t.organiser)
    next_round(t)
    client.force_login(t.organiser)
    response = client.post(reverse("table-result", args=[t.pk, table.pk]), _form([10, 30], [1, 2]))
    assert response.status_code == 200 and "already paired" in response.content.decode()
    assert [tp.name for tp in response.templates][0] == "tournaments/table.html"
    assert _unchanged(table)


def test_a_first_entry_is_one_step(client):
    t, table, _names = _event()
    client.force_login(t.organiser)
    done = client.post(reverse("table-result", args=[t.pk, table.pk]), _form([30, 10], [1, 2]))
    assert done.status_code == 302 and done["Location"] == reverse("tournament-detail", args=[t.pk])
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED and table.result["scores"] == [30, 10]
    assert ResultChange.objects.filter(table=table, kind="entered").count() == 1
