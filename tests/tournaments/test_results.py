"""Typed-in results: validation per game, corrections (log, standings, ratings), reports."""

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied, ValidationError

from games.engines.registry import get_engine
from games.models import Match, MatchStatus, Seat
from games.services import record_offline_match
from ratings import services as rating_services
from ratings.models import AppliedMatch, Rating, RatingChange
from tests.games.factories import HumanPlayerFactory, UserFactory
from tests.tournaments.result_fixtures import apply_ratings, club_event, next_round, tables_of
from tournaments import selectors
from tournaments.models import ReportStatus, ResultChange, ResultReport, TableStatus
from tournaments.services import results

pytestmark = pytest.mark.django_db


def _points(t) -> dict[str, float]:
    t.refresh_from_db()
    return {row["player"]: row["points"] for row in selectors.standings(t)}


# ---- validation -----------------------------------------------------------------
def test_engines_declare_their_score_bounds():
    assert get_engine("silkroad").score_bounds(2) == (0, 200)
    assert get_engine("yspahan").score_bounds(4) == (0, 500)
    # The Great Wall's plague takes points away: 10 warriors (3) and 5 peasants (1) per player.
    assert get_engine("greatwall").score_bounds(2) == (-70, 70)
    assert get_engine("greatwall").score_bounds(4) == (-140, 140)


@pytest.mark.parametrize(
    "scores, tiebreak, field",
    [
        ([-50, 3], [1, 2], "scores"),
        ([1e300, 3], [1, 2], "scores"),
        ([0.5, 3], [1, 2], "scores"),
        ([True, 3], [1, 2], "scores"),
        (["7", 3], [1, 2], "scores"),
        ([201, 3], [1, 2], "scores"),
        ([float("nan"), 3], [1, 2], "scores"),
        ([4, 3, 2], [1, 2], "scores"),  # three scores at a table of two
        ([4, 3], [2, 2], "tiebreak"),  # two players cannot hold the same camel driver
        ([4, 3], [1.5, 2], "tiebreak"),
        ([4, 3], None, "tiebreak"),  # Silk Road ties are broken by the driver
    ],
)
def test_invalid_silk_road_results_change_nothing(scores, tiebreak, field):
    t, _ = club_event()
    table = tables_of(t, 1)[0]
    with pytest.raises(ValidationError) as err:
        results.set_result(table=table, scores=scores, tiebreak=tiebreak, by=t.organiser)
    assert field in err.value.message_dict
    table.refresh_from_db()
    assert table.result is None and table.status == TableStatus.PLAYING
    assert not ResultChange.objects.exists() and not Match.objects.exists()


def test_places_given_must_follow_from_the_scores():
    t, _ = club_event()
    table = tables_of(t, 1)[0]
    with pytest.raises(ValidationError) as err:
        results.set_result(table=table, scores=[30, 10], tiebreak=[1, 2], ranks=[2, 1],
                           by=t.organiser)  # fmt: skip
    assert "1, 2" in err.value.message_dict["ranks"][0]
    results.set_result(table=table, scores=[30, 10], tiebreak=[1, 2], ranks=[1, 2], by=t.organiser)
    table.refresh_from_db()
    assert table.result["ranks"] == [1, 2]


def test_tie_breaks_decide_equal_scores_only_where_the_rules_have_one():
    t, _ = club_event()
    table = tables_of(t, 1)[0]
    # Silk Road: equal points, the higher camel driver wins.
    results.set_result(table=table, scores=[20, 20], tiebreak=[2, 5], by=t.organiser)
    table.refresh_from_db()
    assert table.result["ranks"] == [2, 1] and table.result["tiebreak"] == [2, 5]
    y, _ = club_event(game="yspahan")
    ytable = tables_of(y, 1)[0]
    with pytest.raises(ValidationError) as err:  # Yspahan has none: ties share the place
        results.set_result(table=ytable, scores=[20, 20], tiebreak=[1, 2], by=y.organiser)
    assert "tiebreak" in err.value.message_dict
    results.set_result(table=ytable, scores=[20, 20.0], by=y.organiser)
    ytable.refresh_from_db()
    assert ytable.result["ranks"] == [1, 1] and ytable.result["scores"] == [20, 20]


