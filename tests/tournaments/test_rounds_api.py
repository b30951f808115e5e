"""The rounds API (tournaments.api.rounds): pair, start, swap, unpair, the pairing log;
each refusal a 4xx that changes nothing."""

import pytest

from tests.games.factories import UserFactory
from tests.tournaments.factories import tournament_with_bots
from tournaments import services
from tournaments.models import PairingChange, Round, RoundStatus
from tournaments.services import overrides

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(api_client):
    """A started Swiss of 5 with auto_advance off: round 1 paired, not started."""
    t = tournament_with_bots(n=5, config={"table_size": 2, "rounds": 3}, auto_advance=False,
                             organiser=UserFactory())  # fmt: skip
    services.start_tournament(tournament=t)
    api_client.force_authenticate(t.organiser)
    return t, f"/api/tournaments/{t.pk}/rounds/"


def _round(t, n=1) -> Round:
    return Round.objects.get(tournament=t, number=n)


def test_the_tournament_says_auto_advance_and_the_round_its_status(api_client, event):
    t, base = event
    assert api_client.get(f"/api/tournaments/{t.pk}/").json()["auto_advance"] is False
    got = api_client.get(f"{base}1/")
    assert got.status_code == 200 and got.json()["status"] == "paired"
    assert api_client.get(base).json()[0]["status"] == "paired"


def test_unpair_then_pair_the_next_round(api_client, event):
    t, base = event
    assert api_client.delete(f"{base}1/").status_code == 204
    t.refresh_from_db()
    assert t.current_round == 0 and not t.rounds.exists()
    made = api_client.post(base)
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["number"] == 1 and body["status"] == "paired" and len(body["tables"]) == 2


def test_pairing_while_a_round_is_open_is_refused(api_client, event):
    t, base = event
    refused = api_client.post(base)
    assert refused.status_code == 400 and refused.json()["code"] == "round_not_finished"
    assert t.rounds.count() == 1


def test_start_a_paired_round(api_client, event):
    t, base = event
    started = api_client.post(f"{base}1/start/")
    assert started.status_code == 200 and started.json()["status"] == "running"
    again = api_client.post(f"{base}1/start/")  # already running
    assert again.status_code == 400 and again.json()["code"] == "round_started"
    assert api_client.post(f"{base}2/start/").status_code == 404  # no such round
    assert not t.rounds.filter(number=2).exists()


def test_swap_is_logged_and_listed(api_client, event):
    t, base = event
    shot = overrides.snapshot(_round(t))
    (a, b), (c, d) = shot["tables"]
    [bye] = shot["byes"]
    done = api_client.post(f"{base}1/swap/", {"entries": [a, c]}, format="json")
    assert done.status_code == 200, done.content
    assert [[s["entry"] for s in table["seats"]] for table in done.json()["tables"]] == [
        [c, b], [a, d],
    ]  # fmt: skip
    with_bye = api_client.post(f"{base}1/swap/", {"entries": [bye, d]}, format="json")
    assert with_bye.status_code == 200
    assert overrides.snapshot(_round(t)) == {"tables": [[c, b], [a, bye]], "byes": [d]}
    log = api_client.get(f"/api/tournaments/{t.pk}/pairing-log/").json()
    assert [c["kind"] for c in log] == ["swap", "swap"]
    assert log[1]["before"] == shot and log[0]["by"] == t.organiser.username


@pytest.mark.parametrize(
    "body, code",
    [
        ({"entries": "same"}, "same_entry"),
        ({"entries": "foreign"}, "not_in_round"),
        ({"entries": [1]}, None),
        ({"entries": ["x", "y"]}, None),
        ({"wrong": [1, 2]}, None),
        ("[1, 2]", None),
    ],
)
def test_bad_swaps_are_400_and_change_nothing(api_client, event, body, code):
    t, base = event
    before = overrides.snapshot(_round(t))
    a = before["tables"][0][0]
    if body == {"entries": "same"}:
        body = {"entries": [a, a]}
    elif body == {"entries": "foreign"}:  # an entry of another tournament
        other = tournament_with_bots(n=2)
        body = {"entries": [a, other.entries.first().pk]}
    if isinstance(body, str):
        answer = api_client.post(f"{base}1/swap/", body, content_type="application/json")
    else:
        answer = api_client.post(f"{base}1/swap/", body, format="json")
    assert answer.status_code == 400, answer.content
    if code:
        assert answer.json()["code"] == code
    assert overrides.snapshot(_round(t)) == before and not PairingChange.objects.exists()


def test_a_started_round_is_neither_swapped_nor_unpaired(api_client, event):
    t, base = event
    services.start_round(round_=_round(t))
    before = overrides.snapshot(_round(t))
    (a, _b), (c, _d) = before["tables"]
    swap = api_client.post(f"{base}1/swap/", {"entries": [a, c]}, format="json")
    assert swap.status_code == 400 and swap.json()["code"] == "round_started"
    unpair = api_client.delete(f"{base}1/")
    assert unpair.status_code == 400 and unpair.json()["code"] == "round_started"
    assert overrides.snapshot(_round(t)) == before and _round(t).status == RoundStatus.RUNNING


def test_only_the_organiser_controls_rounds(api_client, event):
    t, base = event
    api_client.force_authenticate(UserFactory())
    (a, _b), (c, _d) = overrides.snapshot(_round(t))["tables"]
    assert api_client.post(base).status_code == 403
    assert api_client.delete(f"{base}1/").status_code == 403
    assert api_client.post(f"{base}1/start/").status_code == 403
    assert api_client.post(f"{base}1/swap/", {"entries": [a, c]}, format="json").status_code == 403
    assert api_client.get(f"/api/tournaments/{t.pk}/pairing-log/").status_code == 403
    assert _round(t).status == RoundStatus.PAIRED
