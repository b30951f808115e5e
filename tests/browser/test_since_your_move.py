"""After the bots move, the board highlights every decision since the player's own last
one and the "Since your move" strip lists them with the bots' names (Chromium)."""

import json

import pytest

from config.worker_process import celery_worker
from games import services
from games.engines.registry import get_engine
from games.models import Match
from games.selectors import OWN_PIECE_IDS
from games.services.players import builtin_bot_player
from tests.browser.conftest import click_first_listed_action, log_in
from tests.games.factories import HumanPlayerFactory, logged

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


def test_every_decision_since_her_move_is_highlighted_and_listed(live_server, browser_page):
    page = browser_page
    pat = HumanPlayerFactory(user__username="pat")
    bots = [builtin_bot_player(bot_name="random"), builtin_bot_player(bot_name="greedy")]
    log_in(page, live_server.url, "pat")
    with celery_worker():
        match = services.create_match(game="silkroad", players=[pat, *bots], seed=6)
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        for _ in range(30):  # her turns (one may take several decisions) until both bots moved
            page.wait_for_selector("button.act", state="attached", timeout=30_000)
            match = Match.objects.get(pk=match.pk)
            decisions = logged(match)
            mine = [d.ply for d in decisions if d.seat == 0]
            since = [d for d in decisions if mine and d.ply > mine[-1]]
            ply = page.get_attribute("#match-live", "data-ply")
            if {d.seat for d in since} == {1, 2} and int(ply) == match.ply:
                break
            click_first_listed_action(page)
            page.wait_for_selector(f"#match-live:not([data-ply='{ply}'])", state="attached")
    assert {d.seat for d in since} == {1, 2}, "the bots never both moved between her turns"

    items = page.locator("#since-move li")
    assert items.count() == len(since)
    names = {1: "Random bot", 2: "Greedy bot"}
    for i, d in enumerate(since):
        assert items.nth(i).get_attribute("value") == str(d.ply + 1)
        assert names[d.seat] in items.nth(i).inner_text()
    assert "Since your move" in page.inner_text("#since-move h2")

    engine = get_engine(match.game)
    state = engine.from_json(match.state)
    asked = set(json.loads(page.inner_text("#last-move")))
    marked = set(
        page.eval_on_selector_all(
            "#board .last-move", "els => els.map(e => e.getAttribute('data-target'))"
        )
    )
    for d in since:
        for target in engine.action_targets(state, d.action):
            if target.startswith(OWN_PIECE_IDS):
                assert target not in marked or any(
                    target in engine.action_targets(state, e.action) and e.seat == 0
                    for e in decisions
                )  # a bot's card in hand is not hers
                continue
            assert target in asked, (d, target, asked)
            # A part still on the board is marked (a card taken from the display is gone).
            if page.locator(f'#board [data-target="{target}"]').count():
                assert target in marked, (d, target, marked)
