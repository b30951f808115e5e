"""The match log's format (games.match_log): full and compact entries read back as
decisions, and a property over many random games at tables of bots: the compact log
the runner writes reads back as exactly the decisions its bots took."""

import hashlib
import json
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from games import match_log
from games.engines.registry import ENGINES, get_engine
from games.models import Match, Player, PlayerKind, Seat
from games.services.runner import Runner, seat_bot_seed


def _never():
    raise AssertionError("a log of full entries is read without replaying the game")


def test_full_entries_are_read_as_they_are_without_a_replay():
    entries = [
        [0, {"type": "a"}, "first", "player", 5, 1_000],
        [1, {"type": "b"}, "", "bot", 0, 2_000],
    ]
    read = match_log.decisions(entries, get_engine("silkroad"), _never)
    assert [
        (d.ply, d.seat, d.action, d.label, d.source, d.time_used_ms, d.at_ms) for d in read
    ] == [
        (0, 0, {"type": "a"}, "first", "player", 5, 1_000),
        (1, 1, {"type": "b"}, "", "bot", 0, 2_000),
    ]
    assert read[1].created_at == datetime(1970, 1, 1, 0, 0, 2, tzinfo=UTC)


def test_compact_entries_name_legal_actions_and_bare_indices_take_the_next_time():
    engine = get_engine("yspahan")

    def start():
        return engine.new_game(players=2, seed=3, options={})

    state, entries, expected = start(), [], []
    for i in range(12):
        legal = engine.legal_actions(state)
        index = (i * 7) % len(legal)
        expected.append(
            (engine.to_act(state), legal[index], "forced" if len(legal) == 1 else "bot")
        )
        entries.append(index if i not in (4, 11) else [index, i, 10_000 + i])
        state = engine.apply(state, legal[index])
    read = match_log.decisions(entries, engine, start)
    assert [(d.seat, d.action, d.source) for d in read] == expected
    assert [d.at_ms for d in read] == [10_004] * 5 + [10_011] * 7
    assert [d.time_used_ms for d in read] == [0, 0, 0, 0, 4] + [0] * 6 + [11]
    assert all(d.label == "" for d in read)  # described when shown


def test_an_entry_naming_no_legal_action_is_refused():
    engine = get_engine("greatwall")

    def start():
        return engine.new_game(players=2, seed=1, options={})

    count = len(engine.legal_actions(start()))
    for bad in (count, -1, [count, 0, 1], "0", 1.0):
        with pytest.raises(match_log.LogUnreadable):
            match_log.decisions([bad], engine, start)


class _StateReadingBot:
    """A bot that reads the state (no `choose_index`): the runner logs it in full."""

    def __init__(self, engine, seed: int) -> None:
        self.engine, self.rng = engine, random.Random(seed)

    def choose(self, state, seat):
        legal = self.engine.legal_actions(state)
        return legal[self.rng.randrange(len(legal))]


def _table(game: str, players: int, seed: int) -> Runner:
    """A table of random bots in memory, started as the platform starts one."""
    engine = get_engine(game)
    match = Match(game=game, seed=seed, options={}, ply=0, status="running")
    bots = [
        Player(name=f"b{i}", kind=PlayerKind.ENGINE_BOT, bot_name="random") for i in range(players)
    ]
    seats = [Seat(match=match, index=i, player=p) for i, p in enumerate(bots)]
    state = engine.new_game(players=players, seed=seed, options={})
    return Runner(match=match, seats=seats, engine=engine, state=state)


CASES = [(game, players) for game in sorted(ENGINES) for players in (2, 4)]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_random_tables_read_back_exactly_the_decisions_their_bots_took(game, players):
    """Over 60 games per case, a third with one seat's bot reading the state (entries in
    full among the indices): the log reads back as the same seats, actions and sources as
    the same seeded bots choose in a plain loop, and replays to the runner's last state."""
    engine = get_engine(game)
    for seed in range(60):
        runner = _table(game, players, seed)
        thinking = seed % 3 == 0
        if thinking:
            runner.bots[1] = _StateReadingBot(engine, seed)
        runner.settle(play_bots=True, budget_s=600.0)
        assert runner.finished
        entries = runner.new_actions
        assert any(type(e) is int for e in entries)
        assert any(match_log.is_full(e) for e in entries) == thinking

        # The same bots, by hand, through the engine's checked apply.
        state = engine.new_game(players=players, seed=seed, options={})
        bots = [
            runner.engine.make_bot("random", seed=seat_bot_seed(seed, 0, s)) for s in range(players)
        ]
        if thinking:
            bots[1] = _StateReadingBot(engine, seed)
        expected = []
        while not engine.is_over(state):
            seat, legal = engine.to_act(state), engine.legal_actions(state)
            if len(legal) == 1:
                action, source = legal[0], "forced"
            elif seat == 1 and thinking:
                action, source = bots[1].choose(state, seat), "bot"
            else:
                action, source = bots[seat].choose_among(legal), "bot"
            expected.append((seat, action, source))
            state = engine.apply(state, action)

        def start(seed=seed):
            return engine.new_game(players=players, seed=seed, options={})

        read = match_log.decisions(entries, engine, start)
        assert [(d.seat, d.action, d.source) for d in read] == expected, seed
        assert [d.ply for d in read] == list(range(len(expected)))
        times = [d.at_ms for d in read]
        assert times == sorted(times) and times[0] > 0
        assert engine.to_json(state) == engine.to_json(runner.state)


STORED = Path(__file__).parent / "data" / "compact_logs.json"


@pytest.mark.parametrize(
    "record", json.loads(STORED.read_text()), ids=lambda r: f"{r['game']}-{r['players']}"
)
def test_logs_stored_earlier_read_back_as_they_were_played(record):
    """Compact logs written by the runner in another process (when the compact log was
    introduced; seed 7, a random hash seed) read back as the same decisions to the same
    result. It fails if an engine's `legal_actions` order changes (or comes to depend on
    the process, as set order would): stored games would be misread, so such a change
    needs the stored logs rewritten in full first."""
    engine = get_engine(record["game"])
    players, seed = record["players"], record["seed"]

    def start():
        return engine.new_game(players=players, seed=seed, options={})

    read = match_log.decisions(record["entries"], engine, start)
    played = json.dumps([[d.seat, d.action, d.source] for d in read], sort_keys=True)
    assert hashlib.sha256(played.encode()).hexdigest() == record["decisions_sha256"]
    state = start()
    for d in read:
        state = engine.apply(state, d.action)
    outcome = engine.outcome(state)
    assert (outcome["ranks"], outcome.get("scores")) == (record["ranks"], record["scores"])
