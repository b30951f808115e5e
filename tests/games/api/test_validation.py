"""Bad input to the match and player API: a 400 or 404 with a reason, never a 500."""

import json

import pytest
from django.core.exceptions import ValidationError

from games import services
from games.api.parsers import MAX_BODY_BYTES, MAX_DEPTH
from games.models import Match, Player
from games.time_limits import MAX_DECISION_S, MAX_INCREMENT_S
from tests.games.factories import EngineBotFactory, HumanPlayerFactory

pytestmark = pytest.mark.django_db


def _post_match(api_client, user, **extra):
    api_client.force_authenticate(user)
    body = {"game": "silkroad", "seed": 4, "seats": [{"bot": "random"}, {"bot": "greedy"}], **extra}
    return api_client.post("/api/matches/", body, format="json")


@pytest.mark.parametrize(
    "time_control",
    [
        {"per_move_s": 2**31},
        {"per_move_s": 10**14},
        {"per_move_s": MAX_DECISION_S + 1},
        {"initial_s": 2**31},
        {"initial_s": 60, "increment_s": MAX_INCREMENT_S + 1},
        {"initial_s": 60, "increment_s": 2**63},
    ],
)
def test_time_controls_beyond_the_maximum_are_refused(api_client, time_control):
    response = _post_match(api_client, HumanPlayerFactory().user, time_control=time_control)
    assert response.status_code == 400, response.content
    [field] = response.json()["fields"]
    assert field.startswith("time_control."), field  # the nested field's dotted path
    assert Match.objects.count() == 0


def test_the_maximum_time_control_is_accepted(api_client):
    response = _post_match(
        api_client, HumanPlayerFactory().user,
        time_control={"initial_s": MAX_DECISION_S, "increment_s": MAX_INCREMENT_S},
    )  # fmt: skip
    assert response.status_code == 201, response.content
    assert response.json()["time_control"] == {
        "initial_s": MAX_DECISION_S, "increment_s": MAX_INCREMENT_S,
    }  # fmt: skip


def test_the_service_bounds_time_controls_for_every_caller():
    with pytest.raises(ValidationError, match="at most"):
        services.create_match(game="silkroad", players=[EngineBotFactory(), EngineBotFactory()],
                              time_control={"per_move_s": 10**14})  # fmt: skip
    assert Match.objects.count() == 0


def _raw_post(api_client, url, body: str):
    return api_client.generic("POST", url, body, content_type="application/json")


def test_a_very_deep_json_body_is_a_400(api_client):
    api_client.force_authenticate(HumanPlayerFactory().user)
    body = "[" * 100_000 + "]" * 100_000
    response = _raw_post(api_client, "/api/matches/", body)
    assert response.status_code == 400
    assert "deeper" in response.json()["detail"] or "large" in response.json()["detail"]


def test_json_one_level_too_deep_is_a_400_and_the_limit_itself_passes_the_parser(api_client):
    api_client.force_authenticate(HumanPlayerFactory().user)
    too_deep = {"game": "silkroad", "options": {}}
    node = too_deep["options"]
    for _ in range(MAX_DEPTH):
        node["x"] = {}
        node = node["x"]
    response = _raw_post(api_client, "/api/matches/", json.dumps(too_deep))
    assert response.status_code == 400 and "deeper" in response.json()["detail"]
    shallow = _raw_post(api_client, "/api/matches/", json.dumps({"game": "silkroad"}))
    assert shallow.status_code == 400 and "seats" in shallow.json()["fields"]  # parsed, validated


def test_a_too_large_json_body_is_a_400(api_client):
    api_client.force_authenticate(HumanPlayerFactory().user)
    body = json.dumps({"game": "silkroad", "pad": "x" * MAX_BODY_BYTES})
    response = _raw_post(api_client, "/api/matches/", body)
    assert response.status_code == 400 and "larger" in response.json()["detail"]


