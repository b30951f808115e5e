"""The rulebook's worked examples 1-21 and the 4-player example round, on the designed board.

Seats: Helmut 0, Gerd 1, Katharina 2, Sabine 3 (unless a test says otherwise).
Board places used (see data/board.json): v08 Multan (customs), v09 Kandahar
(small market tea), v12 Aleppo, v13 Trebizond (small market porcelain),
v14 Tabriz (bazaar), v15 Merv, v04 Lanzhou (robbers), v06 Khotan (black
market), v07 Lahore (small market ivory), v18 Otrar (baksheesh).
"""

import pytest

from games.engines.base import IllegalAction
from games.engines.silkroad.scoring import colourless_points, set_points

from .builder import BOARD, E, act, build, colours, field, hand, sp

H, G, K, S = 0, 1, 2, 3


def test_example_1_3_5_only_as_many_cards_as_fit_then_one_card():
    s = build(
        seat=G,
        hands={G: {"silk": 3, "ivory": 1, "porcelain": 1}, K: {"tea": 2}},
        caravans={
            1: ("v04", "yspahan", [5]),
            2: ("v14", "samarkand", [3, 2]),  # spice 3, porcelain 2; 2 spaces from Samarkand
            3: ("v10", "byzanz", [10, 4, 1]),
        },
        queue=[6, 7, 8, 9],
        city_gems={
            "yspahan": {"red": 1},
            "samarkand": {"blue": 1, "green": 1},
            "byzanz": {"red": 3},
        },
        bag={"yellow": 4},
        display=["ivory", "tea", "tea"],
        deck=["silk"] * 5,
    )
    plays = [a for a in E.legal_actions(s) if a["caravan"] == 2]
    assert {(a["good"], a["count"]) for a in plays} == {
        ("silk", 1),
        ("silk", 2),
        ("ivory", 1),
        ("porcelain", 1),
    }
    before = E.to_json(s)
    with pytest.raises(IllegalAction):
        E.apply(s, {"type": "play", "good": "silk", "count": 3, "caravan": 2})
    assert E.to_json(s) == before
    # example 3: two spaces, a single way (no route decision)
    act(s, type="play", good="silk", count=2, caravan=2)
    assert s.caravans[2].pos == sp("samarkand")
    assert field(s, G) == {"silk": 2}
    # example 5: silk is not on the caravan, so exactly one card
    assert s.stage == "draw" and s.draws_left == 1
    act(s, type="draw", source="display", good="ivory")
    assert hand(s, G) == {"silk": 1, "ivory": 2, "porcelain": 1}
    # phase 4: the great market in Samarkand; nobody has spice or porcelain laid out
    assert s.stage == "play" and s.seat == K


def test_example_2_4_6_lay_out_choose_route_and_two_cards():
    s = build(
        seat=K,
        hands={K: {"ivory": 4, "tea": 1}, S: {"tea": 2}},
        fields={K: {"ivory": 2}},
        caravans={
            1: ("v04", "yspahan", [5]),
            2: ("amritsar", "tashkent", [9, 7]),
            3: ("v10", "samarkand", [10, 4, 1]),  # silk 10, ivory 4, silk 1
        },
        city_gems={"yspahan": {"red": 1}, "tashkent": {"blue": 2}, "samarkand": {"red": 3}},
        display=["tea", "spice", "spice"],
        deck=["tea", "silk"],  # silk on top
    )
    act(s, type="play", good="ivory", count=3, caravan=3)
    assert field(s, K) == {"ivory": 5}  # added to the 2 laid out before
    assert hand(s, K) == {"ivory": 1, "tea": 1}
    # example 4: three spaces from Shiraz reach Trebizond (ring) or Tabriz (via Hamadan)
    assert s.stage == "route"
    assert E.legal_actions(s) == [{"type": "route", "to": "v13"}, {"type": "route", "to": "v14"}]
    act(s, type="route", to="v13")
    assert s.caravans[3].pos == sp("v13")
    # example 6: ivory rides the caravan, so two cards, each its own decision
    assert s.stage == "draw" and s.draws_left == 2
    act(s, type="draw", source="deck")
    act(s, type="draw", source="display", good="tea")
    assert hand(s, K) == {"silk": 1, "ivory": 1, "tea": 2}
    # Trebizond's small market is for porcelain, which the caravan lacks
    assert s.stage == "play" and s.seat == S


