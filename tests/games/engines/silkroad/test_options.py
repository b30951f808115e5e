"""Variant options: validated with readable reasons, and used by new_game."""

import jsonschema
import pytest

from games.engines.base import InvalidOptions
from games.engines.silkroad.constants import ACTION_KINDS

from .builder import BOARD, E, sp

MIX = dict(BOARD.default_tile_mix)


def test_schema_is_valid_and_every_property_has_a_default():
    schema = E.option_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert set(schema["properties"]) == {"board_side", "tile_mix", "start_cities"}
    assert all("default" in p for p in schema["properties"].values())
    assert E.validate_options(None) == {
        "board_side": "printed",
        "tile_mix": MIX,
        "start_cities": None,
    }
    assert E.validate_options({}) == E.default_options()


@pytest.mark.parametrize(
    "options",
    [
        {"board_side": "round"},
        {"colour": "red"},
        {"tile_mix": {"bazaar": 22, "teleport": 0}},
        {"board_side": "blank", "tile_mix": {"bazaar": 21}},
        {"board_side": "blank", "tile_mix": {**MIX, "bazaar": MIX["bazaar"] + 1}},
        {"board_side": "blank", "tile_mix": {"bazaar": -1, "customs": 23}},
        {"board_side": "blank", "tile_mix": {"bazaar": 22.0}},
        {"board_side": "printed", "tile_mix": {"bazaar": 22}},  # the printed side has its tiles
        {"start_cities": {"1": {"start": "tashkent", "target": "yspahan"}}},
        {"start_cities": {str(n): {"start": "tashkent", "target": "yspahan"} for n in (1, 2, 3)}},
        {
            "start_cities": {
                "1": {"start": "tashkent", "target": "yspahan"},
                "2": {"start": "amritsar", "target": "tashkent"},  # a target where a caravan starts
                "3": {"start": "changan", "target": "byzanz"},
            }
        },
        {
            "start_cities": {
                "1": {"start": "tashkent", "target": "atlantis"},
                "2": {"start": "amritsar", "target": "samarkand"},
                "3": {"start": "changan", "target": "byzanz"},
            }
        },
        {"start_cities": "random"},
    ],
)
def test_bad_options_are_refused(options):
    with pytest.raises(InvalidOptions):
        E.validate_options(options)
    with pytest.raises(InvalidOptions):
        E.new_game(players=3, seed=1, options=options)


@pytest.mark.parametrize("players", [0, 1, 6])
def test_player_counts(players):
    with pytest.raises(InvalidOptions):
        E.new_game(players=players, seed=1)


def test_blank_side_shuffles_the_mix_with_the_seed():
    mix = {k: 0 for k in ACTION_KINDS}
    mix.update(bazaar=10, robbers=12)
    a = E.new_game(players=3, seed=5, options={"board_side": "blank", "tile_mix": mix})
    b = E.new_game(players=3, seed=5, options={"board_side": "blank", "tile_mix": mix})
    c = E.new_game(players=3, seed=6, options={"board_side": "blank", "tile_mix": mix})
    assert a.tiles == b.tiles
    assert a.tiles[6:].count("bazaar") == 10 and a.tiles[6:].count("robbers") == 12
    assert a.tiles != c.tiles
    d = E.new_game(players=3, seed=5, options={"board_side": "blank"})
    assert sorted(d.tiles[6:]) == sorted(BOARD.printed_tiles[6:])
    assert E.observation(d, 0)["board"]["side"] == "blank"


def test_start_cities_variant():
    chosen = {
        "1": {"start": "byzanz", "target": "changan"},
        "2": {"start": "yspahan", "target": "tashkent"},
        "3": {"start": "samarkand", "target": "amritsar"},
    }
    s = E.new_game(players=2, seed=9, options={"start_cities": chosen})
    assert (s.caravans[1].pos, s.caravans[1].target) == (sp("byzanz"), sp("changan"))
    assert (s.caravans[3].pos, s.caravans[3].target) == (sp("samarkand"), sp("amritsar"))
    assert sum(s.city_gems[sp("tashkent")]) == 2 and sum(s.city_gems[sp("amritsar")]) == 3
    rng_actions = 0
    while not E.is_over(s) and rng_actions < 2000:
        E.apply(s, E.legal_actions(s)[-1])
        rng_actions += 1
    assert E.is_over(s)


def test_default_setup_follows_the_rulebook():
    s = E.new_game(players=5, seed=2)
    assert (s.caravans[1].pos, s.caravans[1].target) == (sp("tashkent"), sp("yspahan"))
    assert (s.caravans[2].pos, s.caravans[2].target) == (sp("amritsar"), sp("samarkand"))
    assert (s.caravans[3].pos, s.caravans[3].target) == (sp("changan"), sp("byzanz"))
    assert [sum(s.city_gems[sp(c)]) for c in ("yspahan", "samarkand", "byzanz")] == [1, 2, 3]
    assert len(s.bag) == 14 and len(s.queue) == 4
    assert sorted(s.drivers) == [1, 2, 3, 4, 5]
    assert all(sum(h) == 4 for h in s.hands) and sum(s.display) == 3 and len(s.deck) == 70 - 23
    assert s.seat == s.drivers.index(1) and s.stage == "play"
    s2 = E.new_game(players=2, seed=2)
    assert s2.seat == s2.drivers.index(min(s2.drivers))
