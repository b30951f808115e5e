"""The entrants and life-cycle pages in Czech (their strings are in locale/cs/LC_MESSAGES/django.po)."""

import pytest
from django.test import Client
from django.utils import translation

from tests.config.test_i18n import CZECH, untranslated
from tests.games.factories import HumanPlayerFactory, UserFactory
from tournaments import services
from tournaments.services import entrants

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _back_to_english():
    yield
    translation.activate("en")  # a Czech request leaves Czech active in this thread


def test_entrant_and_organiser_pages_in_czech():
    organiser = UserFactory()
    t = services.create_tournament(name="Liga", game="yspahan", format="league", organiser=organiser,
                                   over_the_board=True, check_in=True, entry_limit=8,
                                   venue="Klub")  # fmt: skip
    member = HumanPlayerFactory()
    entrants.join(tournament=t, user=member.user)
    entrants.add_guest(tournament=t, name="Jana", by=organiser)
    client = Client()
    for who, urls in ((organiser, ["/tournaments/mine/", f"/tournaments/{t.pk}/", "/tournaments/new/"]),
                      (member.user, [f"/tournaments/{t.pk}/"])):  # fmt: skip
        client.force_login(who)
        for url in urls:
            html = client.get(url, **CZECH).content.decode()
            assert untranslated(html) == [], url
    client.force_login(organiser)
    assert "Moje turnaje" in client.get("/tournaments/mine/", **CZECH).content.decode()
    assert "Přidat hosta" in client.get(f"/tournaments/{t.pk}/", **CZECH).content.decode()
