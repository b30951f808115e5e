"""The engine-contract checks (games.engines.testkit): they pass on a correct engine and
catch each kind of broken one."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import testkit
from games.engines.base import IllegalAction
from games.engines.testkit import (
    ContractViolation,
    check_bot_game,
    check_contract,
    check_game,
    check_replay,
    random_playout,
)
from tests.games.engines.toy import TOY, ToyEngine, ToyState
from tests.games.engines.two_step import TWO_STEP


# ---- a correct engine passes ----------------------------------------------------
@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_the_toy_engine_honours_the_contract(players, seed):
    final = check_game(TOY, players, seed, every=3)
    assert TOY.is_over(final)


def test_check_game_with_options_and_a_deterministic_engine():
    check_game(TOY, 3, 5, {"suits": 2, "values": 10, "hand_size": 2})
    check_game(TWO_STEP, 2, 0)


def test_random_playout_is_reproducible():
    first, actions = random_playout(TOY, 3, seed=42)
    again, same_actions = random_playout(TOY, 3, seed=42)
    assert actions == same_actions
    assert TOY.to_json(first) == TOY.to_json(again)
    assert TOY.is_over(first)
    _, other_actions = random_playout(TOY, 3, seed=43)
    assert other_actions != actions


def test_random_playout_reports_every_state():
    seen = []
    final, actions = random_playout(TOY, 2, seed=1, on_state=lambda s, ply: seen.append(ply))
    assert seen == list(range(len(actions) + 1))


def test_random_playout_insists_on_an_end():
    with pytest.raises(ContractViolation, match="did not end"):
        random_playout(TOY, 2, seed=1, max_steps=5)
    state, actions = random_playout(TOY, 2, seed=1, max_steps=5, allow_unfinished=True)
    assert len(actions) == 5 and not TOY.is_over(state)


def test_check_replay_returns_the_final_state_and_rejects_illegal_logs():
    final, actions = random_playout(TOY, 2, seed=8)
    assert TOY.to_json(check_replay(TOY, 2, 8, None, actions)) == TOY.to_json(final)
    assert TOY.to_json(check_replay(TOY, 2, 8, None, actions, resume_at=0)) == TOY.to_json(final)
    with pytest.raises(ContractViolation, match="not legal"):
        check_replay(TOY, 2, 8, None, [{"type": "block"}, *actions])


def test_check_bot_game_plays_every_bot():
    final = check_bot_game(
        TOY, 3, 1, ["random", "greedy", "ismcts"], params={"ismcts": {"iterations": 10}}
    )
    assert TOY.is_over(final)


def test_check_contract_leaves_the_state_alone():
    state = TOY.new_game(players=3, seed=2)
    before = TOY.to_json(state)
    check_contract(
        TOY, state, rng=random.Random(1), extra_illegal=[{"type": "bank", "card": "R99"}]
    )
    assert TOY.to_json(state) == before


# ---- broken engines are caught --------------------------------------------------
class LeakyObservation(ToyEngine):
    def observation(self, state, seat):
        obs = super().observation(state, seat)
        obs["all_hands"] = [list(h) for h in state.hands]  # what nobody may see
        return obs


class LaxApply(ToyEngine):
    def apply(self, state, action):
        if isinstance(action, dict) and action.get("type") == "__no_such_action__":
            return state  # silently accepted
        return super().apply(state, action)


class MutatesBeforeRejecting(ToyEngine):
    def apply(self, state, action):
        state.turns += 1
        try:
            return super().apply(state, action)
        finally:
            state.turns -= 0  # the increment is never undone


class WrongErrorType(ToyEngine):
    def apply(self, state, action):
        if action is None:
            raise TypeError("NoneType is not an action")
        return super().apply(state, action)


class SilentReason(ToyEngine):
    def apply(self, state, action):
        try:
            return super().apply(state, action)
        except IllegalAction:
            raise IllegalAction("") from None


class ShallowClone(ToyEngine):
    def clone(self, state):
        return ToyState(**vars(state))  # shares the lists


class TupleInJson(ToyEngine):
    def to_json(self, state):
        data = super().to_json(state)
        data["display"] = tuple(data["display"])
        return data


class LossyRoundTrip(ToyEngine):
    def from_json(self, data):
        state = super().from_json(data)
        state.history = []
        return state


class DeterminizeReshufflesOwnHand(ToyEngine):
    def determinize(self, state, seat, rng):
        world = super().determinize(state, seat, rng)
        # Swap the seat's own hand with the deck top: the seat would notice.
        if world.deck:
            world.hands[seat][0], world.deck[-1] = world.deck[-1], world.hands[seat][0]
            world.hands[seat].sort()
        return world


class ActsAfterTheEnd(ToyEngine):
    def to_act(self, state):
        return state.current if state.phase == "over" else super().to_act(state)


class UnrankedOutcome(ToyEngine):
    def outcome(self, state):
        result = super().outcome(state)
        result["ranks"] = [1] + [3] * (state.players - 1)
        return result


class NonDeterministic(ToyEngine):
    def new_game(self, *, players, seed, options=None):
        return super().new_game(players=players, seed=random.randrange(10**9), options=options)


class DuplicateActions(ToyEngine):
    def legal_actions(self, state):
        actions = super().legal_actions(state)
        return actions + actions[:1]


class NeverEnds(ToyEngine):
    def _end_turn(self, state):
        super()._end_turn(state)
        if state.phase == "over":
            state.phase = "draw"
            state.deck.append(f"R{100 + state.turns}")  # a fresh card, forever


@pytest.mark.parametrize(
    ("engine_class", "complaint"),
    [
        (LeakyObservation, "determinize changed what seat"),
        (LaxApply, "accepted the illegal action"),
        (MutatesBeforeRejecting, "changed the state"),
        (WrongErrorType, "raised TypeError"),
        (SilentReason, "has no reason"),
        (ShallowClone, "changed the state"),
        (TupleInJson, "not a JSON type"),
        (LossyRoundTrip, "does not give back the same"),
        (DeterminizeReshufflesOwnHand, "determinize changed what seat"),
        (ActsAfterTheEnd, "the game is over but to_act"),
        (UnrankedOutcome, "ranks"),
        (NonDeterministic, "not deterministic"),
        (DuplicateActions, "listed twice"),
    ],
)
def test_broken_engines_are_caught(engine_class, complaint):
    with pytest.raises(ContractViolation, match=complaint):
        check_game(engine_class(), 2, 7, max_steps=2_000)


def test_an_endless_game_is_caught():
    with pytest.raises(ContractViolation, match="did not end within 500"):
        random_playout(NeverEnds(), 2, seed=7, max_steps=500)


def test_a_bot_that_mutates_the_state_is_caught():
    class Meddler:
        def choose(self, state, seat):
            state.turns += 1
            return TOY.legal_actions(state)[0]

    class MeddlingToy(ToyEngine):
        def make_bot(self, name, *, seed, **params):
            return Meddler()

    with pytest.raises(ContractViolation, match="changed the state"):
        check_bot_game(MeddlingToy(), 2, 0, ["random"])


def test_a_bot_that_invents_actions_is_caught():
    class Inventor:
        def choose(self, state, seat):
            return {"type": "win"}

    class InventiveToy(ToyEngine):
        def make_bot(self, name, *, seed, **params):
            return Inventor()

    with pytest.raises(ContractViolation, match="not a legal action"):
        check_bot_game(InventiveToy(), 2, 0, ["random"])


def test_the_public_names():
    assert set(testkit.__all__) >= {
        "check_contract",
        "check_replay",
        "random_playout",
        "check_game",
    }
