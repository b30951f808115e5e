"""The platform's engine-agnostic contract checks (games/engines/testkit.py) on Silk Road."""

import pytest

from games.engines import testkit
from games.engines.silkroad import ENGINE


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_contract_over_a_whole_game(players, seed):
    testkit.check_game(ENGINE, players, seed, every=7, determinizations=1)


def test_contract_on_the_blank_side():
    testkit.check_game(ENGINE, 3, 9, {"board_side": "blank"}, every=11, determinizations=1)


def test_bots_choose_legal_actions():
    testkit.check_bot_game(
        ENGINE, 3, 5, ["random", "greedy", "ismcts"], params={"ismcts": {"iterations": 10}}
    )
