"""Engine-agnostic checks of the engine contract (docs/architecture.md), for every engine's tests.

Plain Python: failures raise :class:`ContractViolation` (an AssertionError, so
pytest reports them as test failures) with a message that names the rule.
Typical use in an engine's hypothesis test::

    @given(players=st.integers(2, 5), seed=st.integers(0, 2**32))
    def test_contract(players, seed):
        check_game(ENGINE, players, seed)
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterable
from typing import Any

from games.engines.base import Action, Engine, IllegalAction
from games.engines.bots.common import canonical_json

DEFAULT_MAX_STEPS = 20_000


class ContractViolation(AssertionError):
    """The engine broke a rule of the engine contract."""


def _fail(message: str) -> None:
    raise ContractViolation(message)


# ---- playing ------------------------------------------------------------------
def random_playout(
    engine: Engine,
    players: int,
    seed: int,
    options: dict | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    *,
    allow_unfinished: bool = False,
    on_state: Callable[[Any, int], None] | None = None,
) -> tuple[Any, list[Action]]:
    """Play uniformly random legal actions from ``new_game``; return the final state and actions.

    The action choice uses its own generator seeded from `seed`. ``on_state(state, ply)``
    is called on every state reached, before its action is chosen (and on the final one).
    Raises ContractViolation if the game is not over after `max_steps` decisions, unless
    `allow_unfinished`."""
    rng = random.Random(f"playout:{seed}")
    state = engine.new_game(players=players, seed=seed, options=options)
    actions: list[Action] = []
    for ply in range(max_steps):
        if on_state is not None:
            on_state(state, ply)
        if engine.is_over(state):
            return state, actions
        legal = engine.legal_actions(state)
        if not legal:
            _fail(f"ply {ply}: no legal action but the game is not over")
        action = legal[rng.randrange(len(legal))]
        actions.append(action)
        state = engine.apply(state, action)
    if on_state is not None:
        on_state(state, max_steps)
    if not engine.is_over(state) and not allow_unfinished:
        _fail(f"the game did not end within {max_steps} decisions (players={players}, seed={seed})")
    return state, actions


def check_replay(
    engine: Engine,
    players: int,
    seed: int,
    options: dict | None,
    actions: list[Action],
    *,
    resume_at: int | None = None,
) -> Any:
    """Replay `actions` from the seed twice and check both runs agree at every ply.

    Each action must be legal where it is applied (and serialisable as JSON, as a
    match's action log is). The second run goes through a JSON round trip of the
    state at `resume_at` (default: the middle), as a match runner resuming from its
    cached snapshot would. Returns the final state."""
    if resume_at is None:
        resume_at = len(actions) // 2
    first = engine.new_game(players=players, seed=seed, options=options)
    second = engine.new_game(players=players, seed=seed, options=options)
    _same_json(engine, first, second, "two new_game calls with the same seed")
    for ply, action in enumerate(actions):
        stored = json.loads(json.dumps(action))
        legal_keys = {canonical_json(a) for a in engine.legal_actions(first)}
        if canonical_json(stored) not in legal_keys:
            _fail(f"ply {ply}: replayed action {stored!r} is not legal")
        if ply == resume_at:
            second = engine.from_json(json.loads(json.dumps(engine.to_json(second))))
        first = engine.apply(first, stored)
        second = engine.apply(second, json.loads(json.dumps(action)))
        _same_json(engine, first, second, f"replay after ply {ply}")
    if engine.is_over(first) and engine.outcome(first) != engine.outcome(second):
        _fail("replays reached different outcomes")
    return first


def check_game(
    engine: Engine,
    players: int,
    seed: int,
    options: dict | None = None,
    *,
    max_steps: int = DEFAULT_MAX_STEPS,
    every: int = 1,
    determinizations: int = 2,
) -> Any:
    """A random playout with ``check_contract`` on every `every`-th state (and the last),
    then ``check_replay`` of the whole game. Returns the final state."""
    rng = random.Random(f"check:{seed}")
    previous_legal: list[Action] = []

    def check(state: Any, ply: int) -> None:
        nonlocal previous_legal
        if ply % every == 0 or engine.is_over(state):
            try:
                # What was legal a ply ago is a good source of now-illegal actions.
                check_contract(
                    engine,
                    state,
                    rng=rng,
                    determinizations=determinizations,
                    extra_illegal=previous_legal,
                )
            except ContractViolation as exc:
                raise ContractViolation(f"ply {ply}: {exc}") from None
        previous_legal = engine.legal_actions(state)

    final, actions = random_playout(engine, players, seed, options, max_steps, on_state=check)
    if engine.num_players(final) != players:
        _fail(f"num_players is {engine.num_players(final)}, not {players}")
    check_replay(engine, players, seed, options, actions)
    return final


# ---- the rules at one state ---------------------------------------------------
def check_contract(
    engine: Engine,
    state: Any,
    *,
    rng: random.Random | None = None,
    determinizations: int = 2,
    extra_illegal: Iterable[Any] = (),
) -> None:
    """Check every rule of the contract that can be checked at `state`, without changing it.

    - to_act is None exactly when the game is over; legal actions are non-empty JSON dicts,
      without duplicates, while it is not, and empty when it is; each has a description;
    - every legal action applies (to a clone); malformed or illegal actions (a built-in
      set plus `extra_illegal`) raise IllegalAction and leave the state unchanged;
    - to_json is JSON and round-trips through from_json; a clone is equal and independent;
    - observations for every seat and for None are JSON; observing changes nothing;
    - for each seat, determinize gives a state with the same observation for that seat
      (and the same legal actions when that seat is to act), leaving the original alone;
    - once over, the outcome has a score and a consistent rank per seat.
    """
    rng = rng or random.Random(0)
    before = _snapshot(engine, state)
    players = engine.num_players(state)
    over = engine.is_over(state)
    seat = engine.to_act(state)
    legal = engine.legal_actions(state)
    keys = _check_turn(engine, state, players, over, seat, legal)
    _check_apply(engine, state, before, legal, keys, extra_illegal)
    _check_serialisation(engine, state, before, legal)
    observations = _check_observations(engine, state, before, players)
    for who in range(players):
        _check_determinize(engine, state, before, who, seat, legal, observations[who], rng,
                           determinizations)  # fmt: skip
    if over:
        _check_outcome(engine.outcome(state), players)
    _unchanged(engine, state, before, "check_contract")


def _check_turn(
    engine: Engine, state: Any, players: int, over: bool, seat: Any, legal: list[Action]
) -> set[str]:
    """Whose turn, and what they may do; returns the legal actions' canonical JSON."""
    if over:
        if seat is not None:
            _fail(f"the game is over but to_act is {seat!r}")
        if legal:
            _fail(f"the game is over but there are {len(legal)} legal actions")
    else:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            _fail(f"to_act is {seat!r}, not a seat in 0..{players - 1}")
        if not legal:
            _fail("the game is not over but there is no legal action")
    keys: set[str] = set()
    for action in legal:
        if not isinstance(action, dict):
            _fail(f"legal action {action!r} is not a dict")
        _assert_json(action, f"legal action {action!r}")
        key = canonical_json(action)
        if key in keys:
            _fail(f"legal action {action!r} is listed twice")
        keys.add(key)
        label = engine.describe(state, action)
        if not isinstance(label, str) or not label.strip():
            _fail(f"describe gives {label!r} for {action!r}")
    if engine.legal_actions(state) != legal:
        _fail("legal_actions is not stable between two calls")
    return keys


def _check_apply(
    engine: Engine,
    state: Any,
    before: str,
    legal: list[Action],
    keys: set[str],
    extra_illegal: Iterable[Any],
) -> None:
    """Every legal action applies to a clone, leaving the state alone; bad actions raise
    IllegalAction with the state unchanged, even when applied in place."""
    for action in legal:
        clone = engine.clone(state)
        try:
            engine.apply(clone, action)
        except IllegalAction as exc:
            _fail(f"legal action {action!r} raised IllegalAction: {exc}")
    _unchanged(engine, state, before, "applying legal actions to clones")
    for bad in _bad_actions(legal, extra_illegal):
        try:
            if isinstance(bad, dict) and canonical_json(bad) in keys:
                continue
        except (TypeError, ValueError):
            pass
        try:
            engine.apply(state, bad)
        except IllegalAction as exc:
            if not str(exc).strip():
                _fail(f"IllegalAction for {bad!r} has no reason")
        except Exception as exc:  # noqa: BLE001 - any other error breaks the contract
            _fail(f"apply({bad!r}) raised {type(exc).__name__}: {exc}, not IllegalAction")
        else:
            _fail(f"apply accepted the illegal action {bad!r}")
        _unchanged(engine, state, before, f"the rejected action {bad!r}")


def _check_serialisation(engine: Engine, state: Any, before: str, legal: list[Action]) -> None:
    """to_json is JSON and round-trips; a clone is equal and independent."""
    data = engine.to_json(state)
    _assert_json(data, "to_json(state)")
    restored = engine.from_json(json.loads(json.dumps(data)))
    if engine.to_json(restored) != data:
        _fail("from_json(to_json(state)) does not give back the same to_json")
    clone = engine.clone(state)
    if engine.to_json(clone) != data:
        _fail("clone(state) differs from state")
    if legal:
        engine.apply(clone, legal[-1])
        _unchanged(engine, state, before, "applying an action to a clone")


def _check_observations(
    engine: Engine, state: Any, before: str, players: int
) -> dict[int | None, dict]:
    """Every seat's observation and the spectators' (None) are JSON dicts; returns them."""
    observations: dict[int | None, dict] = {}
    for who in [*range(players), None]:
        obs = engine.observation(state, who)
        _assert_json(obs, f"observation for seat {who}")
        if not isinstance(obs, dict):
            _fail(f"observation for seat {who} is not a dict")
        observations[who] = obs
    _unchanged(engine, state, before, "observation")
    return observations


def _check_determinize(
    engine: Engine,
    state: Any,
    before: str,
    who: int,
    seat: Any,
    legal: list[Action],
    observed: dict,
    rng: random.Random,
    determinizations: int,
) -> None:
    """Determinizing for seat ``who`` keeps what it observes (``observed``), whose turn
    it is, and its legal actions when it is to act; the state is left alone."""
    for _ in range(determinizations):
        world = engine.determinize(state, who, rng)
        _unchanged(engine, state, before, f"determinize for seat {who}")
        if engine.observation(world, who) != observed:
            _fail(f"determinize changed what seat {who} observes")
        if engine.to_act(world) != seat:
            _fail(f"determinize for seat {who} changed to_act")
        if who == seat:
            world_keys = [canonical_json(a) for a in engine.legal_actions(world)]
            if world_keys != [canonical_json(a) for a in legal]:
                _fail(f"determinize for seat {who} changed its legal actions")
        _assert_json(engine.to_json(world), f"to_json of a determinization for seat {who}")


# ---- playing on the board -------------------------------------------------------
def svg_targets(svg: str) -> set[str]:
    """The data-target ids drawn in an SVG."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    return {el.attrib["data-target"] for el in root.iter() if "data-target" in el.attrib}


def check_board_targets(engine: Engine, state: Any) -> None:
    """Check "Playing on the board" (docs/architecture.md) at `state`:

    - every legal action's targets are strings drawn as data-target elements in the
      SVG of the acting seat's observation;
    - an action with no targets has a choice label;
    - clicking an action's targets and then its choice names exactly that action: no
      other legal action has targets starting with the same ids and the same choice.
    """
    seat = engine.to_act(state)
    if seat is None:
        return
    drawn = svg_targets(engine.render_svg(engine.observation(state, seat)))
    keyed = []
    for action in engine.legal_actions(state):
        targets = engine.action_targets(state, action)
        choice = engine.action_choice(state, action)
        if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
            _fail(f"action_targets of {action!r} is {targets!r}, not a list of ids")
        missing = [t for t in targets if t not in drawn]
        if missing:
            _fail(f"targets {missing} of {action!r} are not drawn for seat {seat}")
        if not targets and not choice:
            _fail(f"{action!r} has nothing to click and no choice label")
        keyed.append((targets, choice, action))
    for targets, choice, action in keyed:
        left = [a for t, c, a in keyed if t[: len(targets)] == targets and c == choice]
        if left != [action]:
            _fail(f"clicking {targets} and choosing {choice!r} leaves {left}, not {action!r}")


def _check_outcome(outcome: Any, players: int) -> None:
    if not isinstance(outcome, dict):
        _fail(f"outcome is {outcome!r}, not a dict")
    _assert_json(outcome, "outcome")
    scores, ranks = outcome.get("scores"), outcome.get("ranks")
    if not isinstance(scores, list) or len(scores) != players:
        _fail(f"outcome scores {scores!r} do not give one score per seat")
    if not isinstance(ranks, list) or len(ranks) != players:
        _fail(f"outcome ranks {ranks!r} do not give one rank per seat")
    for i, rank in enumerate(ranks):
        # Competition ranking: a rank is one more than the number of seats strictly ahead.
        ahead = sum(1 for other in ranks if other < rank)
        if rank != ahead + 1:
            _fail(f"outcome ranks {ranks!r} are inconsistent at seat {i}")


# ---- bots ---------------------------------------------------------------------
def check_bot_game(
    engine: Engine,
    players: int,
    seed: int,
    bots: list[str],
    options: dict | None = None,
    params: dict[str, dict] | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> Any:
    """Play a game with the named bots (cycled over the seats) and check each choice:
    it is one of the legal actions and choosing did not change the state."""
    params = params or {}
    seats = [
        engine.make_bot(
            bots[i % len(bots)], seed=seed * 101 + i, **params.get(bots[i % len(bots)], {})
        )
        for i in range(players)
    ]
    state = engine.new_game(players=players, seed=seed, options=options)
    for ply in range(max_steps):
        if engine.is_over(state):
            return state
        seat = engine.to_act(state)
        before = _snapshot(engine, state)
        action = seats[seat].choose(state, seat)
        _unchanged(engine, state, before, f"bot {bots[seat % len(bots)]} choosing at ply {ply}")
        legal_keys = {canonical_json(a) for a in engine.legal_actions(state)}
        if canonical_json(action) not in legal_keys:
            _fail(f"ply {ply}: bot chose {action!r}, not a legal action")
        state = engine.apply(state, action)
    _fail(f"the bot game did not end within {max_steps} decisions")


# ---- helpers ------------------------------------------------------------------
def _bad_actions(legal: list[Action], extra: Iterable[Any]) -> list[Any]:
    bad: list[Any] = [None, "pass", 7, [], {}, {"type": "__no_such_action__"}]
    if legal:
        sample = legal[0]
        bad.append({**sample, "__extra__": 1})
        for k in sample:
            for junk in ("__bogus__", -9999, None, [1], {"x": 1}):
                if sample[k] != junk:
                    bad.append({**sample, k: junk})
            bad.append({key: v for key, v in sample.items() if key != k})
    bad.extend(extra)
    return bad


def _snapshot(engine: Engine, state: Any) -> str:
    return json.dumps(engine.to_json(state), sort_keys=True)


def _unchanged(engine: Engine, state: Any, before: str, what: str) -> None:
    if _snapshot(engine, state) != before:
        _fail(f"{what} changed the state")


def _same_json(engine: Engine, a: Any, b: Any, what: str) -> None:
    if engine.to_json(a) != engine.to_json(b):
        _fail(f"{what}: the states differ (the engine is not deterministic)")


def _assert_json(value: Any, where: str, path: str = "") -> None:
    """Only JSON types: dict with str keys, list, str, int, finite float, bool, None."""
    if value is None or isinstance(value, str | bool | int):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            _fail(f"{where}{path}: {value!r} is not valid JSON")
        return
    if isinstance(value, list):
        for i, item in enumerate(value):
            _assert_json(item, where, f"{path}[{i}]")
        return
    if isinstance(value, dict):
        for k, item in value.items():
            if not isinstance(k, str):
                _fail(f"{where}{path}: key {k!r} is not a string")
            _assert_json(item, where, f"{path}.{k}")
        return
    _fail(f"{where}{path}: {type(value).__name__} {value!r} is not a JSON type")


__all__ = [
    "ContractViolation",
    "check_board_targets",
    "check_bot_game",
    "check_contract",
    "check_game",
    "check_replay",
    "random_playout",
    "svg_targets",
]
