"""The generic bots (games.engines.bots) against the toy engines."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import Engine
from games.engines.bots import BOT_NAMES, make_bot
from games.engines.bots.common import action_key, canonical_json, outcome_rewards
from games.engines.testkit import check_bot_game, random_playout
from tests.games.engines.toy import TOY, ToyEngine
from tests.games.engines.two_step import TWO_STEP

FAST = {"ismcts": {"iterations": 25, "rollout_depth": 6}, "greedy": {"samples": 2}}


def _snapshot(engine: Engine, state) -> str:
    return json.dumps(engine.to_json(state), sort_keys=True)


def _state_at(players: int, seed: int, ply: int):
    """A toy state `ply` random decisions into a game (or its end)."""
    rng = random.Random(seed)
    state = TOY.new_game(players=players, seed=seed)
    for _ in range(ply):
        if TOY.is_over(state):
            break
        legal = TOY.legal_actions(state)
        state = TOY.apply(state, legal[rng.randrange(len(legal))])
    return state


# ---- make_bot -------------------------------------------------------------------
def test_bot_names_match_the_engine_default():
    assert list(BOT_NAMES) == TOY.bot_names() == ["random", "greedy", "ismcts"]


def test_engine_make_bot_goes_through_the_generic_bots():
    bot = TOY.make_bot("ismcts", seed=3, iterations=5)
    assert type(bot).__name__ == "IsmctsBot"
    assert bot.iterations == 5


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("nonsense", {}),
        ("random", {"iterations": 10}),
        ("greedy", {"depth": 0}),
        ("greedy", {"samples": "3"}),
        ("greedy", {"beam": 1.5}),
        ("ismcts", {"iterations": 0}),
        ("ismcts", {"iterations": True}),
        ("ismcts", {"time_s": 0}),
        ("ismcts", {"time_s": -1.0}),
        ("ismcts", {"time_s": "fast"}),
        ("ismcts", {"exploration": -0.1}),
        ("ismcts", {"rollout_depth": -1}),
        ("ismcts", {"rollout_candidates": 0}),
        ("ismcts", {"budget": 3}),
    ],
)
def test_make_bot_rejects_unknown_names_and_bad_params(name, params):
    with pytest.raises(ValueError):
        make_bot(TOY, name, seed=1, **params)


@pytest.mark.parametrize("seed", [None, "1", 1.5, True])
def test_make_bot_rejects_a_bad_seed(seed):
    with pytest.raises(ValueError):
        make_bot(TOY, "random", seed=seed)


def test_unknown_bot_error_names_the_known_bots():
    with pytest.raises(ValueError, match="random, greedy, ismcts"):
        make_bot(TOY, "alphazero", seed=0)


def test_ismcts_accepts_both_budgets():
    bot = make_bot(TOY, "ismcts", seed=0, iterations=10, time_s=5.0)
    state = _state_at(2, 1, 0)
    assert canonical_json(bot.choose(state, 0)) in {
        canonical_json(a) for a in TOY.legal_actions(state)
    }
    assert bot.last_iterations == 10  # the iteration budget ran out first


# ---- every bot: legal, non-mutating, deterministic --------------------------------
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(BOT_NAMES),
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    ply=st.integers(0, 80),
)
def test_bots_choose_a_legal_action_without_touching_the_state(name, players, seed, ply):
    state = _state_at(players, seed, ply)
    if TOY.is_over(state):
        return
    seat = TOY.to_act(state)
    before = _snapshot(TOY, state)
    action = make_bot(TOY, name, seed=seed, **FAST.get(name, {})).choose(state, seat)
    assert _snapshot(TOY, state) == before
    assert canonical_json(action) in {canonical_json(a) for a in TOY.legal_actions(state)}


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bots_are_deterministic_for_a_seed(name):
    def choices(seed: int) -> list[str]:
        bot = make_bot(TOY, name, seed=seed, **FAST.get(name, {}))
        picked = []
        for ply in (0, 1, 7, 20, 33):
            state = _state_at(3, 11, ply)
            if not TOY.is_over(state):
                picked.append(canonical_json(bot.choose(state, TOY.to_act(state))))
        return picked

    assert choices(5) == choices(5)


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bots_play_whole_games(name):
    for players in (2, 3, 4):
        final = check_bot_game(TOY, players, seed=players, bots=[name, "random"], params=FAST)
        assert TOY.is_over(final)


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bots_refuse_to_move_for_the_wrong_seat(name):
    state = _state_at(2, 4, 0)
    with pytest.raises(ValueError):
        make_bot(TOY, name, seed=0, **FAST.get(name, {})).choose(state, 1)


@pytest.mark.parametrize("name", BOT_NAMES)
def test_a_single_legal_action_is_returned(name):
    state = TWO_STEP.new_game(players=2, seed=0)
    narrow = type(
        "OneChoice",
        (type(TWO_STEP),),
        {
            "legal_actions": lambda self, s: (
                [] if self.is_over(s) else [{"pick": "a" if not s["path"] else "1"}]
            )
        },
    )()
    assert make_bot(narrow, name, seed=0).choose(state, 0) == {"pick": "a"}


# ---- what the searches find ----------------------------------------------------------
def test_one_ply_greedy_is_fooled_but_turn_fragments_are_not():
    state = TWO_STEP.new_game(players=2, seed=0)
    assert make_bot(TWO_STEP, "greedy", seed=0, depth=1).choose(state, 0) == {"pick": "a"}
    assert make_bot(TWO_STEP, "greedy", seed=0, depth=2).choose(state, 0) == {"pick": "b"}
    assert make_bot(TWO_STEP, "greedy", seed=0).choose(state, 0) == {"pick": "b"}


def test_ismcts_finds_the_winning_line():
    state = TWO_STEP.new_game(players=2, seed=0)
    assert make_bot(TWO_STEP, "ismcts", seed=0, iterations=60).choose(state, 0) == {"pick": "b"}


def test_ismcts_time_budget_runs_at_least_one_iteration():
    bot = make_bot(TOY, "ismcts", seed=0, time_s=0.02, rollout_depth=4)
    state = _state_at(2, 2, 3)
    action = bot.choose(state, TOY.to_act(state))
    assert action in TOY.legal_actions(state)
    assert bot.last_iterations >= 1


class _NoHeuristicToy(ToyEngine):
    heuristic = Engine.heuristic


class _AliasingToy(ToyEngine):
    """Returns the very state it was given when asked to determinize (no copy)."""

    def determinize(self, state, seat, rng):
        return state


@pytest.mark.parametrize("engine", [_NoHeuristicToy(), _AliasingToy()])
def test_ismcts_copes_with_minimal_engines(engine):
    # Without a heuristic, truncated playouts would be meaningless: they run to the end.
    state = engine.new_game(players=2, seed=9)
    before = _snapshot(engine, state)
    bot = make_bot(engine, "ismcts", seed=0, iterations=20, rollout_depth=2)
    assert bot.choose(state, 0) in engine.legal_actions(state)
    assert _snapshot(engine, state) == before


def test_ismcts_prefers_apply_unchecked_when_offered():
    calls = []

    class Trusting(ToyEngine):
        def apply_unchecked(self, state, action):
            calls.append(action)
            return self.apply(state, action)

    engine = Trusting()
    make_bot(engine, "ismcts", seed=0, iterations=5).choose(engine.new_game(players=2, seed=0), 0)
    assert calls


def _duel(candidate: str, baseline: str, games: int, params: dict) -> float:
    score = 0.0
    for game in range(games):
        me = game % 2
        names = [baseline, baseline]
        names[me] = candidate
        bots = [
            make_bot(TOY, n, seed=game * 10 + i, **params.get(n, {})) for i, n in enumerate(names)
        ]
        state = TOY.new_game(players=2, seed=1000 + game // 2)
        while not TOY.is_over(state):
            seat = TOY.to_act(state)
            state = TOY.apply(state, bots[seat].choose(state, seat))
        score += outcome_rewards(TOY.outcome(state), 2)[me]
    return score / games


def test_greedy_beats_random_on_the_toy_game():
    assert _duel("greedy", "random", 12, {"greedy": {"samples": 1}}) >= 0.8


def test_ismcts_beats_random_on_the_toy_game():
    assert _duel("ismcts", "random", 6, {"ismcts": {"iterations": 40, "rollout_depth": 6}}) >= 0.8


# ---- helpers ---------------------------------------------------------------------
def test_outcome_rewards_are_pairwise_scores():
    assert outcome_rewards({"ranks": [1, 2]}, 2) == [1.0, 0.0]
    assert outcome_rewards({"ranks": [1, 1]}, 2) == [0.5, 0.5]
    assert outcome_rewards({"ranks": [2, 1, 2, 4]}, 4) == [0.5, 1.0, 0.5, 0.0]


def test_action_keys_are_canonical():
    assert action_key({"a": 1, "b": "x"}) == action_key({"b": "x", "a": 1})
    assert action_key({"a": 1}) != action_key({"a": True})
    assert action_key({"a": [1, 2]}) != action_key({"a": [2, 1]})
    assert action_key({"a": {"x": [1, {"y": None}]}}) == action_key({"a": {"x": [1, {"y": None}]}})
    hash(action_key({"cards": ["R1", "G2"], "to": {"city": 3}}))
    assert action_key({"a": [1]}) != action_key({"a": 1})


def test_random_playout_with_bots_ends():
    final, actions = random_playout(TOY, 2, seed=3)
    assert TOY.is_over(final) and actions
