"""The organiser's overrides of a paired round (tournaments.services.overrides): swap,
move, unpair, pair again (a different pairing), forbidden pairs, the log; and the page
forms that drive them (tournaments.views.rounds)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games.models import MatchStatus
from tests.games.factories import UserFactory, play_out
from tests.tournaments.factories import tournament_with_bots
from tournaments import services
from tournaments.models import (
    ForbiddenPairing,
    PairingChange,
    Round,
    RoundStatus,
    Table,
    TableStatus,
)
from tournaments.services import overrides, rounds

pytestmark = pytest.mark.django_db


def _event(n=4, **kwargs):
    organiser = UserFactory()
    kwargs.setdefault("config", {"table_size": 2, "rounds": 3})
    t = tournament_with_bots(n=n, auto_advance=False, organiser=organiser, **kwargs)
    rnd = services.start_tournament(tournament=t)
    return t, rnd, organiser


def _tables(rnd) -> list[list[int]]:
    return overrides.snapshot(rnd)["tables"]


def _finish(t):
    for table in Table.objects.filter(round__tournament=t, status=TableStatus.PLAYING):
        match = play_out(table.match)
        assert match.status == MatchStatus.FINISHED
        services.on_match_finished(match_id=match.pk)


# ---- swap --------------------------------------------------------------------------------
def test_swap_between_two_tables_is_logged():
    t, rnd, organiser = _event()
    (a, b), (c, d) = _tables(rnd)
    change = overrides.swap(round_=rnd, first=a, second=c, by=organiser)
    assert _tables(rnd) == [[c, b], [a, d]]
    assert change.kind == "swap" and change.changed_by == organiser
    assert change.before == {"tables": [[a, b], [c, d]], "byes": []}
    assert change.after == {"tables": [[c, b], [a, d]], "byes": []}


def test_swap_with_the_bye():
    t, rnd, organiser = _event(n=5)
    [bye] = overrides.snapshot(rnd)["byes"]
    (a, b), _other = _tables(rnd)
    overrides.swap(round_=rnd, first=bye, second=a, by=organiser)
    assert list(rnd.byes.values_list("entry_id", flat=True)) == [a]
    assert _tables(rnd)[0] == [bye, b]


@pytest.mark.parametrize("case", ["same", "started", "foreign", "both_byes", "junk"])
def test_swap_refusals_change_nothing(case):
    t, rnd, organiser = _event(n=6, config={"table_size": 3, "rounds": 2})
    (a, b, c), (d, e, f) = _tables(rnd)
    second = {"same": a, "foreign": None, "junk": "x"}.get(case, d)
    if case == "foreign":
        other, _r, _o = _event()
        second = other.entries.first().pk
    if case == "started":
        services.start_round(round_=rnd)
    if case == "both_byes":
        overrides.move(round_=rnd, entry=a, table=None, by=organiser)
        overrides.move(round_=rnd, entry=d, table=None, by=organiser)
    before, logged = overrides.snapshot(rnd), PairingChange.objects.count()
    with pytest.raises(ValidationError) as exc:
        overrides.swap(round_=rnd, first=a, second=second, by=organiser)
    assert exc.value.code == {
        "same": "same_entry", "started": "round_started", "foreign": "not_in_round",
        "both_byes": "nothing_to_swap", "junk": "invalid",
    }[case]  # fmt: skip
    assert overrides.snapshot(rnd) == before and PairingChange.objects.count() == logged


def test_an_elimination_bracket_is_not_changed_by_hand():
    t, rnd, organiser = _event(format="single_elimination", config={"table_size": 2})
    (a, _b), (c, _d) = _tables(rnd)
    with pytest.raises(ValidationError) as exc:
        overrides.swap(round_=rnd, first=a, second=c, by=organiser)
    assert exc.value.code == "bracket_fixed"


# ---- move --------------------------------------------------------------------------------
def test_move_to_another_table_and_to_the_bye():
    t, rnd, organiser = _event(n=7, config={"table_size": 3, "rounds": 2})
    tables = _tables(rnd)
    assert list(map(len, tables)) == [3, 2, 2]  # silk road seats 2-5
    moved = tables[0][1]
    change = overrides.move(round_=rnd, entry=moved, table=2, by=organiser)
    after = _tables(rnd)
    assert after[1] == [*tables[1], moved] and after[0] == [tables[0][0], tables[0][2]]
    assert sorted(rnd.tables.get(number=1).seats.values_list("index", flat=True)) == [0, 1]
    assert change.kind == "move" and change.before["tables"] == tables
    overrides.move(round_=rnd, entry=moved, table=None, by=organiser)
    assert overrides.snapshot(rnd)["byes"] == [moved]
    overrides.move(round_=rnd, entry=moved, table=1, by=organiser)
    assert overrides.snapshot(rnd)["byes"] == [] and _tables(rnd)[0][-1] == moved
    assert PairingChange.objects.filter(kind="move").count() == 3


def test_move_keeps_a_playable_table():
    t, rnd, organiser = _event()
    (a, _b), _other = _tables(rnd)
    with pytest.raises(ValidationError) as exc:
        overrides.move(round_=rnd, entry=a, table=2, by=organiser)
    assert exc.value.code == "table_too_small"
    with pytest.raises(ValidationError) as exc:
        overrides.move(round_=rnd, entry=a, table=9, by=organiser)
    assert exc.value.code == "no_such_table"
    assert not PairingChange.objects.exists()


# ---- unpair ------------------------------------------------------------------------------
def test_unpair_then_pair_next_round_pairs_it_again():
    t, rnd, organiser = _event()
    overrides.unpair(round_=rnd, by=organiser)
    t.refresh_from_db()
    assert t.current_round == 0 and not Round.objects.filter(tournament=t).exists()
    # The unpair stays in the log, by the round's number (its row is gone).
    (change,) = t.pairing_changes.filter(kind="unpair")
    assert change.round is None and change.round_number == 1 and change.changed_by == organiser
    assert len(change.before["tables"]) == 2 and change.after is None
    again = services.pair_next_round(tournament=t)
    assert again.number == 1 and again.status == RoundStatus.PAIRED and again.tables.count() == 2


def test_a_started_round_is_not_unpaired():
    t, rnd, organiser = _event()
    services.start_round(round_=rnd)
    with pytest.raises(ValidationError) as exc:
        overrides.unpair(round_=rnd, by=organiser)
    assert exc.value.code == "round_started"
    assert Round.objects.filter(pk=rnd.pk).exists()


# ---- pair again --------------------------------------------------------------------------
def test_pair_again_gives_a_different_swiss_pairing_and_logs_it():
    t, rnd, organiser = _event(n=6)
    before = overrides.snapshot(rnd)
    rounds.repair_round(round_=rnd, by=organiser)
    after = overrides.snapshot(rnd)
    shape = lambda s: {frozenset(x) for x in s["tables"]}  # noqa: E731
    assert shape(after) != shape(before)
    change = PairingChange.objects.get(kind="repair")
    assert change.before == before and change.after == after and change.changed_by == organiser


def test_pair_again_avoids_a_rematch_when_it_can_and_refuses_otherwise():
    t, rnd, organiser = _event(n=4)
    met = {frozenset(s) for s in _tables(rnd)}
    services.start_round(round_=rnd)
    _finish(t)
    second = services.pair_next_round(tournament=t)
    rounds.repair_round(round_=second, by=organiser)  # one other pairing without a rematch
    now = {frozenset(s) for s in _tables(second)}
    assert not now & met
    services.start_round(round_=second)
    _finish(t)
    third = services.pair_next_round(tournament=t)  # the only pairing left without a rematch
    before = overrides.snapshot(third)
    with pytest.raises(ValidationError) as exc:
        rounds.repair_round(round_=third, by=organiser)
    assert exc.value.code == "no_other_pairing"
    assert overrides.snapshot(third) == before


def test_pair_again_undoes_a_swap():
    t, rnd, organiser = _event()
    own = overrides.snapshot(rnd)
    (a, _b), (c, _d) = own["tables"]
    overrides.swap(round_=rnd, first=a, second=c, by=organiser)
    rounds.repair_round(round_=rnd, by=organiser)
    shape = lambda s: {frozenset(x) for x in s["tables"]}  # noqa: E731
    assert shape(overrides.snapshot(rnd)) != shape({"tables": [[c, _b], [a, _d]]})


def test_a_round_robin_round_has_no_other_pairing():
    t, rnd, organiser = _event(format="round_robin", config={"table_size": 2})
    with pytest.raises(ValidationError) as exc:
        rounds.repair_round(round_=rnd, by=organiser)
    assert exc.value.code == "no_other_pairing"


# ---- forbidden pairs ---------------------------------------------------------------------
def test_forbidden_pairs_are_added_refused_and_removed():
    t, rnd, organiser = _event()
    a, b = t.entries.values_list("pk", flat=True)[:2]
    made = overrides.add_forbidden(tournament=t, first=a, second=b)
    with pytest.raises(ValidationError) as exc:
        overrides.add_forbidden(tournament=t, first=b, second=a)
    assert exc.value.code == "already_forbidden"
    with pytest.raises(ValidationError) as exc:
        overrides.add_forbidden(tournament=t, first=a, second=a)
    assert exc.value.code == "same_entry"
    other, _r, _o = _event()
    with pytest.raises(ValidationError) as exc:
        overrides.add_forbidden(tournament=t, first=a, second=other.entries.first().pk)
    assert exc.value.code == "not_an_entrant"
    overrides.remove_forbidden(tournament=t, pairing_id=made.pk)
    assert not ForbiddenPairing.objects.exists()


def test_a_forbidden_pair_is_kept_apart_when_paired_again():
    t, rnd, organiser = _event()
    (a, b), _other = _tables(rnd)
    overrides.add_forbidden(tournament=t, first=a, second=b)
    rounds.repair_round(round_=rnd, by=organiser)
    assert {a, b} not in [set(s) for s in _tables(rnd)]


# ---- the pages ---------------------------------------------------------------------------
def test_the_page_shows_the_controls_and_its_forms_work(client):
    t, rnd, organiser = _event(n=5)
    client.force_login(organiser)
    page = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    for element in (
        'id="swap-form"',
        'id="swap-first"',
        'id="move-form"',
        'id="unpair"',
        'id="repair"',
        'id="start-round"',
        'id="forbidden-form"',
        'id="pairing-log"',
    ):
        assert element in page  # fmt: skip
    (a, b), (c, d) = _tables(rnd)
    url = reverse("round-swap", args=[t.pk, 1])
    assert client.post(url, {"first": a, "second": c}).status_code == 302
    assert _tables(rnd) == [[c, b], [a, d]]
    [bye] = overrides.snapshot(rnd)["byes"]
    client.post(reverse("round-move", args=[t.pk, 1]), {"entry": bye, "table": "bye"})  # refused
    client.post(reverse("round-move", args=[t.pk, 1]), {"entry": bye, "table": "1"})
    assert _tables(rnd)[0] == [c, b, bye]
    client.post(reverse("tournament-forbidden-add", args=[t.pk]), {"first": a, "second": b})
    assert ForbiddenPairing.objects.filter(tournament=t).count() == 1
    page = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    assert page.count('class="change kind-') == 2  # the log: swap, move
    # Final actions ask first: GET shows what happens, POST acts.
    asked = client.get(reverse("round-unpair", args=[t.pk, 1]))
    assert asked.status_code == 200 and b'id="confirm"' in asked.content
    assert Round.objects.filter(pk=rnd.pk).exists()
    client.post(reverse("round-unpair", args=[t.pk, 1]))
    assert not Round.objects.filter(tournament=t).exists()


def test_start_and_pair_again_ask_first_on_the_page(client):
    t, rnd, organiser = _event(n=6)
    client.force_login(organiser)
    for name in ("round-repair", "round-start"):
        asked = client.get(reverse(name, args=[t.pk, 1]))
        assert asked.status_code == 200 and b'id="confirm"' in asked.content
    before = overrides.snapshot(rnd)
    client.post(reverse("round-repair", args=[t.pk, 1]))
    assert overrides.snapshot(rnd) != before
    client.post(reverse("round-start", args=[t.pk, 1]))
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.RUNNING
    page = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    assert 'id="swap-form"' not in page  # started: no more overrides


def test_others_may_not_use_the_controls(client):
    t, rnd, organiser = _event()
    client.force_login(UserFactory())
    (a, _b), (c, _d) = _tables(rnd)
    assert (
        client.post(reverse("round-swap", args=[t.pk, 1]), {"first": a, "second": c}).status_code
        == 403
    )  # noqa: E501
    assert client.get(reverse("round-unpair", args=[t.pk, 1])).status_code == 403
    page = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    assert 'id="swap-form"' not in page and 'id="pairing-log"' not in page
