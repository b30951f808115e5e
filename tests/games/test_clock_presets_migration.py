"""Migration 0016: a fresh install offers time-control presets, and going back removes
them (and only them) with the fields it added."""

import pytest

from tests.migrations import back_to, migrate_to

BEFORE = ("games", "0015_player_turn_sound")
NAMES = ["1 min + 2 s", "3 min + 2 s", "10 min + 5 s", "1 day per move", "3 days per move"]


@pytest.mark.django_db(transaction=True)
def test_the_presets_exist_after_migrate_and_go_when_it_is_undone():
    old, latest = back_to(*BEFORE)
    OldTimeControl = old.get_model("games", "TimeControl")
    assert not OldTimeControl.objects.filter(name__in=NAMES).exists()
    assert "forfeit_reason" not in {f.name for f in old.get_model("games", "Seat")._meta.fields}
    # An admin's own preset, and one with a preset's name, are kept as they are.
    OldTimeControl.objects.create(name="Club evening", initial_s=1200, increment_s=10)
    OldTimeControl.objects.create(name="3 min + 2 s", initial_s=200, increment_s=0)
    new = migrate_to(latest).get_model("games", "TimeControl")
    presets = {t.name: (t.per_move_s, t.initial_s, t.increment_s) for t in new.objects.all()}
    assert presets == {
        "1 min + 2 s": (None, 60, 2),
        "3 min + 2 s": (None, 200, 0),
        "10 min + 5 s": (None, 600, 5),
        "1 day per move": (86400, None, 0),
        "3 days per move": (3 * 86400, None, 0),
        "Club evening": (None, 1200, 10),
    }
    back = migrate_to([BEFORE]).get_model("games", "TimeControl")
    assert sorted(back.objects.values_list("name", flat=True)) == ["3 min + 2 s", "Club evening"]
    migrate_to(latest)