def test_great_wall_scores_may_be_negative_within_the_bound():
    t, _ = club_event(game="greatwall")
    table = tables_of(t, 1)[0]
    with pytest.raises(ValidationError):
        results.set_result(table=table, scores=[-71, 3], by=t.organiser)
    results.set_result(table=table, scores=[-12, 3], by=t.organiser)
    table.refresh_from_db()
    assert table.result["ranks"] == [2, 1]


def test_an_online_table_has_no_typed_in_result():
    t, _ = club_event()
    t.over_the_board = False
    t.save()
    with pytest.raises(ValidationError, match="online match"):
        results.set_result(table=tables_of(t, 1)[0], scores=[1, 2], tiebreak=[1, 2],
                           by=t.organiser)  # fmt: skip


# ---- corrections -------------------------------------------------------------------
def test_a_correction_is_logged_and_the_standings_follow():
    t, players = club_event(format="league")
    table = tables_of(t, 1)[0]
    names = [s.entry.player.name for s in table.seats.select_related("entry__player")]
    assert results.set_result(table=table, scores=[30, 10], tiebreak=[1, 2], by=t.organiser)[1]
    assert _points(t)[names[0]] == 1 and _points(t)[names[1]] == 0
    corrector = UserFactory(is_staff=True)
    corrector.user_permissions.add(Permission.objects.get(codename="change_tournament"))
    table, changed = results.set_result(table=table, scores=[10, 30], tiebreak=[1, 2], by=corrector)
    assert changed and table.result["ranks"] == [2, 1]
    assert _points(t)[names[0]] == 0 and _points(t)[names[1]] == 1
    log = list(ResultChange.objects.filter(table=table))
    assert [c.kind for c in log] == ["entered", "corrected"]
    assert log[0].changed_by == t.organiser and log[0].before is None
    assert log[1].changed_by == corrector
    assert log[1].before["scores"] == [30, 10] and log[1].after["scores"] == [10, 30]
    # The match keeps its place in the history and takes the corrected outcome.
    match = Match.objects.get(table=table)
    assert match.outcome["ranks"] == [2, 1] and match.outcome["scores"] == [10, 30]
    assert list(Seat.objects.filter(match=match).order_by("index").values_list("rank", "score")) == [
        (2, 10), (1, 30)
    ]  # fmt: skip


def test_the_same_result_again_changes_nothing():
    t, _ = club_event()
    table = tables_of(t, 1)[0]
    results.set_result(table=table, scores=[30, 10], tiebreak=[1, 2], by=t.organiser)
    version = type(t).objects.get(pk=t.pk).results_version
    _table, changed = results.set_result(table=table, scores=[30, 10.0], tiebreak=[1, 2],
                                         by=t.organiser)  # fmt: skip
    assert not changed
    assert ResultChange.objects.filter(table=table).count() == 1
    assert type(t).objects.get(pk=t.pk).results_version == version


def test_swiss_correction_after_the_next_round_keeps_its_pairings():
    t, _ = club_event(n=4, rounds=3)
    for table in tables_of(t, 1):
        results.set_result(table=table, scores=[30, 10], tiebreak=[1, 2], by=t.organiser)
    next_round(t)
    pairings = [[s.entry_id for s in tb.seats.all()] for tb in tables_of(t, 2)]
    before = _points(t)
    first = tables_of(t, 1)[0]
    results.set_result(table=first, scores=[10, 30], tiebreak=[1, 2], by=t.organiser)
    after = _points(t)
    assert before != after and sum(after.values()) == sum(before.values())
    assert [[s.entry_id for s in tb.seats.all()] for tb in tables_of(t, 2)] == pairings
    assert t.rounds.count() == 2  # nothing re-paired


