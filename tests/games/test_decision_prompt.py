"""The match page says what the pending decision is, in the reader's language, to the seat
that makes it (games/engines/<game>/prompts.py via games/match_pages.py)."""

import re

import pytest
from django.urls import reverse

from games import services
from games.engines import i18n
from games.engines.registry import get_engine
from tests.games.factories import EngineBotFactory, HumanPlayerFactory

pytestmark = pytest.mark.django_db

PROMPT = re.compile(r'<p id="board-prompt" class="prompt">([^<]+)</p>')


@pytest.fixture(params=["greatwall", "silkroad", "yspahan"])
def duel(request):
    """Alice (seat 0) against a bot, at Alice's first decision."""
    alice = HumanPlayerFactory()
    match = services.create_match(game=request.param, players=[alice, EngineBotFactory()], seed=2)
    while match.to_act != 0:
        services.play_bot_decisions(match_id=match.pk, ply=match.ply)
        match.refresh_from_db()
    return match, alice


def engine_prompt(match) -> str:
    from importlib import import_module

    engine = get_engine(match.game)
    module = import_module(f"games.engines.{match.game}.prompts")
    return module.prompt(engine.from_json(match.state), 0)


def test_the_seat_to_act_reads_its_decision_on_the_page_and_in_the_live_part(client, duel):
    match, alice = duel
    client.force_login(alice.user)
    html = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    found = PROMPT.search(html)
    assert found and found.group(1) == engine_prompt(match).replace("'", "&#x27;")
    live = client.get(reverse("match-live", args=[match.pk]), {"ply": -1}).content.decode()
    assert PROMPT.search(live).group(1) == found.group(1)


def test_spectators_get_no_prompt(client, duel):
    match, _ = duel
    assert (
        'id="board-prompt"'
        not in client.get(reverse("match-detail", args=[match.pk])).content.decode()
    )


def test_the_prompt_follows_the_language(client, duel, settings):
    match, alice = duel
    client.force_login(alice.user)
    english = PROMPT.search(client.get(reverse("match-detail", args=[match.pk])).content.decode())
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "cs"
    html = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    czech = PROMPT.search(html)
    i18n.set_language(None)
    assert english and czech and '<html lang="cs">' in html
    # The project's catalog has the Czech sentence (once the translations are merged).
    assert czech.group(1) != english.group(1)
