"""English and Czech pages (docs/architecture.md, Runtime, "Languages"): the language comes from
Accept-Language or the switcher, the Czech pages show no English text that the
catalog translates, and the committed .mo files match their .po sources."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client

from games import services as game_services
from tests.games.factories import EngineBotFactory, UserFactory, play_out
from tests.tournaments.factories import tournament_with_bots
from tournaments import services

pytestmark = pytest.mark.django_db

LOCALE = Path(settings.LOCALE_PATHS[0])
CZECH = {"HTTP_ACCEPT_LANGUAGE": "cs"}


class _MainText(HTMLParser):
    """The visible text of the page's <main> (the header and footer belong to base.html),
    plus the title attributes a reader sees on hover."""

    def __init__(self):
        super().__init__()
        self.depth, self.skip, self.parts = 0, 0, []

    def handle_starttag(self, tag, attrs):
        if tag == "main":
            self.depth += 1
        if tag in ("script", "style"):
            self.skip += 1
        if self.depth:
            self.parts += [v for k, v in attrs if k == "title" and v]

    def handle_endtag(self, tag):
        if tag == "main":
            self.depth -= 1
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if self.depth and not self.skip and data.strip():
            self.parts.append(data.strip())


def main_text(html: str) -> str:
    parser = _MainText()
    parser.feed(html)
    return "\n".join(parser.parts)


def translated_english() -> list[str]:
    """Every English text of the django catalog whose Czech differs (placeholders split off)."""
    texts = []
    for entry in polib.pofile(str(LOCALE / "cs/LC_MESSAGES/django.po")):
        czech = [entry.msgstr] if not entry.msgid_plural else list(entry.msgstr_plural.values())
        for english in filter(None, [entry.msgid, entry.msgid_plural]):
            if english in czech:
                continue
            texts += [p.strip() for p in re.split(r"%\(\w+\)[sd]", english) if len(p.strip()) > 2]
    return sorted(set(texts))


# Key caps keep their English names on Czech keyboards ("První tah (Home)").
KEY_NAMES = {"Home", "End"}
# Names of other programs stay as they are ("Swiss Manager" is not the Swiss system).
PRODUCT_NAMES = ("Swiss Manager",)


def untranslated(html: str) -> list[str]:
    text = main_text(html)
    for name in PRODUCT_NAMES:
        text = text.replace(name, "")
    # Places in the time-zone picker ("Mexico City", "Ho Chi Minh City") are names, not
    # the word "City" (a club's town) left in English.
    text = re.sub(r"(?:[A-Z][a-z]+ )+City\b", "", text)
    return [
        e
        for e in translated_english()
        if e not in KEY_NAMES and re.search(rf"(?<!\w){re.escape(e)}(?!\w)", text)
    ]


@pytest.fixture
def organiser_client():
    user = UserFactory(username="poradatel")
    client = Client()
    client.force_login(user)
    return client, user


def _pages(user):
    t = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 2}, over_the_board=True,
                             auto_advance=False, organiser=user)  # fmt: skip
    services.start_tournament(tournament=t)
    me = user.player
    bot = EngineBotFactory(bot_name="random")
    running = game_services.create_match(game="yspahan", players=[me, bot], seed=4)
    finished = {game: _finished_match(game) for game in ("silkroad", "yspahan", "greatwall")}
    return {
        "home": "/",
        "lobby": "/play/",
        "my games": "/play/mine/",
        "invitations": "/invitations/",
        "match list": "/matches/",
        "match": f"/matches/{running.pk}/",
        # The finished page names its rating pool (stored in English); the replay lists
        # every hand with the engines' words.
        "finished match": f"/matches/{finished['silkroad'].pk}/",
        **{f"replay {g}": f"/matches/{m.pk}/replay/?ply=12" for g, m in finished.items()},
        "player": f"/players/{me.name}/",
        "tournament list": "/tournaments/",
        "tournament detail": f"/tournaments/{t.pk}/",
        "tournament live": f"/tournaments/{t.pk}/live/",
        "tournament create": "/tournaments/new/",
        "leaderboard": "/ratings/silkroad/",
    }


def _finished_match(game: str):
    """Two random bots play a match to its end (its page shows the result and prediction)."""
    players = [EngineBotFactory(bot_name="random") for _ in range(2)]
    match = game_services.create_match(game=game, players=players, seed=3)
    play_out(match)
    assert match.status == "finished"
    return match


def test_accept_language_picks_czech_and_english_stays_the_default():
    czech = Client().get("/accounts/login/", **CZECH)
    assert '<html lang="cs">' in czech.content.decode()
    assert "Přihlásit se" in czech.content.decode()
    english = Client().get("/accounts/login/")
    assert '<html lang="en">' in english.content.decode()
    assert "Přihlásit se" not in english.content.decode()


def test_czech_pages_show_no_english_the_catalog_translates(organiser_client):
    client, user = organiser_client
    pages = _pages(user)
    for name, url in pages.items():
        response = client.get(url, **CZECH)
        assert response.status_code == 200, name
        html = response.content.decode()
        if name != "tournament live":
            assert '<html lang="cs">' in html, name
        else:
            html = f"<main>{html}</main>"
        assert untranslated(html) == [], name
    anonymous = Client()
    for url in ("/accounts/login/", "/signup/"):
        html = anonymous.get(url, **CZECH).content.decode()
        assert untranslated(html) == [], url
    # The check itself finds English: the same pages in English are full of it.
    assert untranslated(client.get("/tournaments/").content.decode())


def test_czech_page_shows_czech_game_names_and_choices(organiser_client):
    client, user = organiser_client
    _pages(user)
    text = main_text(client.get("/tournaments/", **CZECH).content.decode())
    assert "Hedvábná stezka" in text and "Švýcarský systém" in text and "Probíhá" in text
    form = client.get("/tournaments/new/", **CZECH).content.decode()
    assert "Čingischán" in form and "Yspahan" in form


def test_the_switcher_sets_the_language():
    client = Client()
    page = client.get("/accounts/login/").content.decode()
    assert 'action="/i18n/setlang/"' in page and 'name="language"' in page
    response = client.post("/i18n/setlang/", {"language": "cs", "next": "/tournaments/"})
    assert response.status_code == 302 and response["Location"] == "/tournaments/"
    html = client.get("/tournaments/").content.decode()
    assert '<html lang="cs">' in html and "Turnaje" in main_text(html)
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert '<html lang="en">' in client.get("/tournaments/").content.decode()


def test_the_switcher_has_no_inline_script_or_style():
    html = (Path(settings.BASE_DIR) / "templates/includes/language_switcher.html").read_text()
    assert (
        "<script" not in html and "style=" not in html and " on" not in html.replace("option", "")
    )


def test_a_czech_form_error_and_message():
    client = Client()
    response = client.post(
        "/signup/", {"username": "", "password1": "x", "password2": "y"}, **CZECH
    )
    assert response.status_code == 200
    assert "Hesla se neshodují." in response.content.decode()


@pytest.mark.parametrize("domain", ["django", "engines"])
def test_catalogs_are_complete_and_the_mo_files_up_to_date(domain):
    po = polib.pofile(str(LOCALE / f"cs/LC_MESSAGES/{domain}.po"))
    assert len(po) > 50
    assert po.untranslated_entries() == [] and po.fuzzy_entries() == []
    mo = polib.mofile(str(LOCALE / f"cs/LC_MESSAGES/{domain}.mo"))

    def messages(catalog):
        return {
            (e.msgctxt or "", e.msgid, e.msgid_plural or ""): (
                e.msgstr,
                tuple(sorted(e.msgstr_plural.items())),
            )
            for e in catalog
            if e.msgid and not e.obsolete
        }

    assert messages(mo) == messages(po), "run: .venv/bin/python scripts/make-messages --compile"


def test_czech_admin_names_the_games_and_ratings_models_in_czech():
    from django.apps import apps
    from django.utils import translation

    client = Client()
    client.force_login(UserFactory(username="spravce", is_staff=True, is_superuser=True))
    html = client.get("/admin/", **CZECH).content.decode()
    assert '<html lang="cs"' in html
    models = [m for app in ("games", "ratings") for m in apps.get_app_config(app).get_models()
              if m.__name__ != "OpenSeat"]  # fmt: skip
    listed = 0
    for model in models:
        english = str(model._meta.verbose_name_plural)
        with translation.override("cs"):
            czech = str(model._meta.verbose_name_plural)
        if f"/admin/{model._meta.app_label}/{model._meta.model_name}/" not in html:
            continue  # not in the admin
        listed += 1
        assert czech.capitalize() in html, model
        if czech != english:
            assert f">{english.capitalize()}<" not in html, model
    assert listed >= 5
    assert "Hry a partie" in html


def test_czech_admin_forms_label_fields_in_czech():
    client = Client()
    client.force_login(UserFactory(username="spravce2", is_staff=True, is_superuser=True))
    # Adding a variant asks for the game first, then shows the form for that game.
    html = client.get("/admin/games/variant/add/", **CZECH).content.decode()
    assert "vyberte hru" in html
    html = client.get("/admin/games/variant/add/?game=silkroad", **CZECH).content.decode()
    assert ">Popis:</label>" in html and ">Description:</label>" not in html
    assert ">Hra:</label>" in html and ">Game:</label>" not in html


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[^\W\d_]{2,}", text)}


def _great_wall_texts(seed: int, players: int) -> list[str]:
    """What a Great Wall game shows in the current engine language: every legal action's
    label, each move as its actor and as anyone else sees it, and the board's texts and
    tooltips for a player and a spectator."""
    from games.engines.registry import get_engine

    engine = get_engine("greatwall")
    state = engine.new_game(players=players, seed=seed)
    bots = [engine.make_bot("random", seed=seed + k) for k in range(players)]
    texts = []
    for ply in range(400):
        if engine.is_over(state):
            break
        seat = engine.to_act(state)
        texts += [engine.describe(state, a) for a in engine.legal_actions(state)]
        action = bots[seat].choose(state, seat)
        texts.append(engine.describe(state, engine.redact_action(action, seat, None)))
        state = engine.apply(state, action)
        if ply % 5 == 0:
            for viewer in (seat, None):
                texts += re.findall(
                    r">([^<>]+)<", engine.render_svg(engine.observation(state, viewer))
                )
    return texts


def test_great_wall_in_czech_has_no_english_words():
    """Names (villages, walls, marks) are the same in both languages; any other word of
    the English texts in the Czech ones is an untranslated string (as "lay" was)."""
    from games.engines import i18n as engine_i18n
    from games.engines.greatwall import labels
    from games.i18n import activate_engine_language

    games = [(1, 2), (2, 3), (3, 4)]
    english = [t for g in games for t in _great_wall_texts(*g)]
    token = activate_engine_language("cs")
    try:
        czech = [t for g in games for t in _great_wall_texts(*g)]
        names = {w for v in labels.VILLAGE_NAMES for w in _words(labels.village_name(v))}
    finally:
        engine_i18n.reset_language(token)
    names |= {w for v in labels.VILLAGE_NAMES for w in _words(labels.village_name(v))}
    # Not equal counts: the side panel wraps a line by its length, which differs by language.
    assert len(czech) > 1000 and len(english) > 1000
    left = set().union(*map(_words, czech)) & set().union(*map(_words, english))
    assert left - names == set(), sorted(t for t in set(czech) if _words(t) & (left - names))[:10]


def test_admin_names_the_club_and_celery_beat_in_czech():
    client = Client()
    client.force_login(UserFactory(username="spravce3", is_staff=True, is_superuser=True))
    english = client.get("/admin/").content.decode()
    assert "<title>Games, players, tournaments and ratings | Caravan Club admin</title>" in english
    assert ">Caravan Club administration</a>" in english and "Django" not in english
    assert ">Scheduled tasks</a>" in english
    html = client.get("/admin/", **CZECH).content.decode()
    assert "<title>Hry, hráči, turnaje a hodnocení | Správa Caravan Clubu</title>" in html
    assert ">Správa Caravan Clubu</a>" in html and "Django" not in html
    # django-celery-beat has no Czech catalog: its names come from the project's.
    assert ">Plánované úlohy</a>" in html
    for czech in ("Periodické úlohy", "Intervaly", "Crontaby", "Pevný čas", "Sluneční události"):
        assert f">{czech}</a>" in html, czech
    for english_name in ("Periodic tasks", "Intervals", "Clocked", "Solar events"):
        assert f">{english_name}</a>" not in html, english_name


def test_celery_beat_admin_forms_and_lists_in_czech():
    """django-celery-beat's labels, help texts, fieldsets and actions come from the project's
    catalog; the words it leaves unmarked from config/celery_beat_admin.py."""
    from django_celery_beat.models import CrontabSchedule, IntervalSchedule, PeriodicTask

    every = IntervalSchedule.objects.create(every=10, period="seconds")
    task = PeriodicTask.objects.create(name="sweep", task="tournaments.tasks.sweep_tournaments",
                                       interval=every)  # fmt: skip
    crontab = CrontabSchedule.objects.create(minute="0", hour="4")
    client = Client()
    client.force_login(UserFactory(username="spravce4", is_staff=True, is_superuser=True))
    base = "/admin/django_celery_beat"
    pages = {
        f"{base}/periodictask/{task.pk}/change/": (
            ["Úloha (ze seznamu)", "Úloha (vlastní název)", "Zapnuto", "Plán s intervalem",
             "Crontab slovy", "Jednorázová úloha", "Poziční argumenty", "Možnosti spuštění",
             "Platí do", "Priorita", "Krátký popis úlohy", "opakovaně po 10 (sekundy)"],
            ["Task (registered)", "Interval Schedule", "Crontab translation", "One-off Task",
             "Execution Options", "Short Description For This Task", "every 10 seconds"],
        ),
        f"{base}/periodictask/": (
            ["Zapnout vybrané úlohy", "Spustit vybrané úlohy", "Dle: název úlohy", ">Plán<"],
            ["Enable selected tasks", "Task Name", "Scheduler"],
        ),
        f"{base}/intervalschedule/{every.pk}/change/": (
            ["Počet period", "Perioda intervalu", "Sekundy", "Periodické úlohy s tímto plánem",
             "Název úlohy"],
            ["Number of Periods", "Interval Period", "Task Name"],
        ),
        f"{base}/crontabschedule/{crontab.pk}/change/": (
            ["Crontab slovy", "Minuty", "Dny v týdnu", "Časové pásmo cronu"],
            ["Human readable", "Minute(s)", "Day(s) Of The Week", "Cron Timezone"],
        ),
        f"{base}/solarschedule/add/": (
            ["Sluneční událost", "Zeměpisná šířka", "Východ slunce"],
            ["Solar Event", "Latitude", "Sunrise"],
        ),
    }  # fmt: skip
    for url, (czech, english) in pages.items():
        page = client.get(url, **CZECH)
        assert page.status_code == 200, url
        html = page.content.decode()
        for text in czech:
            assert text in html, (url, text)
        for text in english:
            assert text not in html, (url, text)
    english_page = client.get(f"{base}/periodictask/{task.pk}/change/").content.decode()
    assert "Task (registered)" in english_page and "Crontab in words" in english_page


def test_silk_road_player_panels_label_their_values_in_czech():
    from games.engines.i18n import reset_language
    from games.engines.registry import get_engine
    from games.i18n import activate_engine_language
    from tests.games.engines.silkroad.test_render import player_facts

    engine = get_engine("silkroad")
    state = engine.new_game(players=3, seed=5)
    token = activate_engine_language("cs")
    try:
        svg = engine.render_svg(engine.observation(state, 0))
    finally:
        reset_language(token)
    labels = [[label for label, _value in pairs] for pairs in player_facts(svg)]
    assert labels == [["poháněč:", "karet v ruce:", "body:"]] + [["poháněč:", "karet v ruce:"]] * 2
    assert ">Hráč 1 (vy)</text>" in svg
