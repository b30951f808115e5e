"""Creating, starting and playing matches. Every change of a match goes through here.

Each write locks the match row, checks what the caller saw, applies through
the engine (via the Runner) and schedules what comes next, in one transaction.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from games.engines.base import IllegalAction, InvalidOptions
from games.engines.registry import UnknownGame, get_engine
from games.models import (
    Match,
    MatchAction,
    MatchStatus,
    OpenSeat,
    Player,
    PlayerKind,
    Seat,
    TimeoutPolicy,
)
from games.models import Variant as VariantModel
from games.services import dispatch
from games.services.bot_play import leases_held
from games.services.runner import Runner
from games.signals import match_finished
from games.time_limits import MAX_DECISION_S, MAX_INCREMENT_S

logger = logging.getLogger(__name__)


class MatchError(Exception):
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
# The longest time controls the platform accepts (documented in the README): a week per
# decision or on a clock, at most a day added per decision. Every path that sets a
# time control (API, tournaments, admin presets) goes through `_time_control_fields`.
TIME_CONTROL_MAXIMA = {
    "per_move_s": MAX_DECISION_S,
    "initial_s": MAX_DECISION_S,
    "increment_s": MAX_INCREMENT_S,
}


def _time_control_fields(time_control: dict | None) -> dict:
    if not time_control:
        return {"per_move_s": None, "initial_s": None, "increment_s": 0}
    if not isinstance(time_control, dict):
        raise ValidationError({"time_control": "Give a time control as an object."})
    allowed = set(TIME_CONTROL_MAXIMA)
    if set(time_control) - allowed:
        raise ValidationError({"time_control": f"Unknown keys; use {sorted(allowed)}."})
    values = {}
    for key, high in TIME_CONTROL_MAXIMA.items():
        value = time_control.get(key)
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or value < 0
        ):
            raise ValidationError({"time_control": f"{key} must be a whole number of seconds."})
        if value is not None and value > high:
            raise ValidationError(
                {"time_control": f"{key} must be at most {high} seconds ({high // 3600} hours)."}
            )
        values[key] = value
    if (values["per_move_s"] is None) == (values["initial_s"] is None):
        raise ValidationError(
            {"time_control": "Give either per_move_s or initial_s (+increment_s)."}
        )
    if (values["per_move_s"] or values["initial_s"] or 0) < 1:
        raise ValidationError(
            {"time_control": gettext("A time limit must be at least one second.")}
        )
    values["increment_s"] = values["increment_s"] or 0
    return values


def _think_limit(tc: dict) -> float:
    """A bot's thinking time never exceeds the server's ceiling nor the match's time limit."""
    from games.services.players import bot_max_think_s

    limits = [bot_max_think_s()] + [tc[k] for k in ("per_move_s", "initial_s") if tc[k]]
    return float(min(limits))


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
    try:
        engine = get_engine(game)
    except UnknownGame as exc:
        raise ValidationError({"game": str(exc)}) from None
    if variant is not None and variant.game != game:
        raise ValidationError({"variant": gettext("That variant belongs to another game.")})
    try:
        engine.check_players(len(players))
        resolved = engine.validate_options(
            {**(variant.options if variant else {}), **(options or {})}
        )
    except InvalidOptions as exc:
        raise ValidationError({"options": str(exc)}) from None
    tc = _time_control_fields(time_control)
    open_indices = [i for i, p in enumerate(players) if p is None]
    if open_indices and created_by is None:
        raise ValidationError({"seats": gettext("Only a player can open a seat to others.")})
    if open_indices and len(open_indices) == len(players):
        raise ValidationError({"seats": gettext("Take a seat yourself or seat a bot.")})
    seated = [p for p in players if p is not None]
    for p in seated:
        if not p.is_active:
            raise ValidationError(
                {"seats": gettext("%(player)s is not active.") % {"player": p.name}}
            )
        if p.game and p.game != game:
            raise ValidationError(
                {
                    "seats": gettext("%(player)s plays only %(game)s.")
                    % {"player": p.name, "game": p.game}
                }
            )
        if p.kind == PlayerKind.ENGINE_BOT and p.bot_name not in engine.bot_names():
            raise ValidationError(
                {
                    "seats": gettext("%(game)s has no bot %(bot)r.")
                    % {"game": gettext(engine.title), "bot": p.bot_name}
                }
            )
        if p.kind == PlayerKind.ENGINE_BOT:
            try:
                engine.check_bot_params(p.bot_name, p.bot_params, max_time_s=_think_limit(tc))
            except InvalidOptions as exc:
                raise ValidationError({"seats": f"{p.name}: {exc}"}) from None
    if timeout_policy not in TimeoutPolicy.values:
        raise ValidationError({"timeout_policy": f"Use one of {TimeoutPolicy.values}."})
    if seed is not None and rated:
        # A chosen seed is a chosen deal.
        raise ValidationError({"seed": "seed may be chosen only for unrated matches"})
    server_seed = seed is None
    if seed is None:
        seed = secrets.randbits(48)
    invitees = [] if consented else humans_to_invite(seated, created_by)
    if rated:
        objection = rating_objection(
            players=seated, created_by=created_by, invited=invitees, consented=consented,
            server_seed=server_seed,
        )  # fmt: skip
        if objection and not consented:
            raise ValidationError(
                {
                    "rated": gettext("This match cannot be rated: %(reason)s.")
                    % {"reason": objection}
                }
            )
        # The platform's own matches (a tournament's tables) are played, just not rated.
        rated = objection is None
    with transaction.atomic():
        match = Match.objects.create(
            game=game, variant=variant, options=resolved, seed=seed, timeout_policy=timeout_policy,
            rated=rated, created_by=created_by, **tc,
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
    if start and not invitees and not open_indices:
        start_match(match_id=match.pk)
        match.refresh_from_db()
    return match


def needs_invitation(player: Player, user) -> bool:
    """Whether `user` may enter or seat `player` only with the player's consent: anyone
    but `user` himself, his own external bots and the built-in bots."""
    if player.kind == PlayerKind.ENGINE_BOT:
        return False
    if player.user_id == user.pk:
        return False
    return not (player.kind == PlayerKind.EXTERNAL_BOT and player.owner_id == user.pk)


def humans_to_invite(players: list[Player], created_by) -> list[Player]:
    """Those seated by someone else: they are asked first. Without a creator the
    platform seats players who agreed elsewhere (a tournament's entrants)."""
    if created_by is None:
        return []
    return [p for p in players if needs_invitation(p, created_by)]


def person_of(player: Player) -> int | None:
    """The account answerable for a seat: a human's own, an external bot's owner (else
    the bot's account); None for built-in bots, which anyone may seat several times."""
    if player.kind == PlayerKind.ENGINE_BOT:
        return None
    if player.kind == PlayerKind.EXTERNAL_BOT and player.owner_id is not None:
        return player.owner_id
    return player.user_id


def rating_objection(*, players: list[Player], created_by, invited: list[Player],
                     consented: bool = False, server_seed: bool) -> str | None:  # fmt: skip
    """Why a match with these seats may not count for ratings, or None if it may: every
    human consented (the creator, an invited player once he accepts, or entrants the
    platform seats), no two seats belong to one person, and the server chose the seed."""
    if not server_seed:
        return "the seed was chosen by the client"
    invited_ids = {p.pk for p in invited}
    for p in players:
        asked = consented or created_by is None or p.pk in invited_ids
        if p.kind == PlayerKind.HUMAN and not asked and p.user_id != created_by.pk:
            return f"{p.name} has not agreed to play"
    seen: dict[int, Player] = {}
    for p in players:
        person = person_of(p)
        if person is None:
            continue
        if person in seen:
            return f"two seats belong to one person ({seen[person].name} and {p.name})"
        seen[person] = p
    return None


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
            clock = match.initial_s * 1000 if match.initial_s is not None else None
            seat = Seat.objects.create(
                match=match, index=open_seat.index, player=player, clock_ms=clock
            )
            open_seat.delete()
            if ready_to_start(match):
                start_match(match_id=match.pk)
    if seat is None:
        raise AlreadyStarted(gettext("Nobody joined in time: the match was cancelled."))
    return seat


def _cancel_open_match(match: Match) -> None:
    """Abort a waiting match nobody joined in time (the caller holds its row lock)."""
    from games.models import InvitationStatus

    now = timezone.now()
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
        raise MatchError(f"no match {match_id}") from None
    seats = list(Seat.objects.filter(match=match).select_related("player", "player__user"))
    return Runner.load(match, seats)


def _commit(runner: Runner, *, schedule_bots: bool = True, expected_ply: int | None = None) -> bool:
    """Persist and, once committed, schedule the next step and announce the end.

    `schedule_bots=False` when the caller is the bot task itself, which carries on;
    `expected_ply` as in Runner.persist (False: the match moved, nothing written)."""
    if not runner.persist(expected_ply=expected_ply):
        return False
    dispatch.announce([runner], schedule_bots=schedule_bots)
    return True


def start_match(*, match_id: int) -> None:
    with transaction.atomic():
        runner = _lock(match_id)
        match = runner.match
        if match.status != MatchStatus.PENDING:
            raise MatchNotRunning(f"match {match_id} is {match.status}, not pending")
        runner.state = runner.engine.new_game(
            players=len(runner.seats), seed=match.seed, options=match.options
        )
        now = timezone.now()
        match.status, match.started_at, match.turn_started_at = MatchStatus.RUNNING, now, now
        runner.settle()
        _commit(runner)


def owns_seat(user, seat: Seat) -> bool:
    player = seat.player
    return bool(getattr(user, "is_authenticated", False)) and player.user_id == user.pk


def submit_action(*, match_id: int, user, ply: int, action: Any) -> MatchAction:
    """A human or external bot's decision for the ply it saw."""
    if not isinstance(action, dict):
        raise IllegalMove("an action must be a JSON object")
    if not isinstance(ply, int) or isinstance(ply, bool):
        raise MatchError("ply must be a whole number")
    with transaction.atomic():
        runner = _lock(match_id)
        match = runner.match
        if ply != match.ply or match.status != MatchStatus.RUNNING:
            # The same submission arriving twice is answered with the first result.
            earlier = MatchAction.objects.filter(match=match, ply=ply).first()
            if earlier and earlier.action == action and owns_seat(user, runner.seats[earlier.seat]):
                return earlier
            if match.status != MatchStatus.RUNNING:
                raise MatchNotRunning(f"the match is {match.get_status_display().lower()}")
            raise StalePly(f"the match is at ply {match.ply}, not {ply}")
        seat = match.to_act
        if seat is None or not owns_seat(user, runner.seats[seat]):
            raise NotYourSeat(f"seat {seat} is to act and it is not yours")
        now = timezone.now()
        if match.deadline is not None and now > match.deadline:
            raise TimeUp("the time for this decision has run out")
        try:
            record = runner.apply(seat, action, MatchAction.Source.PLAYER, now=now)
        except IllegalAction as exc:
            raise IllegalMove(str(exc)) from None
        runner.settle()
        _commit(runner)
        return MatchAction.objects.get(match_id=match_id, ply=record.ply)


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
        runner.apply(seat, action, MatchAction.Source.TIMEOUT, now=now)
        runner.settle()
        _commit(runner)
    return True


def abort_match(*, match_id: int, user) -> Match:
    with transaction.atomic():
        runner = _lock(match_id)
        match = runner.match
        if not (user.is_staff or match.created_by_id == user.pk):
            raise NotYourSeat("only the creator or staff can abort a match")
        if match.status in (MatchStatus.FINISHED, MatchStatus.ABORTED):
            raise MatchNotRunning(f"the match is already {match.status}")
        if everyone_has_decided(runner):
            raise ResignInstead(
                "every player has made a decision: the match can no longer be aborted; "
                "resign instead"
            )
        now = timezone.now()
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
    decided = set(
        MatchAction.objects.filter(
            match_id=runner.match.pk, seat__in=humans, source=MatchAction.Source.PLAYER
        ).values_list("seat", flat=True)
    )
    return decided == humans


def resign(*, match_id: int, user, seat: int | None = None) -> Match:
    """The seat's own user leaves a running match: the seat is forfeited and ranks last.
    A bot plays on for it while two or more seats remain; otherwise the match ends now."""
    with transaction.atomic():
        runner = _lock(match_id)
        match = runner.match
        if match.status != MatchStatus.RUNNING:
            raise MatchNotRunning(f"the match is {match.get_status_display().lower()}")
        own = [s.index for s in runner.seats if owns_seat(user, s) and not s.forfeited]
        if seat is not None and seat not in own:
            raise NotYourSeat(f"seat {seat} is not yours to resign")
        if not own:
            raise NotYourSeat("you hold no seat still playing in this match")
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
        transaction.on_commit(
            lambda: match_finished.send(
                sender=Match, match_ids=[match_id], rated_ids=[match_id] if rated else []
            )
        )
    return match
