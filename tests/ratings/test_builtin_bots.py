"""Built-in bots are not rated (unless a pool opts in); program bots are; people and bots
are ranked apart on the leaderboards."""

import random

import pytest
from django.urls import reverse

from games import services as game_services
from games.engines.bots.greedy import GreedyBot
from games.engines.registry import get_engine
from games.models import Match, MatchStatus, Variant
from ratings import replay, selectors, services
from ratings.models import AppliedMatch, Rating, RatingChange, RatingPool, System
from tests.games.factories import (
    EngineBotFactory,
    ExternalBotFactory,
    HumanPlayerFactory,
    MatchFactory,
    play_out,
)

pytestmark = pytest.mark.django_db


def _elo(pool, player):
    row = Rating.objects.filter(pool=pool, player=player, system=System.ELO).first()
    return row.value if row else None


def _play_against_bots(human, bots, *, seed=7) -> Match:
    """A real Silk Road match, the person's moves chosen by the greedy heuristic through
    the same service a page uses, the bots' by the platform; then the rating path."""
    match = game_services.create_match(
        game="silkroad", players=[human, *bots], rated=True, created_by=human.user
    )
    assert match.rated  # the match may count: whether it does is each pool's rule
    engine = get_engine("silkroad")
    me = GreedyBot(engine, seed=seed)
    match.refresh_from_db()
    while match.status == MatchStatus.RUNNING:
        if match.to_act == 0:
            action = me.choose(engine.from_json(match.state), 0)
            game_services.submit_action(
                match_id=match.pk, user=human.user, ply=match.ply, action=action
            )
        else:
            game_services.play_bot_decisions(match_id=match.pk, ply=match.ply)
        match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    services.on_matches_finished(match_ids=[match.pk])
    return match


def test_a_finished_game_against_a_builtin_bot_changes_no_rating():
    human, bot = HumanPlayerFactory(), EngineBotFactory(bot_name="random")
    pool = services.default_pool("silkroad")
    match = _play_against_bots(human, [bot])
    assert match.seats.get(player=human).rank == 1  # he won (+20 Elo under the old rule)
    # Applied (so nothing is left pending), and nobody's rating moved: not his, not the bot's.
    assert AppliedMatch.objects.filter(pool=pool, match=match).exists()
    assert not RatingChange.objects.filter(match=match).exists()
    assert _elo(pool, human) is None and _elo(pool, bot) is None
    assert services.apply_pending(pool_id=pool.pk) == 0
    # The banner does not wait for a change that never comes: every seat +0 from 1500.
    changes = selectors.match_rating_changes(match)
    assert changes == {
        p: {"before": 1500.0, "after": 1500.0, "delta": 0.0, "unchanged": True}
        for p in (human.pk, bot.pk)
    }
    assert services.recompute(pool=pool) == 1 and not RatingChange.objects.exists()


def test_with_the_pool_opted_in_the_same_game_is_rated():
    human, bot = HumanPlayerFactory(), EngineBotFactory(bot_name="random")
    pool = services.default_pool("silkroad")
    pool.rate_builtin_bots = True
    pool.save()
    match = _play_against_bots(human, [bot])
    won = match.seats.get(player=human).rank == 1
    assert RatingChange.objects.filter(pool=pool, match=match).count() == 4  # 2 x 2 systems
    assert (_elo(pool, human) > 1500) is won and (_elo(pool, bot) > 1500) is not won


def test_a_bot_program_is_rated_and_a_builtin_bot_at_the_table_stops_everyone():
    human, program, house = HumanPlayerFactory(), ExternalBotFactory(), EngineBotFactory()
    pool = services.default_pool("silkroad")
    duel = game_services.record_offline_match(game="silkroad", players=[human, program],
                                              ranks=[1, 2])  # fmt: skip
    table = game_services.record_offline_match(game="silkroad", players=[human, program, house],
                                               ranks=[1, 2, 3])  # fmt: skip
    services.on_matches_finished(match_ids=[duel.pk, table.pk])
    assert RatingChange.objects.filter(match=duel).count() == 4
    assert not RatingChange.objects.filter(match=table).exists()  # not even the two others
    assert Rating.objects.get(pool=pool, player=human, system=System.ELO).games == 1
    assert _elo(pool, human) > 1500 > _elo(pool, program)


