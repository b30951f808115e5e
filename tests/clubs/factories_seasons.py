"""Seasons and finished over-the-board club events with typed-in results, for the seasons
and ladder tests (tests/clubs/factories.py is the membership part's: clubs, memberships)."""

import datetime
import secrets

import factory
from django.utils import timezone

from clubs.models import Club, ClubEvent, ClubGuest, Season
from games.engines.registry import get_engine
from games.models import Player, PlayerKind
from tournaments import services
from tournaments.models import Table, Tournament
from tournaments.services.results import enter_result


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season

    club = factory.SubFactory("tests.clubs.factories.ClubFactory")
    name = factory.Sequence(lambda n: f"Autumn {2025 + n}")
    starts_on = datetime.date(2025, 9, 1)
    ends_on = datetime.date(2025, 12, 31)
    games = factory.LazyFunction(lambda: ["silkroad"])
    rule = Season.Rule.SUM


def club_guest(club: Club, name: str) -> Player:
    """A person without an account kept by the club (one Player for all its events)."""
    player = Player.objects.create(
        name=f"guest-{secrets.token_hex(4)}", display_name=name, kind=PlayerKind.GUEST,
        game="silkroad", is_active=False,
    )  # fmt: skip
    ClubGuest.objects.create(club=club, player=player)
    return player


def finished_event(club: Club, *, by, scores: dict[Player, int], day: datetime.date,
                   season: Season | None = None, game: str = "silkroad",
                   name: str = "Club night", finish: bool = True) -> Tournament:  # fmt: skip
    """An over-the-board event of the club on `day`: one round, everyone at one table,
    the organiser types in `scores` (player: score; the higher the better), then the
    event is finished (``finish=False``: left running with its one result)."""
    t = services.create_tournament(
        name=name, game=game, format="swiss", organiser=by, over_the_board=True,
        auto_advance=False, config={"table_size": len(scores), "rounds": 1}, seed=5,
    )  # fmt: skip
    starts = timezone.make_aware(datetime.datetime.combine(day, datetime.time(19, 0)))
    Tournament.objects.filter(pk=t.pk).update(starts_at=starts)
    ClubEvent.objects.update_or_create(tournament=t, defaults={"club": club, "season": season})
    for player in scores:
        services.add_entry(tournament=t, player=player)
    services.start_round(round_=services.start_tournament(tournament=t))
    table = Table.objects.get(round__tournament=t)
    seated = [s.entry.player for s in table.seats.select_related("entry__player").order_by("index")]
    typed = [scores[p] for p in seated]
    # Silk Road asks for each seat's camel driver (1-5, all different) even when the scores
    # differ; Yspahan has no tie-break.
    drivers = list(range(1, len(typed) + 1)) if get_engine(game).tiebreak_label else None
    assert enter_result(table=table, scores=typed, tiebreak=drivers, by=by)
    if finish:
        assert services.pair_next_round(tournament=t) is None  # the one round: over
    t.refresh_from_db()
    return t
