"""Named tables (tournaments.services.table_names): checked, stored once per tournament,
shown wherever the table number shows."""

import csv
import io

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client

from tests.games.factories import UserFactory
from tests.tournaments.factories import tournament_with_bots
from tournaments import exports, selectors, services
from tournaments.models import Tournament
from tournaments.services import table_names

pytestmark = pytest.mark.django_db


def _running(organiser=None):
    organiser = organiser or UserFactory()
    t = tournament_with_bots(n=6, config={"table_size": 2, "rounds": 2}, over_the_board=True,
                             auto_advance=False, organiser=organiser)  # fmt: skip
    services.start_tournament(tournament=t)
    t.refresh_from_db()
    return t


def _code(excinfo) -> str:
    return excinfo.value.error_list[0].code


def test_clean_checks_numbers_and_lengths():
    assert table_names.clean({"3": "  by   the window ", 1: "bar", "7": ""}) == {
        1: "bar", 3: "by the window",
    }  # fmt: skip
    for bad in ({"0": "x"}, {"501": "x"}, {"x": "y"}, {"-1": "y"}, {True: "y"}):
        with pytest.raises(ValidationError) as excinfo:
            table_names.clean(bad)
        assert _code(excinfo) == "table_number", bad
    assert table_names.clean({"500": "a" * 60}) == {500: "a" * 60}
    with pytest.raises(ValidationError) as excinfo:
        table_names.clean({"2": "a" * 61})
    assert _code(excinfo) == "table_name_too_long"
    with pytest.raises(ValidationError) as excinfo:
        table_names.clean(["by the window"])
    assert _code(excinfo) == "table_names"


def test_the_form_reads_one_table_a_line():
    text = "3: by the window\n\n5 = stage\n 7 — back room \n9 bar\n12"
    assert table_names.parse_lines(text) == {
        "3": "by the window", "5": "stage", "7": "back room", "9": "bar", "12": "",
    }  # fmt: skip
    with pytest.raises(ValidationError) as excinfo:
        table_names.parse_lines("window: 3")
    assert _code(excinfo) == "table_line"
    assert table_names.as_lines({3: "a", 1: "b"}) == "1: b\n3: a"


def test_stored_once_for_the_tournament_by_its_organiser_only():
    t = _running()
    before = t.results_version
    with pytest.raises(PermissionDenied):
        table_names.set_table_names(tournament=t, names={"1": "x"}, by=UserFactory())
    table_names.set_table_names(tournament=t, names={"1": "by the window", 2: "bar"},
                                by=t.organiser)  # fmt: skip
    stored = Tournament.objects.get(pk=t.pk)
    assert stored.config["table_names"] == {"1": "by the window", "2": "bar"}
    assert stored.config["table_size"] == 2 and stored.results_version == before + 1
    assert selectors.display_problem(stored) is None  # not taken for a format setting
    table_names.set_table_names(tournament=stored, names={}, by=t.organiser)
    assert "table_names" not in Tournament.objects.get(pk=t.pk).config


def test_reading_skips_what_is_malformed():
    t = _running()
    Tournament.objects.filter(pk=t.pk).update(config={
        "table_size": 2, "rounds": 2,
        "table_names": {"2": "ok", "x": "no", "700": "no", "3": 5, "4": "  "},
    })  # fmt: skip
    t.refresh_from_db()
    assert table_names.names_of(t) == {2: "ok"}
    assert selectors.display_problem(t) is None
    Tournament.objects.filter(pk=t.pk).update(config={"table_size": 2, "table_names": "junk"})
    t.refresh_from_db()
    assert table_names.names_of(t) == {}


def test_the_name_shows_wherever_the_number_does():
    t = _running()
    table_names.set_table_names(tournament=t, names={"1": "by the window"}, by=t.organiser)
    table = t.rounds.get(number=1).tables.get(number=1)
    client = Client()
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert '#1 <span class="table-name">by the window</span>' in page
    live = client.get(f"/tournaments/{t.pk}/live/").content.decode()
    assert '<span class="table-name">by the window</span>' in live
    table_page = client.get(f"/tournaments/{t.pk}/tables/{table.pk}/").content.decode()
    assert "— by the window</span></h1>" in table_page
    printed = client.get(f"/tournaments/{t.pk}/print/pairings/?round=1").content.decode()
    assert '1<span class="table-name">by the window</span>' in printed
    screen = client.get(f"/tournaments/{t.pk}/screen/").content.decode()
    assert '<span class="screen-table-name">by the window</span>' in screen
    body = client.get(f"/tournaments/{t.pk}/export/pairings.csv").content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(body)))
    assert {r["table_name"] for r in rows if r["table"] == "1"} == {"by the window"}
    assert {r["table_name"] for r in rows if r["table"] == "2"} == {""}
    results = exports.sheet(t, "results")
    assert results.keys[-1] == "table_name"
    assert {row[-1] for row in results.rows if row[1] == 1} == {"by the window"}


def test_the_organiser_names_tables_from_the_page():
    organiser = UserFactory()
    t = _running(organiser)
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'name="table_names"' in page and f"/tournaments/{t.pk}/table-names/" in page
    done = client.post(f"/tournaments/{t.pk}/table-names/",
                       {"table_names": "1: by the window\n2 = bar"}, follow=True)  # fmt: skip
    assert [str(m) for m in done.context["messages"]] == ["Table names saved."]
    assert table_names.names_of(Tournament.objects.get(pk=t.pk)) == {1: "by the window", 2: "bar"}
    assert "1: by the window\n2: bar</textarea>" in done.content.decode()
    bad = client.post(f"/tournaments/{t.pk}/table-names/", {"table_names": "1: " + "x" * 61},
                      follow=True)  # fmt: skip
    assert "at most 60 characters" in str(list(bad.context["messages"])[0])
    wrong = client.post(f"/tournaments/{t.pk}/table-names/", {"table_names": "the bar"},
                        follow=True)  # fmt: skip
    assert "start the line with the table number" in str(list(wrong.context["messages"])[0])
    assert table_names.names_of(Tournament.objects.get(pk=t.pk)) == {1: "by the window", 2: "bar"}
    other = Client()
    other.force_login(UserFactory())
    assert (
        other.post(f"/tournaments/{t.pk}/table-names/", {"table_names": "1: x"}).status_code == 403
    )
    assert 'name="table_names"' not in Client().get(f"/tournaments/{t.pk}/").content.decode()
