"""What the match page tells of the game so far: the "since your move" strip, the whole
log with names and seat colours, readable bot names, and light live updates."""

import random
import re

import pytest
from django.urls import reverse

from games import board_patch, services
from games.bot_labels import player_label
from games.engines.registry import get_engine
from games.models import Match, MatchStatus
from games.seat_colours import seat_colour
from games.selectors import OWN_PIECE_IDS, match_view
from games.services.players import builtin_bot_player
from tests.games.factories import HumanPlayerFactory, logged, play_out

pytestmark = pytest.mark.django_db


def _bots_until_seat(match: Match, seat: int) -> Match:
    match.refresh_from_db()
    while match.status == MatchStatus.RUNNING and match.to_act != seat:
        services.play_bot_decisions(match_id=match.pk, ply=match.ply)
        match.refresh_from_db()
    return match


def _play_first(match: Match, player) -> None:
    legal = match_view(match, match.to_act)["legal_actions"]
    services.submit_action(
        match_id=match.pk, user=player.user, ply=match.ply, action=legal[0]["action"]
    )


@pytest.fixture
def table():
    """Alice (seat 0) with a random bot and a search bot (names made up by the lobby),
    at her second decision: the bots have moved since her first."""
    alice = HumanPlayerFactory()
    random_bot = builtin_bot_player(bot_name="random")
    search_bot = builtin_bot_player(bot_name="ismcts", params={"iterations": 5})
    match = services.create_match(game="silkroad", players=[alice, random_bot, search_bot], seed=4)
    match = _bots_until_seat(match, 0)
    while match.to_act == 0:  # her whole turn (it may take several decisions)
        _play_first(match, alice)
        match.refresh_from_db()
    return _bots_until_seat(match, 0), alice, search_bot


def test_search_bots_are_named_by_kind_and_budget_not_by_their_slug():
    bot = builtin_bot_player(bot_name="ismcts", params={"iterations": 1000})
    assert re.fullmatch(r"ismcts-[0-9a-f]{8}", bot.name)
    assert player_label(bot) == "Search bot, 1000 iterations"
    assert player_label(builtin_bot_player(bot_name="greedy")) == "Greedy bot"
    # A bot an admin named keeps its name.
    named = services.players.create_engine_bot(name="greedy-gus", bot_name="greedy")
    assert player_label(named) == "greedy-gus"


def test_since_your_move_lists_every_decision_after_hers_in_order_with_names(client, table):
    match, alice, search_bot = table
    client.force_login(alice.user)
    response = client.get(reverse("match-detail", args=[match.pk]))
    mine = [d.ply for d in logged(match, seat=0)]
    expected = [d for d in logged(match) if d.ply > mine[-1]]
    assert len(expected) >= 2 and {d.seat for d in expected} == {1, 2}
    since = response.context["since"]
    assert [r["ply"] for r in since] == [d.ply for d in expected]
    names = {1: "Random bot", 2: "Search bot, 5 iterations"}
    assert [r["player"] for r in since] == [names[d.seat] for d in expected]
    html = response.content.decode()
    strip = html.split('id="since-move"')[1].split("</section>")[0]
    assert "Since your move" in strip
    assert strip.count("<li") == len(expected)
    assert "Search bot, 5 iterations" in strip and "ismcts-" not in strip
    # The seats table names the bot in words and still links to its page by its slug.
    assert f'href="/players/{search_bot.name}/">Search bot, 5 iterations</a>' in html
    # The board highlights what every one of those decisions touched, not just the last.
    engine = get_engine(match.game)
    state = engine.from_json(match.state)
    touched = [t for d in expected for t in engine.action_targets(state, d.action)]
    shown = set(response.context["last_move"])
    assert {t for t in touched if not t.startswith(OWN_PIECE_IDS)} <= shown
    assert len(expected) > 1 and len(shown) > 1  # not only the last decision's
    assert not {t for t in shown if t.startswith(OWN_PIECE_IDS)}  # a bot's hand is not hers


def test_the_log_is_the_whole_game_numbered_from_one_with_names(client):
    bots = [builtin_bot_player(bot_name="random"), builtin_bot_player(bot_name="greedy")]
    match = play_out(services.create_match(game="yspahan", players=bots, seed=5))
    decisions = logged(match)
    assert len(decisions) > 30
    html = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    log = html.split('id="match-log"')[1].split("</ol>")[0]
    values = [int(v) for v in re.findall(r'<li value="(\d+)"', log)]
    assert sorted(values) == list(range(1, len(decisions) + 1))
    assert "seat 1" not in log.lower() and "Random bot" in log and "Greedy bot" in log
    # Each seat's colour is shown beside it in the seats table.
    seats = html.split('class="grid seats"')[1].split("</table>")[0]
    for index in range(2):
        assert f'fill="{seat_colour("yspahan", index)["fill"]}"' in seats


def test_a_long_line_is_not_cut(client):
    """The runner stores labels cut at 200 characters; the page describes them again."""
    bots = [builtin_bot_player(bot_name="random"), builtin_bot_player(bot_name="greedy")]
    match = play_out(services.create_match(game="yspahan", players=bots, seed=5))
    from games.selectors import page_log

    rows = page_log(match, None)
    engine = get_engine(match.game)
    state = engine.new_game(players=2, seed=match.seed, options=match.options)
    for row, d in zip(rows, logged(match), strict=True):
        assert row["label"] == engine.describe(state, d.action)
        state = engine.apply(state, d.action)


def test_my_games_name_bots_in_words(client, table):
    match, alice, _ = table
    client.force_login(alice.user)
    html = client.get(reverse("my-games")).content.decode()
    assert "Search bot, 5 iterations" in html and "ismcts-" not in html


