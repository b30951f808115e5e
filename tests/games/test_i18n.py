"""The engines speak the request's language (games/i18n.py) with the project's
catalogs; each thread or context keeps its own language; stored log labels stay
English and are described again for a Czech reader."""

from __future__ import annotations

import random
import re
import threading

import pytest
from django.conf import settings

from games import services
from games.engines import i18n
from games.engines.registry import ENGINES, get_engine
from games.i18n import activate_engine_language
from tests.games.factories import HumanPlayerFactory, logged

LOCALE = settings.LOCALE_PATHS[0]
# One word per engine that exists only in Czech: a board name and an action word.
CZECH_BOARD_WORD = {"silkroad": "Taškent", "yspahan": "Legenda", "greatwall": "Legenda"}


def _svg_text(svg: str) -> str:
    return " ".join(re.findall(r">([^<>]+)</text>", svg))


@pytest.fixture
def czech():
    token = i18n.set_language("cs", LOCALE)
    yield
    i18n.reset_language(token)


def _random_labels(engine, plies=40, seed=3):
    state, rng, labels = engine.new_game(players=2, seed=seed), random.Random(seed), []
    for _ in range(plies):
        if engine.is_over(state):
            break
        actions = engine.legal_actions(state)
        labels += [engine.describe(state, a) for a in actions]
        state = engine.apply(state, rng.choice(actions))
    return labels, engine.render_svg(engine.observation(state, 0))


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_every_engine_describes_and_draws_in_czech(czech, slug):
    engine = get_engine(slug)
    labels, svg = _random_labels(engine)
    assert CZECH_BOARD_WORD[slug] in _svg_text(svg)
    # Every label and board word is a catalog translation: none is left in English.
    english = {e for e in _english_words()}
    for label in labels:
        assert not (set(re.findall(r"[A-Za-z]{4,}", label)) & english), label
    assert not (set(re.findall(r"[A-Za-z]{4,}", _svg_text(svg))) & english)


def _english_words() -> set[str]:
    """English words of the engines catalog that the Czech text never uses."""
    import polib

    po = polib.pofile(str(LOCALE / "cs/LC_MESSAGES/engines.po"))
    words, czech = set(), set()
    for e in po:
        words |= set(re.findall(r"[A-Za-z]{4,}", re.sub(r"\{\w+\}", "", e.msgid)))
        czech |= set(re.findall(r"[A-Za-z]{4,}", e.msgstr))
    return words - czech


def test_two_threads_keep_their_own_language():
    engine = get_engine("silkroad")
    state = engine.new_game(players=2, seed=1)
    barrier, seen = threading.Barrier(2), {}

    def worker(lang):
        token = i18n.set_language(lang, LOCALE)
        barrier.wait()  # both languages are set before either thread translates
        seen[lang] = [engine.describe(state, {"type": "pass"}) for _ in range(200)]
        barrier.wait()
        i18n.reset_language(token)

    threads = [threading.Thread(target=worker, args=(lang,)) for lang in ("cs", "en")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert set(seen["cs"]) == {"vynechat"} and set(seen["en"]) == {"pass"}
    # The main thread never chose a language: English.
    assert i18n._("pass") == "pass"


def test_reset_restores_the_previous_language():
    outer = activate_engine_language("cs")
    inner = activate_engine_language("en")
    assert i18n._("pass") == "pass"
    i18n.reset_language(inner)
    assert i18n._("pass") == "vynechat" and i18n.current_language() == "cs"
    # One English letter, two Czech ones by context: a Silk Road market, a Mongol rider.
    assert (i18n.pgettext("market", "M"), i18n._("M")) == ("T", "M")
    i18n.reset_language(outer)
    assert i18n._("pass") == "pass" and i18n.current_language() == "en"


@pytest.mark.django_db
def test_api_state_and_log_in_czech_while_the_stored_log_stays_english(api_client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = services.create_match(game="silkroad", players=[alice, bob], seed=9)
    actor = [alice, bob][match.to_act]
    api_client.force_authenticate(actor.user)
    url = f"/api/matches/{match.pk}/state/"
    czech = api_client.get(url, HTTP_ACCEPT_LANGUAGE="cs").json()
    english = api_client.get(url).json()
    assert [a["action"] for a in czech["legal_actions"]] == [
        a["action"] for a in english["legal_actions"]
    ]
    cs_labels = [a["label"] for a in czech["legal_actions"]]
    en_labels = [a["label"] for a in english["legal_actions"]]
    assert cs_labels != en_labels and any("karavan" in label for label in cs_labels)
    # A move made from a Czech page is stored in English ...
    action = czech["legal_actions"][0]["action"]
    response = api_client.post(f"/api/matches/{match.pk}/actions/", {"ply": czech["ply"], "action": action},
                               format="json", HTTP_ACCEPT_LANGUAGE="cs")  # fmt: skip
    assert response.status_code in (200, 201), response.content
    stored = logged(match, ply=czech["ply"])[0].label
    assert stored == en_labels[0]
    # ... and read back in each reader's language; the request left no language behind.
    log_cs = api_client.get(f"/api/matches/{match.pk}/log/", HTTP_ACCEPT_LANGUAGE="cs").json()
    log_en = api_client.get(f"/api/matches/{match.pk}/log/").json()
    assert log_cs[-1]["label"] == cs_labels[0] and log_en[-1]["label"] == stored
    assert i18n.current_language() == "en"


@pytest.mark.django_db
def test_api_error_messages_in_czech(api_client):
    # DRF's own message, from its Czech catalog ...
    response = api_client.post("/api/matches/", {}, format="json", HTTP_ACCEPT_LANGUAGE="cs")
    assert response.status_code in (401, 403)
    assert "přihlašovací údaje" in response.json()["detail"]
    # ... and a model choice of ours in a validation message.
    api_client.force_authenticate(HumanPlayerFactory().user)
    response = api_client.post("/api/matches/", {"game": "silkroad", "seats": [], "timeout_policy": "x"},
                               format="json", HTTP_ACCEPT_LANGUAGE="cs")  # fmt: skip
    assert response.status_code == 400
    assert response.json()["fields"]["timeout_policy"] == ['"x" není platnou možností.']


@pytest.mark.django_db
def test_game_titles_in_czech(api_client):
    titles = {
        g["slug"]: g["title"]
        for g in api_client.get("/api/games/", HTTP_ACCEPT_LANGUAGE="cs").json()
    }
    assert titles == {
        "silkroad": "Hedvábná stezka",
        "yspahan": "Yspahan",
        "greatwall": "Čingischán",
    }
    english = {g["slug"]: g["title"] for g in api_client.get("/api/games/").json()}
    assert english["greatwall"] == get_engine("greatwall").title
