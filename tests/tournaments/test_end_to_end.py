"""Whole tournaments through a real Celery worker on the configured database and broker."""

from collections import defaultdict

import pytest

from config.celery import app as celery_app
from config.worker_process import celery_worker, wait_for
from tests.tournaments.factories import tournament_with_bots
from tournaments import selectors, services
from tournaments.models import Table, Tournament, TournamentStatus

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


def _points_by_hand(t) -> dict[int, float]:
    """Points straight from the recorded table results: places 3/2/1/0, ties share."""
    points = defaultdict(float)
    for table in Table.objects.filter(round__tournament=t).prefetch_related("seats"):
        ranks = table.result["ranks"]
        n = len(ranks)
        place_points = list(range(n - 1, -1, -1))
        for seat in table.seats.all():
            r = ranks[seat.index]
            tied = ranks.count(r)
            points[seat.entry_id] += sum(place_points[r - 1 : r - 1 + tied]) / tied
    return points


def test_sixteen_bot_swiss_on_four_player_tables_completes_with_right_standings():
    celery_app.control.purge()
    t = tournament_with_bots(n=16, config={"table_size": 4, "rounds": 4}, bot="random")
    with celery_worker(beat=True) as worker:
        services.start_tournament(tournament=t)
        wait_for(lambda: Tournament.objects.get(pk=t.pk).status == TournamentStatus.FINISHED,
                 timeout=300, what="the tournament to finish", worker=worker)  # fmt: skip
    t.refresh_from_db()
    assert t.rounds.count() == 4
    assert Table.objects.filter(round__tournament=t).count() == 16
    rows = selectors.standings(t)
    by_hand = _points_by_hand(t)
    assert {r["entry"]: r["points"] for r in rows} == pytest.approx(dict(by_hand))
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    assert all(r["played"] == 4 for r in rows)
