import pytest

from games import services as game_services
from ratings import services
from tests.games.factories import ExternalBotFactory, HumanPlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated():
    # A bot program: rated like a person (a built-in bot would not be, see test_builtin_bots).
    human, bot = HumanPlayerFactory(), ExternalBotFactory()
    for ranks in ([1, 2], [2, 1], [1, 2]):
        m = game_services.record_offline_match(game="silkroad", players=[human, bot], ranks=ranks)
        services.on_match_finished(match_id=m.pk)
    return human, bot


def test_leaderboard_api_and_filters(api_client, rated):
    human, bot = rated
    rows = api_client.get("/api/ratings/silkroad/", {"kind": "all"}).json()
    assert [r["player"] for r in rows] == [human.name, bot.name]
    assert [r["player"] for r in api_client.get("/api/ratings/silkroad/").json()] == [human.name]
    assert [
        r["player"] for r in api_client.get("/api/ratings/silkroad/", {"kind": "bots"}).json()
    ] == [bot.name]
    os_rows = api_client.get(
        "/api/ratings/silkroad/", {"system": "openskill", "kind": "all"}
    ).json()
    assert len(os_rows) == 2
    assert api_client.get("/api/ratings/chess/").status_code == 404


def test_player_ratings_api(api_client, rated):
    human, _ = rated
    body = api_client.get(f"/api/players/{human.pk}/ratings/").json()
    elo_row = next(r for r in body if r["system"] == "elo")
    assert elo_row["games"] == 3 and len(elo_row["history"]) == 3
    assert elo_row["history"][-1]["after"] == elo_row["rating"]


def test_leaderboard_and_player_pages(client, rated):
    human, _ = rated
    page = client.get("/ratings/silkroad/")
    assert page.status_code == 200 and human.name.encode() in page.content
    rows = client.get("/ratings/silkroad/rows/")
    assert rows.status_code == 200
    assert client.get("/ratings/silkroad/rows/", HTTP_IF_NONE_MATCH=rows["ETag"]).status_code == 304
    player = client.get(f"/players/{human.name}/")
    assert player.status_code == 200 and b"<polyline" in player.content
