"""Applying results to pools: once, in order; recompute equals the incremental path."""

import random

import pytest

from games import services as game_services
from games.models import Match
from ratings import selectors, services
from ratings.models import AppliedMatch, Rating, RatingChange, System
from ratings.systems import elo
from tests.games.factories import ExternalBotFactory
from tests.threads import run_together

pytestmark = pytest.mark.django_db


def _offline(players, ranks, rated=True):
    return game_services.record_offline_match(
        game="silkroad", players=players, ranks=ranks, rated=rated
    )


def _snapshot(pool):
    return sorted(
        Rating.objects.filter(pool=pool).values_list("player_id", "system", "value", "games")
    )


def test_incremental_equals_recompute_over_random_matches():
    rng = random.Random(5)
    players = [ExternalBotFactory() for _ in range(12)]
    pool = services.default_pool("silkroad")
    for _ in range(200):
        table = rng.sample(players, rng.randint(2, 5))
        ranks = [rng.randint(1, len(table)) for _ in table]
        match = _offline(table, ranks, rated=rng.random() < 0.9)
        services.on_match_finished(match_id=match.pk)
    incremental = _snapshot(pool)
    changes = RatingChange.objects.filter(pool=pool).count()
    assert services.recompute(pool=pool) == Match.objects.filter(rated=True).count()
    assert _snapshot(pool) == incremental
    assert RatingChange.objects.filter(pool=pool).count() == changes
    # And both equal the pure replay of the same tables in match-end order.
    tables = [
        ([s.player_id for s in m.seats.order_by("index")], m.outcome["ranks"])
        for m in Match.objects.filter(rated=True).order_by("finished_at", "id")
    ]
    pure = elo.replay(tables, services.elo_params(pool))
    for player_id, system, value, games in incremental:
        if system == System.ELO:
            assert (value, games) == pytest.approx(pure[player_id])


def test_a_match_is_applied_once_and_unrated_ones_never():
    a, b = ExternalBotFactory(), ExternalBotFactory()
    match = _offline([a, b], [1, 2])
    assert services.on_match_finished(match_id=match.pk) == 1
    assert services.on_match_finished(match_id=match.pk) == 0
    assert RatingChange.objects.filter(match=match).count() == 4  # 2 players x 2 systems
    unrated = _offline([a, b], [2, 1], rated=False)
    assert services.on_match_finished(match_id=unrated.pk) == 0
    assert not AppliedMatch.objects.filter(match=unrated).exists()


def test_forfeited_seat_counts_as_last():
    a, b, c = ExternalBotFactory(), ExternalBotFactory(), ExternalBotFactory()
    alice = _offline([a, b, c], [1, 2, 3])
    services.on_match_finished(match_id=alice.pk)
    change = {
        c_.player_id: c_.after - c_.before
        for c_ in RatingChange.objects.filter(match=alice, system=System.ELO)
    }
    assert change[c.pk] < 0 < change[a.pk]


def test_leaderboard_history_and_predictions():
    a, b = ExternalBotFactory(), ExternalBotFactory()
    for _ in range(3):
        services.on_match_finished(match_id=_offline([a, b], [1, 2]).pk)
    pool = services.default_pool("silkroad")
    board = selectors.leaderboard(pool, kind=selectors.BOTS)
    assert [r["player"] for r in board] == [a.name, b.name]
    assert board[0]["trend"] > 0 and board[0]["provisional"] is True
    assert len(selectors.player_history(a, pool)) == 3
    match = game_services.create_match(game="silkroad", players=[b, a], seed=1)
    prediction = selectors.predict_match(match)
    assert [p["expected_place"] for p in prediction["seats"]] == [2, 1]
    assert prediction["seats"][1]["win_probability"] > prediction["seats"][0]["win_probability"]


@pytest.mark.django_db(transaction=True)
def test_concurrent_match_ends_neither_double_apply_nor_lose_an_update():
    players = [ExternalBotFactory() for _ in range(3)]
    services.default_pool("silkroad")
    matches = [
        _offline(players[:2], [1, 2]),
        _offline(players[1:], [1, 2]),
        _offline([players[0], players[2]], [2, 1]),
    ]
    run_together(
        lambda match_id: services.on_match_finished(match_id=match_id),
        [(m.pk,) for m in matches for _ in range(2)],
    )
    pool = services.default_pool("silkroad")
    assert AppliedMatch.objects.filter(pool=pool).count() == 3
    assert RatingChange.objects.filter(pool=pool).count() == 3 * 2 * 2
    games = dict(
        Rating.objects.filter(pool=pool, system=System.ELO).values_list("player_id", "games")
    )
    assert games == {p.pk: 2 for p in players}
    incremental = _snapshot(pool)
    services.recompute(pool=pool)
    assert _snapshot(pool) == incremental


def test_matches_ending_together_are_applied_in_one_call_as_one_by_one():
    players = [ExternalBotFactory() for _ in range(6)]
    rng = random.Random(11)
    tables = [(rng.sample(players, 3), rng.choice([[1, 2, 3], [2, 1, 3], [3, 1, 2]]))
              for _ in range(8)]  # fmt: skip
    yspahan = game_services.record_offline_match(game="yspahan", players=players[:2], ranks=[1, 2])
    batch = [_offline(t, r) for t, r in tables] + [yspahan]
    unrated = _offline(players[:2], [1, 2], rated=False)
    # one call for a round's ends, two games: each game's pool applied once, in end order
    assert services.on_matches_finished(match_ids=[m.pk for m in batch] + [unrated.pk]) == 9
    assert services.on_matches_finished(match_ids=[m.pk for m in batch]) == 0
    together = _snapshot(services.default_pool("silkroad"))
    assert _snapshot(services.default_pool("yspahan")) != []
    pool = services.default_pool("silkroad")
    services.recompute(pool=pool)  # the one-by-one path's result, from the same history
    assert _snapshot(pool) == together