def test_examples_7_to_11_great_market_swaps_queue_and_new_target():
    s = build(
        seat=H,
        drivers=[4, 2, 1, 3],
        hands={H: {"tea": 1, "spice": 2}, G: {"tea": 2}},
        fields={H: {"silk": 3}, G: {"silk": 3}, K: {"silk": 3}},
        caravans={
            1: ("v16", "tashkent", [3]),
            2: ("amritsar", "samarkand", [9, 7]),  # has not left Amritsar yet
            3: ("v12", "byzanz", [10, 4, 1]),
        },
        queue=[5, 6, 2, 8],  # tea 5, tea 6, porcelain 2, spice 8
        city_gems={
            "tashkent": {"green": 1},
            "samarkand": {"red": 2},
            "byzanz": {"red": 1, "blue": 1, "green": 1},
        },
        bag={"yellow": 4, "purple": 4},
        display=["tea", "tea", "tea"],
        deck=["silk"] * 6,
    )
    act(s, type="play", good="tea", count=1, caravan=3)
    act(s, type="draw", source="deck")
    # example 7/8: silk (10) first; three-way tie on 3 cards, driver 4 wins
    assert s.stage == "sell" and s.actor == H
    assert s.market.camels == [10, 4, 1]
    act(s, type="sell")
    assert field(s, H)["silk"] == 1  # half of 3, rounded up, discarded
    assert s.stage == "gem" and s.actor == H
    assert {a["color"] for a in E.legal_actions(s)} == {"red", "blue", "green"}
    act(s, type="gem", color="red")
    assert s.drivers == [1, 2, 4, 3]  # Helmut's 4 swapped with Katharina's 1
    # ivory (4): nobody has ivory laid out; silk (1): Gerd and Katharina tie on 3
    assert s.stage == "sell" and s.actor == K
    act(s, type="sell")
    act(s, type="gem", color="blue")
    assert s.drivers == [1, 4, 2, 3]  # Katharina's 4 swapped with Gerd's 2
    assert s.gems[H] == colours({"red": 1}) and s.gems[K] == colours({"blue": 1})
    assert s.removed_seen == colours({"green": 1})  # the gem left over leaves the game
    # example 9: camels queue up in sale order, the first three set out from Byzanz
    assert s.caravans[3].camels == [5, 6, 2]
    assert s.caravans[3].pos == sp("byzanz")
    assert s.queue == [8, 10, 4, 1]
    # example 10: free cities are only Chang'an and Yspahan; count 3 clockwise from Byzanz
    assert s.caravans[3].target == sp("changan")
    # example 11: three gems from the bag
    assert sum(s.city_gems[sp("changan")]) == 3 and len(s.bag) == 5
    assert s.seat == G


