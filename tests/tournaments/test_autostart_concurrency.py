"""Two sweeps at once start a due tournament exactly once (the row lock in
tournaments.services.scheduling.start_if_due); the second neither starts it again nor records a
refusal."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.games.factories import UserFactory
from tests.threads import run_together
from tests.tournaments.factories import tournament_with_bots
from tournaments import tasks
from tournaments.models import Round, Table, Tournament, TournamentStatus

SWEEPS = 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))  # a race that passes once may be luck
def test_two_sweeps_at_once_start_it_once(attempt):
    t = tournament_with_bots(
        n=6, config={"table_size": 2, "rounds": 3}, organiser=UserFactory(), over_the_board=True,
        auto_start=True, starts_at=timezone.now() + timedelta(hours=1),
    )  # fmt: skip
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(seconds=1))

    run_together(tasks.sweep_tournaments, [()] * SWEEPS)
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING and t.current_round == 1
    assert t.auto_start_failed_at is None and t.auto_start_failure is None
    assert Round.objects.filter(tournament=t).count() == 1
    assert Table.objects.filter(round__tournament=t).count() == 3
