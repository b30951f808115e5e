"""The "Learn the game" pages: one per registered game, in English and Czech, each with the
same five sections, the demo board and its numbered legend; linked from home and lobby."""

import re
from html import unescape

import pytest
from django.template.loader import get_template
from django.urls import reverse

from games import rules_pages
from games.engines.registry import ENGINES
from tests.games.factories import EngineBotFactory, HumanPlayerFactory

pytestmark = pytest.mark.django_db

SECTIONS = ("goal", "turn", "actions", "scoring", "end")
CZECH_LETTERS = set("áčďéěíňóřšťúůýž")


def page(client, game: str, language: str) -> str:
    response = client.get(reverse("game-rules", args=[game]), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def section_text(html: str, sid: str) -> str:
    found = re.search(rf'<section id="{sid}"[^>]*>(.*?)</section>', html, re.S)
    assert found, f"no <section id={sid!r}>"
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


@pytest.mark.parametrize("language", ["en", "cs"])
@pytest.mark.parametrize("game", sorted(ENGINES))
def test_rules_page_has_every_section_and_the_board(client, game, language):
    html = page(client, game, language)
    assert f'<html lang="{language}">' in html
    for sid in SECTIONS:
        words = section_text(html, sid).split()
        assert len(words) >= 30, (sid, words)  # prose, not just a heading
    assert html.count('href="#') >= len(SECTIONS) + 1  # the contents list
    assert "/static/css/rules.css" in html

    board = re.search(r'<section id="board".*?</section>', html, re.S).group(0)
    assert "<svg" in board and "data-target=" in board  # drawn by the engine's render_svg
    assert 'data-target="hand:' not in board  # a spectator's view: no hand is shown
    # Every legend entry has its number on the picture (the engine's own words found).
    legend = re.search(r'<ol class="rules-legend">(.*?)</ol>', board, re.S).group(1)
    items = legend.count("<li>")
    assert items >= 8
    assert board.count('class="rules-callout"') == items
    for n in range(1, items + 1):
        assert re.search(rf'font-weight="bold">{n}</text></g>', board), n


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_czech_page_is_in_czech_and_english_page_is_not(client, game):
    czech = section_text(page(client, game, "cs"), "goal")
    english = section_text(page(client, game, "en"), "goal")
    assert CZECH_LETTERS & set(czech.lower())
    assert not CZECH_LETTERS & set(english.lower())
    assert czech != english


def test_every_registered_game_has_a_rules_page_in_both_languages(client):
    # Iterates the registry: a newly registered engine fails here until it has its pages.
    assert ENGINES
    for slug in ENGINES:
        get_template(f"games/rules/{slug}.en.html")
        get_template(f"games/rules/{slug}.cs.html")
        assert rules_pages.CALLOUTS.get(slug), slug
        assert client.get(reverse("game-rules", args=[slug])).status_code == 200


def test_unknown_game_is_404(client):
    assert client.get("/games/chess/rules/").status_code == 404
    assert client.get("/games/SILKROAD/rules/").status_code == 404


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_match_page_links_to_its_games_rules(client, game):
    from games import services

    alice = HumanPlayerFactory()
    match = services.create_match(game=game, players=[alice, EngineBotFactory()], rated=False)
    client.force_login(alice.user)
    html = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    assert f'<a class="rules-link" href="/games/{game}/rules/">Rules of ' in html
    czech = client.get(reverse("match-detail", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="cs")
    assert f'href="/games/{game}/rules/">Pravidla hry ' in czech.content.decode()


def test_home_page_game_names_link_to_their_rules(client):
    html = client.get("/").content.decode()
    for slug in ENGINES:
        assert f'href="/games/{slug}/rules/"' in html
    assert '<a href="/games/silkroad/rules/">Silk Road</a>' in html


def test_lobby_links_each_game_to_its_rules(client):
    client.force_login(HumanPlayerFactory().user)
    html = client.get(reverse("play"), HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    rules = re.search(r'<p class="hint lobby-rules">(.*?)</p>', html, re.S).group(1)
    for slug in ENGINES:
        assert f'href="/games/{slug}/rules/"' in rules
    assert "Hedvábná stezka" in rules  # the game's Czech name


def test_callouts_follow_the_language_of_the_board():
    from games.engines import i18n

    token = i18n.set_language("cs", "locale")
    try:
        rules_pages.demo_board.cache_clear()
        board, placed = rules_pages.demo_board("silkroad", "cs")
    finally:
        i18n.reset_language(token)
        rules_pages.demo_board.cache_clear()
    assert "Karavanseráj" in board  # the engine drew it in Czech
    assert placed == len(rules_pages.CALLOUTS["silkroad"])


def test_with_callouts_leaves_markup_it_cannot_read_alone():
    assert rules_pages.with_callouts("<svg><g>", [("id", "deck")]) == ("<svg><g>", 0)
    svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect data-target="deck" x="40" y="40" width="20" height="20"/></svg>'
    out, placed = rules_pages.with_callouts(svg, [("id", "deck"), ("id", "missing")])
    assert placed == 1 and out.startswith(svg[:-6]) and out.endswith("</g></svg>")
