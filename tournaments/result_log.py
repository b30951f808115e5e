"""Read side of typed-in results: a table's change log and the reports awaiting confirmation."""

from __future__ import annotations

from tournaments import results
from tournaments.models import ReportStatus, ResultChange, ResultReport, Table, Tournament


def _name(user) -> str | None:
    if user is None:
        return None
    player = getattr(user, "player", None)
    return str(player) if player is not None else user.get_username()


def history(table: Table) -> list[dict]:
    """Every change of the table's result, oldest first."""
    rows = []
    changes = ResultChange.objects.filter(table=table).select_related(
        "changed_by__player", "report__decided_by__player"
    )
    for c in changes:
        rows.append({
            "id": c.pk, "kind": c.kind, "kind_label": c.get_kind_display(),
            "by": _name(c.changed_by),
            "confirmed_by": _name(c.report.decided_by) if c.report_id and c.report else None,
            "at": c.changed_at, "before": c.before, "after": c.after,
        })  # fmt: skip
    return rows


def describe(result: dict | None, names: list[str]) -> str:
    """'Anna 12 (1.), Bob 10 (2.)': a result as a line of text."""
    if not result:
        return "–"
    parts = []
    scores = result.get("scores") or [None] * len(names)
    for i, name in enumerate(names):
        score = scores[i] if i < len(scores) else None
        rank = result["ranks"][i] if i < len(result.get("ranks", [])) else "?"
        forfeit = (result.get("forfeited") or [False] * len(names))[i]
        shown = "F" if forfeit else ("" if score is None else f"{score}")
        parts.append(f"{name} {shown} ({rank}.)".replace("  ", " "))
    return ", ".join(parts)


def table_view(table: Table, user) -> dict:
    """What the table's page shows `user`: seats, the log as text, the reports and what he
    may do with them."""
    seats = list(table.seats.select_related("entry__player").order_by("index"))
    names = [str(s.entry.player) for s in seats]
    t = table.round.tournament
    manage = results.can_manage(user, t)
    mine = results.own_entries(user, table)
    log = [
        {**row, "before_text": describe(row["before"], names),
         "after_text": describe(row["after"], names)}
        for row in history(table)
    ]  # fmt: skip
    reports = []
    for r in ResultReport.objects.filter(table=table, status=ReportStatus.PENDING).select_related(
        "reported_by__player"
    ):
        waiting_for = [
            names[i] for i, s in enumerate(seats) if s.entry_id not in r.confirmed_entries
        ]
        reports.append({
            "report": r, "by": _name(r.reported_by),
            "text": describe({"ranks": r.ranks, "scores": r.scores}, names),
            "waiting_for": waiting_for,
            "can_confirm": manage or bool(mine and not set(mine) <= set(r.confirmed_entries)),
            "can_reject": manage or bool(mine),
        })  # fmt: skip
    return {
        "seats": seats, "names": names, "log": log, "reports": reports, "manage": manage,
        "seated": bool(mine), "current": describe(table.result, names) if table.result else None,
        "can_report": bool(mine) and t.over_the_board and table.status == "playing",
    }  # fmt: skip


def pending_reports(tournament: Tournament, user) -> list[dict]:
    """Reports awaiting confirmation in the tournament, for its page (with what `user` may
    do: the organiser every one, a seated player his table's)."""
    manage = results.can_manage(user, tournament)
    rows = []
    qs = (
        ResultReport.objects.filter(
            table__round__tournament=tournament, status=ReportStatus.PENDING
        )
        .select_related("table__round", "reported_by__player")
        .prefetch_related("table__seats__entry__player")
    )
    for r in qs:
        seats = sorted(r.table.seats.all(), key=lambda s: s.index)
        names = [str(s.entry.player) for s in seats]
        mine = [
            s.entry_id for s in seats if user.is_authenticated and s.entry.player.user_id == user.pk
        ]
        rows.append({
            "report": r, "table": r.table, "by": _name(r.reported_by),
            "waiting_for": [n for s, n in zip(seats, names, strict=True)
                            if s.entry_id not in r.confirmed_entries],
            "text": describe({"ranks": r.ranks, "scores": r.scores}, names),
            "can_confirm": manage or bool(mine and not set(mine) <= set(r.confirmed_entries)),
            "can_reject": manage or bool(mine),
        })  # fmt: skip
    return rows
