"""Results: a table's result recorded (from its match, typed in, or a forfeit), corrected
and reported by the players.

Every change of a typed-in table's result is logged (`ResultChange`: who, when, before,
after). A correction changes the table's result and its match's outcome; the standings
follow (they are computed from the tables' results at every results version). Later
rounds stay as they were paired and played: a Swiss pairs each round from the standings
of its day, and pairing it again would undo games already played. In an elimination
bracket a correction may not change who goes on once the next round is paired (the
bracket has moved on); the scores of such a table may still be corrected. Rated matches:
every pool that counts the match is replayed from it on (`ratings.replay`), so the
ratings equal those of a recompute of the whole history with the corrected result.

A result typed on the wrong table may be deleted (`clear_result`) until the next round is
paired: the table plays again and its match leaves the history and the ratings.

Seated players may report their own table's result; it counts once the organiser, or
every other seated player, confirms it.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core import permissions
from games import services as game_services
from games.engines.base import InvalidOptions
from games.engines.registry import get_engine
from games.models import Match, Seat
from tournaments.models import (
    Entry,
    ReportStatus,
    ResultChange,
    ResultChangeKind,
    ResultReport,
    Round,
    RoundStatus,
    Table,
    TableStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.services import entrants, notices, versions


def record_result(*, table: Table, ranks: list[int], scores: list | None = None,
                  forfeited: list[bool] | None = None) -> bool:  # fmt: skip
    """Record a table's result once; returns False if it already had one."""
    with transaction.atomic():
        t = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
        if t.status == TableStatus.FINISHED:
            return False
        n = t.seats.count()
        if len(ranks) != n or any(not 1 <= r <= n for r in ranks):
            raise ValidationError(
                gettext("Give one finishing place from 1 to %(n)s per seat.") % {"n": n}
            )
        t.result = {"ranks": list(ranks), "scores": list(scores) if scores else None,
                    "forfeited": list(forfeited) if forfeited else [False] * n}  # fmt: skip
        t.status, t.finished_at = TableStatus.FINISHED, timezone.now()
        t.save(update_fields=["result", "status", "finished_at"])
        versions.touch(t.round.tournament_id)
        _finish_round_if_done(t.round)
        return True


def _finish_round_if_done(rnd: Round) -> None:
    if rnd.tables.exclude(status=TableStatus.FINISHED).exists():
        return
    Round.objects.filter(pk=rnd.pk).update(status=RoundStatus.FINISHED, finished_at=timezone.now())
    versions.touch(rnd.tournament_id)
    if rnd.tournament.auto_advance:
        from tournaments import tasks  # tasks import services

        tournament_id = rnd.tournament_id
        transaction.on_commit(lambda: tasks.advance_tournament.delay(tournament_id))


def record_over_the_board_result(
    *, table: Table, scores: list[float], tiebreak: list[float] | None = None
) -> bool:
    """The organiser types in a game played at the club: ranks follow the game's rules."""
    t = table.round.tournament
    engine = get_engine(t.game)
    if not t.over_the_board:
        raise ValidationError(
            gettext("This table is an online match; its result comes from the match."),
            code="online_table",
        )
    seats = list(table.seats.select_related("entry__player").order_by("index"))
    if len(scores) != len(seats):
        raise ValidationError(gettext("Give one score per seat."))
    try:
        ranks = engine.ranks_from_result(
            list(scores), list(tiebreak) if tiebreak is not None else None
        )
    except InvalidOptions as exc:
        raise ValidationError(str(exc)) from None

    with transaction.atomic():
        # The status is checked under the row lock and the match made in the same
        # transaction: concurrent posts of one result wait here, then see it finished.
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if locked.status == TableStatus.FINISHED:
            return False
        # Stored as a finished match too, so ratings and player histories count it.
        match = game_services.record_offline_match(
            game=t.game, players=[s.entry.player for s in seats], ranks=ranks, scores=list(scores),
            rated=entrants.rated_table(t.rated, [s.entry.player for s in seats]),
            created_by=t.organiser, variant=t.variant,
        )  # fmt: skip
        locked.match = match
        locked.save(update_fields=["match"])
        return record_result(table=locked, ranks=ranks, scores=scores)