def test_all_builtin_bot_matches_played_out_rate_nobody():
    pool = services.default_pool("silkroad")
    match = play_out(MatchFactory.create(seats=3, seed=None, rated=True))
    assert match.rated and match.status == MatchStatus.FINISHED
    services.on_matches_finished(match_ids=[match.pk])
    assert AppliedMatch.objects.filter(pool=pool, match=match).exists()
    assert not Rating.objects.exists()


def test_a_variant_pool_may_opt_in_while_the_default_does_not():
    variant = Variant.objects.create(game="silkroad", name="bots welcome")
    ladder = RatingPool.objects.create(game="silkroad", name="Bot ladder", variant=variant,
                                       rate_builtin_bots=True)  # fmt: skip
    human, house = HumanPlayerFactory(), EngineBotFactory()
    match = game_services.record_offline_match(game="silkroad", players=[human, house],
                                               ranks=[1, 2], variant=variant)  # fmt: skip
    services.on_matches_finished(match_ids=[match.pk])
    default = services.default_pool("silkroad")
    assert not RatingChange.objects.filter(pool=default).exists()
    assert RatingChange.objects.filter(pool=ladder).count() == 4


def _snapshot(pool):
    ratings = sorted(Rating.objects.filter(pool=pool).values_list(
        "player_id", "system", "value", "mu", "sigma", "games"))  # fmt: skip
    changes = list(RatingChange.objects.filter(pool=pool).order_by("match__finished_at", "match_id", "player_id", "system")
                   .values_list("match_id", "player_id", "system", "before", "after", "rank"))  # fmt: skip
    applied = sorted(AppliedMatch.objects.filter(pool=pool).values_list("match_id", flat=True))
    return ratings, changes, applied


@pytest.mark.parametrize("opted_in", [False, True])
def test_incremental_recompute_and_replay_agree_with_builtin_bots_in_the_history(opted_in):
    rng = random.Random(21)
    people = [HumanPlayerFactory() for _ in range(4)] + [ExternalBotFactory() for _ in range(2)]
    house = [EngineBotFactory() for _ in range(2)]
    pool = services.default_pool("silkroad")
    pool.rate_builtin_bots = opted_in
    pool.save()
    matches = []
    for _ in range(40):
        table = rng.sample(people + house, rng.randint(2, 4))
        ranks = [rng.randint(1, len(table)) for _ in table]
        matches.append(game_services.record_offline_match(game="silkroad", players=table,
                                                          ranks=ranks))  # fmt: skip
        services.on_matches_finished(match_ids=[matches[-1].pk])
    incremental = _snapshot(pool)
    with_house = [m for m in matches if m.seats.filter(player__in=house).exists()]
    changed = {m for m, *_ in incremental[1]}
    assert with_house and (changed >= {m.pk for m in with_house}) is opted_in
    assert not opted_in or len(changed) == 40
    assert opted_in or changed.isdisjoint(m.pk for m in with_house)
    services.recompute(pool=pool, chunk_size=3)
    assert _snapshot(pool) == incremental
    replay.replay_from(pool=pool, match=matches[10])
    assert _snapshot(pool) == incremental


def test_changing_the_setting_rebuilds_the_pool_under_the_new_rule():
    human, house = HumanPlayerFactory(), EngineBotFactory()
    pool = services.default_pool("silkroad")
    match = game_services.record_offline_match(game="silkroad", players=[human, house],
                                               ranks=[1, 2])  # fmt: skip
    services.on_matches_finished(match_ids=[match.pk])
    assert not RatingChange.objects.exists()
    assert services.set_rate_builtin_bots(pool=pool, value=True) == 1
    assert pool.rate_builtin_bots and RatingPool.objects.get(pk=pool.pk).rate_builtin_bots
    assert _elo(pool, human) > 1500
    assert services.set_rate_builtin_bots(pool=pool, value=True) is None  # no change
    assert services.set_rate_builtin_bots(pool=pool, value=False) == 1
    assert not Rating.objects.exists() and services.apply_pending(pool_id=pool.pk) == 0


