"""Creating, starting and playing matches. Every change of a match goes through here.

Each write locks the match row, checks what the caller saw, applies through
the engine (via the Runner) and schedules what comes next, in one transaction.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from core import permissions
from core.errors import DomainError
from games import selectors
from games.engines.base import IllegalAction, InvalidOptions
from games.engines.registry import get_engine
from games.match_log import Decision
from games.models import (
    DecisionSource,
    Match,
    MatchStatus,
    OpenSeat,
    Player,
    PlayerKind,
    Seat,
    TimeoutPolicy,
)
from games.models import Variant as VariantModel
from games.services import dispatch, live, match_limits
from games.services.bot_play import leases_held
from games.services.match_checks import MatchChecks, MatchSpec, person_of
from games.services.runner import Runner
from games.signals import match_finished

logger = logging.getLogger(__name__)


class MatchError(DomainError):
    status_code = 400
    code = "match_error"


class StalePly(MatchError):
    status_code = 409
    code = "stale_ply"


class MatchNotRunning(MatchError):
    status_code = 409
    code = "not_running"


class TimeUp(MatchError):
    status_code = 409
    code = "time_up"


class NotYourSeat(MatchError):
    status_code = 403
    code = "not_your_seat"


class IllegalMove(MatchError):
    status_code = 400
    code = "illegal_action"


class ResignInstead(MatchError):
    status_code = 409
    code = "resign_instead"


class MatchNotFound(MatchError):
    status_code = 404
    code = "not_found"


class AlreadyStarted(MatchError):
    status_code = 409
    code = "already_started"


class MatchFull(MatchError):
    status_code = 409
    code = "match_full"


class AlreadySeated(MatchError):
    status_code = 409
    code = "already_seated"


# ---- creating --------------------------------------------------------------
def create_match(
    *,
    game: str,
    players: list[Player | None],
    options: dict | None = None,
    variant: VariantModel | None = None,
    seed: int | None = None,
    time_control: dict | None = None,
    timeout_policy: str = TimeoutPolicy.AUTO,
    rated: bool = False,
    created_by=None,
    start: bool = True,
    consented: bool = False,
) -> Match:
    """A match, started at once unless it seats humans who must first accept.

    Humans other than `created_by` are invited (the match waits, pending, until
    all accepted). `consented=True`, or no `created_by`, is the platform's own
    call for players who agreed elsewhere (a tournament's entrants). A None in
    `players` is an open seat anyone may take (`join_match`); the match waits
    for it too."""
    plan = MatchChecks().plan(
        MatchSpec(game=game, players=players, options=options, variant=variant, seed=seed,
                  time_control=time_control, timeout_policy=timeout_policy, rated=rated,
                  created_by=created_by, start=start, consented=consented)
    )  # fmt: skip
    tc, invitees, open_indices = plan.tc, plan.invitees, plan.open_indices
    with transaction.atomic():
        if created_by is not None and not consented:
            match_limits.check_allowance(created_by, players)
        match = Match.objects.create(
            game=game, variant=variant, options=plan.options, seed=plan.seed,
            timeout_policy=timeout_policy, rated=plan.rated, created_by=created_by, **tc,
        )  # fmt: skip
        clock = tc["initial_s"] * 1000 if tc["initial_s"] is not None else None
        Seat.objects.bulk_create(
            Seat(match=match, index=i, player=p, clock_ms=clock)
            for i, p in enumerate(players)
            if p is not None
        )
        OpenSeat.objects.bulk_create(OpenSeat(match=match, index=i) for i in open_indices)
        if invitees:
            from games.services.invitations import invite_to_match

            invite_to_match(match=match, players=invitees, invited_by=created_by)
        if not plan.starts_now:
            live.match_changed()  # listed as waiting (start_match announces a start)
    if plan.starts_now:
        start_match(match_id=match.pk)
        match.refresh_from_db()
    return match


# ---- open seats ------------------------------------------------------------------
# A waiting match nobody joins is cancelled after this long (the periodic sweep; the
# lobby and join_match also treat it as gone as soon as it is due).
OPEN_SEAT_TTL = timezone.timedelta(days=1)


def open_seat_cutoff():
    return timezone.now() - OPEN_SEAT_TTL


def ready_to_start(match: Match) -> bool:
    """A pending match starts once no seat is open and every invited human accepted."""
    from games.models import InvitationStatus

    return (
        match.status == MatchStatus.PENDING
        and not match.open_seats.exists()
        and not match.invitations.exclude(status=InvitationStatus.ACCEPTED).exists()
    )


def join_match(*, match_id: int, user) -> Seat:
    """The user takes the first open seat of a waiting match; the last one taken starts it.

    Nobody holds two seats of one match this way (a user and his external bots are one
    person), so a rated match stays rateable: joining is the joiner's consent."""
    if not getattr(user, "is_authenticated", False):
        raise NotYourSeat(gettext("Log in to take a seat."))
    from games.selectors import player_for_user

    player = player_for_user(user)
    if player is None or not player.is_active:
        raise NotYourSeat(gettext("Your account cannot play."))
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            raise MatchNotFound(gettext("No such match."))
        if match.status != MatchStatus.PENDING:
            raise AlreadyStarted(
                gettext("The match has already started.")
                if match.status == MatchStatus.RUNNING
                else gettext("The match is over or was cancelled.")
            )
        open_seat = match.open_seats.order_by("index").first()
        if open_seat is None:
            raise MatchFull(gettext("Every seat of this match is taken."))
        if player.game and player.game != match.game:
            raise NotYourSeat(
                gettext("%(player)s plays only %(game)s.")
                % {"player": player.name, "game": player.game}
            )
        seats = Seat.objects.filter(match=match).select_related("player")
        me = person_of(player)
        if any(s.player_id == player.pk or person_of(s.player) == me for s in seats):
            raise AlreadySeated(gettext("You already have a seat in this match."))
        if match.created_at < open_seat_cutoff():
            # Cancelled for good (committed); the refusal is raised after the transaction.
            _cancel_open_match(match)
            seat = None
        else:
            match_limits.check_allowance(user, [s.player for s in seats])
            clock = match.initial_s * 1000 if match.initial_s is not None else None
            seat = Seat.objects.create(
                match=match, index=open_seat.index, player=player, clock_ms=clock
            )
            open_seat.delete()
            if ready_to_start(match):
                start_match(match_id=match.pk)
            else:  # one seat fewer to take, on its page and in the lists
                live.match_changed(match.pk)
    if seat is None:
        raise AlreadyStarted(gettext("Nobody joined in time: the match was cancelled."))
    return seat


def _cancel_open_match(match: Match) -> None:
    """Abort a waiting match nobody joined in time (the caller holds its row lock)."""
    from games.models import InvitationStatus

    now = timezone.now()
    live.match_changed(match.pk, users=live.users_of(match.pk))  # before the invitations close
    match.status, match.finished_at = MatchStatus.ABORTED, now
    match.abort_reason = "nobody took the open seat in time"
    match.save(update_fields=["status", "finished_at", "abort_reason", "updated_at"])
    match.invitations.filter(status=InvitationStatus.PENDING).update(
        status=InvitationStatus.CANCELLED, answered_at=now
    )


def expire_open_matches() -> int:
    """Cancel waiting matches whose open seats nobody took within OPEN_SEAT_TTL (beat)."""
    due = Match.objects.filter(
        status=MatchStatus.PENDING, open_seats__isnull=False, created_at__lt=open_seat_cutoff()
    ).distinct()
    expired = 0
    for match_id in due.values_list("pk", flat=True):
        with transaction.atomic():
            match = Match.objects.select_for_update().get(pk=match_id)
            if match.status == MatchStatus.PENDING and match.open_seats.exists():
                _cancel_open_match(match)
                expired += 1
    return expired


# ---- running ---------------------------------------------------------------
def _lock(match_id: int) -> Runner:
    try:
        match = Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist:
        raise MatchError(gettext("no match %(id)s") % {"id": match_id}) from None
    seats = list(Seat.objects.filter(match=match).select_related("player", "player__user"))
    return Runner.load(match, seats)


def _commit(runner: Runner) -> None:
    """Persist (the caller holds the match lock) and, once committed, schedule the next
    step and announce the end (dispatch.announce)."""
    runner.persist()
    dispatch.announce([runner])


def start_match(*, match_id: int) -> None:
    with transaction.atomic():
        runner = _lock(match_id)
        match = runner.match
        if match.status != MatchStatus.PENDING:
            raise MatchNotRunning(
                gettext("match %(id)s is %(status)s, not pending")
                % {"id": match_id, "status": match.get_status_display().lower()}
            )
        runner.state = runner.engine.new_game(
            players=len(runner.seats), seed=match.seed, options=match.options
        )
        now = timezone.now()
        match.status, match.started_at, match.turn_started_at = MatchStatus.RUNNING, now, now
        runner.settle()
        _commit(runner)  # announces the match and its players' turns
        live.match_changed()  # and to the lists: a waiting match now runs


def _status(match: Match) -> str:
    """Why a match takes no more moves, in the reader's words."""
    return gettext("the match is %(status)s") % {"status": match.get_status_display().lower()}


def owns_seat(user, seat: Seat) -> bool:
    player = seat.player
    return bool(getattr(user, "is_authenticated", False)) and player.user_id == user.pk


def submit_action(*, match_id: int, user, ply: int, action: Any) -> Decision:
    """A human or external bot's decision for the ply it saw."""
    if not isinstance(action, dict):
        raise IllegalMove(gettext("an action must be a JSON object"))
    if not isinstance(ply, int) or isinstance(ply, bool):
        raise MatchError(gettext("ply must be a whole number"))
    with transaction.atomic():
        runner = _lock(match_id)
        match = runner.match
        if ply != match.ply or match.status != MatchStatus.RUNNING:
            # The same submission arriving twice is answered with the first result.
            logged = selectors.match_decisions(match)
            earlier = logged[ply] if 0 <= ply < len(logged) else None
            if earlier and earlier.action == action and owns_seat(user, runner.seats[earlier.seat]):
                return earlier
            if match.status != MatchStatus.RUNNING:
                raise MatchNotRunning(_status(match))
            raise StalePly(
                gettext("the match is at ply %(ply)s, not %(yours)s")
                % {"ply": match.ply, "yours": ply}
            )
        seat = match.to_act
        if seat is None or not owns_seat(user, runner.seats[seat]):
            raise NotYourSeat(
                gettext("seat %(seat)s is to act and it is not yours") % {"seat": seat}
            )
        now = timezone.now()
        if match.deadline is not None and now > match.deadline:
            raise TimeUp(gettext("the time for this decision has run out"))
        try:
            record = runner.apply(seat, action, DecisionSource.PLAYER, now=now)
        except IllegalAction as exc:
            raise IllegalMove(str(exc)) from None
        runner.settle()
        _commit(runner)
        return record


def time_out(*, match_id: int, ply: int) -> bool:
    """Apply the time-out policy if the decision at `ply` is still pending past its deadline."""
    with transaction.atomic():
        runner = _lock(match_id)
        match = runner.match
        now = timezone.now()
        if (
            match.status != MatchStatus.RUNNING
            or match.ply != ply
            or match.deadline is None
            or now < match.deadline
        ):
            return False
        seat = match.to_act
        s = runner.seats[seat]
        s.timeouts += 1
        if match.timeout_policy == TimeoutPolicy.FORFEIT:
            s.forfeited = True
        runner.changed_seats.add(seat)
        action = runner.simple_bot_action(seat)
        runner.apply(seat, action, DecisionSource.TIMEOUT, now=now)
        runner.settle()
        _commit(runner)
    return True


def abort_match(*, match_id: int, user) -> Match:
    with transaction.atomic():
        runner = _lock(match_id)
        match = runner.match
        if not permissions.may_abort_match(user, match):
            raise NotYourSeat(
                gettext(
                    "only its creator, a player seated in it or a match manager can abort a match"
                )
            )
        if match.status in (MatchStatus.FINISHED, MatchStatus.ABORTED):
            raise MatchNotRunning(
                gettext("the match is already %(status)s")
                % {"status": match.get_status_display().lower()}
            )
        if everyone_has_decided(runner):
            raise ResignInstead(
                gettext(
                    "every player has made a decision: the match can no longer be aborted; "
                    "resign instead"
                )
            )
        now = timezone.now()
        # Its page, the lists, and the headers of its players (a turn gone) and invitees.
        live.match_changed(match.pk, users=live.users_of(match.pk))
        match.status, match.finished_at = MatchStatus.ABORTED, now
        match.abort_reason = f"aborted by {user.username}"[:200]
        match.to_act = match.deadline = None
        match.save()
        from games.models import InvitationStatus

        match.invitations.filter(status=InvitationStatus.PENDING).update(
            status=InvitationStatus.CANCELLED, answered_at=now
        )
    return match


def everyone_has_decided(runner: Runner) -> bool:
    """Whether every human seat has made a decision of its own (then abort is over)."""
    humans = {s.index for s in runner.seats if s.player.kind == PlayerKind.HUMAN}
    if not humans or runner.match.status != MatchStatus.RUNNING:
        return False
    player = DecisionSource.PLAYER
    decided = {d.seat for d in selectors.match_decisions(runner.match) if d.source == player}
    return humans <= decided


def resign(*, match_id: int, user, seat: int | None = None) -> Match:
    """The seat's own user leaves a running match: the seat is forfeited and ranks last.
    A bot plays on for it while two or more seats remain; otherwise the match ends now."""
    with transaction.atomic():
        runner = _lock(match_id)
        match = runner.match
        if match.status != MatchStatus.RUNNING:
            raise MatchNotRunning(_status(match))
        own = [s.index for s in runner.seats if owns_seat(user, s) and not s.forfeited]
        if seat is not None and seat not in own:
            raise NotYourSeat(gettext("seat %(seat)s is not yours to resign") % {"seat": seat})
        if not own:
            raise NotYourSeat(gettext("you hold no seat still playing in this match"))
        index = own[0] if seat is None else seat
        runner.seats[index].forfeited = True
        runner.changed_seats.add(index)
        if sum(1 for s in runner.seats if not s.forfeited) <= 1:
            runner.finish_by_forfeit()
        else:
            runner.settle()  # the time-out bot decides at once if the seat was to act
        _commit(runner)
    match.refresh_from_db()
    return match


def overdue_matches(*, grace_s: float = 1.0, stalled_s: float | None = None) -> tuple[list, list]:
    """(match id, ply) pairs whose deadline passed, and bot turns nobody is working on."""
    stalled_s = settings.MATCH_STALLED_S if stalled_s is None else stalled_s
    now = timezone.now()
    running = Match.objects.filter(status=MatchStatus.RUNNING)
    late = running.filter(deadline__lt=now - timezone.timedelta(seconds=grace_s))
    stalled = running.filter(
        seats__index=F("to_act"),
        seats__player__kind=PlayerKind.ENGINE_BOT,
        updated_at__lt=now - timezone.timedelta(seconds=stalled_s),
    )
    stalled_pairs = list(stalled.values_list("pk", "ply"))
    held = leases_held(stalled_pairs)  # still being computed: not stalled
    return list(late.values_list("pk", "ply")), [p for p in stalled_pairs if p not in held]


def mark_resent(turns) -> None:
    """The sweep sent these bot turns again: their clock of "nobody advanced it" restarts."""
    if turns:
        Match.objects.filter(pk__in=[match_id for match_id, _ply in turns]).update(
            updated_at=timezone.now()
        )


def record_offline_match(*, game: str, players: list[Player], ranks: list[int], scores: list | None = None,
                         rated: bool = True, created_by=None, variant=None) -> Match:  # fmt: skip
    """A game played over the board: stored as a finished match (no moves) so that
    ratings and histories treat it like any other; announced like any other end."""
    engine = get_engine(game)
    try:
        engine.check_players(len(players))
    except InvalidOptions as exc:
        raise ValidationError(str(exc)) from None
    n = len(players)
    if len(ranks) != n or any(not 1 <= r <= n for r in ranks):
        raise ValidationError(
            gettext("One finishing place from 1 to the number of seats per seat.")
        )
    now = timezone.now()
    with transaction.atomic():
        match = Match.objects.create(
            game=game, variant=variant, options={}, seed=0, status=MatchStatus.FINISHED, rated=rated,
            created_by=created_by, started_at=now, finished_at=now,
            outcome={"ranks": list(ranks), "engine_ranks": list(ranks), "scores": scores,
                     "forfeited": [False] * n, "over_the_board": True},
        )  # fmt: skip
        Seat.objects.bulk_create(
            Seat(match=match, index=i, player=p, rank=ranks[i], score=scores[i] if scores else None)
            for i, p in enumerate(players)
        )
        match_id = match.pk
        live.match_changed()  # a finished match in the lists
        transaction.on_commit(
            lambda: match_finished.send(
                sender=Match, match_ids=[match_id], rated_ids=[match_id] if rated else []
            )
        )
    return match