@pytest.mark.parametrize(
    "extra",
    [
        {"options": {f"k{i}": i for i in range(100)}},
        {"options": {"x": "\x00"}},
        {"seats": [{"bot": "random", "params": {"depth\x00": 1}}, {"bot": "random"}]},
        {"seats": [{"bot": "random", "params": {"p": "y" * 20_000}}, {"bot": "random"}]},
        {"seats": [{"player": "\x00"}, {"bot": "random"}]},
        {"game": "\x00"},
        {"variant": 2**70},
        {"seats": [{"bot": "random"}] * 50},
    ],
)
def test_unbounded_or_nul_values_in_a_match_request_are_refused(api_client, extra):
    response = _post_match(api_client, HumanPlayerFactory().user, **extra)
    assert response.status_code == 400, response.content
    assert Match.objects.count() == 0


@pytest.mark.parametrize(
    "params", [{"depth": 1, "colour": "red"}, {"depth": 0}, {"samples": "many"}, {"depth": 1.5}]
)
def test_bot_parameters_the_bot_cannot_take_are_a_400(api_client, params):
    seats = [{"bot": "greedy", "params": params}, {"bot": "random"}]
    response = _post_match(api_client, HumanPlayerFactory().user, seats=seats)
    assert response.status_code == 400 and "params" in response.json()["fields"], response.content
    assert Match.objects.count() == 0 and not Player.objects.filter(kind="engine_bot").exists()


def test_bot_parameters_the_bot_takes_are_accepted(api_client):
    seats = [{"bot": "greedy", "params": {"depth": 2}}, {"bot": "random"}]
    response = _post_match(api_client, HumanPlayerFactory().user, seats=seats)
    assert response.status_code == 201, response.content


def _human_match():
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    # Seated by the platform (no creator): running at once, no invitations.
    match = services.create_match(game="silkroad", players=[alice, bob], seed=9)
    return match, alice


@pytest.mark.parametrize(
    "body",
    [
        {"ply": 0, "action": {"type": "x" * 20_000}},
        {"ply": 0, "action": {"type": "\x00"}},
        {"ply": 2**31, "action": {"type": "pass"}},
        {"ply": 10**30, "action": {}},
        {"ply": 0, "action": {str(i): i for i in range(100)}},
    ],
)
def test_actions_are_bounded(api_client, body):
    match, alice = _human_match()
    api_client.force_authenticate(alice.user)
    response = api_client.post(f"/api/matches/{match.pk}/actions/", body, format="json")
    assert response.status_code == 400, response.content
    match.refresh_from_db()
    assert match.ply == 0


@pytest.mark.parametrize(
    "url",
    [
        "/api/matches/?status=%00",
        "/api/matches/?game=%00",
        "/api/matches/?player=%00",
        "/api/matches/?status=nonsense",
        "/api/players/?kind=%00",
        "/api/players/?kind=robot",
    ],
)
def test_junk_in_query_filters_is_a_400(api_client, url):
    HumanPlayerFactory()
    response = api_client.get(url)
    assert response.status_code == 400, response.content


def test_valid_filters_still_filter(api_client):
    match, alice = _human_match()
    body = api_client.get(f"/api/matches/?status=running&game=silkroad&player={alice.name}").json()
    assert [m["id"] for m in body["results"]] == [match.pk]
    assert api_client.get("/api/matches/?status=finished").json()["results"] == []
    kinds = {p["kind"] for p in api_client.get("/api/players/?kind=human").json()["results"]}
    assert kinds == {"human"}


@pytest.mark.parametrize("seconds", ["abc", "-1", "nan", "inf", "-inf", "1e400", "1" * 40, "%00"])
def test_stream_seconds_must_be_a_number_of_seconds(api_client, seconds):
    api_client.force_authenticate(HumanPlayerFactory().user)
    response = api_client.get(f"/api/me/turns/stream/?seconds={seconds}")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid" and "seconds" in response.json()["fields"]