def test_a_bracket_correction_cannot_change_who_went_on():
    t, _ = club_event(n=4, format="single_elimination")
    for table in tables_of(t, 1):
        results.set_result(table=table, scores=[30, 10], tiebreak=[1, 2], by=t.organiser)
    next_round(t)
    first = tables_of(t, 1)[0]
    with pytest.raises(ValidationError, match="already paired"):
        results.set_result(table=first, scores=[10, 30], tiebreak=[1, 2], by=t.organiser)
    first.refresh_from_db()
    assert first.result["scores"] == [30, 10]
    # The scores of the table may still be corrected while the winner stays.
    results.set_result(table=first, scores=[31, 10], tiebreak=[1, 2], by=t.organiser)
    first.refresh_from_db()
    assert first.result["scores"] == [31, 10]


def test_a_forfeit_can_be_corrected_into_a_played_result():
    t, _ = club_event()
    table = tables_of(t, 1)[0]
    loser = table.seats.get(index=0).entry
    assert results.record_forfeit(table=table, entry=loser, by=t.organiser)
    results.set_result(table=table, scores=[30, 10], tiebreak=[1, 2], by=t.organiser)
    table.refresh_from_db()
    assert table.result["forfeited"] == [False, False] and table.match.outcome["ranks"] == [1, 2]
    assert [c.kind for c in ResultChange.objects.filter(table=table)] == ["forfeit", "corrected"]


def _ratings() -> dict:
    return {
        (r.pool_id, r.player_id, r.system): (round(r.value, 9), r.mu and round(r.mu, 9),
                                             r.sigma and round(r.sigma, 9), r.games)
        for r in Rating.objects.all()
    }  # fmt: skip


def test_ratings_after_a_correction_equal_a_recompute_with_the_corrected_result():
    t, players = club_event(n=6, rounds=3)
    assert t.rated
    for table in tables_of(t, 1):
        results.set_result(table=table, scores=[30, 10], tiebreak=[1, 2], by=t.organiser)
    apply_ratings(t)
    next_round(t)
    for table in tables_of(t, 2):
        results.set_result(table=table, scores=[25, 12], tiebreak=[3, 4], by=t.organiser)
    apply_ratings(t)
    # A later rated game outside the tournament, still waiting for its rating (no task ran).
    record_offline_match(game="silkroad", players=players[:3], ranks=[3, 1, 2],
                         scores=[1, 9, 5], rated=True)  # fmt: skip
    before = _ratings()
    first = tables_of(t, 1)[0]
    results.set_result(table=first, scores=[10, 30], tiebreak=[1, 2], by=t.organiser)
    corrected = _ratings()
    assert corrected != before
    # Every finished rated match is in the pool exactly once.
    finished = Match.objects.filter(rated=True, status=MatchStatus.FINISHED).count()
    assert AppliedMatch.objects.count() == finished == 7
    changes = RatingChange.objects.filter(match=first.match_id, system="elo")
    assert {c.player_id: c.rank for c in changes} == {
        s.entry.player_id: rank
        for s, rank in zip(
            first.seats.select_related("entry").order_by("index"), [2, 1], strict=True
        )
    }
    for pool in {p for (p, _, _) in corrected}:
        rating_services.recompute(pool=type(changes.first().pool).objects.get(pk=pool))
    assert _ratings() == corrected


def test_replay_from_the_first_match_equals_recompute_of_a_longer_history():
    """The replay alone (no tournament): ratings equal a recompute from scratch."""
    from ratings import replay

    players = [HumanPlayerFactory() for _ in range(5)]
    matches = [
        record_offline_match(game="yspahan", players=players[i % 3 : i % 3 + 3],
                             ranks=[1 + (i % 3), 1 + ((i + 1) % 3), 1 + ((i + 2) % 3)], rated=True)
        for i in range(9)
    ]  # fmt: skip
    for m in matches:
        rating_services.on_match_finished(match_id=m.pk)
    target = matches[4]
    Match.objects.filter(pk=target.pk).update(outcome={**target.outcome, "ranks": [3, 2, 1]})
    pool = rating_services.default_pool("yspahan")
    assert replay.replay_from(pool=pool, match=target) == 5
    replayed = _ratings()
    rating_services.recompute(pool=pool)
    assert _ratings() == replayed
    # Changes of the matches before the corrected one were not rewritten.
    assert RatingChange.objects.filter(match__in=matches[:4]).count() == 4 * 3 * 2


