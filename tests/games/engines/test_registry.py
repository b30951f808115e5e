"""The registry (games.engines.registry) and option validation in games.engines.base."""

from __future__ import annotations

import pytest

from games.engines.base import InvalidOptions
from tests.games.engines.toy import TOY


def test_unknown_slug_raises_unknown_game_naming_the_known_ones():
    from games.engines.registry import ENGINES, UnknownGame, get_engine

    with pytest.raises(UnknownGame) as raised:
        get_engine("no-such-game")
    assert isinstance(raised.value, KeyError)
    message = raised.value.args[0]
    assert "no-such-game" in message
    for slug in ENGINES:
        assert slug in message


def test_registered_engines_are_found_by_slug(monkeypatch):
    from games.engines import registry

    monkeypatch.setattr(registry, "ENGINES", dict(registry.ENGINES))
    assert registry.register(TOY) is TOY
    assert registry.get_engine("toy") is TOY
    for slug, engine in registry.ENGINES.items():
        assert engine.slug == slug
        assert engine.min_players <= engine.max_players


def test_silkroad_is_registered():
    from games.engines.registry import get_engine

    assert get_engine("silkroad").slug == "silkroad"


def test_validate_options_fills_defaults():
    assert TOY.validate_options(None) == {
        "suits": 3,
        "values": 9,
        "hand_size": 3,
        "block_threshold": 6,
    }
    assert TOY.validate_options({"values": 5})["values"] == 5
    assert TOY.validate_options({"values": 5})["suits"] == 3


def test_validate_options_does_not_share_defaults_between_calls():
    first = TOY.validate_options({})
    first["suits"] = 4
    assert TOY.validate_options({})["suits"] == 3


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"values": "nine"}, r"^Values: must be a whole number\.$"),
        ({"values": 99}, r"^Values: at most 12\.$"),
        ({"suits": 1}, r"^Suits: at least 2\.$"),
        ({"colour": "red"}, r"^Options: unknown setting “colour”\.$"),
        ({"suits": 2, "values": 3}, r"the deck has 6 cards, but 14 are needed"),
    ],
)
def test_validate_options_raises_invalid_options_with_a_readable_reason(options, reason):
    with pytest.raises(InvalidOptions, match=reason):
        TOY.validate_options(options)


def test_invalid_options_are_value_errors_and_new_game_checks_them():
    assert issubclass(InvalidOptions, ValueError)
    with pytest.raises(InvalidOptions):
        TOY.new_game(players=2, seed=0, options={"values": 0})


@pytest.mark.parametrize("players", [0, 1, 5])
def test_player_counts_outside_the_range_are_refused(players):
    with pytest.raises(InvalidOptions, match="takes 2-4 players"):
        TOY.new_game(players=players, seed=0)


def _registered_slugs() -> list[str]:
    try:
        from games.engines.registry import ENGINES
    except ImportError:  # an engine package is still being written
        return []
    return sorted(ENGINES)


@pytest.mark.parametrize("slug", _registered_slugs())
def test_every_registered_engine_passes_the_generic_checks(slug):
    from games.engines.registry import get_engine
    from games.engines.testkit import check_bot_game, check_game

    engine = get_engine(slug)
    for players in sorted({engine.min_players, engine.max_players}):
        check_game(engine, players, seed=players, every=10, determinizations=1)
    fast = {"ismcts": {"iterations": 5}, "greedy": {"samples": 1, "depth": 1}}
    check_bot_game(engine, engine.min_players, 1, ["ismcts", "greedy"], params=fast)