def _forfeit_seat(*, table: Table, entry: Entry, by) -> bool:
    """The organiser declares a seat forfeited: it ranks last, the others share first place;
    a running match at the table is aborted."""
    seats = list(table.seats.order_by("index"))
    if entry.pk not in [s.entry_id for s in seats]:
        raise ValidationError(
            gettext("That entrant does not sit at this table."), code="not_seated"
        )
    if table.match_id is not None and table.match.status == "running":
        game_services.abort_match(match_id=table.match_id, user=by)
    n = len(seats)
    forfeited = [s.entry_id == entry.pk for s in seats]
    ranks = [n if f else 1 for f in forfeited]
    return record_result(table=table, ranks=ranks, forfeited=forfeited)


def on_match_finished(*, match_id: int) -> bool:
    """A tournament match ended: its table takes the result (idempotent)."""
    table = Table.objects.filter(match_id=match_id).select_related("match").first()
    if table is None or table.match.outcome is None:
        return False
    outcome = table.match.outcome
    return record_result(table=table, ranks=outcome["ranks"], scores=outcome.get("scores"),
                         forfeited=outcome.get("forfeited"))  # fmt: skip


BRACKET_FORMATS = ("single_elimination", "double_elimination")


# ---- who plays where (who may manage: core.permissions) --------------------------
def own_entries(user, table: Table) -> list[int]:
    """The entries at `table` whose player is `user` (a user is one player)."""
    if user is None or not user.is_authenticated:
        return []
    return [s.entry_id for s in table.seats.all() if s.entry.player.user_id == user.pk]


