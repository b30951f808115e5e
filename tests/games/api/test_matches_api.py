import json
import random
import re

import pytest

from config.worker_process import celery_worker
from games import services
from games.engines.registry import ENGINES, get_engine
from games.models import Match, MatchStatus
from tests.games.bot_client import ApiBot
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, logged

pytestmark = pytest.mark.django_db


def _create(api_client, user, seats, **extra):
    api_client.force_authenticate(user)
    body = {"game": "silkroad", "seed": 4, "seats": seats, **extra}
    return api_client.post("/api/matches/", body, format="json")


def test_create_match_with_players_and_builtin_bots(api_client):
    alice = HumanPlayerFactory()
    response = _create(api_client, alice.user, [{"player": alice.name}, {"bot": "random"}],
                       time_control={"per_move_s": 30}, timeout_policy="auto")  # fmt: skip
    assert response.status_code == 201, response.content
    body = response.json()
    assert [s["player"] for s in body["seats"]] == [alice.name, "random"]
    assert body["status"] == "running" and body["time_control"] == {"per_move_s": 30}
    detail = api_client.get(f"/api/matches/{body['id']}/").json()
    assert detail["ply"] == body["ply"]


@pytest.mark.parametrize(
    "seats",
    [[{"player": "nobody"}, {"bot": "random"}], [{"bot": "random"}], [{"bot": "alphago"}, {"bot": "random"}],
     [{"bot": "random", "player": "x"}, {"bot": "random"}]],
)  # fmt: skip
def test_create_match_rejects_bad_seats(api_client, seats):
    response = _create(api_client, HumanPlayerFactory().user, seats)
    assert response.status_code == 400
    assert Match.objects.count() == 0


def _human_vs_human(api_client, game="silkroad"):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = services.create_match(game=game, players=[alice, bob], seed=9)
    return match, alice, bob


def _play_moves(match, players, plies: int) -> Match:
    """Both humans play random legal moves for `plies` decisions (through the service)."""
    engine = get_engine(match.game)
    rng = random.Random(match.pk)
    for _ in range(plies):
        match.refresh_from_db()
        if match.status != MatchStatus.RUNNING:
            break
        legal = engine.legal_actions(engine.from_json(match.state))
        user = players[match.to_act].user
        services.submit_action(
            match_id=match.pk, user=user, ply=match.ply, action=rng.choice(legal)
        )
    match.refresh_from_db()
    return match


def test_state_actions_and_error_codes(api_client):
    match, alice, bob = _human_vs_human(api_client)
    actor = match.seats.get(index=match.to_act).player
    other = bob if actor == alice else alice
    api_client.force_authenticate(actor.user)
    state = api_client.get(f"/api/matches/{match.pk}/state/").json()
    assert state["seat"] == match.to_act and state["legal_actions"]
    action = state["legal_actions"][0]["action"]
    url = f"/api/matches/{match.pk}/actions/"

    assert (
        api_client.post(url, {"ply": state["ply"] + 1, "action": action}, format="json").status_code
        == 409
    )
    assert (
        api_client.post(
            url, {"ply": state["ply"], "action": {"type": "x"}}, format="json"
        ).status_code
        == 400
    )
    assert api_client.post(url, {"ply": "soon", "action": action}, format="json").status_code == 400
    assert api_client.post(url, {"action": action}, format="json").status_code == 400
    api_client.force_authenticate(other.user)
    forbidden = api_client.post(url, {"ply": state["ply"], "action": action}, format="json")
    assert forbidden.status_code == 403 and forbidden.json()["code"] == "not_your_seat"
    api_client.force_authenticate(None)
    assert api_client.post(
        url, {"ply": state["ply"], "action": action}, format="json"
    ).status_code in (401, 403)
    assert len(logged(match, source="player")) == 0

    api_client.force_authenticate(actor.user)
    ok = api_client.post(url, {"ply": state["ply"], "action": action}, format="json")
    assert ok.status_code == 201
    again = api_client.post(url, {"ply": state["ply"], "action": action}, format="json")
    assert again.status_code == 201 and again.json()["ply"] == ok.json()["ply"]
    assert len(logged(match, source="player")) == 1
    log = api_client.get(f"/api/matches/{match.pk}/log/").json()
    assert [row["ply"] for row in log] == list(range(len(log)))


