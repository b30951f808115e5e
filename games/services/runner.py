"""The match runner: applies decisions to an engine state held in memory.

It knows nothing of locks or transactions. `services.matches` loads a
`Runner` from a match row (locked or not), lets it apply decisions, then
persists what changed in one transaction.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.engines import i18n as engine_i18n
from games.engines.base import Action, Engine
from games.engines.registry import get_engine
from games.match_log import Decision
from games.models import DecisionSource, Match, MatchStatus, PlayerKind, Seat
from games.models.matches import FinishReason, ForfeitReason
from games.services import match_writes, row_loads
from games.time_limits import MAX_DECISION_S, TIMEOUTS_TO_FORFEIT, bot_max_think_s


def bot_seed(match: Match, ply: int) -> int:
    # Same match and ply, same bot choice: a re-run task recomputes the same move.
    return (match.seed * 1_000_003 + ply * 7919) % (2**62)


def seat_bot_seed(match_seed: int, batch_ply: int, seat: int) -> int:
    """The seed of a seat's bot for a batch starting at `batch_ply`: a retried batch
    starts at the same ply with the same bots, so it recomputes the same decisions."""
    return (match_seed * 1_000_003 + batch_ply * 7919 + seat * 104_729) % (2**62)


@dataclass
class Runner:
    match: Match
    seats: list[Seat]
    engine: Engine
    state: Any
    # Decisions applied and not yet written, as the log stores them (games.match_log: one
    # entry a ply, in full or, at a table of bots, compact); the first is the ply
    # `first_new_ply`. Plain lists and numbers, not objects: a bot batch makes hundreds.
    new_actions: list[list] = field(default_factory=list)
    changed_seats: set[int] = field(default_factory=set)
    finished: bool = False
    # The bots of this batch, one per seat: at a table of bots all made when the batch
    # starts, elsewhere each at its seat's first decision.
    bots: dict[int, Any] = field(default_factory=dict)
    batch_ply: int | None = None
    # A seat that lost on time in this runner: if that leaves one seat playing, the
    # match ends by it (FinishReason.LOST_ON_TIME).
    lost_on_time: int | None = None

    @classmethod
    def load_many(cls, turns: list[tuple[int, int]],
                  failures: list[tuple[int, BaseException]] | None = None, *,
                  meanwhile: Callable[[], object] = lambda: None) -> list[Runner]:  # fmt: skip
        """The runners of the matches still running at the given (match id, ply), in
        that order; matches, seats and players in one round trip whatever their number,
        `meanwhile` called while the database reads them. With `failures`, a match whose
        state cannot be loaded is noted there and left out instead of raising."""
        wanted = dict(turns)
        running, seats, players = row_loads.running_tables(
            list(wanted), str(MatchStatus.RUNNING), meanwhile
        )
        matches = {m.pk: m for m in running if m.ply == wanted[m.pk]}
        # Matches, seats and players apart, not seats joined to their match: a joined row
        # per seat would build (and decode the JSON state of) the match once per seat.
        by_player = {p.pk: p for p in players}
        by_match: dict[int, list[Seat]] = {}
        # What `seat.match = match` leaves, without the descriptor's checks (the ids
        # already agree): about a tenth of the load's time.
        cache_match, cache_player = (
            Seat.match.field.set_cached_value,
            Seat.player.field.set_cached_value,
        )
        for s in seats:
            if s.match_id in matches:
                cache_match(s, matches[s.match_id])
                cache_player(s, by_player[s.player_id])
                by_match.setdefault(s.match_id, []).append(s)
        runners = []
        for match_id in wanted:
            group = by_match.get(match_id)
            if group:
                try:
                    runners.append(cls.load(matches[match_id], group))
                except Exception as exc:
                    if failures is None:
                        raise
                    failures.append((match_id, exc))
        return runners

    @classmethod
    def load(cls, match: Match, seats: list[Seat] | None = None) -> Runner:
        engine = get_engine(match.game)
        seats = seats if seats is not None else list(match.seats.select_related("player"))
        state = engine.from_json(match.state) if match.state is not None else None
        return cls(match=match, seats=seats, engine=engine, state=state)

    # ---- applying ------------------------------------------------------
    def apply(self, seat: int, action: Action, source: str, now: datetime | None = None,
              used_ms: int | None = None, *, trusted: bool = False) -> Decision:  # fmt: skip
        """Apply one decision of `seat`; raises IllegalAction with the state unchanged.

        `trusted`: the action was taken from this state's legal actions (no second check)."""
        now = now or timezone.now()
        if self.quiet:
            label = ""  # described when the log is read (selectors.match_log)
        else:
            # The stored log label is English whoever applies it (a Czech page, a bot
            # worker): one language in the record; match_log re-describes for others.
            token = engine_i18n.set_language(None)
            try:
                label = self.engine.describe(self.state, action)
            finally:
                engine_i18n.reset_language(token)
        if trusted:
            self.state = getattr(self.engine, "apply_unchecked", self.engine.apply)(
                self.state, action
            )
        else:
            self.state = self.engine.apply(self.state, action)
        if used_ms is None:
            started = self.match.turn_started_at or now
            used_ms = max(0, int((now - started).total_seconds() * 1000))
        self._charge_clock(seat, used_ms)
        if source == DecisionSource.TIMEOUT:
            self._timed_out(seat)
        elif source == DecisionSource.PLAYER and self.seats[seat].timeouts_in_row:
            self.seats[seat].timeouts_in_row = 0  # playing again: the count starts over
            self.changed_seats.add(seat)
        entry = [seat, action, label[:200], str(source), used_ms, int(now.timestamp() * 1000)]
        self.new_actions.append(entry)
        record = Decision(self.match.ply, *entry)
        self.match.ply += 1
        self.match.turn_started_at = now
        return record

    @property
    def first_new_ply(self) -> int:
        """The ply of the first decision not yet written (each applied one moved the ply)."""
        return self.match.ply - len(self.new_actions)

    def _charge_clock(self, seat: int, used_ms: int) -> None:
        s = self.seats[seat]
        # A forfeited seat's clock stays where it stopped (the bot's moves earn nothing).
        if self.match.initial_s is None or s.player.kind == PlayerKind.ENGINE_BOT or s.forfeited:
            return
        s.clock_ms = max(0, (s.clock_ms or 0) - used_ms) + self.match.increment_s * 1000
        self.changed_seats.add(seat)

    def _timed_out(self, seat: int) -> None:
        """The time-out bot just decided for `seat` (its time ran out): whether the seat
        is now forfeited, and why. An empty clock loses on time at once (the increment
        must not give it another turn); a limit per decision forfeits under the match's
        forfeit policy, or after TIMEOUTS_TO_FORFEIT time-outs in a row."""
        s = self.seats[seat]
        s.timeouts_in_row += 1
        self.changed_seats.add(seat)
        if self.match.initial_s is not None:
            s.clock_ms, reason = 0, ForfeitReason.LOST_ON_TIME
            self.lost_on_time = seat
        elif s.forfeited:  # services.matches.time_out applied the forfeit policy
            reason = ForfeitReason.TIMEOUT_POLICY
        elif s.timeouts_in_row >= TIMEOUTS_TO_FORFEIT:
            reason = ForfeitReason.TIMEOUTS
        else:
            return
        s.forfeited = True
        s.forfeit_reason = s.forfeit_reason or reason

    def _left_alone(self) -> bool:
        """Whether seats were forfeited and at most one plays on (then the match ends)."""
        playing = sum(1 for s in self.seats if not s.forfeited)
        return playing < len(self.seats) and playing <= 1

    # ---- what happens without anyone deciding --------------------------
    def simple_bot_action(self, seat: int) -> Action:
        bot = self.engine.make_bot(
            settings.MATCH_TIMEOUT_BOT, seed=bot_seed(self.match, self.match.ply)
        )
        return bot.choose(self.state, seat)

    @property
    def quiet(self) -> bool:
        """Whether labels may wait until the log is read: only bots sit at the table,
        so nobody reads the log as it grows except a spectator, whose log view
        describes the record again (one replay) instead of every batch describing
        every decision."""
        quiet = getattr(self, "_quiet", None)
        if quiet is None:
            quiet = self._quiet = all(s.player.kind == PlayerKind.ENGINE_BOT for s in self.seats)
        return quiet

    def _automatic(self, seat: int, legal: list[Action]) -> tuple[Action, str] | None:
        """The decision the platform takes by itself for `seat`, if any."""
        if len(legal) == 1:
            return legal[0], DecisionSource.FORCED
        s = self.seats[seat]
        if s.forfeited:
            return self.simple_bot_action(seat), DecisionSource.BOT
        if (
            self.match.initial_s is not None
            and s.player.kind != PlayerKind.ENGINE_BOT
            and (s.clock_ms or 0) <= 0
        ):
            return self.simple_bot_action(seat), DecisionSource.TIMEOUT
        return None

    def is_bot_turn(self) -> bool:
        seat = self.match.to_act
        return seat is not None and self.seats[seat].player.kind == PlayerKind.ENGINE_BOT

    def settle(self, *, play_bots: bool = False, budget_s: float = 0.0,
               max_decisions: int | None = None) -> None:  # fmt: skip
        """Apply forced and forfeited decisions (and bot decisions when asked, within a
        time budget and at most `max_decisions` applied); then set who acts next and the
        deadline, or finish the match."""
        started = time.monotonic()
        limit = None if max_decisions is None else len(self.new_actions) + max_decisions
        if play_bots and self.quiet and not any(s.forfeited for s in self.seats):
            self._bot_table_run(started + budget_s, limit)
        while True:
            if self._left_alone():  # a seat lost on time or was forfeited: nobody to play
                self.finish_by_forfeit()
                return
            if self.engine.is_over(self.state):
                self._finish()
                return
            seat = self.engine.to_act(self.state)
            legal = self.engine.legal_actions(self.state)  # once per decision
            auto = self._automatic(seat, legal)
            if auto is not None:
                self.apply(seat, auto[0], auto[1], used_ms=0, trusted=auto[1] == "forced")
                continue
            self.match.to_act = seat
            if (
                play_bots
                and self.is_bot_turn()
                and time.monotonic() - started < budget_s
                and (limit is None or len(self.new_actions) < limit)
            ):
                self._play_bot(seat, legal)
                continue
            break
        self._set_deadline(seat)

    def _bot_table_run(self, deadline: float, limit: int | None) -> None:
        """The inner loop of a batch at a table of built-in bots only, lean because it
        runs per decision: no clocks to charge, no labels, the trusted apply for actions
        taken from the legal list, the log's compact entries (games.match_log: the
        action's index), the clock read only now and then (the budget and the log's
        time). Stops at the end of the game, the time budget or the decision limit;
        `settle` then does the rest as for any table."""
        engine, match, new = self.engine, self.match, self.new_actions
        is_over, to_act, legal_actions = engine.is_over, engine.to_act, engine.legal_actions
        trusted_apply = getattr(engine, "apply_unchecked", engine.apply)
        bot_source = str(DecisionSource.BOT)
        append, now = new.append, time.time
        # Every seat's pick made before the first decision, not looked up at each (None:
        # the bot reads the state). The bots' seeds are the same: the batch's first ply.
        picks = [
            getattr(self.bot_for(seat), "choose_index", None) for seat in range(len(self.seats))
        ]
        deadline_ms = int((deadline + now() - time.monotonic()) * 1000)  # on the log's clock
        state, ply = self.state, match.ply
        t = now()
        # Reading the clock at every decision cost 7% of a random game's engine time. It
        # is read every `stride` decisions, the stride doubling (up to 64) while that many
        # took under a quarter of a millisecond, back to one when they took longer, and
        # after every decision of a bot that reads the state. The last entry before a
        # reading carries its time; the bare indices before it are dated by it, a
        # fraction of a millisecond late at most, as is the budget's end. The budget and
        # the limit are checked when it is read (with a limit, at every one).
        stride = left = 1
        longest = 64 if limit is None else 1
        try:
            while not is_over(state):
                legal = legal_actions(state)
                if len(legal) == 1:
                    state = trusted_apply(state, legal[0])
                    append(0)
                elif (pick := picks[to_act(state)]) is not None:
                    index = pick(len(legal))  # microseconds: 0 ms
                    state = trusted_apply(state, legal[index])
                    append(index)
                else:
                    seat = to_act(state)
                    t = now()
                    action = self.bots[seat].choose(state, seat)
                    t2 = now()
                    used, t, stride, left = int((t2 - t) * 1000), t2, 1, 1
                    state = engine.apply(state, action)
                    append([seat, action, "", bot_source, used, int(t2 * 1000)])
                ply += 1
                left -= 1
                if not left:
                    t2 = now()
                    stride = min(stride * 2, longest) if t2 - t < 0.00025 else 1
                    left, t, at = stride, t2, int(t2 * 1000)
                    if type(new[-1]) is int:
                        new[-1] = [new[-1], 0, at]
                    if at >= deadline_ms or (limit is not None and len(new) >= limit):
                        break
        finally:
            if ply != match.ply:
                if type(new[-1]) is int:  # the batch's last entry carries a time
                    new[-1] = [new[-1], 0, int(now() * 1000)]
                match.turn_started_at = datetime.fromtimestamp(new[-1][-1] / 1000, UTC)
            self.state, match.ply = state, ply

    def bot_for(self, seat: int):
        """The seat's bot for this batch: one object (one random stream) per seat."""
        bot = self.bots.get(seat)
        if bot is None:
            if self.batch_ply is None:
                self.batch_ply = self.match.ply
            player = self.seats[seat].player
            bot = self.engine.make_bot(
                player.bot_name, seed=seat_bot_seed(self.match.seed, self.batch_ply, seat),
                **(player.bot_params or {}),
            )  # fmt: skip
            self.bots[seat] = bot
        return bot

    def _play_bot(self, seat: int, legal: list[Action]) -> None:
        bot = self.bot_for(seat)
        if hasattr(bot, "max_s"):
            bot.max_s = self.think_cap(seat)
        choose_among = getattr(bot, "choose_among", None)  # a choice made in no time
        t0 = time.monotonic()
        action = choose_among(legal) if choose_among else bot.choose(self.state, seat)
        used_ms = int((time.monotonic() - t0) * 1000)
        self.apply(seat, action, DecisionSource.BOT, used_ms=used_ms,
                   trusted=choose_among is not None)  # fmt: skip

    def think_cap(self, seat: int) -> float:
        """The wall-clock seconds a built-in bot may think on this decision: the server's
        ceiling (BOT_MAX_THINK_S, 5 s at most), lowered to the match's limit per move or
        to what is left on the seat's clock."""
        cap = bot_max_think_s()
        if self.match.per_move_s is not None:
            cap = min(cap, float(self.match.per_move_s))
        elif self.match.initial_s is not None:
            cap = min(cap, max(0.01, (self.seats[seat].clock_ms or 0) / 1000 * 0.9))
        return cap

    def _set_deadline(self, seat: int) -> None:
        # Rows stored before time controls were bounded may hold absurd limits (10^14 s
        # overflows a datetime): no deadline lies further out than the longest allowed.
        cap_s = MAX_DECISION_S
        s = self.seats[seat]
        start = self.match.turn_started_at or timezone.now()
        self.match.turn_started_at = start
        if s.player.kind == PlayerKind.ENGINE_BOT:
            self.match.deadline = None
        elif self.match.per_move_s is not None:
            self.match.deadline = start + timedelta(seconds=min(self.match.per_move_s, cap_s))
        elif self.match.initial_s is not None:
            self.match.deadline = start + timedelta(milliseconds=min(s.clock_ms or 0, cap_s * 1000))
        else:
            self.match.deadline = None

    def _finish(self) -> None:
        outcome = dict(self.engine.outcome(self.state))
        forfeited = [s.forfeited for s in self.seats]
        engine_ranks = list(outcome["ranks"])
        # Forfeited seats rank below everyone who played on; order within each group kept.
        keys = [(forfeited[i], engine_ranks[i]) for i in range(len(self.seats))]
        ranks = [1 + sum(1 for k in keys if k < keys[i]) for i in range(len(keys))]
        outcome.update(ranks=ranks, engine_ranks=engine_ranks, forfeited=forfeited)
        self.match.outcome = outcome
        self.match.status = MatchStatus.FINISHED
        self.match.finish_reason = FinishReason.PLAYED_OUT
        self.match.finished_at = timezone.now()
        self.match.to_act = None
        self.match.deadline = None
        scores = outcome.get("scores") or [None] * len(self.seats)
        for i, s in enumerate(self.seats):
            s.rank, s.score = ranks[i], scores[i]
            self.changed_seats.add(i)
        self.finished = True

    def finish_by_forfeit(self) -> None:
        """End now because at most one seat plays on (the others resigned or forfeited):
        it ranks first, every forfeited seat shares the places after it."""
        forfeited = [s.forfeited for s in self.seats]
        playing = sum(1 for f in forfeited if not f)
        ranks = [playing + 1 if f else 1 for f in forfeited]
        self.match.outcome = {"ranks": ranks, "engine_ranks": None, "scores": None,
                              "forfeited": forfeited, "ended_early": True}  # fmt: skip
        self.match.status = MatchStatus.FINISHED
        self.match.finish_reason = (
            FinishReason.FORFEIT if self.lost_on_time is None else FinishReason.LOST_ON_TIME
        )
        self.match.finished_at = timezone.now()
        self.match.to_act = None
        self.match.deadline = None
        for i, s in enumerate(self.seats):
            s.rank, s.score = ranks[i], None
            self.changed_seats.add(i)
        self.finished = True

    # ---- persisting -----------------------------------------------------
    def batch_write(self, expected_ply: int) -> match_writes.BatchWrite:
        """What `match_writes.write_batches` writes of this runner (PostgreSQL)."""
        self.match.state = self.engine.to_json(self.state) if self.state is not None else None
        self.match.updated_at = timezone.now()
        return match_writes.BatchWrite(
            self.match, expected_ply, self.first_new_ply, self.new_actions,
            [self.seats[i] for i in sorted(self.changed_seats)],
        )  # fmt: skip

    def written(self) -> bool:
        """Forget what was just written (the next batch appends after it)."""
        self.new_actions, self.changed_seats = [], set()
        return True

    def sent(self) -> None:
        """The decisions are in a write on its way (`batch_write`): forget them now. The
        runner goes on only if that write succeeds (`written`); else it is dropped."""
        self.new_actions = []

    def persist(self, *, expected_ply: int | None = None) -> bool:
        """Write what changed; call inside a transaction.

        Without `expected_ply` the caller holds the match lock. With it the match
        row is written only if it is still running at that ply (an optimistic
        check instead of a lock); returns False, writing nothing, if it is not."""
        if expected_ply is not None and connection.vendor == "postgresql":
            # A bot batch on PostgreSQL: the match row, the log and the seats in one
            # statement (one round trip, atomic even outside a transaction).
            batch = self.batch_write(expected_ply)
            return bool(match_writes.write_batches([batch])) and self.written()
        self.match.state = self.engine.to_json(self.state) if self.state is not None else None
        if expected_ply is None:
            self.match.save()
        else:
            self.match.updated_at = timezone.now()
            values = {name: getattr(self.match, name) for name in match_writes.PLAY_FIELDS}
            unmoved = Match.objects.filter(
                pk=self.match.pk, ply=expected_ply, status=MatchStatus.RUNNING
            )
            if not unmoved.update(**values):
                return False
        if self.new_actions:
            match_writes.append_actions(self.match.pk, self.first_new_ply, self.new_actions)
        if self.changed_seats:
            match_writes.update_seats([self.seats[i] for i in sorted(self.changed_seats)])
        return self.written()
