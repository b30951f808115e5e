"""Built-in bot parameters: a schema with bounds per bot; one copy of each bot decision."""

import pytest
from django.core.exceptions import ValidationError

from games import services, tasks
from games.engines.base import InvalidOptions
from games.engines.registry import ENGINES
from games.models import Match, Player
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, logged

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_engine_gives_a_bounded_schema_per_bot(game):
    engine = ENGINES[game]
    assert engine.bot_param_schema("random") == {
        "type": "object", "title": "Random bot", "properties": {},
        "additionalProperties": False}  # fmt: skip
    greedy = engine.bot_param_schema("greedy")
    assert greedy["additionalProperties"] is False and "seed" not in greedy["properties"]
    ismcts = engine.bot_param_schema("ismcts")["properties"]
    assert (ismcts["iterations"]["minimum"], ismcts["iterations"]["maximum"]) == (1, 10000)
    assert ismcts["rollout_depth"]["maximum"] == 40 and ismcts["rollout_candidates"]["maximum"] == 4
    assert (ismcts["time_s"]["minimum"], ismcts["time_s"]["maximum"]) == (0.01, 5.0)
    assert engine.bot_param_schema("ismcts", max_time_s=2)["properties"]["time_s"]["maximum"] == 2
    for name, defaults in engine.bot_defaults.items():  # per-engine defaults, and valid ones
        props = engine.bot_param_schema(name)["properties"]
        assert {k: props[k]["default"] for k in defaults} == defaults
        engine.check_bot_params(name, defaults)
    for name, params in [("random", {"bench": 1}), ("ismcts", {"time_s": 50}),
                         ("ismcts", {"iterations": -1}), ("ismcts", {"zzz": 1}),
                         ("ismcts", {"iterations": 10001}),
                         ("ismcts", {"rollout_depth": 41}), ("ismcts", {"rollout_candidates": 5}), ("greedy", {"depth": 99}),
                         ("ismcts", {"time_s": 0})]:  # fmt: skip
        with pytest.raises(InvalidOptions):
            engine.check_bot_params(name, params)
    engine.check_bot_params("ismcts", {"iterations": 10000, "time_s": 5})


@pytest.mark.parametrize(
    ("params", "message"),
    [({"time_s": 50}, "Search bot / seconds per decision: at most 5."),
     ({"zzz": 1}, "Search bot: unknown setting “zzz”."),
     ({"iterations": -1}, "Search bot / iterations: at least 1.")],
)  # fmt: skip
def test_bad_bot_parameters_are_a_400_at_match_creation(api_client, params, message):
    api_client.force_authenticate(HumanPlayerFactory().user)
    body = {"game": "silkroad", "seats": [{"bot": "ismcts", "params": params}, {"bot": "random"}]}
    response = api_client.post("/api/matches/", body, format="json")
    assert response.status_code == 400
    assert message in str(response.json())
    assert not Match.objects.exists() and not Player.objects.filter(bot_name="ismcts").exists()


def test_thinking_time_never_above_the_matchs_limit(api_client):
    api_client.force_authenticate(HumanPlayerFactory().user)
    seats = [{"bot": "ismcts", "params": {"time_s": 2}}, {"bot": "random"}]
    body = {"game": "silkroad", "seats": seats, "time_control": {"per_move_s": 1}}
    response = api_client.post("/api/matches/", body, format="json")
    assert response.status_code == 400 and "Search bot / seconds per decision: at most 1." in str(
        response.json()
    )
    body["time_control"] = {"per_move_s": 3}
    assert api_client.post("/api/matches/", body, format="json").status_code == 201


def test_engine_bot_players_are_checked_when_made_and_when_seated():
    with pytest.raises(ValidationError) as exc:
        services.create_engine_bot(name="slowpoke", bot_name="ismcts", params={"time_s": 50})
    assert "params" in exc.value.message_dict
    with pytest.raises(ValidationError):
        services.builtin_bot_player(bot_name="random", params={"bench": 1})
    assert not Player.objects.exists()
    legacy = EngineBotFactory(
        bot_name="ismcts", bot_params={"iterations": -1}
    )  # made before the check
    with pytest.raises(ValidationError) as exc:
        services.create_match(game="silkroad", players=[legacy, EngineBotFactory()])
    assert "Search bot / iterations: at least 1." in str(exc.value)


def test_a_second_bot_task_for_a_decision_being_computed_does_nothing():
    match = services.create_match(game="silkroad", players=[EngineBotFactory(), EngineBotFactory()])
    ply = match.ply
    assert services.take_bot_lease(match.pk, ply)  # a first copy is thinking
    assert not services.take_bot_lease(match.pk, ply)
    tasks.play_bot_matches([[match.pk, ply]])
    match.refresh_from_db()
    assert match.ply == ply and not logged(match, source="bot")
    _, stalled = services.overdue_matches(stalled_s=-1)
    assert (match.pk, ply) not in stalled  # the sweep leaves it to the first copy
    services.release_bot_lease(match.pk, ply)
    _, stalled = services.overdue_matches(stalled_s=-1)
    assert (match.pk, ply) in stalled
    tasks.play_bot_matches([[match.pk, ply]])
    match.refresh_from_db()
    assert match.ply > ply and logged(match, source="bot")
    # The played turn's lease is left to expire (it guards a ply the match has left);
    # the turn the match is at now is free.
    assert not services.take_bot_lease(match.pk, ply)
    assert services.take_bot_lease(match.pk, match.ply)
