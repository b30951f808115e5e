"""Built-in bots are named in words on the pages (games/bot_labels.py), never by their
raw kind ("greedy"), in English and Czech."""

import re

import pytest
from django.utils import translation

from games.bot_labels import bot_description, bot_label
from tests.games.factories import EngineBotFactory

pytestmark = pytest.mark.django_db

CZECH = {"HTTP_ACCEPT_LANGUAGE": "cs"}


def chips(html: str) -> list[str]:
    """The home page's "Bots on the platform" chips: (name, kind) as text."""
    section = html[html.index('<ul class="chips">') :].split("</ul>")[0]
    return [
        re.sub(r"<[^>]+>", "", li).strip() for li in re.findall(r"<li[^>]*>(.*?)</li>", section)
    ]


def test_kinds_and_budgets_in_words():
    with translation.override("en"):  # whatever an earlier test left active
        assert bot_label("random", {}) == "Random bot"
        assert bot_label("greedy", None) == "Greedy bot"
        assert bot_label("ismcts", {"iterations": 300}) == "Search bot, 300 iterations"
        assert bot_label("ismcts", {"iterations": 1}) == "Search bot, 1 iteration"
        assert bot_label("ismcts", {"time_s": 1.0}) == "Search bot, 1 s a move"
        assert bot_label("someday", {}) == "someday"  # an unknown kind keeps its name
        assert bot_description("greedy") == "Takes the move that looks best one step ahead."


def test_czech_kinds_and_budgets():  # needs the merged catalog (locale/cs/pending/polish.po)
    with translation.override("cs"):
        assert bot_label("greedy", {}) == "Hladový bot"
        assert bot_label("ismcts", {"iterations": 300}) == "Prohledávací bot, 300 iterací"
        assert bot_label("ismcts", {"iterations": 3}) == "Prohledávací bot, 3 iterace"
        assert bot_label("ismcts", {"time_s": 1.5}) == "Prohledávací bot, 1,5 s na tah"


def test_home_page_chips_name_the_bots_kind_in_words(client):
    EngineBotFactory(name="greedy-gus", bot_name="greedy", description="Admin's own words.")
    EngineBotFactory(name="mcts-mia", bot_name="ismcts", bot_params={"iterations": 300})
    html = client.get("/").content.decode()
    assert chips(html) == ["greedy-gus Greedy bot", "mcts-mia Search bot, 300 iterations"]
    assert 'title="Takes the move that looks best one step ahead."' in html
    czech = client.get("/", **CZECH).content.decode()
    assert chips(czech) == ["greedy-gus Hladový bot", "mcts-mia Prohledávací bot, 300 iterací"]
    assert not re.search(r"<small>\s*(greedy|ismcts|random)\s*</small>", html + czech)


def test_a_bots_player_page_names_its_kind(client):
    EngineBotFactory(name="mcts-max", bot_name="ismcts", bot_params={"time_s": 1.0})
    html = client.get("/players/mcts-max/").content.decode()
    assert "<small>(Search bot, 1 s a move)</small>" in html
    czech = client.get("/players/mcts-max/", **CZECH).content.decode()
    assert "<small>(Prohledávací bot, 1 s na tah)</small>" in czech


def test_home_games_table_names_the_built_in_bots_as_the_chips_do(client):
    html = client.get("/").content.decode()
    assert html.count("<td>Random bot, Greedy bot, Search bot</td>") == 3
    czech = client.get("/", **CZECH).content.decode()
    assert czech.count("<td>Náhodný bot, Hladový bot, Prohledávací bot</td>") == 3
