"""Points by place per table size (formats/points.py): a win is worth the same at every size
by default, listed scales win, the named schemes, and the checks."""

from __future__ import annotations

import pytest

from tournaments.formats import Config, Entrant, Round, Table, TableResult, compute_standings
from tournaments.formats.points import (
    bye_points,
    check_points,
    place_points,
    points_legend,
    seat_points,
    stretch,
)
from tournaments.formats.types import FormatError


@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_default_gives_a_win_the_same_points_at_every_size(size):
    config = Config(table_size=size)
    wins = {place_points(config, n)[0] for n in range(2, 6)}
    assert wins == {place_points(config, size)[0]}
    for n in range(2, 6):
        scale = place_points(config, n)
        assert scale[-1] == 0 and list(scale) == sorted(scale, reverse=True)


def test_default_scale_at_the_configured_size_is_unchanged():
    assert place_points(Config(table_size=4), 4) == (3, 2, 1, 0)
    assert place_points(Config(table_size=2), 2) == (1, 0)
    # the others are the configured scale stretched
    assert place_points(Config(table_size=4), 3) == (3, 1.5, 0)
    assert place_points(Config(table_size=4), 5) == (3, 2.25, 1.5, 0.75, 0)
    assert place_points(Config(table_size=3), 4) == (2, 1.3333, 0.6667, 0)


def test_a_plain_scale_for_the_configured_size_is_stretched_to_the_others():
    config = Config(table_size=3, points={3: (3, 1, 0)})
    assert place_points(config, 3) == (3, 1, 0)
    assert place_points(config, 2) == (3, 0)
    assert place_points(config, 5) == (3, 2, 1, 0.5, 0)
    assert bye_points(config) == 3


def test_listed_sizes_keep_their_scale():
    config = Config(table_size=4, points={4: (5, 3, 1, 0), 3: (4, 2, 0)})
    assert place_points(config, 3) == (4, 2, 0)
    assert place_points(config, 4) == (5, 3, 1, 0)
    assert place_points(config, 5) == stretch((5, 3, 1, 0), 5)


def test_named_schemes():
    normalised = Config(table_size=4, points_scheme="normalised")
    assert place_points(normalised, 2) == (1, 0)
    assert place_points(normalised, 3) == (1, 0.5, 0)
    assert place_points(normalised, 4) == (1, 0.6667, 0.3333, 0)
    assert bye_points(normalised) == 1
    places = Config(table_size=4, points_scheme="places")
    assert place_points(places, 3) == (2, 1, 0) and place_points(places, 4) == (3, 2, 1, 0)


def test_ties_share_the_stretched_points():
    config = Config(table_size=4)
    assert seat_points(config, TableResult((1, 1, 3))) == [2.25, 2.25, 0]


def test_standings_with_equal_points_for_a_win_at_a_three_and_a_four_table():
    # 7 players, tables of 4 and 3: both winners get 3 points
    entrants = [Entrant(i) for i in range(1, 8)]
    played = [
        Round(
            1,
            (
                Table((1, 2, 3, 4), TableResult((1, 2, 3, 4))),
                Table((5, 6, 7), TableResult((1, 2, 3))),
            ),
        )
    ]
    rows = {r.entrant: r for r in compute_standings(entrants, played, Config(table_size=4))}
    assert rows[1].points == rows[5].points == 3
    assert rows[6].points == 1.5 and rows[7].points == rows[4].points == 0
    # level on points: the tie-breaks decide (Buchholz: 1's opponents scored more)
    assert rows[1].rank < rows[5].rank < rows[6].rank


def test_legend_lists_the_sizes_played_and_the_configured_one():
    config = Config(table_size=4)
    assert points_legend(config, {3}) == [(3, (3, 1.5, 0)), (4, (3, 2, 1, 0))]
    assert points_legend(config, []) == [(4, (3, 2, 1, 0))]


@pytest.mark.parametrize(
    ("config", "words"),
    [
        (Config(points_scheme="fair"), "scheme"),
        (Config(table_size=3, points={3: (2, 1)}), "need 3 values"),
        (Config(table_size=3, points={3: (0, 1, 2)}), "must not increase"),
        (Config(table_size=3, points={7: (1,) * 7}), "tables have 2-5 seats"),
    ],
)
def test_checks(config, words):
    with pytest.raises(FormatError, match=words) as caught:
        check_points(config)
    assert caught.value.setting == "points"


# ---------------------------------------------------------------------------
# the stored config (services/setup.py): the shapes it takes and its refusals


def test_config_takes_a_scheme_a_plain_list_or_sizes():
    from tournaments.services.setup import check_config

    def config(points, size=4):
        return check_config(
            format_name="swiss", game="yspahan", raw={"table_size": size, "points": points}
        )

    assert config("normalised").points_scheme == "normalised"
    assert config([5, 3, 1, 0]).points == {4: (5, 3, 1, 0)}
    mixed = config({"3": [2, 1, 0], "4": [3, 2, 1, 0]})
    assert mixed.points == {3: (2, 1, 0), 4: (3, 2, 1, 0)}
    # an old row: the configured size only; the 3-table is now its stretch
    old = config({"4": [3, 2, 1, 0]})
    assert place_points(old, 3) == (3, 1.5, 0)


@pytest.mark.parametrize(
    ("raw", "key", "words"),
    [
        ({"points": "fair"}, "points", "is not a scheme"),
        ({"points": 3}, "points", "points per place"),
        ({"points": [3, 2, 1]}, "points", "need 4 values"),
        ({"points": {"9": [1]}}, "points", "tables have 2-5 seats"),
        ({"points": {"x": [1]}}, "points", "not a table size"),
        ({"seeding": "zigzag"}, "seeding", "snake / random"),
    ],
)
def test_config_refusals_name_the_setting(raw, key, words):
    from django.core.exceptions import ValidationError

    from tournaments.services.setup import check_config

    with pytest.raises(ValidationError) as caught:
        check_config(format_name="swiss", game="yspahan", raw={"table_size": 4, **raw})
    assert key in caught.value.error_dict
    assert words in " ".join(caught.value.message_dict[key])


def test_seeding_is_a_swiss_setting():
    from django.core.exceptions import ValidationError

    from tournaments.services.setup import check_config

    assert (
        check_config(
            format_name="swiss", game="yspahan", raw={"table_size": 4, "seeding": "random"}
        ).seeding
        == "random"
    )
    with pytest.raises(ValidationError) as caught:
        check_config(
            format_name="round_robin", game="yspahan", raw={"table_size": 4, "seeding": "random"}
        )
    assert "seeding" in caught.value.error_dict


# ---------------------------------------------------------------------------
# the standings' legend says which scale applied at which table size


@pytest.mark.django_db
def test_the_standings_legend_names_the_scale_of_each_table_size(client):
    from tests.tournaments.result_fixtures import club_event, tables_of
    from tournaments import selectors, services

    t, _ = club_event(n=7, game="yspahan", table_size=4)
    tables = tables_of(t, 1)
    assert sorted(len(tb.seats.all()) for tb in tables) == [3, 4]
    for tb in tables:
        services.record_result(table=tb, ranks=list(range(1, tb.seats.count() + 1)))
    assert selectors.points_scales(t) == [
        {"size": 3, "points": (3, 1.5, 0)},
        {"size": 4, "points": (3, 2, 1, 0)},
    ]
    rows = selectors.standings(t)
    assert sorted(r["points"] for r in rows if r["points"] == 3) == [3, 3]  # both winners
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "at a table of 3: 3 · 1.5 · 0" in page
    assert "at a table of 4: 3 · 2 · 1 · 0" in page
