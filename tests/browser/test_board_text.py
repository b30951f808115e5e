"""Boards are drawn for reading: on the match page at 1280 px wide (720 px high), no
text of any board is rendered under 11 px (Chromium's layout, not the SVG's numbers)."""

import pytest

from games import services
from games.engines.registry import ENGINES, get_engine
from tests.browser.conftest import log_in
from tests.games.factories import EngineBotFactory, HumanPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

MIN_PX = 11

# Each text's font size times the scale from SVG units to screen pixels (the current
# transformation matrix, so a rotated or scaled group counts too); empty texts are skipped.
RENDERED_SIZES = """
() => Array.from(document.querySelectorAll('#board svg text')).filter(t => t.textContent.trim())
  .map(t => {
    const m = t.getScreenCTM();
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    return [Math.round(px * 100) / 100, t.textContent.trim().slice(0, 30)];
  })
"""


def waiting_for(alice, slug: str):
    """A three-player match some moves in (markers, cards and scores are on the board
    too), at Alice's decision."""
    engine = get_engine(slug)
    bots = [EngineBotFactory(bot_name="random") for _ in range(2)]
    match = services.create_match(game=slug, players=[alice, *bots], seed=5)
    while match.to_act != 0 or match.ply < 6:
        if match.to_act == 0:
            state = engine.from_json(match.state)
            services.submit_action(match_id=match.pk, user=alice.user, ply=match.ply,
                                   action=engine.legal_actions(state)[-1])  # fmt: skip
        else:
            services.play_bot_decisions(match_id=match.pk, ply=match.ply)
        match.refresh_from_db()
    return match


def test_no_board_text_under_11_px_at_1280(live_server, browser_page):
    alice = HumanPlayerFactory(user__username="alice")
    matches = {slug: waiting_for(alice, slug) for slug in sorted(ENGINES)}
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 720})  # a laptop screen
    log_in(page, live_server.url, "alice")
    smallest = {}
    for slug, match in matches.items():
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        page.wait_for_selector("#board svg text", state="attached")
        sizes = page.evaluate(RENDERED_SIZES)
        assert len(sizes) > 20, (slug, sizes)
        smallest[slug] = min(px for px, _ in sizes)
        assert smallest[slug] >= MIN_PX, (slug, sorted(s for s in sizes if s[0] < MIN_PX))
    print("\nsmallest board text (px):", smallest)
