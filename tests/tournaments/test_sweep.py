"""The sweep's safety net (tournaments.tasks.sweep_tournaments reads it from the selectors):
a finished match whose table still plays, and an auto-advancing event left between rounds."""

import pytest

from games.models import MatchStatus
from tests.games.factories import play_out
from tests.tournaments.factories import tournament_with_bots
from tournaments import selectors, services, tasks
from tournaments.models import RoundStatus, Table, TableStatus, Tournament

pytestmark = pytest.mark.django_db


def _playing(auto_advance: bool):
    t = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 2}, auto_advance=auto_advance)
    rnd = services.start_tournament(tournament=t)
    rnd.refresh_from_db()  # an auto-advancing event starts its first round at once
    if rnd.status == RoundStatus.PAIRED:
        services.start_round(round_=rnd)
    return t


def _finish_matches_only(t) -> list[int]:
    """Play the tables' matches to the end without delivering their results (a lost task)."""
    ids = []
    for table in Table.objects.filter(round__tournament=t, status=TableStatus.PLAYING):
        match = play_out(table.match)
        assert match.status == MatchStatus.FINISHED
        ids.append(match.pk)
    return ids


def test_a_finished_match_whose_table_still_plays_is_listed_until_recorded():
    t = _playing(auto_advance=False)
    assert selectors.unrecorded_match_ids() == []
    finished = _finish_matches_only(t)
    assert sorted(selectors.unrecorded_match_ids()) == sorted(finished)
    tasks.sweep_tournaments()
    assert selectors.unrecorded_match_ids() == []
    assert not Table.objects.filter(round__tournament=t, status=TableStatus.PLAYING).exists()


def test_only_a_running_auto_advancing_event_between_rounds_is_stalled():
    manual, auto = _playing(auto_advance=False), _playing(auto_advance=True)
    assert selectors.stalled_tournament_ids() == []  # both have a round playing
    for t in (manual, auto):
        for match_id in _finish_matches_only(t):
            services.on_match_finished(match_id=match_id)
    # on_match_finished queues the advance on commit, which a test's transaction never
    # reaches: the auto event is left between rounds, as when that task is lost.
    assert selectors.stalled_tournament_ids() == [auto.pk]
    tasks.sweep_tournaments()
    assert selectors.stalled_tournament_ids() == []
    auto.refresh_from_db()
    assert auto.current_round == 2 and Tournament.objects.get(pk=manual.pk).current_round == 1
