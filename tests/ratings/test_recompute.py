"""The streamed recompute: the same numbers as the incremental path and as the
pure replay, whatever the chunk size, in (finished_at, id) order."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services as game_services
from games.models import Match, Variant
from ratings import services
from ratings.models import AppliedMatch, Rating, RatingChange, RatingPool, System
from ratings.systems import elo, openskill_rating
from tests.games.factories import ExternalBotFactory

pytestmark = pytest.mark.django_db


def _offline(players, ranks, **kwargs):
    return game_services.record_offline_match(
        game="silkroad", players=players, ranks=ranks, **kwargs
    )


def _ratings(pool):
    return sorted(
        Rating.objects.filter(pool=pool).values_list(
            "player_id", "system", "value", "mu", "sigma", "games"
        )
    )


def _changes(pool):
    return list(
        RatingChange.objects.filter(pool=pool)
        .order_by("id")
        .values_list("match_id", "player_id", "system", "before", "after", "rank")
    )


def _applied(pool):
    return list(
        AppliedMatch.objects.filter(pool=pool)
        .order_by("sequence")
        .values_list("match_id", flat=True)
    )


def _random_history(rng, players, n, **kwargs):
    matches = []
    for _ in range(n):
        table = rng.sample(players, rng.randint(2, 5))
        ranks = [rng.randint(1, len(table)) for _ in table]
        matches.append(_offline(table, ranks, rated=rng.random() < 0.9, **kwargs))
    return matches


def _pure(matches):
    """Elo and OpenSkill over the tables of these matches, in match-end order."""
    tables = [
        ([s.player_id for s in m.seats.order_by("index")], list(m.outcome["ranks"]))
        for m in sorted(matches, key=lambda m: (m.finished_at, m.pk))
    ]
    os_state: dict = {}
    for players, ranks in tables:
        os_state.update(zip(players, openskill_rating.update(
            [os_state.get(p) or openskill_rating.start() for p in players], ranks), strict=True))  # fmt: skip
    return elo.replay(tables, elo.EloParams()), os_state


def test_recompute_equals_incremental_and_the_pure_replay_in_both_systems():
    rng = random.Random(11)
    players = [ExternalBotFactory() for _ in range(10)]
    pool = services.default_pool("silkroad")
    for match in _random_history(rng, players, 120):
        services.on_match_finished(match_id=match.pk)
    ratings, changes, applied = _ratings(pool), _changes(pool), _applied(pool)
    rated = list(Match.objects.filter(rated=True))
    assert services.recompute(pool=pool) == len(rated) == len(applied)
    # Exactly the same floats, not merely close ones.
    assert _ratings(pool) == ratings
    assert _changes(pool) == changes
    assert _applied(pool) == applied
    pure_elo, pure_os = _pure(rated)
    for player_id, system, value, mu, sigma, games in ratings:
        if system == System.ELO:
            assert (value, games) == pure_elo[player_id]
        else:
            assert (mu, sigma) == pure_os[player_id]
            assert value == openskill_rating.ordinal(mu, sigma)
    assert {(p, s) for p, s, *_ in ratings} == {
        (p, s) for p in pure_elo for s in (System.ELO, System.OPENSKILL)
    }


def test_chunk_size_changes_nothing():
    rng = random.Random(3)
    players = [ExternalBotFactory() for _ in range(8)]
    pool = services.default_pool("silkroad")
    _random_history(rng, players, 40)
    results = []
    for chunk_size in (1, 2, 3, 7, 10_000):
        n = services.recompute(pool=pool, chunk_size=chunk_size)
        results.append((n, _ratings(pool), _changes(pool), _applied(pool)))
    assert results[0][0] > 0 and results[0][2]
    assert all(r == results[0] for r in results[1:])
    assert services.apply_pending(pool_id=pool.pk) == 0  # every match counted exactly once


def test_matches_ending_at_the_same_moment_apply_in_id_order_in_both_paths():
    a, b, c = ExternalBotFactory(), ExternalBotFactory(), ExternalBotFactory()
    pool = services.default_pool("silkroad")
    matches = [_offline([a, b, c], ranks) for ranks in ([1, 2, 3], [3, 1, 2], [2, 3, 1], [1, 3, 2])]
    moment = timezone.now()
    # The last match ended first; the others at one moment. Updating from the last to the
    # first also leaves the rows stored in reverse, so only the id can give their order.
    ends = [moment, moment, moment, moment - timedelta(seconds=1)]
    for match, end in reversed(list(zip(matches, ends, strict=True))):
        Match.objects.filter(pk=match.pk).update(finished_at=end)
    expected = [matches[3].pk, matches[0].pk, matches[1].pk, matches[2].pk]
    assert services.apply_pending(pool_id=pool.pk) == 4
    incremental = (_applied(pool), _ratings(pool), _changes(pool))
    assert incremental[0] == expected
    services.recompute(pool=pool, chunk_size=2)
    assert (_applied(pool), _ratings(pool), _changes(pool)) == incremental
    assert [m for m, *_ in _changes(pool)[::6]] == expected  # 3 players x 2 systems a match


def test_one_player_in_every_seat_is_applied_without_changes():
    a, b = ExternalBotFactory(), ExternalBotFactory()
    pool = services.default_pool("silkroad")
    shared = _offline([a, a], [1, 2])
    fair = _offline([a, b], [2, 1])
    services.recompute(pool=pool)
    assert _applied(pool) == [shared.pk, fair.pk]
    assert not RatingChange.objects.filter(match=shared).exists()
    assert RatingChange.objects.filter(match=fair).count() == 4
    assert {r[5] for r in _ratings(pool)} == {1}
    assert services.apply_pending(pool_id=pool.pk) == 0


def test_a_variant_pool_recomputes_only_its_variant():
    rng = random.Random(8)
    players = [ExternalBotFactory() for _ in range(6)]
    variant = Variant.objects.create(game="silkroad", name="short")
    pool = services.default_pool("silkroad")
    short = RatingPool.objects.create(game="silkroad", name="Short games", variant=variant)
    mixed = _random_history(rng, players, 15) + _random_history(rng, players, 15, variant=variant)
    for match in mixed:
        services.on_match_finished(match_id=match.pk)
    before = {p: (_ratings(p), _changes(p), _applied(p)) for p in (pool, short)}
    assert services.recompute(pool=short) == sum(1 for m in mixed if m.rated and m.variant_id)
    assert services.recompute(pool=pool) == sum(1 for m in mixed if m.rated)
    assert {p: (_ratings(p), _changes(p), _applied(p)) for p in (pool, short)} == before


def test_recompute_replaces_what_was_there():
    a, b = ExternalBotFactory(), ExternalBotFactory()
    pool = services.default_pool("silkroad")
    services.on_match_finished(match_id=_offline([a, b], [1, 2]).pk)
    # A stale rating and a change the history does not explain: gone after the recompute.
    Rating.objects.filter(pool=pool, player=a, system=System.ELO).update(value=9999, games=50)
    stale = ExternalBotFactory()
    Rating.objects.create(pool=pool, player=stale, system=System.ELO, value=1, games=1)
    assert services.recompute(pool=pool) == 1
    assert not Rating.objects.filter(pool=pool, player=stale).exists()
    elo_rows = dict(
        Rating.objects.filter(pool=pool, system=System.ELO).values_list("player_id", "games")
    )
    assert elo_rows == {a.pk: 1, b.pk: 1}
    assert Rating.objects.get(pool=pool, player=a, system=System.ELO).value > 1500


def test_the_management_command_recomputes_every_pool_of_the_game():
    from io import StringIO

    from django.core.management import call_command

    rng = random.Random(4)
    players = [ExternalBotFactory() for _ in range(5)]
    pool = services.default_pool("silkroad")
    for match in _random_history(rng, players, 12):
        services.on_match_finished(match_id=match.pk)
    incremental = (_ratings(pool), _changes(pool), _applied(pool))
    Rating.objects.filter(pool=pool).update(value=0.0)
    out = StringIO()
    call_command("recompute_ratings", "--game", "silkroad", stdout=out)
    assert f"{pool}: {len(incremental[2])} matches" in out.getvalue()
    assert (_ratings(pool), _changes(pool), _applied(pool)) == incremental


def test_the_admin_action_recomputes_the_selected_pool(client):
    from django.urls import reverse

    from tests.games.factories import UserFactory

    a, b = ExternalBotFactory(), ExternalBotFactory()
    pool = services.default_pool("silkroad")
    services.on_match_finished(match_id=_offline([a, b], [1, 2]).pk)
    incremental = (_ratings(pool), _changes(pool), _applied(pool))
    RatingChange.objects.filter(pool=pool).delete()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    response = client.post(
        reverse("admin:ratings_ratingpool_changelist"),
        {"action": "recompute", "_selected_action": [pool.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert f"{pool}: 1 match replayed" in response.content.decode()
    assert (_ratings(pool), _changes(pool), _applied(pool)) == incremental
