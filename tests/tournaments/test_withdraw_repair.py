"""A withdrawal and the rounds: before a round is paired the entrant stays out of it; out
of a paired round not started that seats him, the round is paired again without him."""

import pytest
from django.urls import reverse

from games.models import MatchStatus
from tests.games.factories import UserFactory, play_out
from tests.tournaments.factories import tournament_with_bots
from tournaments import services
from tournaments.models import PairingChange, RoundStatus, Table, TableStatus
from tournaments.services import overrides

pytestmark = pytest.mark.django_db


def _event(n=5, **kwargs):
    t = tournament_with_bots(n=n, config={"table_size": 2, "rounds": 3}, auto_advance=False,
                             organiser=UserFactory(), **kwargs)  # fmt: skip
    return t, services.start_tournament(tournament=t)


def _placed(rnd) -> set[int]:
    shot = overrides.snapshot(rnd)
    return {e for seats in shot["tables"] for e in seats} | set(shot["byes"])


def _finish(t):
    for table in Table.objects.filter(round__tournament=t, status=TableStatus.PLAYING):
        match = play_out(table.match)
        assert match.status == MatchStatus.FINISHED
        services.on_match_finished(match_id=match.pk)


@pytest.mark.parametrize("where", ["table", "bye"])
def test_withdrawing_a_player_seated_in_a_paired_round_pairs_it_again(where):
    t, rnd = _event()
    shot = overrides.snapshot(rnd)
    gone_id = shot["byes"][0] if where == "bye" else shot["tables"][0][0]
    services.withdraw_entry(entry=t.entries.get(pk=gone_id))
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.PAIRED
    assert gone_id not in _placed(rnd)
    assert _placed(rnd) == set(t.entries.exclude(pk=gone_id).values_list("pk", flat=True))
    gone = t.entries.get(pk=gone_id)
    assert gone.withdrawn and gone.withdrawn_after == 0  # no part in round 1
    change = PairingChange.objects.get(round=rnd)
    assert change.kind == "repair" and change.changed_by is None
    assert gone_id in {e for seats in change.before["tables"] for e in seats} | set(
        change.before["byes"]
    )


def test_withdrawing_before_a_round_is_paired_keeps_him_out_of_it():
    t, rnd = _event(n=4)
    services.start_round(round_=rnd)
    _finish(t)
    gone = t.entries.first()
    services.withdraw_entry(entry=gone)
    assert not PairingChange.objects.exists()  # nothing paired to change
    second = services.pair_next_round(tournament=t)
    assert gone.pk not in _placed(second) and len(_placed(second)) == 3
    gone.refresh_from_db()
    assert gone.withdrawn_after == 1  # he played round 1


def test_withdrawing_during_a_started_round_leaves_it_as_it_is():
    t, rnd = _event(n=4)
    services.start_round(round_=rnd)
    before = overrides.snapshot(rnd)
    gone = t.entries.first()
    services.withdraw_entry(entry=gone)
    assert overrides.snapshot(rnd) == before
    gone.refresh_from_db()
    assert gone.withdrawn_after == 1


def test_the_last_one_left_gets_the_bye():
    t, rnd = _event(n=2)
    gone, stays = t.entries.all()
    services.withdraw_entry(entry=gone)
    assert overrides.snapshot(rnd) == {"tables": [], "byes": [stays.pk]}


def test_the_withdraw_api_pairs_the_round_again(api_client):
    t, rnd = _event()
    gone_id = overrides.snapshot(rnd)["tables"][0][0]
    api_client.force_authenticate(t.organiser)
    url = f"/api/tournaments/{t.pk}/entries/{gone_id}/withdraw/"
    assert api_client.post(url).status_code == 204
    assert gone_id not in _placed(rnd)
    again = api_client.post(url)
    assert again.status_code == 400 and again.json()["code"] == "already_withdrawn"
    other = tournament_with_bots(n=2)
    foreign = api_client.post(
        f"/api/tournaments/{t.pk}/entries/{other.entries.first().pk}/withdraw/"
    )
    assert foreign.status_code == 404


def test_only_the_organiser_withdraws_through_the_api(api_client):
    t, rnd = _event()
    entry = t.entries.first()
    api_client.force_authenticate(UserFactory())
    assert (
        api_client.post(f"/api/tournaments/{t.pk}/entries/{entry.pk}/withdraw/").status_code == 403
    )
    entry.refresh_from_db()
    assert not entry.withdrawn


def test_the_withdraw_page_says_the_round_is_paired_again_first(client):
    t, rnd = _event()
    seated = t.entries.get(pk=overrides.snapshot(rnd)["tables"][0][0])
    client.force_login(t.organiser)
    url = reverse("tournament-withdraw", args=[t.pk, seated.pk])
    asked = client.get(url).content.decode()
    assert "is paired but not started: it is paired again" in asked
    assert seated.pk in _placed(rnd)  # asking changes nothing
    client.post(url)
    assert seated.pk not in _placed(rnd)
    services.start_round(round_=rnd)
    other = t.entries.get(pk=overrides.snapshot(rnd)["tables"][0][0])
    asked = client.get(reverse("tournament-withdraw", args=[t.pk, other.pk])).content.decode()
    assert "paired again" not in asked  # started: nothing is re-paired
