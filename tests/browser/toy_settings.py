"""Settings for a Celery worker that also knows the test-only toy engine with a board."""

from config.settings.test import *  # noqa: F403
from games.engines.registry import ENGINES
from tests.games.engines.toy_board import TOY_BOARD

ENGINES.setdefault(TOY_BOARD.slug, TOY_BOARD)
