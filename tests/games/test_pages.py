import re

import pytest

pytestmark = pytest.mark.django_db


def test_home_page_lists_games_and_serves_local_htmx(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Silk Road" in html
    assert "/static/django_htmx/htmx" in html
    # Every script and style is our own file: no address on another host (the page's text
    # is not searched for "cdn": the random CSRF token in it may spell it).
    sources = re.findall(r'(?:src|href)="([^"]*)"', html)
    assert sources and not [s for s in sources if s.startswith(("http:", "https:", "//"))]


def test_openapi_schema_and_docs(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"openapi: 3" in schema.content
    assert b"/api/players/" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"cdn" not in docs.content.lower()


def test_games_api_lists_registered_engines(api_client):
    games = api_client.get("/api/games/").json()
    silk = next(g for g in games if g["slug"] == "silkroad")
    assert silk["min_players"] == 2 and silk["max_players"] == 5
    assert {"random", "greedy", "ismcts"} <= set(silk["bots"])
    assert silk["option_schema"]["type"] == "object"
