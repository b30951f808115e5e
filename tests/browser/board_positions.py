"""Matches at Alice's decision for the board layout tests (hit areas, phone layout)."""

from __future__ import annotations

import random

from games import services
from games.engines.registry import get_engine
from tests.games.factories import EngineBotFactory


def first_targets(match) -> set[str]:
    """The board ids a decision starts with (what board.js marks legal first)."""
    engine = get_engine(match.game)
    state = engine.from_json(match.state)
    return {
        targets[0]
        for action in engine.legal_actions(state)
        if (targets := engine.action_targets(state, action))
    }


def at_decision(alice, slug: str, *, seed: int, skip: int = 0, want=lambda ids: bool(ids)):
    """A two-player match against a random bot at Alice's decision: the first after
    ``skip`` of her own (answered at random) whose first board ids satisfy ``want``."""
    engine = get_engine(slug)
    match = services.create_match(game=slug, players=[alice, EngineBotFactory()], seed=seed)
    rng = random.Random(seed)
    mine = 0
    for _ in range(2000):
        match.refresh_from_db()
        assert match.status != "finished", "the game ended before such a decision"
        if match.to_act != 0:
            services.play_bot_decisions(match_id=match.pk, ply=match.ply)
            continue
        if mine >= skip and want(first_targets(match)):
            return match
        state = engine.from_json(match.state)
        services.submit_action(match_id=match.pk, user=alice.user, ply=match.ply,
                               action=rng.choice(engine.legal_actions(state)))  # fmt: skip
        mine += 1
    raise AssertionError("no such decision")


# The extent of what a click really reaches: points on a grid over each legal part's box
# (and a margin, for thin lines) whose topmost element is the part or inside it; the
# width and height of the run of such points through the part's middle.
HIT_EXTENTS = """
(step) => [...document.querySelectorAll('#board [data-target].legal')].map(el => {
  const r = el.getBoundingClientRect();
  const pad = 30, inside = (x, y) => { const t = document.elementFromPoint(x, y); return !!t && (t === el || el.contains(t)); };
  let cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  if (!inside(cx, cy)) {  // an open wall's gate, a ring: start from any point that hits
    let found = null;
    for (let x = r.left - pad; x <= r.right + pad && !found; x += step)
      for (let y = r.top - pad; y <= r.bottom + pad && !found; y += step) if (inside(x, y)) found = [x, y];
    if (!found) return [el.dataset.target, 0, 0];
    [cx, cy] = found;
  }
  const run = (dx, dy) => { let n = 0; while (n < 200 && inside(cx + dx * (n + 1), cy + dy * (n + 1))) n++; return n; };
  return [el.dataset.target, run(1, 0) + run(-1, 0) + 1, run(0, 1) + run(0, -1) + 1];
})
"""
