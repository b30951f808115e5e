"""Corrections racing for one table: each is applied under the table's row lock, so the log
is one unbroken chain (every change starts from the result the one before left)."""

import pytest
from rest_framework.test import APIClient

from ratings import services as rating_services
from ratings.models import AppliedMatch, Rating
from tests.rates import set_rates
from tests.threads import run_together
from tests.tournaments.result_fixtures import club_event, tables_of
from tournaments.models import ResultChange

THREADS = 8


@pytest.mark.django_db(transaction=True)
def test_concurrent_corrections_form_one_chain(settings):
    set_rates(settings, tournament_results=None)
    t, _players = club_event()
    table = tables_of(t, 1)[0]
    url = f"/api/tournaments/{t.pk}/tables/{table.pk}/result/"
    client = APIClient()
    client.force_authenticate(t.organiser)
    assert (
        client.post(url, {"scores": [1, 2], "tiebreak": [1, 2]}, format="json").status_code == 201
    )
    rating_services.on_match_finished(match_id=tables_of(t, 1)[0].match_id)

    def put(i):
        c = APIClient()
        c.force_authenticate(t.organiser)
        body = {"scores": [10 + i, 30 - i], "tiebreak": [1, 2]}
        return c.put(url, body, format="json").status_code

    codes = run_together(put, [(i,) for i in range(THREADS)])
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