def test_stream_seconds_zero_ends_at_once(api_client):
    api_client.force_authenticate(HumanPlayerFactory().user)
    response = api_client.get("/api/me/turns/stream/?seconds=0")
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b"retry: 1000\n\n"


@pytest.mark.parametrize(
    "method,url",
    [
        ("post", "/api/matches/abc/abort/"),
        ("post", "/api/matches/abc/actions/"),
        ("get", "/api/matches/abc/"),
        ("get", "/api/matches/abc/state/"),
        ("get", "/api/matches/99999999999999999999999/"),
        ("post", "/api/matches/99999999999999999999999/abort/"),
        ("get", "/api/players/abc/"),
        ("get", "/api/tournaments/abc/"),
        ("get", "/api/tournaments/abc/standings/"),
        ("post", "/api/tournaments/1/tables/abc/result/"),
        ("post", "/api/tournaments/1/tables/99999999999999999999999/result/"),
    ],
)
def test_non_numeric_or_huge_ids_are_404(api_client, method, url):
    api_client.force_authenticate(HumanPlayerFactory().user)
    response = getattr(api_client, method)(url, {}, format="json")
    assert response.status_code == 404


def test_a_seat_parameter_that_is_not_a_small_number_is_a_400(api_client):
    match, alice = _human_match()
    api_client.force_authenticate(alice.user)
    for seat in ["abc", "9" * 30, "%00"]:
        assert api_client.get(f"/api/matches/{match.pk}/state/?seat={seat}").status_code == 400
    assert api_client.get(f"/api/matches/{match.pk}/state/?seat=0").status_code == 200


@pytest.mark.parametrize(
    "query",
    ["limit=99999999999999999999999", "offset=99999999999999999999999", "limit=-5&offset=-5",
     "limit=abc&offset=%00", "limit=1" + "0" * 5000],
)  # fmt: skip
def test_limit_and_offset_are_clamped(api_client, query):
    _human_match()
    for url in ("/api/matches/", "/api/players/", "/api/tournaments/"):
        response = api_client.get(f"{url}?{query}")
        assert response.status_code == 200, (url, response.content)


def test_limit_is_capped_and_offset_still_pages(api_client):
    for _ in range(3):
        _human_match()
    body = api_client.get("/api/players/?limit=99999999999999999999&offset=1").json()
    assert body["count"] == Player.objects.count() == 6
    assert len(body["results"]) == 5


def test_bot_registration_bounds_its_description(api_client):
    api_client.force_authenticate(HumanPlayerFactory().user)
    body = {"name": "probe", "description": "d" * 5000}
    assert api_client.post("/api/players/bots/", body, format="json").status_code == 400
    assert not Player.objects.filter(name="probe").exists()


