"""Tasks give Celery the text of plain arguments (ids, counts) themselves, the text its
saferepr would make, and leave anything else to it."""

from celery.utils.saferepr import saferepr
from hypothesis import given, settings
from hypothesis import strategies as st

from config.celery import app, plain_repr

LIMIT, LEVELS = app.amqp.argsrepr_maxsize, app.conf.task_repr_maxlevels

# What tasks are given: ids, counts and flags in lists and tuples (deeper than saferepr
# writes out, now and then), a few values plain_repr must leave to Celery, and long
# sequences around saferepr's length limit.
_leaves = st.none() | st.booleans() | st.integers() | st.text(max_size=3) | st.floats()
_values = st.recursive(
    _leaves,
    lambda inner: st.lists(inner, max_size=5) | st.lists(inner, max_size=5).map(tuple),
    max_leaves=30,
)
_long = st.lists(st.integers(min_value=0, max_value=10**9), min_size=100, max_size=300)


@given(args=st.lists(_values | _long, max_size=3).map(tuple))
@settings(max_examples=300, deadline=None)
def test_the_text_is_celerys_or_left_to_celery(args):
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
