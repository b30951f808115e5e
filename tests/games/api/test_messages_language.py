"""Refusals reach an API client (and a page) in the request's language: the player count
and unknown bots (the engines' catalog), seeds, JSON bounds, and the match errors
(`{"code", "detail"}`). The Czech reads the merged catalogs (locale/cs/pending/ui.po and
ui-engines.po until the lead merges them)."""

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from games import services
from tests.games.factories import EngineBotFactory, HumanPlayerFactory

pytestmark = pytest.mark.django_db

CZECH = {"HTTP_ACCEPT_LANGUAGE": "cs"}


def _create(api_client, user, body: dict, **headers):
    api_client.force_authenticate(user)
    return api_client.post("/api/matches/", body, format="json", **headers)


@pytest.mark.parametrize(
    ("body", "field", "english", "czech"),
    [
        ({"game": "yspahan", "seats": [{"bot": "random"}] * 5}, "options",
         "Yspahan takes 2-4 players, not 5", "Yspahan se hraje ve 2 až 4 hráčích, ne v 5"),
        ({"game": "silkroad", "seats": [{"bot": "random"}]}, "options",
         "Silk Road takes 2-5 players, not 1", "Hedvábná stezka se hraje ve 2 až 5 hráčích, ne v 1"),
        ({"game": "greatwall", "seed": 3, "rated": True, "seats": [{"bot": "random"}] * 2}, "seed",
         "seed may be chosen only for unrated matches",
         "seed lze zvolit jen u nehodnocených partií"),
        ({"game": "greatwall", "seats": [{"bot": "random"}] * 2, "options": {"x": "\x00"}},
         "options", "Null characters are not allowed.", "Znaky NUL nejsou povoleny."),
        ({"game": "greatwall", "seats": [{"bot": "random", "player": "x"}, {"bot": "random"}]},
         "seats", "Give exactly one of 'player', 'bot' or 'open': true.",
         "Zadejte právě jedno z 'player', 'bot' nebo 'open': true."),
    ],
)  # fmt: skip
def test_match_creation_refusals_in_the_readers_language(api_client, body, field, english, czech):
    user = HumanPlayerFactory().user
    for headers, expected in (({}, english), (CZECH, czech)):
        response = _create(api_client, user, body, **headers)
        assert response.status_code == 400, response.content
        fields = response.json()["fields"]  # keyed by dotted path: "seats.0" is seat 0
        messages = [m for path, ms in fields.items() if path.split(".")[0] == field for m in ms]
        assert expected in str(messages), response.json()


def test_an_unknown_bot_is_named_in_the_readers_language(api_client):
    user = HumanPlayerFactory().user
    body = {"game": "silkroad", "seats": [{"bot": "clever"}, {"bot": "random"}]}
    response = _create(api_client, user, body, **CZECH)
    assert response.status_code == 400
    assert "není platnou možností" in str(response.json())  # DRF's own Czech
    # A bot player whose engine has no such bot, and a new bot player of no known bot.
    stray = EngineBotFactory(bot_name="clever")
    with translation.override("cs"), pytest.raises(ValidationError) as raised:
        services.create_match(game="silkroad", players=[stray, EngineBotFactory()])
    assert raised.value.message_dict["seats"] == ["Hedvábná stezka nemá bota 'clever'."]
    with translation.override("cs"), pytest.raises(ValidationError) as raised:
        services.create_engine_bot(name="chytrak", bot_name="clever")
    assert raised.value.message_dict["bot_name"] == ["Vestavěný bot 'clever' neexistuje."]


def test_an_unknown_bot_in_the_engines_words():
    from games.engines.base import InvalidOptions
    from games.engines.i18n import reset_language
    from games.engines.registry import get_engine
    from games.i18n import activate_engine_language

    engine = get_engine("yspahan")
    token = activate_engine_language("cs")
    try:
        with pytest.raises(InvalidOptions) as raised:
            engine.check_bot_params("clever", {})
        with pytest.raises(InvalidOptions) as count:
            engine.ranks_from_result([3])
    finally:
        reset_language(token)
    assert str(raised.value) == "neznámý bot 'clever'; známí boti: random, greedy, ismcts"
    assert str(count.value) == "Yspahan se hraje ve 2 až 4 hráčích"


def test_match_errors_in_the_readers_language(api_client):
    creator, other = HumanPlayerFactory(), HumanPlayerFactory()
    match = services.create_match(game="silkroad", players=[creator, EngineBotFactory()],
                                  created_by=creator.user, consented=True)  # fmt: skip
    api_client.force_authenticate(other.user)
    abort = api_client.post(f"/api/matches/{match.pk}/abort/", **CZECH)
    assert abort.status_code == 403
    assert abort.json() == {
        "code": "not_your_seat",
        "detail": "partii může přerušit jen ten, kdo ji založil, hráč, který v ní sedí, "
        "nebo správce partií",
    }
    api_client.force_authenticate(creator.user)
    stale = api_client.post(f"/api/matches/{match.pk}/actions/",
                            {"ply": match.ply + 5, "action": {}}, format="json", **CZECH)  # fmt: skip
    assert stale.status_code == 409
    assert stale.json()["detail"] == f"partie je u tahu {match.ply}, ne {match.ply + 5}"
    broken = api_client.post("/api/matches/", "{nope", content_type="application/json", **CZECH)
    assert broken.status_code == 400
    assert broken.json()["detail"].startswith("Chyba při čtení JSON – ")
    kind = api_client.get("/api/players/?kind=robot", **CZECH)
    assert kind.status_code == 400
    assert kind.json()["fields"]["kind"] == [
        "Použijte jednu z hodnot human, engine_bot, external_bot, guest."
    ]