# ---- options and bot parameters in the platform's words, in the request's language ------
# (body, field, English, Czech); the Czech reads the merged catalog (locale/cs/pending/
# msgs-engines.po until the lead merges it).
API_WORDED = [
    ({"options": {"board_side": "blank", "tile_mix": {"bazaar": 23}}}, "options",
     "Tile mix / bazaar: at most 22.", "Počty destiček akcí / bazar: nejvýše 22."),
    ({"options": {"board_side": "blank", "tile_mix": {"bazaar": -1}}}, "options",
     "Tile mix / bazaar: at least 0.", "Počty destiček akcí / bazar: alespoň 0."),
    ({"options": {"tile_mix": {"bazaar": "many"}}}, "options",
     "Tile mix / bazaar: must be a whole number.",
     "Počty destiček akcí / bazar: musí být celé číslo."),
    ({"options": {"board_side": "moon"}}, "options",
     "Board side: choose one of “printed action fields”, “blank: the tiles of the tile mix "
     "shuffled”.",
     "Strana herního plánu: zvolte jednu z možností „předtištěná pole akcí“, „prázdná pole "
     "akcí: zamíchané destičky akcí“."),
    ({"options": {"start_cities": {"1": {"start": "tashkent"}, "2": {}, "3": {}}}}, "options",
     "Start cities / 1-camel caravan / target: missing.",
     "Výchozí a cílová města / jednočlenná karavana / cílové město: chybí."),
    ({"options": {"colour": "red"}}, "options", "Options: unknown setting “colour”.",
     "Volby: neznámé nastavení „colour“."),
    ({"options": {"board_side": "blank", "tile_mix": {"bazaar": 5}}}, "options",
     "Tile mix: the numbers must add up to 22, not 5.",
     "Počty destiček akcí: součet musí být 22, ne 5."),
    ({"seats": [{"bot": "greedy", "params": {"depth": 5}}, {"bot": "random"}]}, "params",
     "Greedy bot / look-ahead depth: at most 4.", "Hladový bot / hloubka propočtu: nejvýše 4."),
    ({"seats": [{"bot": "greedy", "params": {"depth": 0}}, {"bot": "random"}]}, "params",
     "Greedy bot / look-ahead depth: at least 1.", "Hladový bot / hloubka propočtu: alespoň 1."),
    ({"seats": [{"bot": "greedy", "params": {"samples": "many"}}, {"bot": "random"}]}, "params",
     "Greedy bot / sampled deals: must be a whole number.",
     "Hladový bot / počet vzorků skrytých karet: musí být celé číslo."),
    ({"seats": [{"bot": "greedy", "params": {"colour": "red"}}, {"bot": "random"}]}, "params",
     "Greedy bot: unknown setting “colour”.", "Hladový bot: neznámé nastavení „colour“."),
]  # fmt: skip


@pytest.mark.parametrize(("extra", "field", "english", "czech"), API_WORDED)
@pytest.mark.parametrize("language", ["en", "cs"])
def test_option_and_bot_parameter_errors_are_a_400_in_the_requests_language(
    api_client, extra, field, english, czech, language
):
    api_client.force_authenticate(HumanPlayerFactory().user)
    body = {"game": "silkroad", "seed": 4, "seats": [{"bot": "random"}, {"bot": "greedy"}]}
    response = api_client.post(
        "/api/matches/", {**body, **extra}, format="json", HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 400, response.content
    assert response.json()["fields"][field] == [english if language == "en" else czech]
    assert Match.objects.count() == 0


@pytest.mark.parametrize(
    ("extra", "path"),
    [
        ({"colour": "red"}, "colour"),  # top level
        ({"time_control": {"per_move_s": 5, "bogus": 1}}, "time_control.bogus"),  # nested
        ({"seats": [{"bot": "random"}, {"bot": "greedy", "level": 3}]}, "seats.1.level"),
    ],
)
def test_unknown_fields_of_a_match_request_are_refused_by_name(api_client, extra, path):
    response = _post_match(api_client, HumanPlayerFactory().user, **extra)
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "unknown_field" and body["fields"] == {path: ["Unknown field."]}
    assert path in body["detail"]
    assert Match.objects.count() == 0


def test_unknown_fields_are_named_with_the_other_errors(api_client):
    response = _post_match(api_client, HumanPlayerFactory().user, seed=-1, colour="red")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"  # two kinds of error
    assert set(response.json()["fields"]) == {"seed", "colour"}


def test_a_match_request_with_only_known_fields_still_works(api_client):
    response = _post_match(api_client, HumanPlayerFactory().user,
                           time_control={"per_move_s": 5}, timeout_policy="auto")  # fmt: skip
    assert response.status_code == 201, response.content
    assert response.json()["time_control"] == {"per_move_s": 5}


def test_an_unknown_field_of_an_action_is_refused(api_client):
    match, alice = _human_match()
    api_client.force_authenticate(alice.user)
    response = api_client.post(f"/api/matches/{match.pk}/actions/",
                               {"ply": 0, "action": {}, "plie": 1}, format="json")  # fmt: skip
    assert response.status_code == 400 and response.json()["fields"] == {"plie": ["Unknown field."]}
    match.refresh_from_db()
    assert match.ply == 0