# ---- reports by the players ---------------------------------------------------------
def test_a_report_counts_once_the_other_player_confirms():
    t, players = club_event()
    table = tables_of(t, 1)[0]
    seated = [s.entry.player.user for s in table.seats.select_related("entry__player__user")]
    report = results.report_result(table=table, by=seated[0], scores=[12, 20], tiebreak=[5, 4])
    assert report.status == ReportStatus.PENDING
    table.refresh_from_db()
    assert table.result is None
    with pytest.raises(ValidationError, match="already agreed"):
        results.confirm_report(report=report, by=seated[0])
    stranger = next(p.user for p in players if p.user not in seated)
    with pytest.raises(PermissionDenied):
        results.confirm_report(report=report, by=stranger)
    with pytest.raises(PermissionDenied):
        results.report_result(table=table, by=stranger, scores=[1, 2], tiebreak=[1, 2])
    report = results.confirm_report(report=report, by=seated[1])
    assert report.status == ReportStatus.CONFIRMED and report.decided_by == seated[1]
    table.refresh_from_db()
    assert table.result["ranks"] == [2, 1] and table.status == TableStatus.FINISHED
    change = ResultChange.objects.get(table=table)
    assert change.kind == "reported" and change.changed_by == seated[0] and change.report == report
    with pytest.raises(ValidationError, match="already has a result"):
        results.report_result(table=table, by=seated[1], scores=[12, 20], tiebreak=[5, 4])


def test_at_a_table_of_three_every_other_player_must_confirm():
    t, _ = club_event(n=3, format="league", table_size=3)
    table = tables_of(t, 1)[0]
    seated = [s.entry.player.user for s in table.seats.select_related("entry__player__user")]
    report = results.report_result(table=table, by=seated[0], scores=[12, 20, 3],
                                   tiebreak=[5, 4, 1])  # fmt: skip
    report = results.confirm_report(report=report, by=seated[1])
    assert report.status == ReportStatus.PENDING and sorted(report.confirmed_entries) == sorted(
        s.entry_id for s in table.seats.all()[:2]
    )
    report = results.confirm_report(report=report, by=seated[2])
    assert report.status == ReportStatus.CONFIRMED


def test_the_organiser_confirms_or_rejects_and_his_own_entry_replaces_reports():
    t, _ = club_event()
    first, second = tables_of(t, 1)
    seated = [s.entry.player.user for s in first.seats.select_related("entry__player__user")]
    report = results.report_result(table=first, by=seated[0], scores=[12, 20], tiebreak=[5, 4])
    assert results.confirm_report(report=report, by=t.organiser).status == ReportStatus.CONFIRMED
    log = ResultChange.objects.get(table=first)
    assert log.changed_by == seated[0] and log.report.decided_by == t.organiser

    other = [s.entry.player.user for s in second.seats.select_related("entry__player__user")]
    rejected = results.report_result(table=second, by=other[0], scores=[1, 2], tiebreak=[1, 2])
    assert results.reject_report(report=rejected, by=t.organiser).status == ReportStatus.REJECTED
    with pytest.raises(ValidationError, match="no longer waiting"):
        results.confirm_report(report=rejected, by=other[1])
    waiting = results.report_result(table=second, by=other[0], scores=[3, 2], tiebreak=[1, 2])
    results.set_result(table=second, scores=[30, 10], tiebreak=[1, 2], by=t.organiser)
    waiting.refresh_from_db()
    assert waiting.status == ReportStatus.SUPERSEDED
    assert ResultReport.objects.filter(status=ReportStatus.PENDING).count() == 0
