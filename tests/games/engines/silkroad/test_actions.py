"""Every village action, markets with declines and without buyers, the deck, the end of the game."""

from games.engines.silkroad.constants import GOOD_INDEX

from .builder import ONE_STEP_TO_SAMARKAND, E, act, build, colours, field, hand, sp

TEA, SILK, IVORY = GOOD_INDEX["tea"], GOOD_INDEX["silk"], GOOD_INDEX["ivory"]


def _one_step(size, frm, target, camels, **kw):
    """A 4-player state: seat 0 moves the `size` caravan one space from `frm`."""
    kw.setdefault("hands", {0: {"silk": 2}, 1: {"tea": 1}, 2: {"tea": 1}, 3: {"tea": 1}})
    kw.setdefault("display", ["tea", "tea", "tea"])
    kw.setdefault("deck", ["spice"] * 10)
    return build(caravans={size: (frm, target, camels)}, city_gems={target: {"red": size}}, **kw)


# ---- camels 1/2/3
def test_one_camel_gives_a_card_to_a_one_camel_caravan_only():
    s = _one_step(1, "v11", "samarkand", [5])
    act(s, type="play", good="silk", count=1, caravan=1)
    assert E.legal_actions(s) == [{"type": "route", "to": "v12"}, {"type": "route", "to": "v21"}]
    act(s, type="route", to="v21")  # Hamadan: 1 camel
    act(s, type="draw", source="deck")
    assert s.stage == "draw" and s.draw_reason == "camels"
    act(s, type="draw", source="display", good="tea")
    assert hand(s, 0) == {"silk": 1, "spice": 1, "tea": 1}
    assert s.seat == 1

    s = _one_step(2, "v11", "samarkand", [5, 6])
    act(s, type="play", good="silk", count=1, caravan=2)
    act(s, type="route", to="v21")
    act(s, type="draw", source="deck")
    assert s.seat == 1  # no extra card for two camels


def test_two_camels_and_three_camels():
    s = _one_step(2, "v09", "byzanz", [5, 6])
    act(s, type="play", good="silk", count=1, caravan=2)
    assert s.caravans[2].pos == sp("v10")
    act(s, type="draw", source="deck")
    assert s.draw_reason == "camels"
    act(s, type="draw", source="deck")
    assert s.seat == 1

    s = _one_step(3, "v09", "byzanz", [5, 6, 7])
    act(s, type="play", good="silk", count=1, caravan=3)
    act(s, type="draw", source="deck")
    assert s.seat == 1

    s = _one_step(3, "v01", "byzanz", [5, 6, 7])
    act(s, type="play", good="silk", count=1, caravan=3)
    assert s.caravans[3].pos == sp("v02")  # Kuqa: 3 camels
    act(s, type="draw", source="deck")
    assert s.draw_reason == "camels"
    act(s, type="draw", source="deck")
    assert s.seat == 1


# ---- customs and sandstorm
def test_customs_from_the_left_down_to_four():
    s = _one_step(
        1,
        "v07",
        "yspahan",
        [5],
        hands={0: {"silk": 9}, 1: {"tea": 3, "ivory": 3}, 2: {"tea": 4}, 3: {"spice": 7}},
    )
    act(s, type="play", good="silk", count=1, caravan=1)
    act(s, type="draw", source="deck")
    assert s.stage == "customs" and s.actor == 1
    assert E.legal_actions(s) == [
        {"type": "discard", "from": "hand", "good": "ivory"},
        {"type": "discard", "from": "hand", "good": "tea"},
    ]
    act(s, type="discard", **{"from": "hand"}, good="ivory")
    assert s.actor == 1
    act(s, type="discard", **{"from": "hand"}, good="tea")
    assert s.actor == 3  # seat 2 holds exactly 4
    for _ in range(3):
        act(s, type="discard", **{"from": "hand"}, good="spice")
    assert [sum(h) for h in s.hands] == [9, 4, 4, 4]  # the mover keeps everything
    assert s.seat == 1 and s.stage == "play"
    assert sorted(s.discard) == sorted([IVORY, TEA] + [GOOD_INDEX["spice"]] * 3)


def test_sandstorm_each_other_player_with_cards_laid_out_loses_one():
    s = _one_step(
        1,
        "v11",
        "byzanz",
        [5],
        fields={0: {"tea": 3}, 1: {"tea": 1, "silk": 2}, 3: {"ivory": 1}},
    )
    act(s, type="play", good="silk", count=1, caravan=1)
    assert s.caravans[1].pos == sp("v12")
    act(s, type="draw", source="deck")
    assert s.stage == "sandstorm" and s.actor == 1
    assert E.legal_actions(s) == [
        {"type": "discard", "from": "field", "good": "silk"},
        {"type": "discard", "from": "field", "good": "tea"},
    ]
    act(s, type="discard", **{"from": "field"}, good="tea")
    assert s.actor == 3  # seat 2 has nothing laid out
    act(s, type="discard", **{"from": "field"}, good="ivory")
    assert field(s, 0) == {"tea": 3, "silk": 1} and field(s, 1) == {"silk": 2} and field(s, 3) == {}
    assert s.seat == 1