# ---- checking a typed-in result -------------------------------------------------
def _whole(value) -> int | None:
    """`value` as an int if it is a whole number (3 or 3.0), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def score_message(game: str, players: int) -> str:
    engine = get_engine(game)
    low, high = engine.score_bounds(players)
    return gettext("Scores are whole numbers from %(low)s to %(high)s.") % {
        "low": low,
        "high": high,
    }


def check_result(
    *, table: Table, scores, tiebreak=None, ranks=None, seats: int | None = None
) -> dict:
    """The result as stored (ranks, scores, tiebreak, forfeited) if it is one the game's
    rules allow at this table; ValidationError with the reason otherwise."""
    game = table.round.tournament.game
    engine = get_engine(game)
    n = seats if seats is not None else table.seats.count()
    if not isinstance(scores, list | tuple) or len(scores) != n:
        raise ValidationError({"scores": gettext("Give one score per seat (%(n)s).") % {"n": n}})
    low, high = engine.score_bounds(n)
    whole = [_whole(s) for s in scores]
    if any(w is None or not low <= w <= high for w in whole):
        raise ValidationError({"scores": score_message(game, n)})
    if tiebreak in ([], None):
        tiebreak = None
    if tiebreak is not None:
        if engine.tiebreak_label is None:
            raise ValidationError(
                {"tiebreak": gettext("This game has no tie-break: equal scores share a place.")}
            )
        if not isinstance(tiebreak, list | tuple) or any(_whole(v) is None for v in tiebreak):
            raise ValidationError({"tiebreak": gettext("Tie-break values are whole numbers.")})
        tiebreak = [_whole(v) for v in tiebreak]
    try:
        computed = engine.ranks_from_result(whole, tiebreak)
    except InvalidOptions as exc:
        raise ValidationError({"tiebreak": str(exc)}) from None
    if ranks is not None and list(ranks) != list(computed):
        raise ValidationError(
            {
                "ranks": gettext(
                    "These places do not follow from the scores; by the rules they are %(ranks)s."
                )
                % {"ranks": ", ".join(map(str, computed))}
            }
        )
    return {"ranks": computed, "scores": whole, "tiebreak": tiebreak, "forfeited": [False] * n}


def _same(a: dict | None, b: dict | None) -> bool:
    keys = ("ranks", "scores", "tiebreak", "forfeited")
    return a is not None and b is not None and all(a.get(k) == b.get(k) for k in keys)


def _typed_in(table: Table) -> Tournament:
    t = table.round.tournament
    if not t.over_the_board:
        raise ValidationError(
            gettext("This table is an online match; its result comes from the match."),
            code="online_table",
        )
    return t


# ---- entering and correcting (the organiser) ------------------------------------
def enter_result(*, table: Table, scores, tiebreak=None, ranks=None, by=None, report=None) -> bool:
    """The first result of a table; False if it already had one (nothing changes)."""
    _typed_in(table)
    result = check_result(table=table, scores=scores, tiebreak=tiebreak, ranks=ranks)
    with transaction.atomic():
        recorded = record_over_the_board_result(
            table=table, scores=result["scores"], tiebreak=result["tiebreak"]
        )
        if not recorded:
            return False
        Table.objects.filter(pk=table.pk).update(result=result)
        ResultChange.objects.create(
            table_id=table.pk, changed_by=by, before=None, after=result, report=report,
            kind=ResultChangeKind.REPORTED if report else ResultChangeKind.ENTERED,
        )  # fmt: skip
        _supersede_reports(table.pk, keep=report)
    return True


def record_forfeit(*, table: Table, entry, by) -> bool:
    """The existing forfeit, logged."""
    with transaction.atomic():
        recorded = _forfeit_seat(table=table, entry=entry, by=by)
        if recorded:
            table.refresh_from_db()
            ResultChange.objects.create(table=table, changed_by=by, before=None,
                                        after=table.result, kind=ResultChangeKind.FORFEIT)  # fmt: skip
            _supersede_reports(table.pk)
    return recorded


def set_result(*, table: Table, scores, tiebreak=None, ranks=None, by=None) -> tuple[Table, bool]:
    """Enter or correct a table's result (the API's PUT); returns the table and whether
    anything changed. Same result again: no change, nothing logged."""
    _typed_in(table)
    result = check_result(table=table, scores=scores, tiebreak=tiebreak, ranks=ranks)
    with transaction.atomic():
        locked = (
            Table.objects.select_for_update(of=("self",))
            .select_related("round__tournament", "match")
            .get(pk=table.pk)
        )
        if locked.status != TableStatus.FINISHED:
            changed = enter_result(table=locked, scores=scores, tiebreak=tiebreak, by=by)
            locked.refresh_from_db()
            return locked, changed
        before = locked.result
        if _same(before, result):
            return locked, False
        t = locked.round.tournament
        _check_bracket(locked, before, result)
        rescored = _rescore_match(locked, t, result)
        locked.result = result
        locked.save(update_fields=["result"])
        change = ResultChange.objects.create(table=locked, changed_by=by, before=before,
                                             after=result, kind=ResultChangeKind.CORRECTED)  # fmt: skip
        notices.after_commit(notices.result_corrected, locked, change.pk)
        _supersede_reports(locked.pk)
        versions.touch(t.pk)
        if rescored is not None and rescored.rated:
            _replay_ratings(rescored)
        return locked, True


def _check_bracket(table: Table, before: dict | None, result: dict) -> None:
    t = table.round.tournament
    if (
        t.format in BRACKET_FORMATS
        and (before or {}).get("ranks") != result["ranks"]
        and Round.objects.filter(tournament=t, number__gt=table.round.number).exists()
    ):
        raise ValidationError(
            gettext(
                "The next round of the bracket is already paired: only the scores of "
                "this table can change, not who goes on."
            )
        )


def correction_preview(*, table: Table, scores, tiebreak=None, ranks=None) -> dict | None:
    """What ``set_result`` would do to a finished table (the page asks first): the result
    before and after and whether ratings are recomputed; None if nothing would change.
    Refused as set_result refuses (ValidationError), so a bad correction is the form's
    error, not a confirmation page."""
    t = _typed_in(table)
    result = check_result(table=table, scores=scores, tiebreak=tiebreak, ranks=ranks)
    before = table.result
    if _same(before, result):
        return None
    _check_bracket(table, before, result)
    match = table.match if table.match_id else None
    return {"before": before, "after": result,
            "rerated": bool(t.rated and match is not None and match.rated)}  # fmt: skip


def _rescore_match(table: Table, t: Tournament, result: dict) -> Match | None:
    """The table's match takes the corrected outcome (its place in the history stays);
    a table that was forfeited gets its match now. Returns the match whose ratings must be
    replayed, or None."""
    match = table.match
    if match is None:
        seats = list(table.seats.select_related("entry__player").order_by("index"))
        players = [s.entry.player for s in seats]
        table.match = game_services.record_offline_match(
            game=t.game, players=players, ranks=result["ranks"], scores=result["scores"],
            rated=entrants.rated_table(t.rated, players),  # guests are never rated
            created_by=t.organiser, variant=t.variant,
        )  # fmt: skip
        table.save(update_fields=["match"])
        return None  # a new match: rated when its end is announced, like any other
    outcome = dict(match.outcome or {})
    outcome.update(ranks=result["ranks"], engine_ranks=result["ranks"], scores=result["scores"],
                   forfeited=result["forfeited"])  # fmt: skip
    Match.objects.filter(pk=match.pk).update(outcome=outcome)
    for seat in Seat.objects.filter(match=match):
        seat.rank = result["ranks"][seat.index]
        seat.score = result["scores"][seat.index]
        seat.save(update_fields=["rank", "score"])
    match.outcome = outcome
    return match


def _replay_ratings(match: Match) -> None:
    from ratings import replay  # ratings depend on games, not on tournaments

    for pool in replay.pools_of(match):
        replay.replay_from(pool=pool, match=match)


# ---- deleting a result (typed on the wrong table) -------------------------------
def clear_refusal(table: Table) -> str | None:
    """Why the organiser may not delete the table's result now, or None if he may."""
    t = table.round.tournament
    if not t.over_the_board:
        return gettext("This table is an online match; its result comes from the match.")
    if table.status != TableStatus.FINISHED:
        return gettext("This table has no result to delete.")
    if t.status == TournamentStatus.CANCELLED:
        return gettext("The tournament is cancelled; correct the result instead.")
    later = Round.objects.filter(tournament=t, number__gt=table.round.number).order_by("number")
    if (paired := later.first()) is not None:
        # The later round was paired from standings that counted this result.
        return gettext("%(round)s is already paired from this result; correct it instead.") % {
            "round": paired
        }
    return None


