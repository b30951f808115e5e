"""The results API: PUT corrects, the history, reports and their confirmation."""

import pytest

from ratings.models import Rating
from tests.games.factories import UserFactory
from tests.tournaments.result_fixtures import apply_ratings, club_event, first_table
from tournaments.models import ResultChange, ResultReport

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    t, _players = club_event()
    table, seated = first_table(t)
    base = f"/api/tournaments/{t.pk}/tables/{table.pk}"
    return t, table, seated, base


def test_put_corrects_and_the_history_lists_both(api_client, event):
    t, table, seated, base = event
    api_client.force_authenticate(t.organiser)
    posted = api_client.post(f"{base}/result/", {"scores": [30, 10], "tiebreak": [1, 2]},
                             format="json")  # fmt: skip
    assert posted.status_code == 201 and posted.json()["result"]["ranks"] == [1, 2]
    again = api_client.post(f"{base}/result/", {"scores": [10, 30], "tiebreak": [1, 2]},
                            format="json")  # fmt: skip
    assert again.status_code == 409 and "PUT" in again.json()["detail"]
    apply_ratings(t)
    elo_before = dict(Rating.objects.filter(system="elo").values_list("player_id", "value"))
    put = api_client.put(f"{base}/result/", {"scores": [10, 30], "tiebreak": [1, 2]}, format="json")
    assert put.status_code == 200, put.content
    assert put.json() == {
        "table": table.pk,
        "result": {"ranks": [2, 1], "scores": [10, 30], "tiebreak": [1, 2],
                   "forfeited": [False, False]},
    }  # fmt: skip
    elo_after = dict(Rating.objects.filter(system="elo").values_list("player_id", "value"))
    assert elo_after != elo_before
    history = api_client.get(f"{base}/result/history/")
    assert history.status_code == 200
    rows = history.json()
    assert [r["kind"] for r in rows] == ["entered", "corrected"]
    assert rows[1]["by"] == t.organiser.username
    assert rows[1]["before"]["scores"] == [30, 10] and rows[1]["after"]["scores"] == [10, 30]
    standings = api_client.get(f"/api/tournaments/{t.pk}/standings/").json()
    winner = next(r for r in standings if r["entry"] == table.seats.get(index=1).entry_id)
    assert winner["points"] == 1


@pytest.mark.parametrize(
    "body",
    [
        {"scores": [-50, 3], "tiebreak": [1, 2]},
        {"scores": [1e300, 3], "tiebreak": [1, 2]},
        {"scores": [0.5, 3], "tiebreak": [1, 2]},
        {"scores": [201, 3], "tiebreak": [1, 2]},
        {"scores": [5, 3]},
        {"scores": [5, 3], "tiebreak": [4, 4]},
        {"scores": [5, 3], "tiebreak": [1, 2], "ranks": [2, 1]},
        {"scores": "many"},
        {},
    ],
)
@pytest.mark.parametrize("method", ["post", "put"])
def test_bad_results_are_400s_and_change_nothing(api_client, event, body, method):
    t, table, _seated, base = event
    api_client.force_authenticate(t.organiser)
    response = getattr(api_client, method)(f"{base}/result/", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()  # says what is wrong
    table.refresh_from_db()
    assert table.result is None and not ResultChange.objects.exists()


def test_a_correction_out_of_bounds_keeps_the_old_result(api_client, event):
    t, table, _seated, base = event
    api_client.force_authenticate(t.organiser)
    api_client.put(f"{base}/result/", {"scores": [30, 10], "tiebreak": [1, 2]}, format="json")
    bad = api_client.put(
        f"{base}/result/", {"scores": [0.5, 10], "tiebreak": [1, 2]}, format="json"
    )
    assert bad.status_code == 400
    assert "whole numbers from 0 to 200" in bad.json()["fields"]["scores"][0]
    table.refresh_from_db()
    assert table.result["scores"] == [30, 10] and ResultChange.objects.count() == 1


def test_only_the_organiser_corrects(api_client, event):
    t, table, seated, base = event
    for user in (seated[0], UserFactory()):
        api_client.force_authenticate(user)
        body = {"scores": [30, 10], "tiebreak": [1, 2]}
        assert api_client.put(f"{base}/result/", body, format="json").status_code == 403
        assert api_client.post(f"{base}/result/", body, format="json").status_code == 403
    api_client.force_authenticate(None)
    assert api_client.put(f"{base}/result/", {}, format="json").status_code in (401, 403)
    table.refresh_from_db()
    assert table.result is None


def test_a_player_reports_and_the_other_confirms(api_client, event):
    t, table, seated, base = event
    api_client.force_authenticate(UserFactory())
    body = {"scores": [12, 20], "tiebreak": [5, 4]}
    assert api_client.post(f"{base}/report/", body, format="json").status_code == 403
    api_client.force_authenticate(seated[0])
    bad = api_client.post(
        f"{base}/report/", {"scores": [-1, 20], "tiebreak": [5, 4]}, format="json"
    )
    assert bad.status_code == 400 and not ResultReport.objects.exists()
    made = api_client.post(f"{base}/report/", body, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["status"] == "pending" and made.json()["ranks"] == [2, 1]
    own = api_client.post(f"{base}/report/confirm/", {}, format="json")
    assert own.status_code == 400 and "already agreed" in str(own.json())
    api_client.force_authenticate(UserFactory())
    assert api_client.post(f"{base}/report/confirm/", {}, format="json").status_code == 403
    api_client.force_authenticate(seated[1])
    confirmed = api_client.post(f"{base}/report/confirm/", {}, format="json")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"
    table.refresh_from_db()
    assert table.result["ranks"] == [2, 1]
    none_left = api_client.post(f"{base}/report/confirm/", {}, format="json")
    assert none_left.status_code == 400
    history = api_client.get(f"{base}/result/history/").json()
    assert history[0]["kind"] == "reported"
    assert history[0]["by"] == seated[0].username
    assert history[0]["confirmed_by"] == seated[1].username


def test_the_organiser_rejects_a_report(api_client, event):
    t, table, seated, base = event
    api_client.force_authenticate(seated[0])
    made = api_client.post(
        f"{base}/report/", {"scores": [12, 20], "tiebreak": [5, 4]}, format="json"
    )
    api_client.force_authenticate(t.organiser)
    rejected = api_client.post(f"{base}/report/confirm/",
                               {"report": made.json()["id"], "reject": True}, format="json")  # fmt: skip
    assert rejected.status_code == 200 and rejected.json()["status"] == "rejected"
    table.refresh_from_db()
    assert table.result is None


def test_the_schema_lists_the_new_operations(api_client):
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    result = paths["/api/tournaments/{id}/tables/{table_id}/result/"]
    assert {"post", "put"} <= set(result)
    assert "get" in paths["/api/tournaments/{id}/tables/{table_id}/result/history/"]
    assert "post" in paths["/api/tournaments/{id}/tables/{table_id}/report/"]
    assert "post" in paths["/api/tournaments/{id}/tables/{table_id}/report/confirm/"]
