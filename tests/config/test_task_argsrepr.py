"""Tasks give Celery the text of plain arguments (ids, counts) themselves, the text its
saferepr would make, and leave anything else to it."""

import random

import pytest
from celery.utils.saferepr import saferepr

from config.celery import app, plain_repr

LIMIT, LEVELS = app.amqp.argsrepr_maxsize, app.conf.task_repr_maxlevels


def _nested(rng: random.Random, depth: int):
    if depth >= 4 or rng.random() < 0.4:
        return rng.choice([None, True, 0, -7, rng.randrange(10**9)])
    kind = rng.choice([list, tuple])
    return kind(_nested(rng, depth + 1) for _ in range(rng.randrange(0, 6)))


@pytest.mark.parametrize("seed", range(300))
def test_the_text_is_celerys_or_left_to_celery(seed):
    rng = random.Random(seed)
    args = tuple(_nested(rng, 1) for _ in range(rng.randrange(0, 4)))
    text = plain_repr(args, LIMIT, LEVELS)
    if text is not None:
        assert text == saferepr(args, LIMIT, maxlevels=LEVELS)


def test_what_it_leaves_to_celery():
    assert plain_repr(([[1, 2], [3, 4]],), LIMIT, LEVELS) == "([[1, 2], [3, 4]],)"
    assert plain_repr(("x",), LIMIT, LEVELS) is None  # strings: saferepr may shorten them
    assert plain_repr(({"a": 1},), LIMIT, LEVELS) is None
    assert plain_repr((1.5,), LIMIT, LEVELS) is None
    assert plain_repr(([[[1]]],), LIMIT, LEVELS) is None  # deeper than saferepr writes out
    assert plain_repr((list(range(400)),), LIMIT, LEVELS) is None  # saferepr cuts it short