def clear_result(*, table: Table, by) -> Table:
    """Delete a finished table's result: the table plays again as before its first entry
    (its round and a finished tournament run again), its match is gone from the history
    and the ratings are replayed without it; logged. Only before a later round is paired:
    after that, the result is corrected instead."""
    if not permissions.may_manage_table(by, table):
        raise PermissionDenied(gettext("Only the organiser can do that."))
    with transaction.atomic():
        # Table, then tournament: the order set_result locks them in (touch writes the
        # tournament); the tournament lock keeps a next round from being paired meanwhile.
        locked = (
            Table.objects.select_for_update(of=("self",))
            .select_related("round__tournament", "match")
            .get(pk=table.pk)
        )
        t = Tournament.objects.select_for_update().get(pk=locked.round.tournament_id)
        locked.round.tournament = t
        if (reason := clear_refusal(locked)) is not None:
            raise ValidationError(reason, code="not_clearable")
        rnd, before, match = locked.round, locked.result, locked.match
        started = rnd.started_at is not None  # a table forfeited before the start was pending
        locked.status = TableStatus.PLAYING if started else TableStatus.PENDING
        locked.result = locked.finished_at = locked.match = None
        locked.save(update_fields=["status", "result", "finished_at", "match"])
        if rnd.status == RoundStatus.FINISHED:  # _finish_round_if_done, undone
            Round.objects.filter(pk=rnd.pk).update(
                status=RoundStatus.RUNNING if started else RoundStatus.PAIRED, finished_at=None
            )
        if t.status == TournamentStatus.FINISHED:  # pair_next_round found no round left
            t.status, t.finished_at = TournamentStatus.RUNNING, None
            t.save(update_fields=["status", "finished_at"])
        ResultChange.objects.create(table=locked, changed_by=by, before=before, after={},
                                    kind=ResultChangeKind.CLEARED)  # fmt: skip
        _supersede_reports(locked.pk)
        versions.touch(t.pk)
        if match is not None:
            _drop_match(match)
        locked.round.refresh_from_db()
        return locked


def _drop_match(match: Match) -> None:
    """The match stored with the typed-in result goes (it was not played at this table);
    a rated one leaves the ratings first: its pools are replayed from it on without it."""
    pools = []
    if match.rated:
        from ratings import replay  # ratings depend on games, not on tournaments

        pools = list(replay.pools_of(match))  # applies what waits, this match too
        Match.objects.filter(pk=match.pk).update(rated=False)  # out of the history
        for pool in pools:
            replay.replay_from(pool=pool, match=match)
    match.delete()