def test_the_admin_shows_the_setting_and_saving_it_recomputes(client):
    from tests.games.factories import UserFactory

    human, house = HumanPlayerFactory(), EngineBotFactory()
    pool = services.default_pool("silkroad")
    match = game_services.record_offline_match(game="silkroad", players=[human, house],
                                               ranks=[1, 2])  # fmt: skip
    services.on_matches_finished(match_ids=[match.pk])
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    url = reverse("admin:ratings_ratingpool_change", args=[pool.pk])
    page = client.get(url).content.decode()
    assert 'name="rate_builtin_bots"' in page and "changes no rating in this pool" in page
    form = {"game": pool.game, "name": pool.name, "variant": "", "is_default": "on",
            "k": pool.k, "provisional_k": pool.provisional_k,
            "provisional_games": pool.provisional_games, "start_rating": pool.start_rating,
            "rate_builtin_bots": "on"}  # fmt: skip
    response = client.post(url, form, follow=True)
    assert response.status_code == 200 and "1 match replayed" in response.content.decode()
    assert RatingChange.objects.filter(match=match).count() == 4


# ---- leaderboards: people by default, bots in their own list ---------------------------


@pytest.fixture
def board():
    """A person, a bot program and a house bot, all rated (the pool opts in)."""
    pool = services.default_pool("silkroad")
    pool.rate_builtin_bots = True
    pool.save()
    human, program, house = HumanPlayerFactory(), ExternalBotFactory(), EngineBotFactory()
    for ranks in ([3, 2, 1], [3, 1, 2], [2, 3, 1]):  # the house bot leads
        m = game_services.record_offline_match(game="silkroad", players=[human, program, house],
                                               ranks=ranks)  # fmt: skip
        services.on_matches_finished(match_ids=[m.pk])
    return human, program, house


def test_the_leaderboard_page_lists_people_and_a_bots_tab_lists_bots(client, board):
    human, program, house = board
    page = client.get("/ratings/silkroad/").content.decode()
    assert human.name in page and program.name not in page and house.name not in page
    assert 'href="/ratings/silkroad/?kind=bots"' in page and 'aria-current="page">People' in page
    assert "Games against built-in bots are not rated." in page
    bots = client.get("/ratings/silkroad/?kind=bots").content.decode()
    table = bots[bots.index('id="leaderboard-rows"') :]
    assert house.name in table and program.name in table and human.name not in table
    assert table.index(house.name) < table.index(program.name)
    assert 'aria-current="page">Bots' in bots and 'name="kind" value="bots"' in bots
    # The polled rows keep the list; a junk value is the default list, not an error.
    rows = client.get("/ratings/silkroad/rows/?system=openskill&kind=bots").content.decode()
    assert house.name in rows and human.name not in rows
    assert 'kind=bots"' in rows
    junk = client.get("/ratings/silkroad/?kind=robots")
    assert junk.status_code == 200 and human.name in junk.content.decode()
    assert house.name not in junk.content.decode()


def test_the_leaderboard_api_lists_people_by_default(api_client, board):
    human, program, house = board
    rows = api_client.get("/api/ratings/silkroad/").json()
    assert [r["player"] for r in rows] == [human.name] and rows[0]["rank"] == 1
    assert set(rows[0]) == {"rank", "player", "player_id", "kind", "rating", "games", "trend",
                            "provisional"}  # fmt: skip
    bots = api_client.get("/api/ratings/silkroad/", {"kind": "bots"}).json()
    assert [r["player"] for r in bots][0] == house.name
    assert {r["kind"] for r in bots} == {"engine_bot", "external_bot"}
    everyone = api_client.get("/api/ratings/silkroad/", {"kind": "all", "system": "openskill"})
    assert len(everyone.json()) == 3
    for query in ({"kind": "robots"}, {"system": "glicko"}):
        bad = api_client.get("/api/ratings/silkroad/", query)
        assert bad.status_code == 400 and bad.json()["code"] == "invalid_choice"
        assert set(bad.json()["fields"]) == set(query)


def test_the_lobby_says_games_against_builtin_bots_are_not_rated(client):
    human = HumanPlayerFactory()
    client.force_login(human.user)
    page = client.get(reverse("play")).content.decode()
    checkbox = page[page.index('name="rated"') :]
    assert "Games against built-in bots are not rated." in checkbox[:600]
