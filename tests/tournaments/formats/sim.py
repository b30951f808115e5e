"""Simulating whole tournaments with random results (test helper)."""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import HealthCheck, settings

from tournaments.formats import Config, Entrant, FormatError, Round, Table, TableResult


def random_result(seats: int, rng: random.Random, tie: float, forfeit: float) -> TableResult:
    """Random ranks (ties with probability ``tie``), a forfeit with probability ``forfeit``."""
    forfeited = [False] * seats
    if rng.random() < forfeit:
        forfeited[rng.randrange(seats)] = True
    scores = [
        rng.randrange(seats + 1) if rng.random() < tie else rng.random() for _ in range(seats)
    ]
    playing = [s for s in range(seats) if not forfeited[s]]
    ranks = [0] * seats
    for s in playing:
        ranks[s] = 1 + sum(1 for o in playing if scores[o] > scores[s])
    for s in range(seats):
        if forfeited[s]:
            ranks[s] = len(playing) + 1
    return TableResult(ranks=tuple(ranks), forfeited=tuple(forfeited) if any(forfeited) else ())


def finish(rnd: Round, rng: random.Random, tie: float = 0.1, forfeit: float = 0.05) -> Round:
    tables = tuple(
        Table(t.seats, random_result(len(t.seats), rng, tie, forfeit), t.bracket)
        for t in rnd.tables
    )
    return Round(rnd.number, tables, rnd.byes, rnd.label)


def make_entrants(
    n: int, rng: random.Random, *, withdrawals: int = 0, late: int = 0, seeds: int = 0
) -> list[Entrant]:
    ids = rng.sample(range(1, 10 * n + 10), n)
    out = []
    for i, e in enumerate(ids):
        out.append(
            Entrant(
                id=e,
                rating=float(rng.choice([1400, 1500, 1600, rng.randint(1000, 2000)])),
                seed=(i + 1) if i < seeds else None,
            )
        )
    picks = rng.sample(range(n), min(n, withdrawals + late))
    for j, i in enumerate(picks):
        e = out[i]
        if j < withdrawals:
            out[i] = Entrant(e.id, e.rating, e.seed, withdrawn_after=rng.randint(0, 4))
        else:
            out[i] = Entrant(e.id, e.rating, e.seed, joined_round=rng.randint(2, 4))
    return out


def check_round(rnd: Round, entrants: Sequence[Entrant], config: Config, number: int) -> None:
    """Structural invariants of any generated round."""
    assert rnd.number == number
    by_id = {e.id: e for e in entrants}
    seen: list[int] = []
    for t in rnd.tables:
        assert 2 <= len(t.seats) <= config.table_size, t
        assert t.result is None
        seen.extend(t.seats)
    seen.extend(rnd.byes)
    assert len(seen) == len(set(seen)), f"someone used twice in round {number}: {rnd}"
    for e in seen:
        assert by_id[e].active_in(number), f"inactive entrant {e} used in round {number}"


def simulate(
    fmt,
    entrants: list[Entrant],
    rng: random.Random,
    *,
    tie: float = 0.1,
    forfeit: float = 0.05,
    limit: int = 400,
    seed: int = 0,
) -> list[Round]:
    played: list[Round] = []
    while True:
        rnd = fmt.next_round(entrants, played, seed=seed)
        if rnd is None:
            return played
        check_round(rnd, entrants, fmt.config, len(played) + 1)
        # deterministic given (entrants, played, seed)
        assert fmt.next_round(entrants, played, seed=seed) == rnd
        played.append(finish(rnd, rng, tie, forfeit))
        assert len(played) <= limit, "tournament does not end"


def meetings(played: Sequence[Round]) -> dict[frozenset[int], int]:
    met: dict[frozenset[int], int] = {}
    for rnd in played:
        for t in rnd.tables:
            for a, b in combinations(t.seats, 2):
                key = frozenset((a, b))
                met[key] = met.get(key, 0) + 1
    return met


def check_ranking(groups: list[list[int]], entrants: Sequence[Entrant]) -> None:
    flat = [e for g in groups for e in g]
    assert sorted(flat) == sorted(e.id for e in entrants), "final ranking is not a permutation"
    assert all(groups), "empty placing group"


# ---- test settings --------------------------------------------------------
# The default run keeps to small examples; FORMATS_SLOW=1 runs the `slow` sweeps
# (pytest -m slow tests/tournaments/formats), FORMATS_EXAMPLES sizes hypothesis runs.
SLOW = bool(os.environ.get("FORMATS_SLOW"))
EXAMPLES = int(os.environ.get("FORMATS_EXAMPLES", "30"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
slow = pytest.mark.skipif(not SLOW, reason="set FORMATS_SLOW=1 to run")


def valid(fmt, entrants: Sequence[Entrant]) -> bool:
    """Whether ``fmt.validate`` accepts the entrants (random ones may be too few)."""
    try:
        fmt.validate(list(entrants))
    except FormatError:
        return False
    return True