# ---- reports by the seated players ----------------------------------------------
def _supersede_reports(table_id: int, keep: ResultReport | None = None) -> None:
    qs = ResultReport.objects.filter(table_id=table_id, status=ReportStatus.PENDING)
    if keep is not None:
        qs = qs.exclude(pk=keep.pk)
    qs.update(status=ReportStatus.SUPERSEDED, decided_at=timezone.now())


def report_result(*, table: Table, by, scores, tiebreak=None, ranks=None) -> ResultReport:
    """A seated player reports his table's result; it waits for confirmation (or counts at
    once if the reporter is the organiser, or holds every seat)."""
    t = _typed_in(table)
    mine = own_entries(by, table)
    if not mine:
        raise PermissionDenied(gettext("Only the players at this table can report its result."))
    if table.status == TableStatus.FINISHED:
        raise ValidationError(
            gettext("This table already has a result; the organiser can correct it."),
            code="already_recorded",
        )
    if table.status != TableStatus.PLAYING:
        raise ValidationError(
            gettext("This table's round has not started yet."), code="round_not_started"
        )
    result = check_result(table=table, scores=scores, tiebreak=tiebreak, ranks=ranks)
    with transaction.atomic():
        Table.objects.select_for_update().get(pk=table.pk)
        _supersede_reports(table.pk)
        report = ResultReport.objects.create(
            table=table, reported_by=by, scores=result["scores"], tiebreak=result["tiebreak"],
            ranks=result["ranks"], confirmed_entries=mine,
        )  # fmt: skip
        if permissions.may_manage_tournament(by, t) or _everyone_agrees(table, mine):
            _accept(report, by)
        else:
            notices.after_commit(notices.result_to_confirm, report)
    return report


def _everyone_agrees(table: Table, agreed) -> bool:
    return set(table.seats.values_list("entry_id", flat=True)) <= set(agreed)


def _locked_report(report: ResultReport) -> ResultReport:
    Table.objects.select_for_update().get(pk=report.table_id)
    locked = ResultReport.objects.select_related("table__round__tournament").get(pk=report.pk)
    if locked.status != ReportStatus.PENDING:
        raise ValidationError(
            gettext("This report is no longer waiting (%(status)s).")
            % {"status": str(locked.get_status_display()).lower()}
        )
    return locked


def confirm_report(*, report: ResultReport, by) -> ResultReport:
    """The organiser confirms (it counts), or another seated player agrees (it counts once
    every seat has)."""
    with transaction.atomic():
        report = _locked_report(report)
        table = report.table
        if permissions.may_manage_table(by, table):
            _accept(report, by)
            return report
        mine = own_entries(by, table)
        if not mine:
            raise PermissionDenied(
                gettext("Only the organiser or the other players at this table can confirm.")
            )
        if set(mine) <= set(report.confirmed_entries):
            raise ValidationError(
                gettext("You have already agreed; the other players or the organiser confirm.")
            )
        report.confirmed_entries = sorted(set(report.confirmed_entries) | set(mine))
        report.save(update_fields=["confirmed_entries"])
        if _everyone_agrees(table, report.confirmed_entries):
            _accept(report, by)
        return report


def reject_report(*, report: ResultReport, by) -> ResultReport:
    """The organiser or a seated player (the reporter withdrawing it, too) turns it down."""
    with transaction.atomic():
        report = _locked_report(report)
        table = report.table
        if not (permissions.may_manage_table(by, table) or own_entries(by, table)):
            raise PermissionDenied(
                gettext("Only the organiser or the players at this table can reject it.")
            )
        _decide(report, ReportStatus.REJECTED, by)
        return report


def _accept(report: ResultReport, by) -> None:
    recorded = enter_result(
        table=report.table, scores=report.scores, tiebreak=report.tiebreak,
        by=report.reported_by, report=report,
    )  # fmt: skip
    if not recorded:
        raise ValidationError(
            gettext("This table already has a result; the organiser can correct it."),
            code="already_recorded",
        )
    _decide(report, ReportStatus.CONFIRMED, by)


def _decide(report: ResultReport, status: str, by) -> None:
    report.status, report.decided_by, report.decided_at = status, by, timezone.now()
    report.save(update_fields=["status", "decided_by", "decided_at"])
