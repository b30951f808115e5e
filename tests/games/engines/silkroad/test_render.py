"""The Silk Road board: ids, action targets and labels for hand-picked actions."""

from __future__ import annotations

from games.engines.silkroad import ENGINE as E
from tests.games.engines.board_helpers import drawn_targets, find_state, has_action


def test_a_play_is_hand_card_then_caravan_then_destination():
    s = E.new_game(players=4, seed=12345)
    action = {"type": "play", "good": "silk", "count": 1, "caravan": 1}
    assert E.action_targets(s, action) == ["hand:silk", "caravan:1", "village:v01"]
    assert E.action_choice(s, action) == "1 card"
    drawn = drawn_targets(E.render_svg(E.observation(s, E.to_act(s))))
    assert {"caravan:1", "caravan:2", "caravan:3", "village:v01", "city:tashkent"} <= set(drawn)
    assert {t for t in drawn if t.startswith("hand:")}  # the actor's hand can be clicked


def test_other_hands_are_not_clickable_or_shown():
    s = E.new_game(players=4, seed=12345)
    actor = E.to_act(s)
    other = (actor + 1) % 4
    drawn = drawn_targets(E.render_svg(E.observation(s, other)))
    hand = E.observation(s, other)["players"][other]["hand"]
    assert {t.removeprefix("hand:") for t in drawn if t.startswith("hand:")} == set(hand)
    spectator = drawn_targets(E.render_svg(E.observation(s, None)))
    assert not [t for t in spectator if t.startswith("hand:")]


def test_draws_click_the_display_card_or_the_deck():
    s = find_state(E, lambda s: s.stage == "draw", players=3)
    for action in E.legal_actions(s):
        targets = E.action_targets(s, action)
        if action["source"] == "deck":
            assert targets == ["deck"]
        else:
            assert targets == [f"display:{action['good']}"]
        assert E.action_choice(s, action) is None


def test_a_route_is_its_end_space_with_a_human_name():
    s = find_state(E, lambda s: s.stage == "route", players=4, seeds=range(200))
    for action in E.legal_actions(s):
        (target,) = E.action_targets(s, action)
        assert target.split(":")[1] == action["to"]
        assert action["to"] not in E.describe(s, action)


def test_robbing_clicks_the_victims_laid_out_card():
    s = find_state(E, lambda s: s.stage == "rob", players=4, seeds=range(200))
    for action in E.legal_actions(s):
        assert E.action_targets(s, action) == [f"field:{action['victim']}:{action['good']}"]


def test_sell_decline_and_bazaar_are_choice_buttons():
    s = find_state(E, lambda s: s.stage == "sell", players=3)
    labels = {a["type"]: E.action_choice(s, a) for a in E.legal_actions(s)}
    assert labels == {"sell": "sell", "decline": "decline"}
    assert all(E.action_targets(s, a) == [] for a in E.legal_actions(s))


def test_a_gem_is_clicked_in_the_market_city():
    s = find_state(E, has_action(E, lambda a: a["type"] == "gem"), players=4, seeds=range(200))
    drawn = drawn_targets(E.render_svg(E.observation(s, E.to_act(s))))
    for action in E.legal_actions(s):
        (target,) = E.action_targets(s, action)
        assert target.startswith("gem:") and target.endswith(f":{action['color']}")
        assert target in drawn


def test_caravans_are_pinned_to_their_space():
    s = E.new_game(players=2, seed=3)
    svg = E.render_svg(E.observation(s, 0))
    # the start: the 1-camel caravan in Tashkent heading for Yspahan
    assert "The 1-camel caravan to Yspahan" in svg
    assert "target of the 1-camel caravan" in svg


def test_village_tiles_have_a_key_and_human_names():
    s = E.new_game(players=2, seed=3)
    svg = E.render_svg(E.observation(s, 0))
    for word in ("Key", "small market", "black market", "baksheesh", "Kashgar", "signposts"):
        assert word in svg
    assert "small_market" not in svg


def player_facts(svg: str) -> list[list[tuple[str, str]]]:
    """Each player panel's label/value pairs: [(label, value), ...] per panel."""
    import xml.etree.ElementTree as ET

    ns = "{http://www.w3.org/2000/svg}"
    panels = []
    for text in ET.fromstring(svg).iter(f"{ns}text"):
        spans = list(text.iter(f"{ns}tspan"))
        if spans and spans[0].text and spans[0].text.endswith(":"):
            panels.append([(a.text, b.text) for a, b in zip(spans[::2], spans[1::2], strict=True)])
    return panels


def test_player_panels_label_each_value_apart_from_the_seat_name():
    s = find_state(E, lambda s: s.stage == "draw", players=3)
    obs = E.observation(s, 0)
    svg = E.render_svg(obs)
    facts = player_facts(svg)
    assert len(facts) == 3
    for p, pairs in zip(obs["players"], facts, strict=True):
        expected = [("camel driver:", str(p["driver"])), ("cards in hand:", str(p["hand_count"]))]
        if "score" in p:
            expected.append(("points:", str(p["score"])))
        assert pairs == expected
    assert ("points:", str(obs["players"][0]["score"])) in facts[0]  # one's own score shows
    # The seat's name is a heading of its own, not run together with the numbers.
    assert ">Seat 1 (you)</text>" in svg and ">Seat 2</text>" in svg
