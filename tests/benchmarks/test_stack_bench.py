"""The stack benchmark's two sides play the very same games (not its timings)."""

import pytest

from benchmarks import stack
from config.celery import app as celery_app


def test_engine_side_plays_whole_games_with_one_bot_per_seat():
    seconds, plies, cpu = stack.engine_only("yspahan", 2, [3, 4])
    again = stack.engine_only("yspahan", 2, [3, 4])[1]
    assert seconds > 0 and cpu > 0 and plies == again > 2 * 20  # whole games, the same both times


@pytest.mark.django_db(transaction=True)
@pytest.mark.celery_worker
def test_platform_side_plays_the_same_games_through_a_worker():
    celery_app.control.purge()
    seeds = [7, 8]
    _, engine_plies, _ = stack.engine_only("silkroad", 2, seeds)
    platform = stack.through_platform("silkroad", 2, seeds)
    assert platform["plies"] == engine_plies
    assert platform["seconds"] > 0 and platform["worker_cpu_s"] > 0


def test_profile_categories():
    assert stack._category("/x/games/engines/silkroad/rules.py") == "engine (rules, bots)"
    assert stack._category("/v/site-packages/psycopg/cursor.py").startswith("database")
    assert stack._category("/v/site-packages/redis/client.py") == "broker and cache"
