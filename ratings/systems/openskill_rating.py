"""OpenSkill (Plackett-Luce) for multiplayer tables, through the `openskill` package."""

from __future__ import annotations

from functools import lru_cache

from openskill.models import PlackettLuce


@lru_cache(maxsize=1)
def model() -> PlackettLuce:
    return PlackettLuce()


def start() -> tuple[float, float]:
    r = model().rating()
    return r.mu, r.sigma


def ordinal(mu: float, sigma: float) -> float:
    """The conservative skill estimate shown as the OpenSkill rating."""
    return mu - 3.0 * sigma


def update(states: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    m = model()
    teams = [[m.rating(mu=mu, sigma=sigma)] for mu, sigma in states]
    rated = m.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in rated]


def win_probabilities(states: list[tuple[float, float]]) -> list[float]:
    m = model()
    return list(m.predict_win([[m.rating(mu=mu, sigma=sigma)] for mu, sigma in states]))
