"""A small card game with hidden information, implemented fully against the engine contract.

Used only by tests and benchmark plumbing tests, so that the generic bots, the
testkit and the benchmarks can be exercised without a real game.

Rules ("Toy Bank"):
- A deck of ``suits`` x ``values`` cards (e.g. "R7") is shuffled; each player gets
  ``hand_size`` cards; two cards lie face up in the display.
- A turn is two decisions by the player on turn: first take a display card
  (its identity stays public while it is in the hand) or draw blind from the
  deck; then bank a hand card (score its value, +2 if its suit matches the
  previous card that player banked) or discard one to the display.
- Banking a card of value >= ``block_threshold`` lets the left neighbour decide,
  if they have at least 2 points: block (pay 2, the banker loses those points)
  or pass. So the seat that must decide changes inside a turn.
- The game ends when the player on turn can draw nothing. Highest score wins;
  ties go to the higher sum of banked card values; equal on both is a true tie.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games.engines.base import Action, Engine, IllegalAction, InvalidOptions

SUIT_LETTERS = "RGBY"
BLOCK_COST = 2
SUIT_BONUS = 2


def _same(action: dict, legal: dict) -> bool:
    # Type-strict, so that e.g. {"slot": true} is not mistaken for slot 1.
    return action.keys() == legal.keys() and all(
        type(action[k]) is type(v) and action[k] == v for k, v in legal.items()
    )


def card_value(card: str) -> int:
    return int(card[1:])


@dataclass
class ToyState:
    players: int
    options: dict
    deck: list[str]  # top of the deck is the end of the list
    display: list[str]
    hands: list[list[str]]  # each kept sorted
    known: list[list[str]]  # hand cards everyone has seen (taken from the display)
    banks: list[list[str]]
    scores: list[int]
    last_suit: list[str | None]
    current: int = 0
    phase: str = "draw"  # draw | play | respond | over
    pending: dict | None = None  # during "respond": {"banker", "card", "points"}
    turns: int = 0
    history: list[str] = field(default_factory=list)  # public log of banked/blocked events


class ToyEngine(Engine):
    slug = "toy"
    title = "Toy Bank"
    min_players = 2
    max_players = 4

    def option_schema(self) -> dict:
        return {
            "type": "object",
            "properties": {
                "suits": {"type": "integer", "minimum": 2, "maximum": 4, "default": 3},
                "values": {"type": "integer", "minimum": 3, "maximum": 12, "default": 9},
                "hand_size": {"type": "integer", "minimum": 1, "maximum": 5, "default": 3},
                "block_threshold": {"type": "integer", "minimum": 1, "default": 6},
            },
            "additionalProperties": False,
        }

    def check_options(self, options: dict) -> None:
        needed = self.max_players * options["hand_size"] + 2
        if options["suits"] * options["values"] < needed:
            raise InvalidOptions(
                f"the deck has {options['suits'] * options['values']} cards, "
                f"but {needed} are needed to deal {self.max_players} hands and the display"
            )

    # ---- the game -------------------------------------------------------
    def new_game(self, *, players: int, seed: int, options: dict | None = None) -> ToyState:
        self.check_players(players)
        opts = self.validate_options(options)
        deck = [
            f"{SUIT_LETTERS[s]}{v}"
            for s in range(opts["suits"])
            for v in range(1, opts["values"] + 1)
        ]
        random.Random(seed).shuffle(deck)
        hands = [sorted(deck.pop() for _ in range(opts["hand_size"])) for _ in range(players)]
        display = [deck.pop(), deck.pop()]
        return ToyState(
            players=players,
            options=opts,
            deck=deck,
            display=display,
            hands=hands,
            known=[[] for _ in range(players)],
            banks=[[] for _ in range(players)],
            scores=[0] * players,
            last_suit=[None] * players,
        )

    def num_players(self, state: ToyState) -> int:
        return state.players

    def to_act(self, state: ToyState) -> int | None:
        if state.phase == "over":
            return None
        if state.phase == "respond":
            return (state.pending["banker"] + 1) % state.players
        return state.current

    def is_over(self, state: ToyState) -> bool:
        return state.phase == "over"

    def legal_actions(self, state: ToyState) -> list[Action]:
        if state.phase == "draw":
            acts: list[Action] = [{"type": "take", "slot": i} for i in range(len(state.display))]
            if state.deck:
                acts.append({"type": "draw"})
            return acts
        if state.phase == "play":
            hand = state.hands[state.current]
            return [{"type": "bank", "card": c} for c in hand] + [
                {"type": "discard", "card": c} for c in hand
            ]
        if state.phase == "respond":
            return [{"type": "block"}, {"type": "pass"}]
        return []

    def apply(self, state: ToyState, action: Action) -> ToyState:
        if type(action) is not dict or not any(_same(action, a) for a in self.legal_actions(state)):
            raise IllegalAction(f"not a legal action now: {action!r}")
        kind = action["type"]
        seat = self.to_act(state)
        if kind == "take":
            card = state.display.pop(action["slot"])
            self._to_hand(state, seat, card, known=True)
            self._refill(state)
            state.phase = "play"
        elif kind == "draw":
            self._to_hand(state, seat, state.deck.pop(), known=False)
            state.phase = "play"
        elif kind == "bank":
            card = action["card"]
            self._from_hand(state, seat, card)
            points = card_value(card) + (SUIT_BONUS if state.last_suit[seat] == card[0] else 0)
            state.scores[seat] += points
            state.last_suit[seat] = card[0]
            state.banks[seat].append(card)
            state.history.append(f"{seat} banked {card} for {points}")
            neighbour = (seat + 1) % state.players
            if (
                card_value(card) >= state.options["block_threshold"]
                and state.scores[neighbour] >= BLOCK_COST
            ):
                state.phase = "respond"
                state.pending = {"banker": seat, "card": card, "points": points}
            else:
                self._end_turn(state)
        elif kind == "discard":
            self._from_hand(state, seat, action["card"])
            state.display.append(action["card"])
            self._end_turn(state)
        elif kind == "block":
            banker = state.pending["banker"]
            state.scores[seat] -= BLOCK_COST
            state.scores[banker] -= state.pending["points"]
            state.history.append(f"{seat} blocked {state.pending['card']}")
            state.pending = None
            self._end_turn(state)
        else:  # pass
            state.pending = None
            self._end_turn(state)
        return state

    def _to_hand(self, state: ToyState, seat: int, card: str, *, known: bool) -> None:
        state.hands[seat].append(card)
        state.hands[seat].sort()
        if known:
            state.known[seat].append(card)
            state.known[seat].sort()

    def _from_hand(self, state: ToyState, seat: int, card: str) -> None:
        state.hands[seat].remove(card)
        if card in state.known[seat]:
            state.known[seat].remove(card)

    def _refill(self, state: ToyState) -> None:
        while len(state.display) < 2 and state.deck:
            state.display.append(state.deck.pop())

    def _end_turn(self, state: ToyState) -> None:
        state.turns += 1
        state.current = (state.current + 1) % state.players
        state.phase = "draw"
        if not state.display and not state.deck:
            state.phase = "over"

    def outcome(self, state: ToyState) -> dict:
        keys = [
            (state.scores[i], sum(card_value(c) for c in state.banks[i]))
            for i in range(state.players)
        ]
        ranks = [1 + sum(1 for other in keys if other > mine) for mine in keys]
        return {"scores": list(state.scores), "ranks": ranks, "tiebreak": [k[1] for k in keys]}

    def observation(self, state: ToyState, seat: int | None) -> dict:
        hands: list[Any] = []
        for i in range(state.players):
            if i == seat:
                hands.append({"cards": list(state.hands[i]), "count": len(state.hands[i])})
            else:
                hands.append({"known": list(state.known[i]), "count": len(state.hands[i])})
        return {
            "players": state.players,
            "options": dict(state.options),
            "seat": seat,
            "deck_count": len(state.deck),
            "display": list(state.display),
            "hands": hands,
            "banks": [list(b) for b in state.banks],
            "scores": list(state.scores),
            "last_suit": list(state.last_suit),
            "current": state.current,
            "phase": state.phase,
            "pending": dict(state.pending) if state.pending else None,
            "to_act": self.to_act(state),
            "turns": state.turns,
            "history": list(state.history),
        }

    def describe(self, state: ToyState, action: Action) -> str:
        kind = action.get("type")
        if kind == "take":
            return f"take {state.display[action['slot']]} from the display"
        if kind == "draw":
            return "draw from the deck"
        if kind in ("bank", "discard"):
            return f"{kind} {action['card']}"
        return str(kind)

    def to_json(self, state: ToyState) -> dict:
        return {
            "players": state.players,
            "options": dict(state.options),
            "deck": list(state.deck),
            "display": list(state.display),
            "hands": [list(h) for h in state.hands],
            "known": [list(k) for k in state.known],
            "banks": [list(b) for b in state.banks],
            "scores": list(state.scores),
            "last_suit": list(state.last_suit),
            "current": state.current,
            "phase": state.phase,
            "pending": dict(state.pending) if state.pending else None,
            "turns": state.turns,
            "history": list(state.history),
        }

    def from_json(self, data: dict) -> ToyState:
        return ToyState(
            players=data["players"],
            options=dict(data["options"]),
            deck=list(data["deck"]),
            display=list(data["display"]),
            hands=[list(h) for h in data["hands"]],
            known=[list(k) for k in data["known"]],
            banks=[list(b) for b in data["banks"]],
            scores=list(data["scores"]),
            last_suit=list(data["last_suit"]),
            current=data["current"],
            phase=data["phase"],
            pending=dict(data["pending"]) if data["pending"] else None,
            turns=data["turns"],
            history=list(data["history"]),
        )

    def determinize(self, state: ToyState, seat: int, rng: random.Random) -> ToyState:
        det = self.clone(state)
        # Everything `seat` has not seen: the deck and the unknown part of other hands.
        pool = list(det.deck)
        unknown_counts = [0] * det.players
        for i in range(det.players):
            if i == seat:
                continue
            unknown = list(det.hands[i])
            for c in det.known[i]:
                unknown.remove(c)
            unknown_counts[i] = len(unknown)
            pool.extend(unknown)
        rng.shuffle(pool)
        for i in range(det.players):
            if i == seat:
                continue
            det.hands[i] = sorted(det.known[i] + [pool.pop() for _ in range(unknown_counts[i])])
        det.deck = pool
        return det

    def heuristic(self, state: ToyState, seat: int) -> float:
        # Public score lead plus a little credit for the own hand (known to `seat`).
        mine = state.scores[seat] + 0.25 * sum(card_value(c) for c in state.hands[seat])
        best_other = max(
            state.scores[i] + 0.25 * sum(card_value(c) for c in state.known[i])
            for i in range(state.players)
            if i != seat
        )
        lead = mine - best_other
        return 1.0 / (1.0 + 2.718281828 ** (-lead / 8.0))


TOY = ToyEngine()