def test_my_turns_lists_matches_waiting_for_me(api_client):
    match, alice, bob = _human_vs_human(api_client)
    actor = match.seats.get(index=match.to_act).player
    other = bob if actor == alice else alice
    api_client.force_authenticate(actor.user)
    assert [m["id"] for m in api_client.get("/api/me/turns/").json()] == [match.pk]
    api_client.force_authenticate(other.user)
    assert api_client.get("/api/me/turns/").json() == []


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_no_response_or_page_for_a_seat_depends_on_what_it_cannot_see(api_client, client, game):
    """Rewrite everything hidden from seat A (a determinized state): every API answer and
    page for A must stay byte-identical, so none can contain B's hidden cards."""
    match, alice, bob = _human_vs_human(api_client, game)
    match = _play_moves(match, [alice, bob], 12)  # so the log holds hidden draws too
    engine = get_engine(game)
    viewer = match.seats.get(index=0).player

    def views():
        api_client.force_authenticate(viewer.user)
        client.force_login(viewer.user)
        return [
            api_client.get(f"/api/matches/{match.pk}/state/").content,
            api_client.get(f"/api/matches/{match.pk}/log/").content,
            client.get(f"/matches/{match.pk}/").content,
            client.get(f"/matches/{match.pk}/live/").content,
        ]

    before = views()
    full = engine.from_json(match.state)
    assert engine.observation(full, 0) != engine.observation(full, 1)
    for seed in range(3):
        other = engine.determinize(full, 0, random.Random(seed))
        assert engine.to_json(other) != match.state, "the determinization must change hidden parts"
        Match.objects.filter(pk=match.pk).update(state=engine.to_json(other))
        after = views()
        assert [_without_csrf(x) for x in after] == [_without_csrf(x) for x in before]
    # the log (not derived from the state) shows the others' actions only as redacted
    api_client.force_authenticate(viewer.user)
    shown = api_client.get(f"/api/matches/{match.pk}/log/").json()
    raw = logged(match)
    assert [row["ply"] for row in shown] == [a.ply for a in raw]
    for row, a in zip(shown, raw, strict=True):
        expected = a.action if a.seat == 0 else engine.redact_action(a.action, a.seat, 0)
        assert row["action"] == expected
        if expected == a.action:
            assert row["label"] == a.label
        else:  # the redacted action described ("lay a chip"), never the real one's label
            assert row["label"] and row["label"] != a.label


def _without_csrf(content: bytes) -> bytes:
    # CSRF tokens are masked afresh on every response; nothing else may differ.
    content = re.sub(rb'name="csrfmiddlewaretoken" value="[^"]+"', b"", content)
    return re.sub(rb'"X-CSRFToken": "[^"]+"', b"", content)


def test_spectator_gets_no_legal_actions(api_client):
    match, *_ = _human_vs_human(api_client)
    state = api_client.get(f"/api/matches/{match.pk}/state/").json()
    assert state["seat"] is None and state["legal_actions"] == []
    assert state["observation"] == get_engine("silkroad").observation(
        get_engine("silkroad").from_json(match.state), None)  # fmt: skip


@pytest.mark.django_db(transaction=True)
@pytest.mark.celery_worker
def test_external_bot_program_plays_a_whole_match_over_http(live_server):
    player, token = services.create_external_bot(name="http-bot")
    opponent = EngineBotFactory(bot_name="random")
    with celery_worker():
        match = services.create_match(game="silkroad", players=[player, opponent], seed=17)
        bot = ApiBot(live_server.url, token, seed=1)
        final = bot.play(match.pk, timeout_s=240)
    assert final["status"] == MatchStatus.FINISHED
    assert bot.moves > 10
    assert len(logged(match, seat=0, source="player")) == bot.moves


def test_turns_stream_sends_an_event_when_a_decision_waits(api_client):
    match, alice, bob = _human_vs_human(api_client)
    actor = match.seats.get(index=match.to_act).player
    api_client.force_authenticate(actor.user)
    response = api_client.get("/api/me/turns/stream/", {"seconds": 1})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    body = b"".join(response.streaming_content).decode()
    event = next(block for block in body.split("\n\n") if block.startswith("event: turns"))
    data = json.loads(event.split("data: ", 1)[1])
    assert [m["id"] for m in data] == [match.pk]


def test_write_endpoints_are_rate_limited(api_client, settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "match_create": "2/min", "match_actions": "2/min"},
    }
    from django.core.cache import cache

    cache.clear()
    user = HumanPlayerFactory().user
    codes = [
        _create(api_client, user, [{"bot": "random"}, {"bot": "random"}]).status_code
        for _ in range(3)
    ]
    assert codes == [201, 201, 429]
    assert api_client.get("/api/matches/").status_code == 200  # reads are not limited


# ---- secret seeds: nothing of a running match rebuilds its hidden parts --------------
def _secrets_of(match: Match) -> list[str]:
    """The seed, the engine's random state (in every spelling it has) and the raw state."""
    rng = match.state["rng"]
    value = int(rng, 16) if isinstance(rng, str) else int(rng[0])
    assert value > 1000, "the generator state must be distinctive enough to search for"
    return [str(match.seed), str(value), format(value, "x"), format(value, "016x"),
            json.dumps(match.state), json.dumps(match.state, separators=(",", ":")), '"rng"']  # fmt: skip


