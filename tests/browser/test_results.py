"""A club night in the browser: the organiser corrects a typed-in result (standings and
ratings follow, the table's log shows both entries); a player reports a result and the
organiser confirms it. At 390 px, as on a phone at the club."""

import pytest
from django.contrib.auth.models import Permission

from ratings import services as rating_services
from ratings.models import Rating
from tests.browser.conftest import correct_table_result, log_in
from tests.browser.pages import type_in_wins
from tests.games.factories import HumanPlayerFactory, UserFactory
from tournaments import selectors, services
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def _points(t: Tournament) -> dict[str, float]:
    t.refresh_from_db()
    return {row["player"]: row["points"] for row in selectors.standings(t)}


def _elo() -> dict[int, float]:
    return dict(Rating.objects.filter(system="elo").values_list("player_id", "value"))


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_organiser_corrects_and_confirms_a_reported_result(live_server, browser_page):
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    base = live_server.url
    olga = UserFactory(username="olga")
    olga.user_permissions.add(Permission.objects.get(codename="run_rated_events"))
    players = [HumanPlayerFactory(user__username=f"member{i}") for i in range(4)]
    t = services.create_tournament(
        name="Yspahan league", game="yspahan", format="league", organiser=olga, seed=5,
        over_the_board=True, auto_advance=False, config={"table_size": 2},
    )  # fmt: skip
    for p in players:
        services.add_entry(tournament=t, player=p)
    services.start_round(round_=services.start_tournament(tournament=t))
    tables = list(Table.objects.filter(round__number=1).order_by("number"))

    # The organiser types in round 1.
    log_in(page, base, "olga")
    type_in_wins(page, base, t, tables)
    for table in tables:  # what the ratings task does after each match end
        rating_services.on_match_finished(match_id=Table.objects.get(pk=table.pk).match_id)
    first = tables[0]
    seats = [s.entry.player for s in first.seats.select_related("entry__player").order_by("index")]
    points, elo = _points(t), _elo()
    assert points[seats[0].name] == 1 and points[seats[1].name] == 0

    # ... and corrects the first table from the tournament page's link.
    page.goto(f"{base}/tournaments/{t.pk}/")
    correct_table_result(page, t.pk, first, [10, 30], before=f"{seats[0].name} 30 (1.)")
    _fits(page)
    corrected = _points(t)
    assert corrected[seats[0].name] == 0 and corrected[seats[1].name] == 1
    new_elo = _elo()
    assert new_elo[seats[1].pk] > elo[seats[1].pk] and new_elo[seats[0].pk] < elo[seats[0].pk]
    page.goto(f"{base}/tournaments/{t.pk}/")
    row = page.locator("table.standings tbody tr", has_text=seats[1].name)
    assert row.locator("td").nth(2).inner_text() == "1"
    page.goto(f"{base}/ratings/yspahan/")
    winner_row = page.locator("tr", has_text=seats[1].name).first
    assert f"{new_elo[seats[1].pk]:.1f}" in winner_row.inner_text()

    # Round 2: a seated player reports his table's result.
    rnd = services.pair_next_round(tournament=t)
    services.start_round(round_=rnd)
    table = rnd.tables.order_by("number").first()
    reporter = table.seats.get(index=0).entry.player
    page.context.clear_cookies()
    log_in(page, base, reporter.name)
    page.goto(f"{base}/tournaments/{t.pk}/tables/{table.pk}/")
    page.fill("input[name=report-score_0]", "44")
    page.fill("input[name=report-score_1]", "40")
    page.click("#report-result")
    page.wait_for_selector("text=Result reported: it counts once confirmed.")
    _fits(page)
    assert Table.objects.get(pk=table.pk).result is None

    # The organiser confirms it on the tournament page.
    page.context.clear_cookies()
    log_in(page, base, "olga")
    page.goto(f"{base}/tournaments/{t.pk}/")
    pending = page.locator("li.pending-report")
    assert pending.count() == 1 and reporter.name in pending.inner_text()
    _fits(page)
    pending.locator("button.confirm-report").click()
    page.wait_for_selector("text=Confirmed")
    assert page.locator("li.pending-report").count() == 0
    stored = Table.objects.get(pk=table.pk)
    assert stored.result["scores"] == [44, 40] and stored.result["ranks"] == [1, 2]
    page.goto(f"{base}/tournaments/{t.pk}/tables/{table.pk}/")
    entry = page.locator("ol.result-log li").first.inner_text()
    assert "Reported and confirmed" in entry and reporter.name in entry and "olga" in entry
