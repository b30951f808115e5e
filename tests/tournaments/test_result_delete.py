"""Deleting a result typed on the wrong table (results.clear_result): the service, the page
(asked first) and the API's DELETE."""

import pytest
from django.contrib.messages import get_messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from games.models import Match, MatchStatus
from ratings import services as rating_services
from ratings.models import AppliedMatch, Rating, RatingPool
from tests.games.factories import UserFactory
from tests.tournaments.result_fixtures import (
    apply_ratings,
    club_event,
    first_table,
    next_round,
    tables_of,
)
from tournaments import selectors, services
from tournaments.models import (
    ReportStatus,
    ResultChange,
    ResultReport,
    RoundStatus,
    Table,
    TableStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.services import results

pytestmark = pytest.mark.django_db

WIN = {"scores": [30, 10], "tiebreak": [1, 2]}


def _points(t) -> dict[str, float]:
    t.refresh_from_db()
    return {row["player"]: row["points"] for row in selectors.standings(t)}


def _enter_all(t, number=1):
    for table in tables_of(t, number):
        results.set_result(table=table, by=t.organiser, **WIN)


def _state(t, table) -> tuple:
    """Everything a refused deletion must leave alone."""
    table.refresh_from_db()
    t.refresh_from_db()
    return (table.status, table.result, table.match_id, t.status, t.results_version,
            list(t.rounds.values_list("status", flat=True)),
            ResultChange.objects.filter(table=table).count(), Match.objects.count())  # fmt: skip


@pytest.fixture
def finished_round():
    """A Swiss of four, round 1 typed in (so finished); round 2 not paired yet."""
    t, _players = club_event(n=4, rounds=3)
    _enter_all(t)
    table, seated = first_table(t)
    table.refresh_from_db()
    return t, table, seated


# ---- the service ---------------------------------------------------------------------------
def test_deleting_puts_the_table_back_to_playing_and_the_standings_follow(finished_round):
    t, table, _seated = finished_round
    names = [s.entry.player.name for s in table.seats.select_related("entry__player")
             .order_by("index")]  # fmt: skip
    assert _points(t)[names[0]] == 1
    assert t.rounds.get(number=1).status == RoundStatus.FINISHED
    old, match_id = table.result, table.match_id
    version = Tournament.objects.get(pk=t.pk).results_version
    # A report waiting at the table (left from before) is superseded with the result.
    waiting = ResultReport.objects.create(table=table, reported_by=t.organiser, scores=[1, 2],
                                          ranks=[2, 1], confirmed_entries=[])  # fmt: skip

    cleared = results.clear_result(table=table, by=t.organiser)

    assert cleared.status == TableStatus.PLAYING and cleared.result is None
    table.refresh_from_db()
    assert (table.status, table.result, table.finished_at, table.match_id) == (
        TableStatus.PLAYING, None, None, None
    )  # fmt: skip
    assert not Match.objects.filter(pk=match_id).exists()  # gone from the players' histories
    rnd = t.rounds.get(number=1)
    assert rnd.status == RoundStatus.RUNNING and rnd.finished_at is None
    points = _points(t)
    assert points[names[0]] == 0 and points[names[1]] == 0
    assert t.results_version > version
    log = list(ResultChange.objects.filter(table=table))
    assert [c.kind for c in log] == ["entered", "cleared"]
    assert log[1].before == old and log[1].after == {} and log[1].changed_by == t.organiser
    waiting.refresh_from_db()
    assert waiting.status == ReportStatus.SUPERSEDED
    # The right result goes in as a first entry again, and the round finishes again.
    _table, changed = results.set_result(table=table, scores=[10, 30], tiebreak=[1, 2],
                                         by=t.organiser)  # fmt: skip
    assert changed and t.rounds.get(number=1).status == RoundStatus.FINISHED
    assert _points(t)[names[1]] == 1 and _points(t)[names[0]] == 0
    assert [c.kind for c in ResultChange.objects.filter(table=table)] == [
        "entered", "cleared", "entered"
    ]  # fmt: skip


def _ratings() -> dict:
    return {
        (r.pool_id, r.player_id, r.system): (round(r.value, 9), r.games)
        for r in Rating.objects.all()
    }


def test_a_rated_result_leaves_the_ratings_as_a_recompute_without_it(finished_round):
    t, table, _seated = finished_round
    assert t.rated and table.match.rated
    apply_ratings(t)
    before = _ratings()
    seated = list(table.seats.values_list("entry__player_id", flat=True))
    results.clear_result(table=table, by=t.organiser)
    after = _ratings()
    assert after != before
    # The two players' only game is gone: like a recompute, they have no rating rows.
    assert not Rating.objects.filter(player_id__in=seated).exists()
    finished = Match.objects.filter(rated=True, status=MatchStatus.FINISHED).count()
    assert AppliedMatch.objects.count() == finished == 1
    for pool in RatingPool.objects.all():
        rating_services.recompute(pool=pool)
    assert _ratings() == after


def test_deleting_the_last_result_of_a_finished_tournament_runs_it_again():
    t, _players = club_event(n=2, format="league")
    _enter_all(t)
    assert services.pair_next_round(tournament=t) is None  # no round left: finished
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    table = tables_of(t, 1)[0]
    results.clear_result(table=table, by=t.organiser)
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING and t.finished_at is None
    assert t.rounds.get().status == RoundStatus.RUNNING
    _enter_all(t)
    assert services.pair_next_round(tournament=t) is None
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED


def test_refused_once_a_later_round_is_paired(finished_round):
    t, table, _seated = finished_round
    services.pair_next_round(tournament=t)
    state = _state(t, table)
    with pytest.raises(ValidationError, match="Round 2 is already paired from this result; "
                                              "correct it instead."):  # fmt: skip
        results.clear_result(table=table, by=t.organiser)
    assert _state(t, table) == state


def test_refused_for_others_and_for_a_table_without_a_result(finished_round):
    t, table, seated = finished_round
    state = _state(t, table)
    for user in (seated[0], UserFactory()):
        with pytest.raises(PermissionDenied):
            results.clear_result(table=table, by=user)
    assert _state(t, table) == state
    other, _ = club_event()
    playing = tables_of(other, 1)[0]
    state = _state(other, playing)
    with pytest.raises(ValidationError, match="no result to delete"):
        results.clear_result(table=playing, by=other.organiser)
    assert _state(other, playing) == state


def test_refused_for_an_online_table():
    t, _ = club_event()
    table = tables_of(t, 1)[0]
    results.set_result(table=table, by=t.organiser, **WIN)
    Tournament.objects.filter(pk=t.pk).update(over_the_board=False)
    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    with pytest.raises(ValidationError, match="online match"):
        results.clear_result(table=table, by=t.organiser)
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED


# ---- the page ------------------------------------------------------------------------------
def test_the_page_asks_then_deletes_and_the_log_shows_it(client, finished_round):
    t, table, _seated = finished_round
    names = [str(s.entry.player) for s in table.seats.select_related("entry__player")
             .order_by("index")]  # fmt: skip
    url = reverse("table-result-delete", args=[t.pk, table.pk])
    detail_url = reverse("table-detail", args=[t.pk, table.pk])
    client.force_login(t.organiser)
    page = client.get(detail_url).content.decode()
    assert f'class="button danger" id="delete-result" href="{url}"' in page
    asked = client.get(url)
    text = asked.content.decode()
    assert asked.status_code == 200 and 'id="confirm"' in text
    assert f"The result of Table 1 is deleted: {names[0]} 30 (1.), {names[1]} 10 (2.)." in text
    assert "Round 1 is running again until then." in text
    assert "ratings are recomputed" in text
    assert f'href="{detail_url}"' in text  # back to the table
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED  # asking changed nothing
    done = client.post(url)
    assert done.status_code == 302 and done["Location"] == detail_url
    assert [str(m) for m in get_messages(done.wsgi_request)] == ["Result of Table 1 deleted."]
    table.refresh_from_db()
    assert table.status == TableStatus.PLAYING and table.result is None
    page = client.get(detail_url).content.decode()
    log = page.split('id="result-log"')[1]
    assert "Result deleted" in log
    assert f"before: {names[0]} 30 (1.), {names[1]} 10 (2.)" in log and "after: –" in log
    assert 'id="delete-result"' not in page and "Record result" in page


def test_the_page_refuses_others_and_a_later_round(client, finished_round):
    t, table, seated = finished_round
    url = reverse("table-result-delete", args=[t.pk, table.pk])
    detail_url = reverse("table-detail", args=[t.pk, table.pk])
    state = _state(t, table)
    for user in (seated[0], UserFactory()):
        client.force_login(user)
        assert 'id="delete-result"' not in client.get(detail_url).content.decode()
        assert client.get(url).status_code == 403
        assert client.post(url).status_code == 403
    assert _state(t, table) == state
    services.pair_next_round(tournament=t)
    state = _state(t, table)
    client.force_login(t.organiser)
    assert 'id="delete-result"' not in client.get(detail_url).content.decode()
    refused = client.post(url)
    assert refused.status_code == 302
    assert [str(m) for m in get_messages(refused.wsgi_request)] == [
        "Round 2 is already paired from this result; correct it instead."
    ]
    assert _state(t, table) == state


def test_no_delete_link_before_a_result(client):
    t, _ = club_event()
    table = tables_of(t, 1)[0]
    client.force_login(t.organiser)
    page = client.get(reverse("table-detail", args=[t.pk, table.pk])).content.decode()
    assert 'id="delete-result"' not in page
    posted = client.post(reverse("table-result-delete", args=[t.pk, table.pk]))
    assert [str(m) for m in get_messages(posted.wsgi_request)] == [
        "This table has no result to delete."
    ]


# ---- the API -------------------------------------------------------------------------------
def test_api_delete(api_client, finished_round):
    t, table, seated = finished_round
    url = f"/api/tournaments/{t.pk}/tables/{table.pk}/result/"
    state = _state(t, table)
    api_client.force_authenticate(seated[0])
    assert api_client.delete(url).status_code == 403
    assert _state(t, table) == state
    api_client.force_authenticate(t.organiser)
    assert api_client.delete(url).status_code == 204
    table.refresh_from_db()
    assert table.status == TableStatus.PLAYING and table.result is None
    history = api_client.get(f"{url}history/").json()
    assert [c["kind"] for c in history] == ["entered", "cleared"]
    again = api_client.delete(url)  # nothing to delete now
    assert again.status_code == 400 and "no result to delete" in again.json()["detail"]


def test_api_delete_refused_once_a_later_round_is_paired(api_client, finished_round):
    t, table, _seated = finished_round
    next_round(t)
    state = _state(t, table)
    api_client.force_authenticate(t.organiser)
    refused = api_client.delete(f"/api/tournaments/{t.pk}/tables/{table.pk}/result/")
    assert refused.status_code == 400
    assert refused.json()["detail"] == (
        "Round 2 is already paired from this result; correct it instead."
    )
    assert _state(t, table) == state
