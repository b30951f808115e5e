"""A whole club season through the pages only: an organiser creates a Yspahan
league from the form, four members join by button, two guests are added, the organiser
starts, types in round 1, corrects a result (standings, ratings and the table's log follow),
exports the standings CSV, opens the print view; in round 2 a seated player reports his
table's result and the organiser confirms it. The standings show the forecast throughout."""

import csv
import io
import os
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission

from ratings import services as rating_services
from ratings.models import Rating
from tests.browser.conftest import correct_table_result, log_in
from tests.browser.pages import type_in_wins
from tests.games.factories import HumanPlayerFactory, UserFactory
from tournaments import tasks as tournament_tasks
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

MEMBERS = ["ann", "ben", "cyril", "dana"]
GUESTS = ["Jana Nováková", "Petr"]
# Screenshots only on request (SCREENSHOTS=var/shots-club-season): not part of the check.
SHOTS = os.environ.get("SCREENSHOTS")


def _shot(page, name: str) -> None:
    """The current page at 1280 and 390 px, in English and Czech (only with SCREENSHOTS)."""
    if not SHOTS:
        return
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for lang in ("en", "cs"):
        page.set_extra_http_headers({"Accept-Language": lang})
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 900})
            page.reload()
            page.wait_for_load_state("load")
            page.screenshot(path=f"{SHOTS}/{name}-{lang}-{width}.png", full_page=True)
            wide = page.evaluate("document.documentElement.scrollWidth")
            print(f"shot {name}-{lang}-{width}: scrollWidth {wide}")
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.set_viewport_size(size)
    page.reload()


def _standing(page, name: str) -> tuple[str, str]:
    """(rank, points) of a player's row in the standings table."""
    cells = page.locator("table.standings tbody tr", has_text=name).first.locator("td")
    return cells.nth(0).inner_text().strip(), cells.nth(2).inner_text().strip()


def _seats(table_id: int) -> list[str]:
    table = Table.objects.get(pk=table_id)
    return [
        str(s.entry.player) for s in table.seats.select_related("entry__player").order_by("index")
    ]


