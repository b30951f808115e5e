"""What follows a committed change of matches: ends announced, bot turns queued,
deadlines armed, all once the transaction has committed.

Bot turns committed in one transaction leave together, several matches to a task
(`play_bot_matches`): a round of bot tables costs a few task hand-overs, not one a
table, and a random-bot game takes about as long as one hand-over.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction

from core.live import publish as live
from games.models import Match, MatchStatus, PlayerKind, Seat
from games.signals import match_finished, turn_passed

if TYPE_CHECKING:
    from games.services.runner import Runner


def announce(runners: Iterable[Runner], *, schedule_bots: bool = True) -> None:
    """Register, in the current transaction, what follows the runners' commit: the
    finished matches announced together, bot turns queued (unless the caller is the
    bot task itself and carries on), a time-out task for each human deadline."""
    finished, rated, turns, deadlines, humans = [], [], [], [], []
    channels = set()
    for runner in runners:
        match = runner.match
        channels.update(_live_channels(runner))
        if runner.finished:
            finished.append(match.pk)
            if match.rated:
                rated.append(match.pk)
        elif runner.is_bot_turn():
            if schedule_bots:
                turns.append((match.pk, match.ply))
        else:
            if match.deadline is not None:
                deadlines.append((match.pk, match.ply, match.deadline))
            user_id = _human_to_act(runner)
            if user_id is not None:
                humans.append((match.pk, match.ply, user_id))
    if finished:
        channels.add(live.MATCHES_CHANNEL)
    live.publish(*sorted(channels))  # the match pages, the players' headers, the lists
    if turns:
        queue_bot_turns(turns)
    if finished or deadlines or humans:
        transaction.on_commit(lambda: _after_commit(finished, rated, deadlines, humans))


def _live_channels(runner: Runner) -> list[str]:
    """The match's channel and its seated people's (their turns, their headers)."""
    users = {s.player.user_id for s in runner.seats if s.player.user_id}
    return [live.match_channel(runner.match.pk), *(live.user_channel(u) for u in users)]


def _human_to_act(runner: Runner) -> int | None:
    """The account whose human seat must decide next (None: a bot, a guest, nobody)."""
    match = runner.match
    if match.status != MatchStatus.RUNNING or match.to_act is None:
        return None
    player = runner.seats[match.to_act].player
    return player.user_id if player.kind == PlayerKind.HUMAN else None


def _after_commit(finished: list[int], rated: list[int], deadlines: list,
                  humans: list | None = None) -> None:  # fmt: skip
    from games import tasks  # tasks import services; imported late to avoid a cycle

    if finished:
        match_finished.send(sender=Match, match_ids=finished, rated_ids=rated)
    for match_id, ply, at in deadlines:
        tasks.enforce_deadline.apply_async((match_id, ply), eta=at)
    if humans:  # last: a reminder's trouble must not cost a deadline (send_robust logs)
        turn_passed.send_robust(sender=Match, turns=humans)


class _Burst:
    """The bot turns queued in one transaction, sent together at its commit."""

    def __init__(self) -> None:
        self.turns: list[tuple[int, int]] = []
        self.sent = False
        self.callback = self._send  # one object: found again in the on-commit list

    def _send(self) -> None:
        self.sent = True
        send_bot_turns(self.turns)

    def registered(self, connection) -> bool:
        """Still to be sent at this transaction's commit (not rolled back with the
        savepoint that registered it, not sent by an earlier commit)."""
        return not self.sent and any(
            entry[1] is self.callback for entry in connection.run_on_commit
        )


def queue_bot_turns(turns: Sequence[tuple[int, int]]) -> None:
    """Queue bot turns (match id, ply) to go out when the current transaction commits,
    together with every other turn it queues; at once outside a transaction."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        send_bot_turns(turns)
        return
    burst = getattr(connection, "_bot_turn_burst", None)
    if burst is None or not burst.registered(connection):
        burst = connection._bot_turn_burst = _Burst()
        transaction.on_commit(burst.callback)
    # A turn queued inside a savepoint later rolled back still goes out: its task
    # finds the match not at that ply and does nothing.
    burst.turns.extend(turns)


def chunks(turns: Sequence, *, most: int | None = None, spread: int | None = None) -> list[list]:
    """Split turns into tasks of equal size (within one), at most `most` a task and
    at least `spread` tasks when there are that many turns (settings by default)."""
    if not turns:
        return []
    most = max(1, most or settings.BOT_MATCHES_PER_TASK)
    spread = max(1, spread or settings.BOT_TASK_SPREAD)
    count = max(math.ceil(len(turns) / most), min(len(turns), spread))
    size, extra = divmod(len(turns), count)
    out, at = [], 0
    for i in range(count):
        n = size + (1 if i < extra else 0)
        out.append(list(turns[at : at + n]))
        at += n
    return out


HEAVY_MATCHES_PER_TASK = 4


def send_bot_turns(turns: Sequence[tuple[int, int]]) -> None:
    """Tasks for these bot turns: the matches with a search bot on the bots-heavy queue
    (its decisions take a worker for seconds), the rest on the default queue, so that a
    cheap match, a result or a notice never waits behind a search."""
    from games import tasks

    latest = dict(turns)  # a match queued twice in a burst: once, from its later ply
    if not latest:
        return
    slow = heavy_matches(list(latest))
    for queue, ids in ((None, [m for m in latest if m not in slow]),
                       (settings.BOT_HEAVY_QUEUE, [m for m in latest if m in slow])):  # fmt: skip
        # A search decision takes seconds: few matches a task, so that the tasks of
        # several people take turns on the heavy worker.
        most, spread = (HEAVY_MATCHES_PER_TASK, settings.HEAVY_WORKER_CONCURRENCY) if queue else (
            None, None)  # fmt: skip
        pairs = [[match_id, latest[match_id]] for match_id in ids]
        for chunk in chunks(pairs, most=most, spread=spread):
            if queue:
                tasks.play_bot_matches.apply_async((chunk,), queue=queue)
            else:
                tasks.play_bot_matches.delay(chunk)


def heavy_matches(match_ids: list[int]) -> set[int]:
    """Which of these matches seat a search bot (one query)."""
    from games.services.match_limits import HEAVY_BOTS

    return set(
        Seat.objects.filter(match_id__in=match_ids, player__kind=PlayerKind.ENGINE_BOT,
                            player__bot_name__in=HEAVY_BOTS).values_list("match_id", flat=True)
    )  # fmt: skip
