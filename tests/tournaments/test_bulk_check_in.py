"""Checking several entrants in at once (tournaments.services.entrants.check_in_many, the
organiser's ticks on the page and POST /api/tournaments/<id>/check-in/): one button for the
ticked, another undoes it, the list stays in view, "Checked in n of m"."""

import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from tests.games.factories import HumanPlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Entry
from tournaments.services import entrants

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening():
    organiser = UserFactory(username="olga")
    t = services.create_tournament(name="Čtvrtek", game="yspahan", format="swiss",
                                   organiser=organiser, over_the_board=True, check_in=True,
                                   config={"table_size": 2}, entry_limit=5)  # fmt: skip
    people = [entrants.add_guest(tournament=t, name=n, by=organiser)
              for n in ("Ada", "Bea", "Cyril", "Dana", "Emil")]  # fmt: skip
    waiting = entrants.add_guest(tournament=t, name="Filip", by=organiser)
    assert waiting.waitlisted_at is not None
    return organiser, t, people, waiting


def _checked(t) -> set[str]:
    return set(
        t.entries.filter(checked_in_at__isnull=False).values_list("player__display_name", flat=True)
    )


def test_ticked_entrants_check_in_with_one_click_and_the_list_stays_open(client, evening):
    organiser, t, people, waiting = evening
    client.force_login(organiser)
    url = reverse("tournament-check-in-many", args=[t.pk])
    response = client.post(url, {"entry": [e.pk for e in people[:3]], "checked_in": "1"})
    assert response.status_code == 302
    assert response["Location"] == reverse("tournament-detail", args=[t.pk]) + "#entrants"
    assert _checked(t) == {"Ada", "Bea", "Cyril"}
    page = client.get(response["Location"]).content.decode()
    assert "3 entrants checked in." in page and "Checked in 3 of 5" in page
    # An open list, not a <details> (only a guest's "link to an account" folds); each tick
    # belongs to the one bulk form.
    listing = page.split('id="entrants"')[1].split("</section>")[0]
    assert listing.count("<details") == listing.count('<details class="link-guest-box">')
    ticks = re.findall(r'<input type="checkbox" id="tick-(\d+)" name="entry" value="\d+" '
                       r'form="bulk-check-in">', page)  # fmt: skip
    assert sorted(map(int, ticks)) == sorted(e.pk for e in people)  # not the waiting Filip
    assert 'id="check-in-ticked"' in page and 'id="undo-check-in-ticked"' in page
    response = client.post(url, {"entry": [people[0].pk, people[1].pk], "checked_in": "0"},
                           follow=True)  # fmt: skip
    assert "2 entrants no longer checked in." in response.content.decode()
    assert "Checked in 1 of 5" in response.content.decode()
    assert _checked(t) == {"Cyril"}


def test_one_by_one_stays_and_comes_back_to_the_list(client, evening):
    organiser, t, people, _ = evening
    client.force_login(organiser)
    response = client.post(reverse("tournament-check-in", args=[t.pk, people[4].pk]))
    assert response["Location"].endswith("#entrants")
    assert _checked(t) == {"Emil"}


def test_checked_in_already_keeps_its_time_and_others_are_left_alone(evening):
    organiser, t, people, waiting = evening
    first = entrants.check_in(entry=people[0], by=organiser).checked_in_at
    services.withdraw_entry(entry=people[4])  # before the start: gone; Filip moves up
    waiting.refresh_from_db()
    assert waiting.waitlisted_at is None
    other = services.create_tournament(name="Jiný", game="yspahan", format="swiss",
                                       organiser=organiser, over_the_board=True, check_in=True,
                                       config={"table_size": 2})  # fmt: skip
    stranger = entrants.add_guest(tournament=other, name="Zora", by=organiser)
    extra = entrants.add_guest(tournament=t, name="Gustav", by=organiser)  # full: waits
    ids = [people[0].pk, people[1].pk, stranger.pk, extra.pk, 10**17, "junk"]
    assert entrants.check_in_many(tournament=t, entry_ids=ids, by=organiser) == 1
    assert Entry.objects.get(pk=people[0].pk).checked_in_at == first
    assert _checked(t) == {"Ada", "Bea"}
    assert not Entry.objects.get(pk=stranger.pk).checked_in_at
    assert not Entry.objects.get(pk=extra.pk).checked_in_at  # waiting: no check-in


def test_refusals_change_nothing(client, evening):
    organiser, t, people, _ = evening
    ids = [e.pk for e in people]
    with pytest.raises(PermissionDenied):
        entrants.check_in_many(tournament=t, entry_ids=ids, by=HumanPlayerFactory().user)
    with pytest.raises(ValidationError, match="Tick the entrants first"):
        entrants.check_in_many(tournament=t, entry_ids=[], by=organiser)
    client.force_login(UserFactory())
    assert client.post(reverse("tournament-check-in-many", args=[t.pk]),
                       {"entry": ids}).status_code == 403  # fmt: skip
    client.force_login(organiser)
    empty = client.post(reverse("tournament-check-in-many", args=[t.pk]), follow=True)
    assert "Tick the entrants first." in empty.content.decode()
    entrants.check_in_many(tournament=t, entry_ids=ids[:4], by=organiser)
    services.start_tournament(tournament=t)
    with pytest.raises(ValidationError, match="closes when the tournament starts"):
        entrants.check_in_many(tournament=t, entry_ids=ids, by=organiser, checked_in=False)
    assert len(_checked(t)) == 4
    plain = services.create_tournament(name="Bez", game="yspahan", format="swiss",
                                       organiser=organiser, over_the_board=True,
                                       config={"table_size": 2})  # fmt: skip
    guest = entrants.add_guest(tournament=plain, name="Ada", by=organiser)
    with pytest.raises(ValidationError, match="no check-in"):
        entrants.check_in_many(tournament=plain, entry_ids=[guest.pk], by=organiser)


def test_through_the_api(api_client, evening):
    organiser, t, people, waiting = evening
    url = f"/api/tournaments/{t.pk}/check-in/"
    api_client.force_authenticate(HumanPlayerFactory().user)
    assert api_client.post(url, {"entries": [people[0].pk]}, format="json").status_code == 403
    api_client.force_authenticate(organiser)
    done = api_client.post(url, {"entries": [people[0].pk, people[1].pk, waiting.pk]},
                           format="json")  # fmt: skip
    assert done.status_code == 200
    assert done.json() == {"changed": 2, "checked_in": 2, "entrants": 5}
    undo = api_client.post(url, {"entries": [people[1].pk], "checked_in": False}, format="json")
    assert undo.json() == {"changed": 1, "checked_in": 1, "entrants": 5}
    assert api_client.post(url, {"entries": []}, format="json").status_code == 400
