"""The match log's format (MatchLog.entries) and how it is read back as decisions.

An entry is one ply, in one of two forms:

- in full, `[seat, action, label, source, time_used_ms, at_epoch_ms]`: every decision
  of a table with a person at it, and a bot's that reads the state (it takes time);
- compact, at a table of built-in bots: the action's index among the legal actions of
  its state, as a number, or as `[index, time_used_ms, at_epoch_ms]` where the runner
  read the clock. A bare number was taken in no measurable time (0 ms) and is dated by
  the next entry that carries a time (a batch ends with one). Its seat is the seat to
  act, its source "forced" when it was the only legal action, else "bot".

Reading compact entries replays the game from its seed (as a chess site keeps a game
as its moves' indices): they depend on the order of each engine's `legal_actions`,
which therefore must not change for games already stored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from games.engines.base import Action, Engine

FULL_LENGTH = 6
_BOT, _FORCED = "bot", "forced"  # DecisionSource's values; no Django import here


class LogUnreadable(ValueError):
    """A compact entry that does not name a legal action of its state."""


@dataclass(slots=True)
class Decision:
    """An applied decision: as `Runner.apply` returns it and as the log is read back."""

    ply: int
    seat: int
    action: Action
    label: str
    source: str
    time_used_ms: int
    at_ms: int  # when it was applied, in ms since the epoch: cheaper per decision than a datetime

    @property
    def created_at(self) -> datetime:
        return datetime.fromtimestamp(self.at_ms / 1000, UTC)


def is_full(entry: Any) -> bool:
    return type(entry) is list and len(entry) == FULL_LENGTH


def decisions(entries: Sequence, engine: Engine, start: Callable[[], Any]) -> list[Decision]:
    """Every entry as a Decision. `start()` gives the state before the first ply; it is
    called, and the game replayed, only if some entry is compact (as far as the last)."""
    out = [None] * len(entries)
    last_compact = max((p for p, e in enumerate(entries) if not is_full(e)), default=-1)
    if last_compact < 0:
        return [Decision(p, *e) for p, e in enumerate(entries)]
    apply = getattr(engine, "apply_unchecked", engine.apply)  # every action was legal
    state = start()
    undated: list[Decision] = []  # bare numbers waiting for the next entry with a time
    for ply, entry in enumerate(entries):
        dated = True
        if is_full(entry):
            decision = Decision(ply, *entry)
        else:
            if type(entry) is int:
                index, used_ms, at_ms = entry, 0, None
            elif type(entry) is list and len(entry) == 3:
                index, used_ms, at_ms = entry
            else:
                raise LogUnreadable(f"ply {ply}: not a log entry: {entry!r}")
            legal = engine.legal_actions(state)
            if type(index) is not int or not 0 <= index < len(legal):
                raise LogUnreadable(f"ply {ply}: no legal action {index!r} (of {len(legal)})")
            source = _FORCED if len(legal) == 1 else _BOT
            decision = Decision(ply, engine.to_act(state), legal[index], "", source, used_ms, 0)
            if at_ms is None:
                undated.append(decision)
                dated = False
            else:
                decision.at_ms = at_ms
        out[ply] = decision
        if dated:
            for d in undated:
                d.at_ms = decision.at_ms
            undated.clear()
        if ply < last_compact:
            state = apply(state, decision.action)
    # A log cut short after bare numbers (never written so): dated by the last time known.
    if undated:
        known = next((d.at_ms for d in reversed(out[: undated[0].ply]) if d.at_ms), 0)
        for d in undated:
            d.at_ms = known
    return out
