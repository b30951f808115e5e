"""The waitlist behind the entry limit (tournaments.services.entrants): full before the
start, an entry waits (first come, first served); a place freed before the start goes to
the first waiting, whose page says so once; a waiting entry is never paired, counted,
checked in or ranked, and the page and the API list the waitlist with positions."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.games.factories import HumanPlayerFactory, UserFactory
from tournaments import exports, format_rows, selectors, services
from tournaments.services import entrants, scheduling

pytestmark = pytest.mark.django_db


def _club(organiser, **extra):
    kwargs = {"name": "Club night", "game": "yspahan", "format": "swiss", "organiser": organiser,
              "over_the_board": True, "config": {"table_size": 2}, "entry_limit": 2}  # fmt: skip
    return services.create_tournament(**{**kwargs, **extra})


@pytest.fixture
def full():
    """Ann and Ben have the two places; Cyril, then Dana, wait."""
    organiser = UserFactory(username="olga")
    t = _club(organiser)
    people = {n: HumanPlayerFactory(user__username=n) for n in ("ann", "ben", "cyril", "dana")}
    made = {n: entrants.join(tournament=t, user=p.user) for n, p in people.items()}
    return organiser, t, people, made


def test_joining_a_full_tournament_waits_first_come_first_served(full):
    organiser, t, people, made = full
    assert made["ann"].waitlisted_at is None and made["ben"].waitlisted_at is None
    assert [e.player.name for e in entrants.waitlist(t)] == ["cyril", "dana"]
    assert [entrants.waitlist_position(made[n]) for n in ("ann", "cyril", "dana")] == [None, 1, 2]
    assert entrants.active_count(t) == 2 and entrants.is_full(t)
    # The format, the standings and the organiser's list see only those with a place.
    placed = {made["ann"].pk, made["ben"].pk}
    assert {e.id for e in format_rows.entrants(t)} == placed
    assert {e.id for e in format_rows.entrants(t, list(t.entries.all()))} == placed
    assert {e.pk for e in selectors.entries_of(t)} == placed
    assert {row["entry"] for row in selectors.standings(t)} == placed
    assert scheduling.playing_entrants(t) == 2
    assert {row[0] for row in exports.entrants(t).rows} == placed  # the entrants' CSV


def test_a_place_freed_before_the_start_goes_to_the_first_waiting(
    client, full, django_capture_on_commit_callbacks
):
    organiser, t, people, made = full
    with django_capture_on_commit_callbacks(execute=True):
        entrants.leave(tournament=t, user=people["ben"].user)
    made["cyril"].refresh_from_db()
    assert made["cyril"].waitlisted_at is None
    assert [e.player.name for e in entrants.waitlist(t)] == ["dana"]
    assert entrants.active_count(t) == 2
    # Cyril's page says so on his next visit, once.
    client.force_login(people["cyril"].user)
    page = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    assert "You moved up from the waitlist: you have a place." in page
    assert "You have entered." in page
    again = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    assert "moved up" not in again and "You have entered." in again
    # Dana is first now, and sees it.
    client.force_login(people["dana"].user)
    page = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    assert "You are on the waitlist: number 1." in page and 'id="leave"' in page
    assert "moved up" not in page and "2 of 2 places taken, 1 waiting" in page


def test_the_organisers_withdrawal_moves_up_and_says_who(client, full):
    organiser, t, people, made = full
    client.force_login(organiser)
    page = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    waitlist = page.split('id="organiser-waitlist"')[1].split("</ol>")[0]
    assert '<li value="1" class="waiting"><span class="entrant-name">cyril' in waitlist
    assert '<li value="2" class="waiting"><span class="entrant-name">dana' in waitlist
    response = client.post(reverse("tournament-withdraw", args=[t.pk, made["ann"].pk]),
                           follow=True)  # fmt: skip
    assert "ann withdrawn; cyril moved up from the waitlist." in response.content.decode()
    assert [e.player.name for e in selectors.entries_of(t)] == ["ben", "cyril"]


def test_leaving_the_waitlist_frees_no_place(full):
    organiser, t, people, made = full
    entrants.leave(tournament=t, user=people["cyril"].user)
    assert [e.player.name for e in entrants.waitlist(t)] == ["dana"]
    assert entrants.waitlist_position(entrants.waitlist(t)[0]) == 1
    assert {e.player.name for e in selectors.entries_of(t)} == {"ann", "ben"}


def test_waiting_entries_are_never_checked_in_paired_or_ranked(full):
    organiser, t, people, made = full
    t.check_in = True
    t.save(update_fields=["check_in"])
    with pytest.raises(ValidationError, match="on the waitlist") as refused:
        entrants.check_in(entry=made["cyril"], by=people["cyril"].user)
    assert refused.value.code == "waitlisted"
    for n in ("ann", "ben"):
        entrants.check_in(entry=made[n], by=organiser)
    services.start_tournament(tournament=t)
    seated = {s.entry_id for table in t.rounds.get().tables.all() for s in table.seats.all()}
    assert seated == {made["ann"].pk, made["ben"].pk}
    made["cyril"].refresh_from_db()
    # Still waiting (not "withdrawn for no check-in": he never had a place).
    assert made["cyril"].waitlisted_at is not None and made["cyril"].withdrawn_after is None
    assert {row["entry"] for row in selectors.standings(t)} == seated
    # After the start a place never frees up for them: a late entry beyond the limit is refused.
    with pytest.raises(ValidationError, match="full") as late:
        services.add_entry(tournament=t, player=HumanPlayerFactory())
    assert late.value.code == "full"


def test_counts_leave_the_waitlist_out(api_client, full):
    organiser, t, people, made = full
    assert api_client.get(f"/api/tournaments/{t.pk}/").json()["entrants"] == 2
    (row,) = selectors.my_tournaments(organiser)
    assert row["t"].active_entries == 2 and "Entries open: 2 entrants." in row["todo"]
    t.check_in = True
    t.save(update_fields=["check_in"])
    entrants.check_in(entry=made["ann"], by=organiser)
    (row,) = selectors.my_tournaments(organiser)
    assert "Check-in open: 1 of 2 checked in." in row["todo"]


def test_the_api_lists_the_waitlist_with_positions(api_client, full):
    organiser, t, people, made = full
    rows = api_client.get(f"/api/tournaments/{t.pk}/entrants/").json()
    assert [(r["player"], r["waitlisted"], r["position"]) for r in rows] == [
        ("ann", False, None), ("ben", False, None), ("cyril", True, 1), ("dana", True, 2),
    ]  # fmt: skip
    assert rows[0]["kind"] == "human" and rows[0]["bot"] is False
    api_client.force_authenticate(HumanPlayerFactory(user__username="eva").user)
    joined = api_client.post(f"/api/tournaments/{t.pk}/join/").json()
    assert joined["waitlisted"] is True and joined["position"] == 3
