"""The organiser's "My tournaments": his events, their state and what needs doing."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.games.factories import HumanPlayerFactory, UserFactory
from tests.tournaments.factories import tournament_with_bots
from tournaments import services
from tournaments.models import Tournament
from tournaments.selectors import my_tournaments
from tournaments.services import entrants, lifecycle

pytestmark = pytest.mark.django_db


def test_my_tournaments_lists_state_and_what_needs_doing(client):
    organiser = UserFactory()
    club = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 2}, organiser=organiser,
                                over_the_board=True, auto_advance=False)  # fmt: skip
    services.start_tournament(tournament=club)
    services.start_round(round_=club.rounds.get())
    table = club.rounds.get().tables.first()
    services.record_result(table=table, ranks=[1, 2])
    signup = services.create_tournament(name="Signup", game="silkroad", format="swiss",
                                        organiser=organiser, check_in=True, over_the_board=True,
                                        starts_at=timezone.now() + timedelta(hours=1))  # fmt: skip
    # The planned start passes (a start must be planned in the future).
    Tournament.objects.filter(pk=signup.pk).update(starts_at=timezone.now() - timedelta(hours=1))
    entrants.add_guest(tournament=signup, name="Jana", by=organiser)
    services.enter_player(tournament=signup, player=HumanPlayerFactory(), by=organiser)
    done = tournament_with_bots(n=2, config={"table_size": 2}, organiser=organiser)
    lifecycle.cancel(tournament=done, by=organiser)
    tournament_with_bots(n=2, config={"table_size": 2}, organiser=UserFactory())  # someone else's

    rows = {row["t"].name: row["todo"] for row in my_tournaments(organiser)}
    assert set(rows) == {club.name, "Signup", done.name}
    assert "1 result missing." in rows[club.name]
    assert "1 invitation awaits an answer." in rows["Signup"]
    assert "Check-in open: 0 of 1 checked in." in rows["Signup"]
    assert "Start time reached: start the tournament." in rows["Signup"]
    assert rows[done.name] == []

    client.force_login(organiser)
    home = client.get("/")
    assert reverse("my-tournaments") in home.content.decode()  # linked from the header
    page = client.get(reverse("my-tournaments")).content.decode()
    assert "1 result missing." in page and "Signup" in page and "Cancelled" in page
    lifecycle.pause(tournament=club, by=organiser)
    assert "Paused: resume to go on." in client.get(reverse("my-tournaments")).content.decode()
    client.logout()
    assert client.get(reverse("my-tournaments")).status_code == 302  # to the log-in page


def test_a_finished_round_without_auto_advance_is_due():
    organiser = UserFactory()
    t = tournament_with_bots(n=2, config={"table_size": 2, "rounds": 2}, organiser=organiser,
                             over_the_board=True, auto_advance=False)  # fmt: skip
    services.start_tournament(tournament=t)
    services.start_round(round_=t.rounds.get())
    services.record_result(table=t.rounds.get().tables.get(), ranks=[1, 2])
    (row,) = my_tournaments(organiser)
    assert row["todo"] == ["Round due: pair the next round."]
