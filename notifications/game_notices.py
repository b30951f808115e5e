"""Notices about matches: "your move" in a slow match she has not come back to, and a
finished match's place and rating change. games tells of turns and ends through its
signals (receivers.py); ratings calls `match_finished` once it has applied a match."""

from __future__ import annotations

import logging
from datetime import datetime

from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from notifications.models import NoticeKind
from notifications.services import notify

logger = logging.getLogger(__name__)

DAY_S = 24 * 3600
# A reminder waits this long after the turn came, and this long after her last look at
# the match when she looked meanwhile.
YOUR_MOVE_AFTER_S = 10 * 60


def slow(qs):
    """The matches of `qs` that give a day or more a decision: a limit per decision of a
    day or more, or a clock that adds a day or more after each one."""
    return qs.filter(Q(per_move_s__gte=DAY_S) | Q(initial_s__isnull=False, increment_s__gte=DAY_S))


def match_name(match) -> str:
    from games.engines.registry import get_engine

    try:
        game = get_engine(match.game).title
    except Exception:  # noqa: BLE001  (an engine taken out since: its code still names it)
        game = match.game
    return f"{game} #{match.pk}"


def schedule_your_move(turns: list[tuple[int, int, int]]) -> int:
    """A reminder task for each (match, ply, user) of a slow match; how many."""
    from games.models import Match
    from notifications import tasks

    wanted = {match_id: (ply, user_id) for match_id, ply, user_id in turns}
    slow_ids = set(slow(Match.objects.filter(pk__in=list(wanted))).values_list("pk", flat=True))
    for match_id in sorted(slow_ids):
        ply, user_id = wanted[match_id]
        tasks.your_move_reminder.apply_async((match_id, ply, user_id), countdown=YOUR_MOVE_AFTER_S)
    return len(slow_ids)


def remind_your_move(match_id: int, ply: int, user_id: int, *, now: datetime | None = None):
    """The "your move" notice, if the match still waits at `ply` for a seat of `user_id`
    and she has not looked at it in the last ten minutes (before `now`); else None."""
    from games.models import Match, MatchStatus, PlayerKind, Seat
    from games.visits import last_visit

    now = now or timezone.now()
    match = slow(Match.objects.filter(pk=match_id, status=MatchStatus.RUNNING, ply=ply)).first()
    if match is None or match.to_act is None:
        return None  # moved meanwhile, finished, or not a slow match
    seats = list(Seat.objects.filter(match=match).select_related("player__user").order_by("index"))
    mine = [s for s in seats if s.index == match.to_act and s.player.user_id == user_id
            and s.player.kind == PlayerKind.HUMAN]  # fmt: skip
    if not mine:
        return None
    seen = last_visit(match_id, user_id)
    if seen is not None and now.timestamp() - seen < YOUR_MOVE_AFTER_S:
        # She is watching, or just was: asked again ten minutes after her last look, so
        # that a look without a move still ends in a reminder once she has gone.
        from notifications import tasks

        wait = YOUR_MOVE_AFTER_S - (now.timestamp() - seen) + 1
        tasks.your_move_reminder.apply_async((match_id, ply, user_id), countdown=wait)
        return None
    opponents = [str(s.player) for s in seats if s.player.user_id != user_id]
    return notify(user=mine[0].player.user, kind=NoticeKind.YOUR_MOVE,
                  key=f"your_move:{match_id}:{ply}", url=reverse("match-detail", args=[match_id]),
                  data={"match": match_name(match), "opponents": opponents})  # fmt: skip


def match_finished(match_ids: list[int]) -> int:
    """Each seated human of these finished matches: her place and, for a rated match
    already applied, her rating change (what the match page shows). Once per match."""
    from games.models import Match, MatchStatus, PlayerKind, Seat
    from games.selectors import match_rating_changes

    made = 0
    # One query first: a round of bot tables ends together and has nobody to tell.
    with_humans = set(
        Seat.objects.filter(match_id__in=list(match_ids), player__kind=PlayerKind.HUMAN,
                            player__user__isnull=False).values_list("match_id", flat=True)
    )  # fmt: skip
    matches = Match.objects.filter(pk__in=with_humans, status=MatchStatus.FINISHED)
    for match in matches.order_by("pk"):
        seats = list(
            Seat.objects.filter(match=match).select_related("player__user").order_by("index")
        )
        humans = [s for s in seats if s.player.kind == PlayerKind.HUMAN and s.player.user_id]
        if not humans:
            continue
        changes = match_rating_changes(match) if match.rated else {}
        for seat in humans:
            data = {"match": match_name(match), "place": seat.rank, "seats": len(seats)}
            change = changes.get(seat.player_id)
            if change:
                data.update(rating=round(change["after"]), delta=round(change["delta"]))
            notice = notify(user=seat.player.user, kind=NoticeKind.MATCH_FINISHED,
                            key=f"match_finished:{match.pk}",
                            url=reverse("match-detail", args=[match.pk]), data=data)  # fmt: skip
            made += notice is not None
    return made


def match_finished_safely(match_ids: list[int]) -> None:
    """`match_finished`, its failure logged: the write it follows (a rating) stands."""
    try:
        match_finished(match_ids)
    except Exception:  # noqa: BLE001
        logger.exception("match_finished notices failed for %s", match_ids[:20])
