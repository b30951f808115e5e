"""The replay's "Every hand" in human words, and the cached translated match log."""

import random

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from games import selectors, services
from games.engines import i18n as engine_i18n
from games.engines.registry import ENGINES, get_engine
from games.hands import HAND_FIELDS, hand_parts
from games.i18n import activate_engine_language
from tests.games.factories import EngineBotFactory, logged, play_out

pytestmark = pytest.mark.django_db


def _hidden_keys(game: str) -> set[str]:
    """Every per-seat key the full record shows and a spectator does not, over random games."""
    engine, keys = get_engine(game), set()
    for seed in range(3):
        for n in range(engine.min_players, min(engine.max_players, 4) + 1):
            state, rng = engine.new_game(players=n, seed=seed, options={}), random.Random(seed)
            while not engine.is_over(state):
                public = engine.observation(state, None).get("players", [])
                full = engine.full_observation(state).get("players", [])
                for pub, entry in zip(public, full, strict=False):
                    keys |= set(entry) - set(pub)
                state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    return keys


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_hidden_key_of_every_engine_has_a_label(game):
    keys = _hidden_keys(game)
    assert keys and keys <= set(HAND_FIELDS[game]), keys - set(HAND_FIELDS[game])


def test_hand_parts_name_items_in_the_engines_words():
    token = activate_engine_language("cs")
    try:
        parts = hand_parts("silkroad", {"hand": {"ivory": 2, "tea": 0}, "score": 0})
    finally:
        engine_i18n.reset_language(token)
    with translation.override("en"):  # the page's language, whatever an earlier test left
        assert [str(p["label"]) for p in parts] == ["Goods in hand", "Score"]
    assert parts[0]["items"] == [("slonovina", 2)]  # a count of 0 is left out
    assert parts[1] == {"label": parts[1]["label"], "items": None, "value": 0}
    assert hand_parts("silkroad", {"new_part": 3})[0]["label"] == "New part"


def _finished(game="silkroad", seed=6):
    match = services.create_match(
        game=game, players=[EngineBotFactory(), EngineBotFactory()], seed=seed
    )
    return play_out(match)


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_the_replay_shows_human_labels_not_raw_keys(client, game):
    match = _finished(game)
    html = client.get(reverse("match-replay", args=[match.pk]), {"ply": 12}).content.decode()
    hands = html[html.index('<dl class="hands">') : html.index("</dl>")]
    labels = {str(label) for label, _item in HAND_FIELDS[game].values()}
    assert any(f"{label}:" in hands for label in labels), hands
    for key in HAND_FIELDS[game]:
        assert f">{key}:" not in hands
    # Each hand is named by its player, in seat order.
    names = [str(s.player) for s in match.seats.order_by("index")]
    assert f"<dt>{names[0]}</dt>" in hands and hands.index(names[0]) < hands.index(names[1])


def test_czech_replay_names_hands_and_moves_in_czech(client):
    match = _finished("greatwall")
    html = client.get(
        reverse("match-replay", args=[match.pk]), {"ply": 12}, HTTP_ACCEPT_LANGUAGE="cs"
    ).content.decode()
    assert "Aktivní zásoba:" in html or "Pasivní zásoba:" in html  # needs the merged catalog
    # Bot batches store no label: the English line is what the English log shows.
    label = selectors.match_log(match, None)[11]["label"]
    assert label
    now = html[html.index('class="replay-now"') :].split("</p>")[0]
    assert label not in now  # the move is described in Czech, not in English


def _czech_log(match):
    token = activate_engine_language("cs")
    try:
        return selectors.match_log(match, None)
    finally:
        engine_i18n.reset_language(token)


def test_cached_czech_log_equals_a_fresh_one_and_is_used():
    match = _finished("yspahan", seed=3)
    first = _czech_log(match)  # fills the cache
    key = selectors._log_cache_key(match.pk, match.ply, "cs")
    assert cache.get(key)["labels"] == [row["label"] for row in first]
    assert _czech_log(match) == first
    cache.clear()
    assert _czech_log(match) == first  # computed afresh: the same lines
    english = selectors.match_log(match, None)
    assert english[0]["label"] and first[0]["label"] != english[0]["label"]
    # What the cache holds is what a page shows (no replay when it is there).
    entry = cache.get(key)
    cache.set(key, {**entry, "labels": ["(cached)"] * len(entry["labels"])})
    assert {row["label"] for row in _czech_log(match)} == {"(cached)"}
    assert selectors.match_log(match, None) == english  # English keeps its own lines


def test_the_next_ply_extends_the_cached_log_instead_of_replaying():
    match = _finished("silkroad", seed=9)
    engine, actions = get_engine("silkroad"), logged(match)
    token = activate_engine_language("cs")
    try:
        fresh = selectors.translated_labels(match, engine, actions)
        cache.clear()
        earlier = selectors.translated_labels(match, engine, actions[:-1])  # one ply before
        assert earlier == fresh[:-1]
        key = selectors._log_cache_key(match.pk, len(actions) - 1, "cs")
        cache.set(key, {**cache.get(key), "labels": ["(earlier)"] * len(earlier)})
        extended = selectors.translated_labels(match, engine, actions)
    finally:
        engine_i18n.reset_language(token)
    # Only the new action was described, from the cached state after the earlier plies.
    assert extended == ["(earlier)"] * len(earlier) + fresh[-1:]


def _live_great_wall(plies: int = 40):
    """Alice against a bot, some moves in: the bot has laid chips face down."""
    from tests.games.factories import HumanPlayerFactory

    alice = HumanPlayerFactory(user__username="alice")
    engine = get_engine("greatwall")
    match = services.create_match(game="greatwall", players=[alice, EngineBotFactory()], seed=3)
    while match.ply < plies or match.to_act != 0:
        if match.to_act == 0:
            action = engine.legal_actions(engine.from_json(match.state))[0]
            services.submit_action(match_id=match.pk, user=alice.user, ply=match.ply, action=action)
        else:
            services.play_bot_decisions(match_id=match.pk, ply=match.ply)
        match.refresh_from_db()
    return alice, match


def test_a_chip_laid_face_down_is_described_not_named_by_its_type(client):
    alice, match = _live_great_wall()
    laid = [a for a in logged(match, seat=1) if a.action["type"] == "lay"]
    assert laid and all("chip" in a.action for a in laid)
    for viewer in (0, None):
        rows = {row["ply"]: row for row in selectors.match_log(match, viewer)}
        for a in laid:
            assert rows[a.ply]["action"]["chip"] != a.action["chip"]  # still hidden
            assert rows[a.ply]["label"] == "lay a chip"
    client.force_login(alice.user)
    html = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    assert "</b>: lay a chip" in html and ": lay <" not in html and ": lay\n" not in html
    czech = client.get(reverse("match-detail", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="cs")
    text = czech.content.decode()
    assert "</b>: položit hrací kámen" in text and ": lay" not in text
    # The bot itself (and the finished record) keep the chip's face.
    own = {row["ply"]: row["label"] for row in selectors.match_log(match, 1)}
    assert all(own[a.ply] != "lay a chip" and own[a.ply].startswith("lay ") for a in laid)
