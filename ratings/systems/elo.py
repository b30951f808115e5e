"""Elo extended to multiplayer tables (docs/architecture.md, Ratings).

A table of N is scored as its N(N-1)/2 pairwise results from the finishing
places (win 1, tie 0.5, loss 0). Each player's change is K/(N-1) times the sum
over opponents of (S - E), E = 1/(1+10^((Rj-Ri)/400)); K is `provisional_k`
while the player has played fewer than `provisional_games` rated games.
Ratings are kept unrounded; pages and the API show two decimals.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EloParams:
    k: float = 20.0
    provisional_k: float = 40.0
    provisional_games: int = 10
    start: float = 1500.0


def expected(rating: float, opponent: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def pairwise_score(rank: int, opponent_rank: int) -> float:
    if rank < opponent_rank:
        return 1.0
    return 0.5 if rank == opponent_rank else 0.0


def k_factor(games: int, params: EloParams) -> float:
    return params.provisional_k if games < params.provisional_games else params.k


def deltas(
    ratings: list[float], games: list[int], ranks: list[int], params: EloParams
) -> list[float]:
    """The change of each seat's rating for one finished table."""
    n = len(ratings)
    if n < 2:
        return [0.0] * n
    out = []
    for i in range(n):
        total = 0.0
        for j in range(n):
            if i != j:
                total += pairwise_score(ranks[i], ranks[j]) - expected(ratings[i], ratings[j])
        out.append(k_factor(games[i], params) / (n - 1) * total)
    return out


def replay(tables, params: EloParams) -> dict:
    """Ratings after a sequence of (player ids, ranks) tables, in order: {player: (rating, games)}."""
    state: dict = {}
    for players, ranks in tables:
        current = [state.get(p, (params.start, 0)) for p in players]
        change = deltas([r for r, _ in current], [g for _, g in current], list(ranks), params)
        for p, (r, g), d in zip(players, current, change, strict=True):
            state[p] = (r + d, g + 1)
    return state