# ---- robbers, bazaar, baksheesh corner cases
def test_robbers_two_players_the_victim_takes_from_the_discard_pile():
    s = build(
        players=2,
        hands={0: {"silk": 1}, 1: {"tea": 1}},
        fields={1: {"tea": 2}},
        caravans={1: ("v03", "byzanz", [5])},
        city_gems={"byzanz": {"red": 1}},
        display=["tea", "tea", "tea"],
        deck=["spice"] * 5,
        discard=["ivory"],
    )
    act(s, type="play", good="silk", count=1, caravan=1)
    act(s, type="draw", source="deck")
    assert E.legal_actions(s) == [{"type": "rob", "victim": 1, "good": "tea"}]
    act(s, type="rob", victim=1, good="tea")
    assert field(s, 0) == {"silk": 1, "tea": 1} and field(s, 1) == {"tea": 1, "ivory": 1}
    assert s.discard == [] and s.seat == 1


def test_bazaar_pass_and_bazaar_without_three_goods():
    kw = dict(
        **ONE_STEP_TO_SAMARKAND,
        display=["tea"] * 3,
        deck=["spice"] * 5,
    )
    s = build(
        hands={0: {"silk": 1}, 1: {"tea": 1}}, players=2, fields={0: {"tea": 1, "ivory": 1}}, **kw
    )
    act(s, type="play", good="silk", count=1, caravan=1)
    act(s, type="draw", source="deck")
    assert s.stage == "bazaar"
    act(s, type="pass")
    assert field(s, 0) == {"tea": 1, "ivory": 1, "silk": 1} and s.colourless[0] == 0 and s.seat == 1

    s = build(hands={0: {"silk": 1}, 1: {"tea": 1}}, players=2, fields={0: {"ivory": 1}}, **kw)
    act(s, type="play", good="silk", count=1, caravan=1)
    act(s, type="draw", source="deck")
    assert s.seat == 1  # only silk and ivory laid out: nothing to trade


def test_baksheesh_with_an_empty_hand_and_with_an_empty_display():
    kw = dict(caravans={1: ("v17", "tashkent", [5])}, city_gems={"tashkent": {"red": 1}})
    # hand empty after the draw? draw goes to hand, so empty the hand by drawing nothing:
    s = build(players=2, hands={0: {"silk": 1}, 1: {"tea": 1}}, display=["ivory"], deck=[], **kw)
    act(s, type="play", good="silk", count=1, caravan=1)
    assert s.caravans[1].pos == sp("v18")
    act(s, type="draw", source="display", good="ivory")
    # the display is now empty, no card anywhere: nothing to take, nothing to give
    assert s.seat == 1 and hand(s, 0) == {"ivory": 1}

    s = build(
        players=2, hands={0: {"silk": 1}, 1: {"tea": 1}}, display=["ivory", "tea"], deck=[], **kw
    )
    act(s, type="play", good="silk", count=1, caravan=1)
    act(s, type="draw", source="display", good="ivory")
    act(s, type="baksheesh", good="tea")
    act(s, type="discard", **{"from": "hand"}, good="ivory")
    assert field(s, 0) == {"silk": 1, "tea": 1} and hand(s, 0) == {}
    # the discarded ivory was the only card left: the refill reshuffled it into the display
    assert s.discard == [] and s.display[IVORY] == 1


# ---- markets: declining, no buyer, ties
def _great(fields, drivers, gems=None, camels=(10, 4, 1), **kw):
    return build(
        hands={0: {"tea": 1}, 1: {"tea": 1}, 2: {"tea": 1}, 3: {"tea": 1}},
        fields=fields,
        drivers=drivers,
        caravans={3: ("v12", "byzanz", list(camels))},
        queue=[2, 3, 5, 6, 7, 8, 9],
        city_gems={"byzanz": gems or {"red": 1, "blue": 1, "green": 1}},
        bag={"yellow": 4},
        display=["spice"] * 3,
        deck=["spice"] * 10,
        **kw,
    )


def _arrive(s):
    act(s, type="play", good="tea", count=1, caravan=3)
    act(s, type="draw", source="deck")


