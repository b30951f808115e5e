"""Bounded bot compute (issue #31): a search bot's decision stops at the wall-clock cap
whatever its parameters say, the cap follows the match's clock, and search-bot turns go
to their own queue."""

from __future__ import annotations

import random

import pytest

from games import services
from games.engines.base import InvalidOptions
from games.engines.registry import get_engine
from games.services import dispatch
from games.services.runner import Runner
from tests.games.factories import EngineBotFactory, HumanPlayerFactory
from tests.games.services.test_match_batches import published_tasks


def _midgame(game: str, players: int = 3):
    engine = get_engine(game)
    state = engine.new_game(players=players, seed=11, options={})
    rng = random.Random(5)
    for _ in range(4):
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    while len(engine.legal_actions(state)) < 2:  # a real choice, so that the bot searches
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    return engine, state


@pytest.mark.parametrize("game", ["silkroad", "yspahan", "greatwall"])
def test_twenty_thousand_iterations_without_time_s_stop_at_the_cap(game):
    engine, state = _midgame(game)
    # The most expensive playouts the old bounds allowed (97-106 s a decision at 2,000).
    bot = engine.make_bot("ismcts", seed=1, iterations=20000, rollout_depth=200,
                          rollout_candidates=16, max_s=0.5)  # fmt: skip
    assert bot.max_s == 0.5
    bot.choose(state, engine.to_act(state))
    assert 0 < bot.last_iterations < 20000  # cut short by the cap, not by the count
    # One iteration may run past the cap: a deep guided playout of the costliest game.
    assert bot.last_seconds < 0.5 + 1.0


def test_the_cap_applies_without_being_asked():
    engine, state = _midgame("silkroad")
    bot = engine.make_bot("ismcts", seed=1, iterations=20000)
    assert bot.max_s == 5.0  # MAX_TIME_S: nothing given still means a cap
    # A player can't lift it through the parameters: no such parameter.
    with pytest.raises(InvalidOptions, match="max_s"):
        engine.check_bot_params("ismcts", {"iterations": 5, "max_s": 60})
    assert engine.make_bot("ismcts", seed=1, max_s=60).max_s == 5.0  # never above 5 s


def test_greedy_looks_at_fewer_worlds_when_the_cap_is_reached():
    engine, state = _midgame("greatwall")
    bot = engine.make_bot("greedy", seed=1, samples=16, depth=4, beam=8, max_s=0.0)
    assert bot.choose(state, engine.to_act(state)) in engine.legal_actions(state)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("time_control", "clock_ms", "cap"),
    [(None, None, 5.0), ({"per_move_s": 2}, None, 2.0), ({"initial_s": 60, "increment_s": 0},
                                                         1000, 0.9)],
)  # fmt: skip
def test_the_cap_follows_the_match_clock(settings, time_control, clock_ms, cap):
    settings.BOT_MAX_THINK_S = 5.0
    human = HumanPlayerFactory()
    bot = EngineBotFactory(bot_name="ismcts", bot_params={"iterations": 10})
    match = services.create_match(game="silkroad", players=[bot, human],
                                  time_control=time_control, created_by=human.user)  # fmt: skip
    runner = Runner.load(match)
    if clock_ms is not None:
        runner.seats[0].clock_ms = clock_ms
    assert runner.think_cap(0) == pytest.approx(cap)
    settings.BOT_MAX_THINK_S = 1.5
    assert runner.think_cap(0) == pytest.approx(min(cap, 1.5))


def queues_used():
    """(task name, queue, match ids) of every task published meanwhile."""
    return published_tasks(queues=True)


def _turns(sent) -> list[tuple]:
    return [(name, queue, sorted(m for m, _ply in args[0])) for name, args, queue in sent]


@pytest.mark.django_db
def test_search_bot_turns_go_to_the_heavy_queue_the_rest_to_the_default(settings):
    settings.BOT_TASK_SPREAD = 1
    search = EngineBotFactory(bot_name="ismcts", bot_params={"iterations": 10})
    quick = EngineBotFactory(bot_name="random")
    quick2 = EngineBotFactory(bot_name="greedy")
    heavy = services.create_match(game="silkroad", players=[search, quick], start=False)
    light = services.create_match(game="silkroad", players=[quick, quick2], start=False)
    with queues_used() as sent:
        dispatch.send_bot_turns([(heavy.pk, 0), (light.pk, 0)])
    assert sorted(_turns(sent), key=lambda s: s[1]) == [
        ("games.tasks.play_bot_matches", settings.BOT_HEAVY_QUEUE, [heavy.pk]),
        ("games.tasks.play_bot_matches", settings.CELERY_TASK_DEFAULT_QUEUE, [light.pk]),
    ]
    assert settings.BOT_HEAVY_QUEUE.startswith("bots-heavy")


@pytest.mark.django_db
def test_the_sweep_sends_a_stalled_turn_once_not_every_sweep(settings):
    from django.utils import timezone

    from games.models import Match
    from games.tasks import sweep_matches

    search = EngineBotFactory(bot_name="ismcts", bot_params={"iterations": 10})
    match = services.create_match(game="silkroad", players=[search, EngineBotFactory()],
                                  start=False)  # fmt: skip
    services.start_match(match_id=match.pk)
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timezone.timedelta(
        seconds=settings.MATCH_STALLED_S + 5))  # fmt: skip
    with queues_used() as sent:
        sweep_matches.apply()
        sweep_matches.apply()
    assert [s[2] for s in _turns(sent) if s[0] == "games.tasks.play_bot_matches"] == [[match.pk]]
