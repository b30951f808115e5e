"""The tournament form says each refusal at the field it is about (the format's verdict on
a setting included); only what belongs to no one field stands above the form."""

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse
from django.utils.html import escape

from tests.games.factories import UserFactory
from tournaments.forms import TournamentForm
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

GOOD = {"name": "Club cup", "game": "silkroad", "format": "swiss", "table_size": 2, "rated": ""}


def _row(html: str, field: str) -> str:
    """The field's row: its <p>, holding label, input, errors and help."""
    found = re.search(rf'<p class="field-{field}( has-error)?">(.*?)</p>', html, re.S)
    assert found, field
    return found.group(0)


def _top(html: str) -> str:
    found = re.search(r'<ul class="errorlist form-errors".*?</ul>', html, re.S)
    return found.group(0) if found else ""


@pytest.mark.parametrize(
    ("sent", "field", "english", "czech"),
    [
        ({"points": "0, 1"}, "points",
         "Points for 2-seat tables must not increase with the place.",
         "Body pro stůl s počtem hráčů 2 nesmějí s horším umístěním stoupat."),
        ({"game": "yspahan", "table_size": 5}, "table_size",
         "Yspahan tables seat 2 to 4 players.", "Yspahan: počet hráčů u stolu je 2 až 4."),
        ({"third_place": "on"}, "third_place",
         "Third-place match is a setting of Single elimination, not of Swiss.",
         "Zápas o třetí místo je nastavení formátu Vyřazovací (pavouk), ne formátu Švýcarský "
         "systém."),
        ({"tiebreaks": "buchholz, buchholz"}, "tiebreaks",
         "Tie-break 'buchholz' is listed twice.", "Pomocné kritérium 'buchholz' je uvedeno dvakrát."),
        ({"auto_start": "on"}, "auto_start", "Set the planned start to start automatically.",
         "Pro automatický start nastavte plánovaný začátek."),
    ],
)  # fmt: skip
@pytest.mark.parametrize("language", ["en", "cs"])
def test_a_refused_setting_is_said_at_its_field(client, sent, field, english, czech, language):
    client.force_login(UserFactory())
    page = client.post(reverse("tournament-create"), {**GOOD, **sent},
                       HTTP_ACCEPT_LANGUAGE=language)  # fmt: skip
    assert page.status_code == 200
    html = page.content.decode()
    message = escape(english if language == "en" else czech)
    row = _row(html, field)
    assert 'has-error"' in row
    assert f'<span class="error" id="id_{field}_error">{message}</span>' in row
    assert f'aria-describedby="id_{field}_error' in row or f'_helptext id_{field}_error"' in row
    assert 'aria-invalid="true"' in row
    assert message not in _top(html) and html.count(message) == 1
    assert Tournament.objects.count() == 0


def test_the_settings_are_checked_only_once_each_is_valid(client):
    """A setting the form itself refuses is said once, without the format's verdict."""
    client.force_login(UserFactory())
    page = client.post(reverse("tournament-create"), {**GOOD, "points": "1, x"})
    html = page.content.decode()
    assert "Give numbers separated by commas." in _row(html, "points")
    assert _top(html) == ""


def test_what_belongs_to_no_field_stands_above_the_form():
    form = TournamentForm({**GOOD}, user=None)
    assert form.is_valid()
    form.add_service_error(ValidationError({"config": "The settings must be an object."}))
    request = RequestFactory().get("/tournaments/new/")
    request.user = AnonymousUser()
    html = render_to_string("tournaments/create.html", {"form": form}, request=request)
    assert "The settings must be an object." in _top(html)
    assert "has-error" not in html


@pytest.mark.parametrize("seeding", ["snake", "random"])
def test_the_organiser_chooses_round_one_seeding_and_reads_the_swiss_rules(client, seeding):
    client.force_login(UserFactory())
    page = client.get(reverse("tournament-create")).content.decode()
    assert "How Swiss rounds are paired" in page and 'name="seeding"' in page
    client.post(reverse("tournament-create"), {**GOOD, "table_size": 4, "seeding": seeding})
    assert Tournament.objects.get().config["seeding"] == seeding


def test_an_unknown_seeding_is_a_form_error(client):
    client.force_login(UserFactory())
    page = client.post(reverse("tournament-create"), {**GOOD, "seeding": "by-age"})
    assert page.status_code == 200 and not Tournament.objects.exists()
    assert "by-age" in page.content.decode()  # Django's "not one of the available choices"
