"""A league in progress: the standings with the forecast, a CSV download and the print view,
at 1280 px (screenshots for the docs) and at 390 px (no sideways scrolling)."""

import csv
import io
import os
from pathlib import Path

import pytest

from tests.games.factories import EngineBotFactory, UserFactory
from tournaments import services
from tournaments.models import Entry

pytestmark = pytest.mark.django_db(transaction=True)

# The docs' screenshots are retaken only on request: SCREENSHOTS=docs/screenshots.
SHOTS = Path(os.environ.get("SCREENSHOTS") or "var/screenshots")
NAMES = [
    "Jana Nováková",
    "Petr Dvořák",
    'Ota "Kára" Šimek',
    "Lucie Černá",
    "Radek, Jr.",
    "Eva Malá",
]
RATINGS = [1720, 1640, 1580, 1510, 1450, 1390]


@pytest.fixture
def league(live_server):
    organiser = UserFactory(username="olga")
    t = services.create_tournament(
        name="Yspahan — podzimní liga", game="yspahan", format="league", organiser=organiser,
        config={"table_size": 2}, over_the_board=True, rated=False, auto_advance=True, seed=9,
    )  # fmt: skip
    for name in NAMES:
        services.add_entry(tournament=t, player=EngineBotFactory(display_name=name))
    services.start_tournament(tournament=t)
    for entry, rating in zip(
        Entry.objects.filter(tournament=t).order_by("id"), RATINGS, strict=True
    ):
        entry.rating = rating
        entry.save(update_fields=["rating"])
    by_id = {e.pk: i for i, e in enumerate(Entry.objects.filter(tournament=t).order_by("id"))}
    for _ in range(2):  # two matchdays: the earlier entrant wins every table
        t.refresh_from_db()
        rnd = t.rounds.get(number=t.current_round)
        if rnd.status == "paired":
            services.start_round(round_=rnd)
        for table in rnd.tables.all():
            seats = [s.entry_id for s in table.seats.order_by("index")]
            ranks = [1 + sorted(seats, key=by_id.get).index(e) for e in seats]
            services.record_result(table=table, ranks=ranks, scores=[80 - 20 * r for r in ranks])
        services.advance_tournament(tournament_id=t.pk)
    t.refresh_from_db()
    return t


def test_standings_forecast_csv_and_print_view(live_server, browser_page, league):
    page = browser_page
    t = league
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    page.wait_for_selector("table.forecast-table tbody tr")
    assert page.locator("table.forecast-table tbody tr").count() == 6
    assert page.locator("table.standings thead abbr", has_text="Med. Buchholz").count() == 1
    assert page.locator(".tiebreak-legend dt", has_text="Median Buchholz").count() == 1
    cells = page.locator("table.forecast-table td.can-win").all_inner_texts()
    assert set(cells) <= {"yes", "no"} and "yes" in cells
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#forecast").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "tournament-forecast.png"), full_page=True)

    with page.expect_download() as info:
        page.click("a[href$='/export/standings.csv']")
    body = Path(info.value.path()).read_text(encoding="utf-8-sig")  # a BOM first
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0][:5] == ["rank", "place", "entry", "player", "points"]
    assert {r[3] for r in rows[1:]} == set(NAMES)

    page.click("a[href$='/print/standings/']")
    page.wait_for_selector("h1")
    assert "Standings" in page.locator("h1").inner_text()
    page.emulate_media(media="print")
    assert not page.locator("header.topbar").is_visible()
    assert page.locator("table.standings").is_visible()
    page.screenshot(path=str(SHOTS / "tournament-print.png"), full_page=True)
    page.emulate_media(media="screen")

    page.goto(f"{live_server.url}/tournaments/{t.pk}/print/pairings/?round=2")
    assert page.locator("table.print-pairings tbody tr").count() == 3
    page.emulate_media(media="print")
    assert not page.locator("header.topbar").is_visible()


def test_tournament_pages_fit_a_phone(live_server, browser_page, league):
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 800})
    for path in ("/", "/print/standings/", "/print/pairings/?round=1"):
        page.goto(f"{live_server.url}/tournaments/{league.pk}{path}")
        page.wait_for_load_state("load")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
