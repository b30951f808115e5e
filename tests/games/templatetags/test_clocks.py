"""Clocks read as clocks (m:ss, h:mm:ss, days) and the time banner's sentences."""

from datetime import timedelta

import pytest
from django.template import Context, Template
from django.utils import timezone

from games.templatetags.clocks import clock_text, time_lines
from tests.games.factories import HumanPlayerFactory, MatchFactory


@pytest.mark.parametrize(
    "ms, shown",
    [
        (None, ""),
        (-5, "0:00"),
        (0, "0:00"),
        (1, "0:01"),  # rounded up: 0:00 only when the clock is empty
        (1_000, "0:01"),
        (59_500, "1:00"),
        (60_000, "1:00"),
        (125_000, "2:05"),
        (3_599_000, "59:59"),
        (3_600_000, "1:00:00"),
        (10 * 3600_000 + 5_000, "10:00:05"),
        (86_400_000, "1\u00a0d\u00a000:00:00"),  # unbroken spaces
        (2 * 86_400_000 + 3 * 3600_000, "2\u00a0d\u00a003:00:00"),
    ],
)  # fmt: skip
def test_clock_text(ms, shown):
    assert clock_text(ms) == shown


def test_the_filter_in_a_template_and_bad_values_show_nothing():
    out = Template("{% load clocks %}[{{ a|clock }}][{{ b|clock }}][{{ c|clock }}]").render(
        Context({"a": 90_000, "b": "x", "c": None})
    )
    assert out == "[1:30][][]"


def test_the_running_clock_carries_what_the_script_counts_from():
    deadline = timezone.now() + timedelta(seconds=8, milliseconds=500)
    out = Template("{% load clocks %}{% running_clock d %}").render(Context({"d": deadline}))
    assert 'class="clock low"' in out and ">0:09</span>" in out
    left = int(out.split('data-left-ms="')[1].split('"')[0])
    assert 8_000 < left <= 8_500
    assert f'data-deadline="{deadline.isoformat()}"' in out
    assert 'data-days="%(days)s d %(time)s"' in out


@pytest.mark.django_db
def test_the_banner_says_nothing_while_time_did_nothing():
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = MatchFactory.create(players=[alice, bob], time_control={"per_move_s": 30})
    assert time_lines(match) == []
    match.seats.filter(player=bob).update(timeouts_in_row=2)
    assert time_lines(match) == [
        f"{bob.name}'s time ran out 2 times in a row and a bot moved instead; "
        "after 3 the seat is forfeited."
    ]
    match.seats.filter(player=bob).update(forfeited=True, forfeit_reason="timeouts",
                                          timeouts_in_row=3)  # fmt: skip
    assert time_lines(match) == [
        f"{bob.name}'s seat was forfeited after 3 time-outs in a row. "
        "A bot plays the seat on; it ranks last."
    ]