def test_example_12_small_market_with_the_good_twice():
    s = build(
        seat=S,
        hands={S: {"silk": 1}, H: {"tea": 2}},
        fields={S: {"tea": 1}},
        caravans={
            1: ("v16", "tashkent", [3]),
            2: ("v02", "changan", [9, 7]),
            3: ("v08", "yspahan", [6, 5, 2]),  # tea 6, tea 5, porcelain 2
        },
        queue=[8, 10, 4, 1],
        city_gems={"tashkent": {"green": 1}, "changan": {"red": 2}, "yspahan": {"blue": 3}},
        display=["tea", "tea", "tea"],
        deck=["silk"] * 4,
    )
    act(s, type="play", good="silk", count=1, caravan=3)
    assert s.caravans[3].pos == sp("v09")  # small market (tea)
    act(s, type="draw", source="deck")
    assert s.stage == "sell" and s.actor == S
    assert s.market.camels == [6]  # the more valuable tea
    act(s, type="sell")
    assert field(s, S) == {"silk": 1}  # the tea card went, the silk just played stays
    assert s.discard == [4]  # the tea card (good 4)
    assert s.colourless[S] == 1 and s.colourless_supply == 9
    assert s.caravans[3].camels == [8, 5, 2]  # spice 8 joined, tea 6 left
    assert s.queue == [10, 4, 1, 6]


def test_example_13_small_market_without_the_good_lapses():
    s = build(
        seat=G,
        hands={G: {"silk": 1}, K: {"tea": 2}},
        fields={H: {"ivory": 3}, G: {"ivory": 2}},
        caravans={
            1: ("v06", "yspahan", [9]),  # porcelain 9
            2: ("v02", "changan", [3, 7]),
            3: ("v12", "byzanz", [6, 5, 2]),
        },
        queue=[8, 10, 4, 1],
        city_gems={"yspahan": {"green": 1}, "changan": {"red": 2}, "byzanz": {"blue": 3}},
        display=["tea", "tea", "tea"],
        deck=["silk"] * 4,
    )
    act(s, type="play", good="silk", count=1, caravan=1)
    assert s.caravans[1].pos == sp("v07")  # small market (ivory)
    act(s, type="draw", source="deck")
    assert s.stage == "play" and s.seat == K  # nothing happened
    assert field(s, H) == {"ivory": 3} and s.caravans[1].camels == [9] and s.queue == [8, 10, 4, 1]


def test_example_14_black_market_sells_the_most_valuable_good():
    s = build(
        seat=S,
        hands={S: {"silk": 1}},
        fields={G: {"spice": 2, "tea": 5}},
        caravans={
            1: ("v16", "tashkent", [1]),
            2: ("v02", "changan", [9, 7]),
            3: ("v05", "amritsar", [8, 5, 2]),  # spice 8, tea 5, porcelain 2
        },
        queue=[6, 10, 4, 3],
        city_gems={"tashkent": {"green": 1}, "changan": {"red": 2}, "amritsar": {"blue": 3}},
        display=["tea", "tea", "tea"],
        deck=["silk"] * 4,
    )
    act(s, type="play", good="silk", count=1, caravan=3)
    assert s.caravans[3].pos == sp("v06")  # black market
    act(s, type="draw", source="deck")
    assert s.stage == "sell" and s.actor == G and s.market.camels == [8]
    act(s, type="sell")
    assert field(s, G) == {"spice": 1, "tea": 5}
    assert s.colourless[G] == 1
    assert s.caravans[3].camels == [6, 5, 2] and s.queue == [10, 4, 3, 8]


def test_example_15_robber_chain():
    s = build(
        seat=S,
        hands={S: {"silk": 1}, H: {"tea": 2}},
        fields={S: {"porcelain": 2}, G: {"porcelain": 1, "tea": 1}, H: {"porcelain": 2}},
        caravans={
            1: ("v03", "byzanz", [3]),
            2: ("v10", "samarkand", [9, 7]),
            3: ("v16", "tashkent", [8, 5, 2]),
        },
        queue=[6, 10, 4, 1],
        city_gems={"byzanz": {"green": 1}, "samarkand": {"red": 2}, "tashkent": {"blue": 3}},
        display=["tea", "tea", "tea"],
        deck=["silk"] * 4,
        discard=["tea", "ivory"],  # ivory on top
    )
    act(s, type="play", good="silk", count=1, caravan=1)
    assert s.caravans[1].pos == sp("v04")  # robbers
    act(s, type="draw", source="deck")
    assert s.stage == "rob" and s.actor == S
    # Katharina has nothing laid out; Sabine cannot rob herself
    assert {a["victim"] for a in E.legal_actions(s)} == {H, G}
    act(s, type="rob", victim=G, good="porcelain")
    assert s.actor == G
    assert E.legal_actions(s) == [
        {"type": "rob", "victim": H, "good": "porcelain"}
    ]  # not Sabine, not himself
    act(s, type="rob", victim=H, good="porcelain")
    # Helmut is last: Katharina has no cards, so he takes the top of the discard pile
    assert field(s, S) == {"silk": 1, "porcelain": 3}
    assert field(s, G) == {"porcelain": 1, "tea": 1}
    assert field(s, H) == {"porcelain": 1, "ivory": 1}
    assert s.discard == [4]  # the tea below is left
    assert s.stage == "play" and s.seat == H


