"""Exactly one result per over-the-board table, however many posts race for it."""

import pytest
from django.contrib.auth.models import Permission
from rest_framework.test import APIClient

from games.models import Match
from ratings import services as rating_services
from ratings.models import RatingChange
from tests.games.factories import HumanPlayerFactory, UserFactory
from tests.rates import set_rates
from tests.threads import run_together
from tournaments import services
from tournaments.models import Table

THREADS = 20


@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_posts_of_one_result_make_one_match(settings):
    # The limits are not what is tested here (tests/core/test_throttling.py is).
    set_rates(settings, tournament_results=None)
    organiser = UserFactory()
    organiser.user_permissions.add(Permission.objects.get(codename="run_rated_events"))
    t = services.create_tournament(
        name="Club night", game="silkroad", format="league", organiser=organiser,
        config={"table_size": 2}, over_the_board=True, auto_advance=False,
    )  # fmt: skip
    players = [HumanPlayerFactory(), HumanPlayerFactory()]
    for p in players:
        services.add_entry(tournament=t, player=p)
    services.start_tournament(tournament=t)
    table = Table.objects.get(round__tournament=t)
    url = f"/api/tournaments/{t.pk}/tables/{table.pk}/result/"

    def post():
        client = APIClient()
        client.force_authenticate(organiser)
        return client.post(url, {"scores": [10, 30], "tiebreak": [3, 1]}, format="json").status_code

    codes = run_together(post, [()] * THREADS)
    assert sorted(codes) == [201] + [409] * (THREADS - 1)

    matches = Match.objects.filter(seats__player=players[0])
    assert matches.count() == 1
    table.refresh_from_db()
    assert table.match_id == matches.get().pk and table.result["ranks"] == [2, 1]
    rating_services.on_match_finished(match_id=table.match_id)
    for p in players:
        per_system = RatingChange.objects.filter(player=p).values_list("system", flat=True)
        assert sorted(per_system) == ["elo", "openskill"]  # one change per player and system
