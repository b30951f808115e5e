"""The club ladder: the club's active members ranked by the site's rating pools (no rating
of its own), filtered by game and by season, with their games in the club's events."""

import datetime

import pytest
from django.urls import reverse

from clubs import season_selectors
from clubs.models import Role, Visibility
from ratings.models import Rating, System
from ratings.services import default_pool
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.clubs.factories_seasons import SeasonFactory, club_guest, finished_event
from tests.games.factories import HumanPlayerFactory

pytestmark = pytest.mark.django_db


def _rate(player, game: str, value: float, games: int = 12):
    Rating.objects.create(pool=default_pool(game), player=player, system=System.ELO,
                          value=value, games=games)  # fmt: skip


@pytest.fixture
def ladder_club():
    """alice (Silk Road 1600), bob (1500, Yspahan 1450), cara (no rating, plays), dan (a
    member who asked but is not in yet: 1800), olga (not a member: 1700), a guest.
    Night 1 (Sept, in the season): alice, bob, cara, the guest; night 2 (Oct, no season):
    alice, olga."""
    club = ClubFactory()
    organiser = MembershipFactory(club=club, role=Role.ORGANISER).user
    alice, bob, cara, dan, olga = (HumanPlayerFactory(name=n, user__username=n)
                                   for n in ("alice", "bob", "cara", "dan", "olga"))  # fmt: skip
    for p in (alice, bob, cara):
        MembershipFactory(club=club, user=p.user)
    MembershipFactory(club=club, user=dan.user, status="requested")
    _rate(alice, "silkroad", 1600)
    _rate(bob, "silkroad", 1500)
    _rate(bob, "yspahan", 1450)
    _rate(dan, "silkroad", 1800)
    _rate(olga, "silkroad", 1700)
    guest = club_guest(club, "Gita")
    season = SeasonFactory(club=club)
    finished_event(club, by=organiser, season=season, name="Night 1",
                   scores={alice: 4, bob: 3, cara: 2, guest: 1}, day=datetime.date(2025, 9, 10))  # fmt: skip
    finished_event(club, by=organiser, name="Night 2", scores={alice: 5, olga: 1},
                   day=datetime.date(2025, 10, 10))  # fmt: skip
    return club, season


def _rows(rows):
    return [(r["handle"], r["rank"], r["rating"], r["club_games"]) for r in rows]


def test_active_members_by_their_site_rating_with_their_club_games(ladder_club):
    club, _ = ladder_club
    rows = season_selectors.ladder(club, game="silkroad")
    # Not olga (not a member), not dan (only asked), not the guest (not a member);
    # cara without a rating comes last, unranked; games: alice 2 tables, bob 1, cara 1.
    assert _rows(rows) == [("alice", 1, 1600, 2), ("bob", 2, 1500, 1), ("cara", None, None, 1)]
    # The number is the pool's own: the ladder keeps no rating of its own.
    assert rows[0]["rating"] == Rating.objects.get(player__name="alice").value


def test_filtered_by_season_only_its_players_and_games(ladder_club):
    club, season = ladder_club
    rows = season_selectors.ladder(club, game="silkroad", season=season)
    # night 1 only: alice 1 table (night 2 is outside the season), bob 1, cara 1
    assert _rows(rows) == [("alice", 1, 1600, 1), ("bob", 2, 1500, 1), ("cara", None, None, 1)]
    other = SeasonFactory(club=club, name="Empty")
    assert season_selectors.ladder(club, game="silkroad", season=other) == []


def test_filtered_by_game(ladder_club):
    club, _ = ladder_club
    # bob is rated in Yspahan, but nobody played it at the club: only bob (rated) shows.
    assert _rows(season_selectors.ladder(club, game="yspahan")) == [("bob", 1, 1450, 0)]


def test_the_club_page_ladder_works_without_script(client, ladder_club):
    club, season = ladder_club
    url = reverse("club-detail", args=[club.slug])
    body = client.get(url).content.decode()
    ladder = body[body.index('id="ladder"') :]
    assert '<form method="get" action="#ladder"' in ladder and 'type="submit"' in ladder
    assert ladder.index(">alice<") < ladder.index(">bob<") < ladder.index(">cara<")
    assert ">olga<" not in ladder and ">dan<" not in ladder
    by_season = client.get(url, {"ladder_game": "silkroad", "ladder_season": season.pk})
    ladder = by_season.content.decode()
    ladder = ladder[ladder.index('id="ladder"') :]
    assert f'<option value="{season.pk}" selected>' in ladder
    # Junk filters fall back to the defaults (the club's most played game, every event).
    junk = client.get(url, {"ladder_game": "chess", "ladder_season": "x" * 40})
    assert junk.status_code == 200 and ">alice<" in junk.content.decode()


def test_a_members_only_club_shows_no_ladder_to_outsiders(client, ladder_club):
    club, _ = ladder_club
    club.visibility = Visibility.MEMBERS
    club.save()
    body = client.get(reverse("club-detail", args=[club.slug])).content.decode()
    assert 'id="ladder"' not in body and 'id="seasons"' not in body
    client.force_login(HumanPlayerFactory(name="alice2", user__username="alice2").user)
    body = client.get(reverse("club-detail", args=[club.slug])).content.decode()
    assert 'id="ladder"' not in body