def test_example_16_robbers_with_nothing_to_rob_take_the_deck_top():
    s = build(
        players=4,
        seat=S,
        drivers=[3, 4, 5, 1],  # Sabine has the lowest driver and starts
        hands={S: {"spice": 2}, H: {"tea": 4}, G: {"tea": 4}, K: {"tea": 4}},
        caravans={
            1: ("changan", "byzanz", [8]),  # spice 8
            2: ("amritsar", "samarkand", [9, 7]),
            3: ("tashkent", "yspahan", [6, 5, 2]),
        },
        queue=[1, 10, 4, 3],
        city_gems={"byzanz": {"green": 1}, "samarkand": {"red": 2}, "yspahan": {"blue": 3}},
        display=["tea", "ivory", "tea"],
        deck=["tea", "tea", "silk"],  # silk on top
    )
    act(s, type="play", good="spice", count=1, caravan=1)
    assert s.caravans[1].pos == sp("v04")
    assert s.draws_left == 2  # spice rides the caravan
    act(s, type="draw", source="display", good="tea")
    act(s, type="draw", source="display", good="ivory")
    # nobody else has laid out cards and the discard pile is empty: top deck card
    assert field(s, S) == {"spice": 1, "silk": 1}
    assert s.seat == H and s.stage == "play"


def test_example_17_bazaar():
    s = build(
        seat=H,
        hands={H: {"tea": 1}},
        fields={H: {"ivory": 1, "silk": 2, "tea": 1, "spice": 1}},
        caravans={
            1: ("v13", "samarkand", [1]),
            2: ("v04", "yspahan", [9, 7]),
            3: ("v18", "tashkent", [8, 5, 2]),
        },
        queue=[6, 10, 4, 3],
        city_gems={"samarkand": {"green": 1}, "yspahan": {"red": 2}, "tashkent": {"blue": 3}},
        display=["tea", "tea", "tea"],
        deck=["silk"] * 4,
    )
    act(s, type="play", good="tea", count=1, caravan=1)
    assert s.caravans[1].pos == sp("v14")  # bazaar
    act(s, type="draw", source="deck")
    assert s.stage == "bazaar"
    legal = E.legal_actions(s)
    assert {"type": "pass"} in legal and len(legal) == 5  # 4 goods: 4 trios, or pass
    E.apply(s, {"type": "bazaar", "goods": ["ivory", "silk", "tea"]})  # any order
    assert field(s, H) == {"silk": 1, "tea": 1, "spice": 1}
    assert s.colourless[H] == 1