def _everything_shown(api_client, client, match, humans, staff) -> list[str]:
    """Every API answer, page, fragment and stream event about `match`, to everyone."""
    from django.contrib.auth.models import AnonymousUser

    out = []
    for user in [AnonymousUser(), *(p.user for p in humans)]:
        api_client.force_authenticate(user if user.is_authenticated else None)
        client.logout()
        if user.is_authenticated:
            client.force_login(user)
        for url in ["/api/matches/", f"/api/matches/{match.pk}/", f"/api/matches/{match.pk}/state/",
                    f"/api/matches/{match.pk}/log/", f"/api/matches/?status={match.status}"]:  # fmt: skip
            out.append(api_client.get(url).content.decode())
        for url in ["/matches/", f"/matches/{match.pk}/", f"/matches/{match.pk}/live/",
                    f"/matches/{match.pk}/replay/", f"/matches/{match.pk}/replay/?ply=3"]:  # fmt: skip
            out.append(client.get(url, follow=True).content.decode())
        if user.is_authenticated:
            out.append(api_client.get("/api/me/turns/").content.decode())
            stream = api_client.get("/api/me/turns/stream/", {"seconds": 0.6})
            out.append(b"".join(stream.streaming_content).decode())
    client.force_login(staff)
    for url in ["/admin/games/match/", f"/admin/games/match/{match.pk}/change/"]:
        response = client.get(url)
        assert response.status_code == 200
        out.append(response.content.decode())
    return out


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_running_match_never_shows_seed_rng_or_state_and_finished_replay_shows_every_hand(
    api_client, client, game
):
    from django.contrib.auth.models import Permission

    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = services.create_match(game=game, players=[alice, bob])  # the server's seed
    match = _play_moves(match, [alice, bob], 10)
    assert match.status == MatchStatus.RUNNING
    staff = HumanPlayerFactory(user__is_staff=True).user
    staff.user_permissions.add(Permission.objects.get(codename="view_match"))
    shown = _everything_shown(api_client, client, match, [alice, bob], staff)
    assert any(f'"id":{match.pk}' in text for text in shown)
    for secret in _secrets_of(match):
        leaks = [text[:80] for text in shown if secret in text]
        assert not leaks, f"{secret[:40]!r} shown while the match runs"
    assert api_client.get(f"/api/matches/{match.pk}/").json()["seed"] is None
    # Secret choices (a chip laid face down) stay out of the admin's list of decisions as
    # well; a superuser sees them.
    from django.utils.html import escape

    engine = get_engine(game)
    client.force_login(staff)
    listing = client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    decisions = logged(match)
    assert escape(decisions[-1].label) in listing or not decisions[-1].label
    for a in decisions:
        if engine.redact_action(a.action, a.seat, None) != a.action:
            assert escape(a.label) not in listing
    superuser = HumanPlayerFactory(user__is_staff=True, user__is_superuser=True).user
    client.force_login(superuser)
    everything = client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert str(match.seed) in everything
    assert all(escape(a.label) in everything for a in decisions)

    match = _play_moves(match, [alice, bob], 5000)
    assert match.status == MatchStatus.FINISHED
    api_client.force_authenticate(None)
    assert api_client.get(f"/api/matches/{match.pk}/").json()["seed"] == match.seed
    log = api_client.get(f"/api/matches/{match.pk}/log/").json()
    raw = logged(match)
    assert [row["action"] for row in log] == [a.action for a in raw]  # nothing redacted
    # The replay shows every hand: each seat's own view of its private parts, at a mid ply.
    ply = 9
    state = engine.new_game(players=2, seed=match.seed, options=match.options)
    for a in list(raw)[:ply]:
        state = engine.apply(state, a.action)
    client.logout()
    response = client.get(f"/matches/{match.pk}/replay/", {"ply": ply})
    assert response.status_code == 200
    hands = response.context["hands"]
    for seat in range(2):
        own = engine.observation(state, seat)["players"][seat]
        public = engine.observation(state, None)["players"][seat]
        private = {k: v for k, v in own.items() if k not in public}
        assert private, "each engine keeps something of a seat's own hidden"
        assert hands[seat]["private"] == private
    page = response.content.decode()
    assert "Every hand" in page and f"<dt>{match.seats.get(index=0).player}</dt>" in page


def test_a_seed_may_be_chosen_only_for_unrated_matches(api_client):
    user = HumanPlayerFactory().user
    seats = [{"bot": "random"}, {"bot": "greedy"}]
    response = _create(api_client, user, seats, rated=True)
    assert response.status_code == 400
    assert response.json()["fields"]["seed"] == ["seed may be chosen only for unrated matches"]
    assert Match.objects.count() == 0
    unrated = _create(api_client, user, seats)
    assert unrated.status_code == 201 and Match.objects.get().seed == 4
    body = {"game": "silkroad", "seats": seats, "rated": True}
    rated = api_client.post("/api/matches/", body, format="json")
    assert rated.status_code == 201 and rated.json()["seed"] is None
