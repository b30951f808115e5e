"""Over-the-board tournaments of human players (accounts) for the results tests."""

from django.contrib.auth.models import Permission

from games.models import Match
from ratings import services as rating_services
from tests.games.factories import HumanPlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Table, Tournament


def organiser(*, rated: bool = True):
    user = UserFactory()
    if rated:
        user.user_permissions.add(Permission.objects.get(codename="run_rated_events"))
    return user


def club_event(*, n: int = 4, game: str = "silkroad", format: str = "swiss",
               table_size: int = 2, by=None, **config) -> tuple[Tournament, list]:  # fmt: skip
    """A started over-the-board event of `n` humans (round 1 paired and started)."""
    by = by or organiser()
    t = services.create_tournament(
        name="Club night", game=game, format=format, organiser=by, over_the_board=True,
        auto_advance=False, config={"table_size": table_size, **config}, seed=11,
    )  # fmt: skip
    players = [HumanPlayerFactory() for _ in range(n)]
    for p in players:
        services.add_entry(tournament=t, player=p)
    services.start_round(round_=services.start_tournament(tournament=t))
    t.refresh_from_db()
    return t, players


def first_table(t: Tournament) -> tuple[Table, list]:
    """Round 1's first table and the accounts seated at it, in seat order."""
    table = tables_of(t, 1)[0]
    return table, [s.entry.player.user for s in table.seats.select_related("entry__player__user")]


def tables_of(t: Tournament, number: int) -> list[Table]:
    return list(Table.objects.filter(round__tournament=t, round__number=number).order_by("number"))


def apply_ratings(t: Tournament) -> None:
    """What the ratings task does after each match end (on_commit does not run in tests)."""
    for match in Match.objects.filter(table__round__tournament=t).order_by("finished_at", "id"):
        rating_services.on_match_finished(match_id=match.pk)


def next_round(t: Tournament):
    rnd = services.pair_next_round(tournament=t)
    services.start_round(round_=rnd)
    return rnd