def test_example_18_baksheesh_then_empty_hand_takes_two():
    s = build(
        players=2,
        seat=1,
        hands={1: {"silk": 3}, 0: {"tea": 3}},
        caravans={
            1: ("v15", "tashkent", [3]),  # spice 3, three spaces from Otrar
            2: ("v04", "yspahan", [9, 7]),
            3: ("v10", "byzanz", [8, 5, 2]),
        },
        queue=[6, 10, 4, 1],
        city_gems={"tashkent": {"green": 1}, "yspahan": {"red": 2}, "byzanz": {"blue": 3}},
        display=["silk", "tea", "tea"],
        deck=["ivory"] * 10,
    )
    act(s, type="play", good="silk", count=3, caravan=1)
    assert s.caravans[1].pos == sp("v18")  # baksheesh
    assert s.draws_left == 1
    act(s, type="draw", source="display", good="tea")
    assert s.stage == "baksheesh"
    assert E.legal_actions(s) == [
        {"type": "baksheesh", "good": "silk"},
        {"type": "baksheesh", "good": "tea"},
    ]
    act(s, type="baksheesh", good="silk")
    assert field(s, 1) == {"silk": 4}
    assert E.legal_actions(s) == [{"type": "discard", "from": "hand", "good": "tea"}]
    act(s, type="discard", **{"from": "hand"}, good="tea")
    assert hand(s, 1) == {}
    # the other player moves ...
    assert s.seat == 0 and s.stage == "play"
    act(s, type="play", good="tea", count=1, caravan=3)
    while s.seat == 0:
        act(s, **E.legal_actions(s)[0])
    # ... and Katharina, with an empty hand, may only take two cards
    assert s.stage == "draw" and s.draw_reason == "take2" and s.draws_left == 2
    assert all(a["type"] == "draw" for a in E.legal_actions(s))
    act(s, type="draw", source="deck")
    act(s, type="draw", source="deck")
    assert hand(s, 1) == {"ivory": 2}
    assert s.seat == 0  # that was the whole turn


