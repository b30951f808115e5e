"""Migration 0003: the field, then every pool rebuilt under the new rule (a match with a
built-in bot changes no rating); backwards, rebuilt under the old one."""

import pytest

from games import services as game_services
from ratings import services
from ratings.models import AppliedMatch, Rating, RatingChange, RatingPool
from tests.games.factories import EngineBotFactory, ExternalBotFactory, HumanPlayerFactory
from tests.migrations import back_to, migrate_to

# Transactions of their own: SQLite rebuilds a table (the field's removal) only outside one.
pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = "0002_lobby14_verbose_names"


def _rows():
    return (
        sorted(Rating.objects.values_list("pool_id", "player_id", "system", "value", "games")),
        sorted(
            RatingChange.objects.values_list(
                "pool_id", "match_id", "player_id", "system", "before", "after"
            )
        ),  # fmt: skip
        sorted(AppliedMatch.objects.values_list("pool_id", "match_id", "sequence")),
    )


def test_a_history_with_a_builtin_bot_game_is_recomputed_both_ways():
    human, program, house = HumanPlayerFactory(), ExternalBotFactory(), EngineBotFactory()
    offline = game_services.record_offline_match
    duel = offline(game="silkroad", players=[human, program], ranks=[2, 1])
    easy_win = offline(game="silkroad", players=[human, house], ranks=[1, 2])
    later = offline(game="silkroad", players=[human, program], ranks=[1, 2])
    pool = services.default_pool("silkroad")

    old_apps, latest = back_to("ratings", BEFORE)
    try:
        _check_the_way_there_and_back(old_apps, latest, pool, human, program, house,
                                      duel, easy_win, later)  # fmt: skip
    finally:
        migrate_to(latest)  # never leave the database behind for the next test


def _check_the_way_there_and_back(old_apps, latest, pool, human, program, house, duel,
                                  easy_win, later):  # fmt: skip
    # Backwards: rebuilt under the old rule, the easy win counted as it used to be.
    assert RatingChange.objects.filter(match=easy_win).count() == 4
    assert AppliedMatch.objects.filter(pool_id=pool.pk).count() == 3
    # A history made in the old state: a variant pool the old code had filled by hand.
    OldPool = old_apps.get_model("ratings", "RatingPool")
    assert "rate_builtin_bots" not in {f.name for f in OldPool._meta.get_fields()}
    second = OldPool.objects.create(game="silkroad", name="Second pool")
    OldRating = old_apps.get_model("ratings", "Rating")
    OldRating.objects.create(pool_id=second.pk, player_id=house.pk, system="elo", value=1999,
                             games=1)  # fmt: skip

    migrate_to(latest)
    assert set(RatingPool.objects.values_list("rate_builtin_bots", flat=True)) == {False}
    assert not RatingChange.objects.filter(match=easy_win).exists()
    for p in RatingPool.objects.all():
        assert set(AppliedMatch.objects.filter(pool=p).values_list("match_id", flat=True)) == {
            duel.pk,
            easy_win.pk,
            later.pk,
        }
        assert RatingChange.objects.filter(pool=p).count() == 8  # two matches x 2 x 2
        assert not Rating.objects.filter(pool=p, player=house).exists()
    migrated = _rows()
    for p in RatingPool.objects.all():
        services.recompute(pool=p)
    assert _rows() == migrated  # exactly the command's numbers


def test_an_empty_database_migrates_both_ways():
    assert not RatingPool.objects.exists()
    _, latest = back_to("ratings", BEFORE)
    try:
        assert not Rating.objects.exists()
    finally:
        migrate_to(latest)
    assert not RatingPool.objects.exists() and not Rating.objects.exists()
