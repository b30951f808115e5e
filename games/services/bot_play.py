"""Built-in bots playing their turns, several matches at a time.

A task gets the bot turns of a few matches (`dispatch.send_bot_turns`), loads them
in one query, lets each match's bots think in memory outside any lock, and writes
every match of a round in one statement on PostgreSQL (one transaction elsewhere).
A match is written only if nobody moved it meanwhile, so a re-run (a redelivered
task, the sweep) applies nothing twice.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from django.core.cache import cache
from django.db import connection, transaction

from games.services import dispatch, match_writes
from games.services.runner import Runner

logger = logging.getLogger(__name__)

BOT_BATCH_SECONDS = 0.5  # bot thinking done in memory before one write
BOT_TASK_SECONDS = 20.0  # then the task hands over to a fresh one


class BotPlayFailed(RuntimeError):
    """A match's bots or engine raised; the task's other matches were played and written."""


def play_bot_turns(turns: Sequence[tuple[int, int]], *,
                   budget_s: float = BOT_TASK_SECONDS) -> list[tuple[int, int]]:  # fmt: skip
    """Play the bots of the matches whose turns (match id, ply) are given, each from that
    ply; returns the turns still to play when the budget ran out.

    Rounds of at most BOT_BATCH_SECONDS of thinking, shared by the matches in turn, each
    round written at once. A match whose bots or engine raise is left as it was and the
    others go on; the error is raised at the end (the task is recorded as failed)."""
    started = time.monotonic()
    taken: list[tuple[int, int]] = []
    failures: list[tuple[int, BaseException]] = []
    played: list[Runner] = []
    try:
        # The leases are taken while the database reads the matches: one wait, not two.
        loaded = Runner.load_many(turns, failures,
                                  meanwhile=lambda: taken.extend(take_bot_leases(turns)))  # fmt: skip
        held = {match_id for match_id, _ply in taken}
        playing = [r for r in loaded if r.match.pk in held and r.is_bot_turn()]
        while playing and time.monotonic() - started < budget_s:
            round_end = time.monotonic() + BOT_BATCH_SECONDS
            waiting = []
            with RoundWrites() as writes:
                for i, runner in enumerate(playing):
                    left = round_end - time.monotonic()
                    if left <= 0 and writes.count:
                        waiting.append(runner)  # first in the next round
                        continue
                    ply = runner.match.ply
                    if i == len(playing) - 1:
                        # The round's last match goes alone: the server writes the
                        # others while it is played, and the round waits for it only.
                        writes.flush()
                    try:
                        runner.settle(play_bots=True, budget_s=max(left, 0.0))
                    except Exception as exc:  # noqa: BLE001 - one match must not stop the others
                        failures.append((runner.match.pk, exc))
                        continue
                    writes.add(runner, ply)
            played += writes.written
            playing = waiting + [r for r in writes.written if not r.finished and r.is_bot_turn()]
    finally:
        # A turn played on is at another ply now: its lease guards nothing any more and
        # expires by itself. Only the turns left where they were are freed at once.
        moved = {r.match.pk for r in played}
        release_bot_leases([t for t in taken if t[0] not in moved])
    for match_id, exc in failures:
        logger.error("bot play failed in match %s", match_id, exc_info=exc)
    if failures:
        ids = ", ".join(str(match_id) for match_id, _ in failures)
        raise BotPlayFailed(f"bots or engine failed in match {ids}") from failures[0][1]
    return [(r.match.pk, r.match.ply) for r in playing]


# Matches a PostgreSQL write statement carries: small enough that the server writes one
# group while the worker plays the next, large enough to spare statements.
WRITE_GROUP = 4


class RoundWrites:
    """The writes of one round of bot play: each match written if it is still at the ply
    it was loaded at. On PostgreSQL a statement per WRITE_GROUP matches, sent without
    waiting (the server writes while the bots play on); inside a caller's transaction
    or on SQLite, each match when the round ends. Then `written` holds the runners written, and their ends and
    deadlines are announced (bot turns are not queued: the caller plays on, or hands
    over what is left)."""

    def __init__(self) -> None:
        self.written: list[Runner] = []
        self._played: list[tuple[Runner, int]] = []
        self._unsent = 0  # where the played matches not sent yet begin
        self._pipeline = (
            match_writes.PipelinedBatchWrites()
            if connection.vendor == "postgresql" and not connection.in_atomic_block
            else None
        )

    def __enter__(self) -> RoundWrites:
        if self._pipeline is not None:
            self._pipeline.__enter__()
        return self

    @property
    def count(self) -> int:
        return len(self._played)

    def add(self, runner: Runner, ply: int) -> None:
        self._played.append((runner, ply))
        if self._pipeline is not None and len(self._played) - self._unsent >= WRITE_GROUP:
            self.flush()

    def flush(self) -> None:
        """Send the group gathered so far (PostgreSQL; elsewhere the round is written
        when it ends). Its runners forget the decisions sent: kept until the round's end,
        a round's log entries (a list and an action a decision) made the bots' play of
        the rest ~5 % slower (Yspahan 2, 40 matches)."""
        if self._pipeline is None or self._unsent == len(self._played):
            return
        group = self._played[self._unsent :]
        self._pipeline.send([runner.batch_write(ply) for runner, ply in group])
        for runner, _ply in group:
            runner.sent()
        self._unsent = len(self._played)

    def __exit__(self, *exc) -> None:
        if self._pipeline is not None:
            if exc[0] is None:
                self.flush()
            self._pipeline.__exit__(*exc)
            if exc[0] is not None:
                return
            ids = self._pipeline.written
            self.written = [r for r, _ in self._played if r.match.pk in ids and r.written()]
            dispatch.announce(self.written, schedule_bots=False)  # autocommit: at once
            return
        if exc[0] is not None or not self._played:
            return
        with transaction.atomic():
            self.written = [r for r, ply in self._played if r.persist(expected_ply=ply)]
            dispatch.announce(self.written, schedule_bots=False)


def play_bot_decisions(
    *, match_id: int, ply: int, budget_s: float = BOT_TASK_SECONDS
) -> int | None:
    """One match's bot turn from `ply`: the ply to go on from if bot work remains after
    the budget, else None."""
    rest = play_bot_turns([(match_id, ply)], budget_s=budget_s)
    return rest[0][1] if rest else None


# ---- one copy of each bot decision --------------------------------------------
# A lease per (match, ply) in the cache, taken before the bots think: a redelivered task
# or the sweep finds it held and leaves the turn to the copy already computing. It
# outlives the longest task. Correctness does not rest on it (every write checks the
# ply); it spares computing a turn twice.
BOT_LEASE_S = 60


def _lease_key(match_id: int, ply: int) -> str:
    return f"games:bot-lease:{match_id}:{ply}"


def take_bot_lease(match_id: int, ply: int) -> bool:
    try:
        return bool(cache.add(_lease_key(match_id, ply), 1, timeout=BOT_LEASE_S))
    except Exception:  # noqa: BLE001 - the cache down must not stop play
        logger.warning("bot lease not taken (cache unavailable) for match %s ply %s", match_id, ply)
        return True


def release_bot_lease(match_id: int, ply: int) -> None:
    release_bot_leases([(match_id, ply)])


def take_bot_leases(turns: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The turns whose lease this call took. Several at once: one round trip on Redis;
    elsewhere two (read, then write the free ones), where two copies racing in between
    both play, and the write of the second finds the match moved."""
    turns = list(dict(turns).items())
    if len(turns) == 1:
        return turns if take_bot_lease(*turns[0]) else []
    add_many = getattr(cache, "add_many", None)
    if add_many is not None:  # Redis: one round trip, and no race between read and write
        keys = {_lease_key(*t): t for t in turns}
        return [keys[k] for k in add_many(list(keys), 1, timeout=BOT_LEASE_S)]
    held = leases_held(turns)
    free = [t for t in turns if t not in held]
    try:
        cache.set_many({_lease_key(*t): 1 for t in free}, timeout=BOT_LEASE_S)
    except Exception:  # noqa: BLE001
        logger.warning("bot leases not taken (cache unavailable)")
    return free


def release_bot_leases(turns: Sequence[tuple[int, int]]) -> None:
    if not turns:
        return
    try:
        cache.delete_many([_lease_key(*t) for t in turns])
    except Exception:  # noqa: BLE001 - they expire by themselves
        logger.warning("bot leases not released for %s", list(turns)[:5])


def leases_held(turns: Sequence[tuple[int, int]]) -> set[tuple[int, int]]:
    if not turns:
        return set()
    keys = {_lease_key(m, p): (m, p) for m, p in turns}
    try:
        return {keys[k] for k in cache.get_many(list(keys))}
    except Exception:  # noqa: BLE001
        logger.warning("bot leases unreadable (cache unavailable)")
        return set()
