"""Corrections racing for one table: each is applied under the table's row lock, so the log
is one unbroken chain (every change starts from the result the one before left)."""

import threading

import pytest
from django.db import connections
from rest_framework.test import APIClient

from ratings import services as rating_services
from ratings.models import AppliedMatch, Rating
from tests.tournaments.result_fixtures import club_event, tables_of
from tournaments.models import ResultChange

THREADS = 8


@pytest.mark.django_db(transaction=True)
def test_concurrent_corrections_form_one_chain(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "tournament_results": None,
        },
    }  # fmt: skip
    t, _players = club_event()
    table = tables_of(t, 1)[0]
    url = f"/api/tournaments/{t.pk}/tables/{table.pk}/result/"
    client = APIClient()
    client.force_authenticate(t.organiser)
    assert (
        client.post(url, {"scores": [1, 2], "tiebreak": [1, 2]}, format="json").status_code == 201
    )
    rating_services.on_match_finished(match_id=tables_of(t, 1)[0].match_id)

    barrier = threading.Barrier(THREADS)
    codes, errors = [], []

    def put(i):
        try:
            c = APIClient()
            c.force_authenticate(t.organiser)
            barrier.wait(timeout=30)
            body = {"scores": [10 + i, 30 - i], "tiebreak": [1, 2]}
            codes.append(c.put(url, body, format="json").status_code)
        except BaseException as exc:  # reported below, not lost in the thread
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=put, args=(i,)) for i in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=120)
    assert not errors, errors
    assert codes == [200] * THREADS
    log = list(ResultChange.objects.filter(table=table))
    assert len(log) == THREADS + 1
    for earlier, later in zip(log, log[1:], strict=False):
        assert later.before == earlier.after
    table.refresh_from_db()
    assert table.result == log[-1].after
    # The ratings are those of the last result, applied once.
    assert AppliedMatch.objects.filter(match_id=table.match_id).count() == 1
    stored = {(r.player_id, r.system): r.value for r in Rating.objects.all()}
    rating_services.recompute(pool=rating_services.default_pool("silkroad"))
    assert {(r.player_id, r.system): r.value for r in Rating.objects.all()} == pytest.approx(stored)