# ---- live updates ---------------------------------------------------------------------

PATCH_BYTES = 12_000  # the whole panel (board, seats, log) is 30-60 KB


@pytest.fixture
def quick_table():
    """Three people who move one decision at a time (as a bot table does, quickly)."""
    people = [HumanPlayerFactory() for _ in range(3)]
    return services.create_match(game="silkroad", players=people, seed=8), people


def _one_decision(match: Match, people) -> Match:
    match.refresh_from_db()
    _play_first(match, people[match.to_act])
    match.refresh_from_db()
    return match


def test_live_update_sends_nothing_for_the_same_ply_and_little_for_a_new_one(client, quick_table):
    match, people = quick_table
    match = _one_decision(match, people)  # at ply 0 the log's "No moves yet" goes: all is sent
    url = reverse("match-live", args=[match.pk])
    page = client.get(reverse("match-detail", args=[match.pk]))  # the page at this ply
    assert page.status_code == 200
    ply = match.ply
    unchanged = client.get(url, {"ply": ply}, HTTP_HX_REQUEST="true")
    assert unchanged.status_code == 204 and unchanged.content == b""
    for _ in range(3):
        match = _one_decision(match, people)
    update = client.get(url, {"ply": ply}, HTTP_HX_REQUEST="true")
    assert update.status_code == 200 and update["HX-Reswap"] == "none"
    body = update.content.decode()
    assert len(update.content) < PATCH_BYTES, len(update.content)
    assert f'id="live-ply" name="ply" value="{match.ply}"' in body
    appended = body.split('hx-swap-oob="afterbegin:#match-log">')[1].split("</ol>")[0]
    assert re.findall(r'<li value="(\d+)"', appended) == [str(n) for n in (4, 3, 2)]  # the new
    assert "<svg" not in body.split('id="board-patch-box"')[0]  # no whole board
    # Without a known starting ply (or with an old one the page never showed) the whole panel.
    whole = client.get(url, HTTP_HX_REQUEST="true")
    assert len(whole.content) > PATCH_BYTES and b'id="match-live"' in whole.content


def _apply(old: str, patch: dict) -> str:
    """The patch applied as static/js/live-match.js does, on node lists."""

    def tree(markup):
        out = []
        for node in board_patch._nodes(markup):
            split = board_patch._split(node)
            out.append([node, split[0], tree_of(split[1])] if split else [node, None, None])
        return out

    def tree_of(kids):
        return tree("".join(kids))

    def text(nodes):
        return "".join(n[0] if n[1] is None else n[1] + text(n[2]) + close(n[0]) for n in nodes)

    def close(node):
        return node[node.rindex("</") :]

    root = [None, "", tree(old)]
    markup = iter(patch["markup"])
    for path, count, ops, *head in patch["patches"]:
        node = root
        for i in path:
            node = node[2][i]
        assert len(node[2]) == count
        if head:
            element = next(markup)[1]
            node[1] = element[: element.index(">") + 1]
        kids = []
        for op in ops:
            kids += tree(next(markup)[1]) if op == 0 else node[2][op[0] : op[1]]
        node[2] = kids
    return text(root[2])


@pytest.mark.parametrize("game", ["silkroad", "yspahan", "greatwall"])
def test_board_patch_rebuilds_the_new_board_and_is_small(game):
    engine = get_engine(game)
    state = engine.new_game(players=3, seed=2, options={})
    rng = random.Random(3)
    old = engine.render_svg(engine.observation(state, None))
    for _ in range(25):
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
        new = engine.render_svg(engine.observation(state, None))
        patch = board_patch.svg_patch(old, new)
        assert patch is not None and _apply(old, patch) == new
        assert board_patch.patch_size(patch) < len(new) / 3
        old = new


def test_the_strip_and_log_never_show_another_seats_hidden_move(client):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = services.create_match(game="greatwall", players=[alice, bob], seed=9)
    engine = get_engine("greatwall")
    rng = random.Random(1)
    page = None
    for _ in range(8):  # the starting chips are laid face down
        match.refresh_from_db()
        if match.to_act == 1 and page is None:
            client.force_login(alice.user)
            page = client.get(reverse("match-detail", args=[match.pk]))
        legal = engine.legal_actions(engine.from_json(match.state))
        user = (alice, bob)[match.to_act].user
        services.submit_action(
            match_id=match.pk, user=user, ply=match.ply, action=rng.choice(legal)
        )
    match.refresh_from_db()
    hidden = [d for d in logged(match, seat=1) if engine.redact_action(d.action, 1, 0) != d.action]
    assert hidden, "bob laid no hidden chip"
    client.force_login(alice.user)
    full = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    live = client.get(
        reverse("match-live", args=[match.pk]), {"ply": page.context["match"].ply} if page else {},
        HTTP_HX_REQUEST="true",
    ).content.decode()  # fmt: skip
    state = engine.new_game(players=2, seed=match.seed, options=match.options)
    real = {}
    for d in logged(match):
        real[d.ply] = engine.describe(state, d.action)
        state = engine.apply(state, d.action)
    for d in hidden:
        assert real[d.ply] not in full and real[d.ply] not in live
    # The strip (and so the board's highlights) hold bob's decisions only as redacted.
    since = client.get(reverse("match-detail", args=[match.pk])).context["since"]
    shown = {r["ply"]: r["action"] for r in since}
    for d in hidden:
        if d.ply in shown:
            assert shown[d.ply] == engine.redact_action(d.action, 1, 0) != d.action