def test_a_club_season(live_server, browser_page):
    page, base = browser_page, live_server.url
    page.set_viewport_size({"width": 1280, "height": 900})
    olga = UserFactory(username="olga")  # a member staff trust with rated club events
    olga.user_permissions.add(Permission.objects.get(codename="run_rated_events"))
    for name in MEMBERS:
        HumanPlayerFactory(user__username=name)

    # The organiser creates the league from the form.
    log_in(page, base, "olga")
    page.goto(f"{base}/tournaments/new/")
    _shot(page, "create")
    page.fill("input[name=name]", "Yspahan club league")
    page.select_option("select[name=game]", "yspahan")
    page.select_option("select[name=format]", "league")
    page.fill("input[name=table_size]", "2")
    page.check("input[name=over_the_board]")
    # Over the board both boxes turn off by themselves (#29); this league is rated and
    # runs its matchdays on by itself.
    assert not page.is_checked("input[name=rated]") and not page.is_checked(
        "input[name=auto_advance]"
    )
    page.check("input[name=rated]")
    page.check("input[name=auto_advance]")
    page.fill("input[name=venue]", "Klub U Karavany")
    page.click("main button[type=submit]")
    page.wait_for_selector("#start")
    t = Tournament.objects.get(name="Yspahan club league")
    assert (t.game, t.format, t.over_the_board, t.rated) == ("yspahan", "league", True, True)
    detail = f"{base}/tournaments/{t.pk}/"

    # Members join by button.
    for name in MEMBERS:
        page.context.clear_cookies()
        log_in(page, base, name)
        page.goto(detail)
        page.click("#join")
        page.wait_for_selector("#leave")

    # The organiser adds two guests and starts.
    page.context.clear_cookies()
    log_in(page, base, "olga")
    page.goto(detail)
    for guest in GUESTS:
        page.fill("#guest-name", guest)
        page.click("#add-guest")
        page.wait_for_selector(f"text=Guest {guest} entered")
    assert t.entries.count() == 6
    page.click("#start")  # asks first, on a page that says what will happen
    page.click("#confirm")
    page.wait_for_selector(".tournament-status[data-status=running]")
    page.wait_for_selector("table.forecast-table tbody tr")
    assert page.locator("table.forecast-table tbody tr").count() == 6
    # Nobody has played: no ranks yet.
    assert {_standing(page, n)[0] for n in MEMBERS + GUESTS} == {"—"}
    guest_row = page.locator("table.standings tbody tr", has_text=GUESTS[1])
    assert "guest" in guest_row.inner_text() and guest_row.locator("td").last.inner_text() == "—"

    # Round 1 typed in: the first seat wins every table.
    tables = list(t.rounds.get(number=1).tables.order_by("number"))
    assert len(tables) == 3
    type_in_wins(page, base, t, tables)
    for table in tables:  # what the worker's tasks do after each match end
        match_id = Table.objects.get(pk=table.pk).match_id
        rating_services.on_match_finished(match_id=match_id)
    tournament_tasks.advance_tournament(t.pk)  # queued when round 1's last table was saved
    elo = dict(Rating.objects.filter(system="elo").values_list("player__name", "value"))
    assert not set(GUESTS) & set(elo), "guests are never rated"
    # A table of two members (there is one: four members, two guests, three tables).
    members_table = next(tb for tb in tables if not set(_seats(tb.pk)) & set(GUESTS))
    winner, loser = _seats(members_table.pk)
    page.goto(detail)
    assert _standing(page, winner) == ("1", "1") and _standing(page, loser)[1] == "0"
    forecast_before = page.locator("table.forecast-table tbody").inner_text()

    # The organiser corrects the members' table from the tournament page.
    correct_table_result(page, t.pk, members_table, [10, 30], before=f"{winner} 30 (1.)")
    _shot(page, "table-log")
    page.goto(detail)
    assert _standing(page, winner)[1] == "0" and _standing(page, loser) == ("1", "1")
    assert page.locator("table.forecast-table tbody").inner_text() != forecast_before
    _shot(page, "tournament")
    page.goto(f"{base}/tournaments/mine/")
    _shot(page, "mine")
    new_elo = dict(Rating.objects.filter(system="elo").values_list("player__name", "value"))
    assert new_elo[loser] > elo[loser] and new_elo[winner] < elo[winner]
    page.goto(f"{base}/ratings/yspahan/")
    assert f"{new_elo[loser]:.1f}" in page.locator("tr", has_text=loser).first.inner_text()
    assert f"{elo[loser]:.1f}" not in page.locator("tr", has_text=loser).first.inner_text()

    # The standings CSV and the print view.
    page.goto(detail)
    with page.expect_download() as info:
        page.click("a[href$='/export/standings.csv']")
    rows = list(csv.DictReader(io.StringIO(Path(info.value.path()).read_text(encoding="utf-8"))))
    assert {r["player"] for r in rows} == set(MEMBERS + GUESTS)
    by_name = {r["player"]: r for r in rows}
    assert float(by_name[loser]["points"]) == 1 and float(by_name[winner]["points"]) == 0
    page.click("a[href$='/print/standings/']")
    page.wait_for_selector("table.standings")
    assert "Standings" in page.locator("h1").inner_text()
    page.emulate_media(media="print")
    assert not page.locator("header.topbar").is_visible()
    page.emulate_media(media="screen")

    # Round 2 (paired automatically): a seated member reports, the organiser confirms.
    t.refresh_from_db()
    assert t.current_round == 2
    table = next(
        tb for tb in t.rounds.get(number=2).tables.order_by("number") if _seats(tb.pk)[0] in MEMBERS
    )
    reporter, opponent = _seats(table.pk)
    page.context.clear_cookies()
    log_in(page, base, reporter)
    page.goto(f"{base}/tournaments/{t.pk}/tables/{table.pk}/")
    page.fill("input[name=report-score_0]", "44")
    page.fill("input[name=report-score_1]", "40")
    page.click("#report-result")
    page.wait_for_selector("text=Result reported: it counts once confirmed.")
    points_before = _points_csv(page, base, t.pk)
    page.context.clear_cookies()
    log_in(page, base, "olga")
    page.goto(detail)
    pending = page.locator("li.pending-report")
    assert pending.count() == 1 and reporter in pending.inner_text()
    pending.locator("button.confirm-report").click()
    page.wait_for_selector("text=Confirmed")
    stored = Table.objects.get(pk=table.pk)
    assert stored.result["scores"] == [44, 40] and stored.result["ranks"] == [1, 2]
    page.goto(detail)
    assert float(_standing(page, reporter)[1]) == points_before[reporter] + 1
    assert float(_standing(page, opponent)[1]) == points_before[opponent]
    page.wait_for_selector("table.forecast-table tbody tr")
    _shot(page, "tournament")
    page.goto(f"{base}/tournaments/mine/")
    _shot(page, "mine")


def _points_csv(page, base: str, pk: int) -> dict[str, float]:
    body = page.request.get(f"{base}/tournaments/{pk}/export/standings.csv").text()
    return {r["player"]: float(r["points"]) for r in csv.DictReader(io.StringIO(body))}
