"""The match and replay pages say what time did to whom (templates/games/_time_banner.html)."""

import pytest

from games.models import MatchStatus
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, MatchFactory
from tests.games.services.test_clock_timeouts import _run_out, _to

pytestmark = pytest.mark.django_db


def test_a_loss_on_time_is_told_on_the_match_and_replay_pages(client):
    alice = HumanPlayerFactory(user__username="alice")
    bot = EngineBotFactory(bot_name="random")
    match = MatchFactory.create(players=[alice, bot], seed=3,
                                time_control={"initial_s": 60, "increment_s": 2})  # fmt: skip
    assert _to(match, alice) and _run_out(match)
    assert match.status == MatchStatus.FINISHED
    client.force_login(alice.user)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    banner = page.split('id="time-banner"')[1].split("</section>")[0]
    assert "alice lost on time." in banner and "A bot" not in banner
    assert 'id="your-move"' not in page
    assert "<td>0:00</td>" in page  # her clock, stopped at zero
    replay = client.get(f"/matches/{match.pk}/replay/").content.decode()
    assert "alice lost on time." in replay


def test_a_seat_forfeited_for_time_outs_is_told_and_never_asked_to_move(client):
    alice = HumanPlayerFactory(user__username="alice")
    bots = [EngineBotFactory(bot_name="random") for _ in range(3)]
    match = MatchFactory.create(players=[alice, *bots], seed=5, time_control={"per_move_s": 60},
                                timeout_policy="auto")  # fmt: skip
    client.force_login(alice.user)
    for _ in range(2):
        assert _to(match, alice) and _run_out(match)
    live = client.get(f"/matches/{match.pk}/live/").content.decode()
    assert "time ran out 2 times in a row" in live
    assert _to(match, alice) and _run_out(match)
    assert match.status == MatchStatus.RUNNING
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert (
        "alice&#x27;s seat was forfeited after 3 time-outs in a row. "
        "A bot plays the seat on; it ranks last."
    ) in page
    assert 'id="your-move"' not in page and ">Your move<" not in page
    # Never asked again: the bots (hers too) play the game to its end.
    assert not _to(match, alice)
    assert match.status == MatchStatus.FINISHED and match.seats.get(player=alice).rank == 4
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "A bot played the seat to the end; it ranks last." in page