def test_nobody_sells_at_a_great_market_gems_leave_at_the_end():
    s = _great({1: {"silk": 2}, 2: {"silk": 1}}, [1, 2, 3, 4])
    _arrive(s)
    assert s.actor == 1
    act(s, type="decline")
    assert s.actor == 2
    act(s, type="decline")
    # silk (1) next: same two players, both decline again
    act(s, type="decline")
    act(s, type="decline")
    assert s.removed_seen == colours({"red": 1, "blue": 1, "green": 1})
    assert field(s, 1) == {"silk": 2}
    assert s.queue[-3:] == [10, 4, 1]  # camels return in sale order all the same
    assert s.caravans[3].pos == sp("byzanz") and s.caravans[3].camels == [2, 3, 5]


def test_declined_players_are_not_part_of_the_tie_swap():
    # seats 1, 2, 3 tie on 2 silk with drivers 2, 3, 4; seat 3 declines, seat 2 sells
    s = _great({1: {"silk": 2}, 2: {"silk": 2}, 3: {"silk": 2}}, [1, 2, 3, 4], camels=(10, 4, 7))
    _arrive(s)
    assert s.actor == 3
    act(s, type="decline")
    act(s, type="sell")
    act(s, type="gem", color="red")
    assert s.drivers == [1, 3, 2, 4]  # seat 2 swapped with seat 1 (the lowest still tied)


def test_three_way_tie_highest_swaps_with_lowest():
    s = _great({0: {"silk": 1}, 1: {"silk": 1}, 2: {"silk": 1}}, [5, 1, 3, 2], camels=(10, 4, 7))
    _arrive(s)
    assert s.actor == 0
    act(s, type="sell")
    act(s, type="gem", color="green")
    assert s.drivers == [1, 5, 3, 2]


def test_small_market_nobody_willing_no_camel_swap():
    s = build(
        hands={0: {"silk": 1}, 1: {"tea": 1}},
        players=2,
        fields={0: {"tea": 2}, 1: {"tea": 1}},
        caravans={3: ("v08", "yspahan", [6, 5, 2])},
        queue=[1, 3, 4, 7, 8, 9, 10],
        city_gems={"yspahan": {"red": 3}},
        display=["spice"] * 3,
        deck=["spice"] * 5,
    )
    act(s, type="play", good="silk", count=1, caravan=3)
    act(s, type="draw", source="deck")
    assert s.actor == 0
    act(s, type="decline")
    assert s.actor == 1
    act(s, type="decline")
    assert s.caravans[3].camels == [6, 5, 2] and s.queue == [1, 3, 4, 7, 8, 9, 10]
    assert s.colourless == [0, 0] and field(s, 0)["tea"] == 2
    assert s.seat == 1


def test_third_colourless_gem_becomes_a_token():
    s = build(
        hands={0: {"silk": 1}, 1: {"tea": 1}},
        players=2,
        fields={0: {"tea": 1}},
        colourless={0: 2},
        caravans={3: ("v08", "yspahan", [6, 5, 2])},
        queue=[1, 3, 4, 7, 8, 9, 10],
        city_gems={"yspahan": {"red": 3}},
        display=["spice"] * 3,
        deck=["spice"] * 5,
    )
    act(s, type="play", good="silk", count=1, caravan=3)
    act(s, type="draw", source="deck")
    act(s, type="sell")
    assert (s.colourless[0], s.tokens[0], s.colourless_supply) == (0, 1, 10)
    assert E.outcome(s)["scores"][0] == 8


# ---- cards
def test_last_deck_card_reshuffles_the_discard_pile():
    s = build(
        players=2,
        hands={0: {"silk": 1}, 1: {"tea": 1}},
        **ONE_STEP_TO_SAMARKAND,
        display=[],
        deck=["tea"],
        discard=["ivory", "ivory", "spice", "porcelain"],
    )
    act(s, type="play", good="silk", count=1, caravan=1)
    assert E.legal_actions(s) == [{"type": "draw", "source": "deck"}]  # the display is empty
    act(s, type="draw", source="deck")
    assert hand(s, 0) == {"tea": 1}
    # the bazaar lapses; the display is refilled from the rebuilt deck
    assert s.discard == [] and len(s.deck) == 1 and sum(s.display) == 3
    assert sorted(s.deck + [g for g, k in enumerate(s.display) for _ in range(k)]) == sorted(
        [IVORY, IVORY, GOOD_INDEX["spice"], GOOD_INDEX["porcelain"]]
    )


def test_no_cards_anywhere_the_draw_is_skipped_and_a_stall_ends_the_game():
    s = build(
        players=2,
        hands={0: {"silk": 1}},
        **ONE_STEP_TO_SAMARKAND,
    )
    act(s, type="play", good="silk", count=1, caravan=1)
    # no card to draw, no bazaar (one good laid out); nobody holds a card any more
    assert E.is_over(s) and s.stalled and E.legal_actions(s) == []


