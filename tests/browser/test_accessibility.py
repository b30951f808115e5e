"""axe-core (the axe-playwright-python package's copy) finds no violation on the main pages:
home, lobby, a match of each game at the player's decision, a replay, a tournament, a
leaderboard and a player page, at 1280 x 800 and at 390 x 844 (in English, and in Czech on
the phone, where the longer words wrap)."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.conftest import log_in

pytestmark = pytest.mark.django_db(transaction=True)

AXE = Axe()


def _violations(page) -> list[tuple[str, int, list[str]]]:
    results = AXE.run(page)
    return [
        (v["id"], len(v["nodes"]), [n["target"][0] for n in v["nodes"]][:3])
        for v in results.response["violations"]
    ]


def test_main_pages_have_no_axe_violations_at_both_widths(live_server, browser_page, club):
    from games import services as game_services
    from games.models import Match, MatchStatus
    from tournaments import services as tournament_services

    tournament_services.start_tournament(tournament=club["tournament"])
    # One table played out: a finished table's scores are drawn muted (4.14:1 once).
    match = Match.objects.filter(table__round__tournament=club["tournament"]).first()
    while match.status == MatchStatus.RUNNING:
        game_services.play_bot_decisions(match_id=match.pk, ply=match.ply)
        match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    tournament_services.on_match_finished(match_id=match.pk)  # what the worker's task does
    match.table.refresh_from_db()
    assert match.table.status == "finished"
    paths = {
        "home": "/",
        "lobby": "/play/",
        **{f"match {game}": f"/matches/{m.pk}/" for game, m in club["matches"].items()},
        "replay": f"/matches/{club['finished'].pk}/replay/",
        "tournament": f"/tournaments/{club['tournament'].pk}/",
        "leaderboard": "/ratings/silkroad/",
        "player": "/players/alice/",
    }
    browser = browser_page.context.browser
    found = {}
    for width, height, locale in ((1280, 800, "en-GB"), (390, 844, "en-GB"), (390, 844, "cs-CZ")):
        context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        page = context.new_page()
        try:
            log_in(page, live_server.url, "alice")
            for name, path in paths.items():
                page.goto(live_server.url + path)
                page.wait_for_load_state("load")
                violations = _violations(page)
                if violations:
                    found[(name, width, locale)] = violations
        finally:
            context.close()
    assert found == {}
