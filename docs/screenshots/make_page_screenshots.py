"""Screenshots of real match pages (not run in CI): each game's match page at 1280 px,
one at 390 px, one in Czech, and a half-made board selection; and (test_review_screenshots)
every main page at 1280 and 390 px in English and Czech, into var/shots-review/ (or
SHOTS_DIR) for a person to look at, two of them also kept here.

Run from the repository root:
    .venv/bin/python -m pytest docs/screenshots/make_page_screenshots.py -p no:cacheprovider
"""

from pathlib import Path

import pytest

from games import services
from games.engines.registry import ENGINES, get_engine
from tests.browser.conftest import browser_page, log_in  # noqa: F401 - the fixture
from tests.games.factories import EngineBotFactory, HumanPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

OUT = Path(__file__).resolve().parent


def play_by_rote(alice, match, engine, done):
    """Alice (seat 0) answers by rote and the bots play until ``done(match)``."""
    while not done(match):
        if match.to_act == 0:
            actions = engine.legal_actions(engine.from_json(match.state))
            services.submit_action(match_id=match.pk, user=alice.user, ply=match.ply,
                                   action=actions[match.ply % len(actions)])  # fmt: skip
        else:
            services.play_bot_decisions(match_id=match.pk, ply=match.ply)
        match.refresh_from_db()
    return match


def mid_game(alice, slug: str, plies: int = 40):
    """A three-player match some moves in, waiting for Alice (seat 0)."""
    bots = [EngineBotFactory(bot_name="greedy") for _ in range(2)]
    match = services.create_match(game=slug, players=[alice, *bots], seed=11)
    return play_by_rote(alice, match, get_engine(slug),
                        lambda m: m.to_act == 0 and m.ply >= plies)  # fmt: skip


def test_match_page_screenshots(live_server, browser_page):  # noqa: F811
    alice = HumanPlayerFactory(user__username="alice")
    matches = {slug: mid_game(alice, slug) for slug in sorted(ENGINES)}
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, live_server.url, "alice")
    for slug, match in matches.items():
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        page.wait_for_selector("#board .legal, #board-choices button", state="attached")
        page.screenshot(path=str(OUT / f"match-{slug}-1280.png"), full_page=True)

    # A selection half made: the picked part in green, the next parts highlighted.
    page.goto(f"{live_server.url}/matches/{matches['silkroad'].pk}/")
    page.locator("#board .legal").first.click(force=True)
    page.screenshot(path=str(OUT / "board-click-1280.png"), full_page=True)

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/matches/{matches['yspahan'].pk}/")
    page.screenshot(path=str(OUT / "match-390.png"), full_page=True)

    czech = page.context.browser.new_page(locale="cs-CZ", viewport={"width": 1280, "height": 900})
    log_in(czech, live_server.url, "alice")
    czech.goto(f"{live_server.url}/matches/{matches['silkroad'].pk}/")
    czech.screenshot(path=str(OUT / "match-cs-1280.png"), full_page=True)


# ---- the user's-eye review: every main page, 1280 and 390 px, English and Czech ----------

REVIEW = Path(__file__).resolve().parents[2] / "var" / "shots-review"


def play_to_end(alice, slug: str, seed: int = 5):
    """A two-player match against a bot, played to its end (Alice answers by rote)."""
    match = services.create_match(game=slug, players=[alice, EngineBotFactory(bot_name="greedy")],
                                  seed=seed)  # fmt: skip
    return play_by_rote(alice, match, get_engine(slug), lambda m: m.status != "running")


# The review's shots that docs/screenshots keeps (and the README shows).
COMMITTED = {("lobby", "cs", 390): "lobby-cs-390.png", ("replay", "en", 1280): "replay-1280.png"}


def test_review_screenshots(live_server, browser_page):  # noqa: F811
    import os

    out = Path(os.environ.get("SHOTS_DIR") or REVIEW)
    out.mkdir(parents=True, exist_ok=True)
    alice = HumanPlayerFactory(user__username="alice")
    bob = HumanPlayerFactory(user__username="bob")
    carla = HumanPlayerFactory(user__username="carla")
    HumanPlayerFactory(user__username="boss", user__is_staff=True, user__is_superuser=True)
    for ranks in ([1, 2, 3], [2, 1, 3], [1, 3, 2]):
        services.record_offline_match(game="silkroad", players=[alice, bob, carla], ranks=ranks)
    running = {slug: mid_game(alice, slug, plies=20) for slug in sorted(ENGINES)}
    finished = play_to_end(alice, "silkroad")
    services.create_match(game="yspahan", players=[bob, None], created_by=bob.user)  # open seat
    services.create_match(game="greatwall", players=[carla, alice], created_by=carla.user)
    pages = {
        "home": "/", "lobby": "/play/", "my-games": "/play/mine/", "invitations": "/invitations/",
        **{f"match-{slug}": f"/matches/{m.pk}/" for slug, m in running.items()},
        "finished": f"/matches/{finished.pk}/", "replay": f"/matches/{finished.pk}/replay/",
        "player": "/players/alice/", "leaderboard": "/ratings/silkroad/",
    }  # fmt: skip
    browser = browser_page.context.browser
    for lang, locale in (("en", "en-GB"), ("cs", "cs-CZ")):
        for width, height in ((1280, 900), (390, 844)):
            page = browser.new_page(locale=locale, viewport={"width": width, "height": height})
            for name in ("login", "signup"):
                page.goto(f"{live_server.url}/accounts/login/" if name == "login"
                          else f"{live_server.url}/signup/")  # fmt: skip
                page.screenshot(path=str(out / f"{name}-{lang}-{width}.png"), full_page=True)
            log_in(page, live_server.url, "alice")
            for name, url in pages.items():
                page.goto(live_server.url + url)
                page.wait_for_timeout(400)
                page.screenshot(path=str(out / f"{name}-{lang}-{width}.png"), full_page=True)
                if (name, lang, width) in COMMITTED:
                    page.screenshot(path=str(OUT / COMMITTED[name, lang, width]), full_page=True)
            page.close()
    admin = browser.new_page(locale="cs-CZ", viewport={"width": 1280, "height": 900})
    log_in(admin, live_server.url, "boss")
    for name, url in (("admin", "/admin/"), ("admin-variant", "/admin/games/variant/add/?game=silkroad"),
                      ("admin-operations", "/admin/operations/")):  # fmt: skip
        admin.goto(live_server.url + url)
        admin.screenshot(path=str(out / f"{name}-cs-1280.png"), full_page=True)