def test_empty_hand_with_only_the_display_left():
    s = build(
        players=2,
        hands={1: {"tea": 1}},
        display=["silk"],
        **ONE_STEP_TO_SAMARKAND,
    )
    assert s.stage == "draw" and s.draw_reason == "take2"
    assert E.legal_actions(s) == [{"type": "draw", "source": "display", "good": "silk"}]
    act(s, type="draw", source="display", good="silk")
    assert s.seat == 1 and s.stage == "play"  # the second card does not exist


# ---- new targets and the end of the game
def test_new_target_counts_free_cities_round_again():
    # 1-camel caravan arrives in Tashkent; only Yspahan is free -> 1 step lands there
    s = build(
        players=2,
        hands={0: {"silk": 1}, 1: {"tea": 1}},
        caravans={
            1: ("v18", "tashkent", [5]),
            2: ("changan", "byzanz", [6, 7]),
            3: ("amritsar", "samarkand", [8, 9, 10]),
        },
        queue=[1, 2, 3, 4],
        city_gems={"tashkent": {"red": 1}, "byzanz": {"red": 2}, "samarkand": {"blue": 3}},
        bag={"green": 3},
        display=["spice"] * 3,
        deck=["spice"] * 5,
    )
    act(s, type="play", good="silk", count=1, caravan=1)
    act(s, type="draw", source="deck")
    assert s.caravans[1].pos == sp("tashkent") and s.caravans[1].camels == [1]
    assert s.caravans[1].target == sp("yspahan")
    assert s.city_gems[sp("yspahan")] == colours({"green": 1})


def test_end_game_then_last_caravan_goes_home_with_a_final_lay_out():
    s = build(
        players=2,
        hands={0: {"silk": 2, "tea": 2}, 1: {"tea": 3, "spice": 2}},
        fields={1: {"tea": 1}},
        caravans={
            1: ("v18", "tashkent", [5]),  # tea 5
            2: ("v08", "yspahan", [6, 8]),  # tea 6, spice 8
        },
        queue=[1, 2, 3, 4, 7, 9, 10],
        city_gems={"tashkent": {"red": 1}, "yspahan": {"blue": 2}},
        ending=True,  # the bag already ran dry
        display=["ivory"] * 3,
        deck=["ivory"] * 10,
    )
    act(s, type="play", good="silk", count=1, caravan=1)
    act(s, type="draw", source="deck")
    # tea 5: seat 1 is the only one with tea laid out
    assert s.actor == 1
    act(s, type="sell")
    act(s, type="gem", color="red")
    # now the 2-camel caravan jumps to Yspahan; lay-out questions from the mover on
    assert s.caravans[1] is None and s.caravans[2].pos == sp("yspahan")
    # everyone is asked about every good on sale (spice 8, then tea 6), even
    # without such cards: skipping would reveal hands
    assert s.stage == "layout" and s.actor == 0
    assert E.legal_actions(s) == [{"type": "layout", "good": "spice", "count": 0}]
    act(s, type="layout", good="spice", count=0)
    assert E.legal_actions(s) == [{"type": "layout", "good": "tea", "count": k} for k in range(3)]
    act(s, type="layout", good="tea", count=2)
    assert s.actor == 1 and s.layout[0][1] == GOOD_INDEX["spice"]
    act(s, type="layout", good="spice", count=0)
    act(s, type="layout", good="tea", count=2)
    # spice: nobody; tea: 2 against 0+2 (seat 1 gave 1 for tea 5), tie to the higher driver 2
    assert s.actor == 1
    act(s, type="decline")
    act(s, type="sell")
    act(s, type="gem", color="blue")
    assert E.is_over(s)
    out = E.outcome(s)
    assert out["scores"] == [1, 1] and out["ranks"] == [2, 1]
    assert out["drivers"] == [1, 2]  # seat 1 declined: no swap


def test_a_stalled_or_finished_game_refuses_actions():
    import pytest

    from games.engines.base import IllegalAction

    s = build(
        players=2,
        hands={0: {"silk": 1}},
        **ONE_STEP_TO_SAMARKAND,
    )
    act(s, type="play", good="silk", count=1, caravan=1)
    with pytest.raises(IllegalAction):
        E.apply(s, {"type": "pass"})


def test_tokens_are_not_limited_to_the_six_in_the_box():
    from games.engines.silkroad.scoring import gain_colourless

    s = build(
        players=5,
        hands={0: {"silk": 1}},
        **ONE_STEP_TO_SAMARKAND,
    )
    s.tokens = [2, 2, 1, 1, 0]
    s.colourless[4] = 2
    s.colourless_supply = 8
    gain_colourless(s, 4)
    assert s.tokens[4] == 1 and sum(s.tokens) == 7 and s.colourless_supply == 10
    assert E.observation(s, None)["caravanserai"]["tokens"] == 0
