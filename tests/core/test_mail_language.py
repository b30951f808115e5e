"""The language mails and notices reach a person in: the one she reads the site in, stored
when she signs in and when she saves her settings."""

import pytest
from django.test import Client

from tests.games.factories import HumanPlayerFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"


def test_signing_in_on_a_czech_page_stores_czech_and_english_later_english():
    player = HumanPlayerFactory()
    client = Client()
    client.post("/accounts/login/", {"username": player.user.username, "password": PASSWORD},
                HTTP_ACCEPT_LANGUAGE="cs")  # fmt: skip
    player.refresh_from_db()
    assert player.language == "cs"
    client.post("/settings/", {"time_zone": "", "turn_sound": ""}, HTTP_ACCEPT_LANGUAGE="en")
    player.refresh_from_db()
    assert player.language == "en"


def test_a_refused_sign_in_stores_nothing():
    player = HumanPlayerFactory()
    Client().post("/accounts/login/", {"username": player.user.username, "password": "wrong"},
                  HTTP_ACCEPT_LANGUAGE="cs")  # fmt: skip
    player.refresh_from_db()
    assert player.language == ""