def test_example_19_and_the_4_player_round():
    s = build(
        seat=H,
        drivers=[3, 4, 5, 1],
        hands={
            H: {"ivory": 2, "tea": 1},
            G: {"silk": 1, "tea": 1},
            K: {"porcelain": 2},
            S: {"tea": 3},
        },
        fields={
            H: {"silk": 2, "porcelain": 4, "tea": 1},
            G: {"spice": 2, "porcelain": 1, "tea": 2},
            K: {"porcelain": 2, "tea": 2},
            S: {"porcelain": 3},
        },
        caravans={
            1: ("v06", "yspahan", [5]),  # tea 5
            2: ("v02", "changan", [9, 6]),  # porcelain 9, tea 6
            3: ("v11", "byzanz", [10, 8, 2]),  # silk 10, spice 8, porcelain 2
        },
        queue=[1, 3, 4, 7],
        city_gems={
            "yspahan": {"purple": 1},
            "changan": {"red": 1, "green": 1},
            "byzanz": {"blue": 1, "yellow": 1, "green": 1},
        },
        bag={"red": 1, "blue": 1},  # only two gems left
        display=["ivory", "ivory", "ivory"],
        deck=["spice"] * 12,
    )
    # Helmut brings the 3-camel caravan to Byzanz; all three goods are sold
    act(s, type="play", good="ivory", count=2, caravan=3)
    act(s, type="draw", source="deck")
    assert s.actor == H and s.market.camels == [10, 8, 2]
    act(s, type="sell")
    act(s, type="gem", color="blue")
    assert s.actor == G
    act(s, type="sell")
    act(s, type="gem", color="yellow")
    # porcelain: Helmut (4) declines, the right passes to Sabine (3)
    assert s.actor == H
    act(s, type="decline")
    assert s.actor == S
    act(s, type="sell")
    act(s, type="gem", color="green")
    assert field(s, S) == {"porcelain": 1}
    # two gems left in the bag: no new caravan, the gems leave the game unseen
    assert s.ending and s.caravans[3] is None and s.bag == []
    assert sum(s.removed_unseen) == 2
    assert s.queue == [1, 3, 4, 7, 10, 8, 2]
    assert s.drivers == [3, 4, 5, 1]  # no ties, no swaps

    # Gerd moves the 1-camel caravan a step (small market ivory: nothing)
    assert s.seat == G
    act(s, type="play", good="silk", count=1, caravan=1)
    act(s, type="draw", source="deck")
    assert s.seat == K

    # 1-2. Katharina plays 2 porcelain, reaches Chang'an, takes 2 cards
    act(s, type="play", good="porcelain", count=2, caravan=2)
    assert s.caravans[2].pos == sp("changan") and s.draws_left == 2
    act(s, type="draw", source="deck")
    act(s, type="draw", source="deck")
    # 3-5. porcelain: Katharina and Helmut 4 each, driver 5 decides
    assert s.stage == "sell" and s.actor == K
    act(s, type="sell")
    act(s, type="gem", color="red")
    assert field(s, K)["porcelain"] == 2
    assert s.drivers[K] == 3 and s.drivers[H] == 5
    # 6-8. tea: Katharina and Gerd 2 each; Gerd's 4 beats her 3
    assert s.actor == G
    act(s, type="sell")
    assert field(s, G)["tea"] == 1
    act(s, type="gem", color="green")
    assert s.drivers[K] == 4 and s.drivers[G] == 3
    # 9. the last caravan goes straight to Yspahan; 10. everyone may lay out first
    assert s.caravans[1].pos == sp("yspahan")
    assert s.stage == "layout" and s.actor == K  # from the mover on
    assert E.legal_actions(s) == [{"type": "layout", "good": "tea", "count": 0}]  # no tea in hand
    act(s, type="layout", good="tea", count=0)
    assert s.actor == S
    assert [a["count"] for a in E.legal_actions(s)] == [0, 1, 2, 3]
    act(s, type="layout", good="tea", count=3)
    assert s.actor == H
    act(s, type="layout", good="tea", count=1)
    assert s.actor == G
    act(s, type="layout", good="tea", count=1)
    assert [s.fields[p][4] for p in range(4)] == [2, 2, 2, 3]
    # 11. Sabine sells her tea and takes the gem
    assert s.stage == "sell" and s.actor == S
    act(s, type="sell")
    act(s, type="gem", color="purple")
    assert field(s, S)["tea"] == 1
    assert E.is_over(s) and E.to_act(s) is None
    out = E.outcome(s)
    assert out["drivers"] == [5, 3, 4, 1]
    # Helmut blue; Gerd yellow + green; Katharina red; Sabine green + purple
    assert out["scores"] == [1, 3, 1, 3]
    assert out["ranks"] == [3, 1, 4, 2]  # ties by driver: Gerd 3 > Sabine 1, Helmut 5 > Katharina 4


def test_example_20_gem_sets():
    assert set_points(colours({"blue": 3, "yellow": 1, "green": 2, "red": 1, "purple": 1})) == 19
    assert set_points(colours({})) == 0
    assert set_points(colours({"red": 4})) == 4
    assert set_points(colours({"red": 1, "blue": 1})) == 3


def test_example_21_colourless_gems_and_token():
    assert colourless_points(2, 1) == 12
    s = build(
        players=2,
        hands={0: {"tea": 1}},
        caravans={1: ("v04", "yspahan", [5])},
        city_gems={"yspahan": {"red": 1}},
    )
    from games.engines.silkroad.scoring import gain_colourless

    for _ in range(5):
        gain_colourless(s, 0)
    assert (s.colourless[0], s.tokens[0], s.colourless_supply) == (2, 1, 8)
    assert E.outcome(s)["scores"][0] == 12


def test_board_places_used_by_the_examples():
    tiles = BOARD.printed_tiles
    assert tiles[sp("v09")] == "small_market_tea"
    assert tiles[sp("v07")] == "small_market_ivory"
    assert tiles[sp("v06")] == "black_market"
    assert tiles[sp("v04")] == "robbers"
    assert tiles[sp("v14")] == "bazaar"
    assert tiles[sp("v18")] == "baksheesh"
    assert tiles[sp("v13")] == "small_market_porcelain"
