"""A club night over the board, from start to finish, through the pages only: the organiser
creates a Yspahan Swiss (tables of 4, auto advance off) from the form, adds three members
by the member search (they accept) and six guests; two guests do not turn up, so seven are
checked in (tables of 4 and 3). Round 1 is reviewed (a swap), started, its results typed
in and one corrected; a player withdraws and a late guest enters before round 2, which is
paired (the withdrawn player not seated, the late one seated), swapped and started. The
projector view shows round 2 with a running timer and a QR code to the player's table;
a member opens it on her phone (390 px, in Czech). The standings give a win at a table of
3 and a win at a table of 4 the same points; the standings CSV and the printed pairings
are checked. Everything the organiser does is at 1280 px.

SCREENSHOTS=<folder> saves the notable pages (tests/browser/pages.shot)."""

import csv
import io
import re
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import segno
from django.utils import dateformat, formats, timezone, translation

from games.models import Invitation
from tests.browser.conftest import correct_table_result, log_in
from tests.browser.pages import page_width, shot
from tests.browser.test_club_season import _standing
from tests.games.factories import HumanPlayerFactory, UserFactory
from tournaments.models import Entry, Round, Table, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

MEMBERS = ["hana", "ivan", "karel"]
GUESTS = ["Jana Nováková", "Petr Dvořák", "Lucie Černá", "Tomáš Beneš", "Eva Malá", "Ota Šimek"]
NO_SHOWS = ["Eva Malá", "Ota Šimek"]  # entered, never checked in
LATE = "Zdeňka Hrubá"
VENUE = "Klubovna U Karavany"
PHONE = {"width": 390, "height": 844}
# What a Czech reader must not meet on her table's pages (words of the English templates).
ENGLISH = ["Your table", "Standings", "Report", "Round ", "Table ", "starts", "(you)",
           "guest", "Entrant", "Points", "Played", "withdrawn", "Tables", "times in",
           "over the board", "unrated", "rounds"]  # fmt: skip


def _seats(table: Table) -> list[str]:
    return [
        str(s.entry.player) for s in table.seats.select_related("entry__player").order_by("index")
    ]


def _tables(t: Tournament, number: int) -> list[Table]:
    return list(Round.objects.get(tournament=t, number=number).tables.order_by("number"))


def _entry(t: Tournament, name: str) -> Entry:
    return next(e for e in t.entries.select_related("player") if str(e.player) == name)


def _type_in(page, base: str, t: Tournament, table: Table) -> None:
    """The organiser types a table's scores in on its result page: seat 1 first, 10 apart."""
    page.goto(f"{base}/tournaments/{t.pk}/tables/{table.pk}/result/")
    n = table.seats.count()
    for i in range(n):
        page.fill(f"input[name=score_{i}]", str(100 - 10 * i))
    page.click("#save-result")
    page.wait_for_selector(f"text={table} recorded")


def _swap(page, base: str, t: Tournament, number: int, first: Entry, second: Entry) -> None:
    """Swap two entrants of a paired round on the tournament page (#swap-form)."""
    page.goto(f"{base}/tournaments/{t.pk}/")
    form = page.locator(f"#round-controls[data-round='{number}'] #swap-form")
    form.locator("#swap-first").select_option(str(first.pk))
    form.locator("#swap-second").select_option(str(second.pk))
    form.locator("#swap").click()
    page.wait_for_selector("text=Swapped")


def _start_round(page, t: Tournament, number: int) -> None:
    page.click(f"#round-controls[data-round='{number}'] #start-round")  # asks first
    assert page.locator("main h1").inner_text() == f"Start Round {number}?"
    page.click("#confirm")
    page.wait_for_selector(f"text=Round {number} started")
    assert Round.objects.get(tournament=t, number=number).status == "running"


def _clock_seconds(page) -> int:
    minutes, seconds = page.locator(".screen-head .timer-clock").inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


def test_a_club_night(live_server, browser_page):
    page, base = browser_page, live_server.url
    page.set_viewport_size({"width": 1280, "height": 900})
    UserFactory(username="olga")
    for name in MEMBERS:
        HumanPlayerFactory(user__username=name)

    # ---- the organiser creates the evening's Swiss from the form ---------------------
    log_in(page, base, "olga")
    page.goto(f"{base}/tournaments/new/")
    page.fill("input[name=name]", "Úterní Yspahan")
    page.select_option("select[name=game]", "yspahan")
    page.select_option("select[name=format]", "swiss")
    page.fill("input[name=table_size]", "4")
    page.fill("input[name=rounds]", "3")
    page.check("input[name=over_the_board]")
    # Over the board, auto advance turns off by itself (#29): she starts each round.
    assert not page.is_checked("input[name=auto_advance]")
    page.check("input[name=check_in]")
    page.fill("input[name=venue]", VENUE)
    page.click("main button[type=submit]")
    page.wait_for_selector("#start")
    t = Tournament.objects.get(name="Úterní Yspahan")
    assert (t.format, t.over_the_board, t.auto_advance, t.config["table_size"]) == (
        "swiss", True, False, 4)  # fmt: skip
    detail = f"{base}/tournaments/{t.pk}/"

    # Members from the search (each is asked and accepts), guests by name.
    for name in MEMBERS:
        page.fill("#member-search", name)
        page.click(f"#member-results button.member-pick[value={name}]")
        page.wait_for_selector(f"text={name} invited: entered once they accept")
    for guest in GUESTS:
        page.fill("#guest-name", guest)
        page.click("#add-guest")
        page.wait_for_selector(f"text=Guest {guest} entered")
    member = page.context.browser.new_page()  # the members' own browser
    member.set_default_timeout(20_000)
    try:
        for name in MEMBERS:
            member.context.clear_cookies()
            log_in(member, base, name)
            member.locator("header #invitation-badge").click()
            member.wait_for_url(f"{base}/invitations/")
            invitation = Invitation.objects.get(player__name=name, target_id=t.pk)
            member.locator(f"#invitation-{invitation.pk} button.accept").click()
            member.wait_for_selector("text=Accepted.")
    finally:
        member.context.close()
    assert t.entries.count() == 9

    # Seven turn up: ticked and checked in with one click.
    page.goto(detail)
    assert page.locator("#entrants-title").inner_text() == "Entrants (9)"
    for name in MEMBERS + GUESTS:
        if name not in NO_SHOWS:
            page.locator("#entrants li", has_text=name).locator("input[name=entry]").check()
    page.click("#check-in-ticked")
    page.wait_for_selector("text=7 entrants checked in.")
    assert page.locator("#check-in-count").inner_text() == "Checked in 7 of 9"
    shot(page, "club-night-checked-in-1280")

    # Start: the page says what happens, round 1 is paired and waits for her.
    page.click("#start")
    consequences = page.locator("main").inner_text()
    assert "2 entrants have not checked in and are withdrawn." in consequences
    assert "Round 1 is paired; you start it with “Start round”." in consequences
    page.click("#confirm")
    page.wait_for_selector(".tournament-status[data-status=running]")
    # Check-in is over: no count that a late entrant would make look short.
    assert page.locator("#check-in-count").count() == 0
    first = _tables(t, 1)
    assert [tb.seats.count() for tb in first] == [4, 3]
    seated = {name for tb in first for name in _seats(tb)}
    assert seated == set(MEMBERS + GUESTS) - set(NO_SHOWS)
    assert Round.objects.get(tournament=t, number=1).status == "paired"

    # Reviewed: one player of each table changes places, then the round starts.
    a, b = (_entry(t, _seats(tb)[-1]) for tb in first)
    _swap(page, base, t, 1, a, b)
    first = _tables(t, 1)
    assert str(b.player) in _seats(first[0]) and str(a.player) in _seats(first[1])
    assert page.locator(".table-card", has_text=str(b.player)).first.inner_text().startswith("#1")
    assert page_width(page) <= 1280
    # The pairing log names people as the pages do (a guest by name, not by handle).
    change = page.locator("#pairing-log li").first.inner_text()
    assert "Round 1: Swapped" in change and str(b.player) in change and "guest-" not in change
    shot(page, "club-night-round1-swapped-1280")
    _start_round(page, t, 1)

    # Results typed in (seat 1 first everywhere); the table of 3 corrected: seat 2 won.
    four, three = first
    for table in first:
        _type_in(page, base, t, table)
    page.goto(detail)
    old_winner, new_winner = _seats(three)[:2]
    correct_table_result(page, t.pk, three, [80, 100, 70], before=f"{old_winner} 100 (1.)")
    assert Table.objects.get(pk=three.pk).result["ranks"] == [2, 1, 3]
    shot(page, "club-night-corrected-1280")

    # Standings: a win at a table of 4 and a win at a table of 3 are worth the same.
    page.goto(detail)
    four_winner = _seats(four)[0]
    assert _standing(page, four_winner)[1] == _standing(page, new_winner)[1] == "3"
    assert _standing(page, old_winner)[1] == "1.5"  # second of 3: halfway (scaled)
    assert _standing(page, _seats(four)[1])[1] == "2"

    # Before round 2: a player goes home (asks first), a latecomer enters.
    leaver = next(n for n in _seats(four)[1:] if n in GUESTS)
    page.click(f"#withdraw-{_entry(t, leaver).pk}")
    assert page.locator("main h1").inner_text() == f"Withdraw {leaver}?"
    page.click("#confirm")
    page.wait_for_selector(f"text={leaver} withdrawn")
    page.fill("#guest-name", LATE)
    page.click("#add-guest")
    page.wait_for_selector(f"text=Guest {LATE} entered")

    # Round 2 paired by her: the leaver is not seated, the latecomer is.
    page.click("button:has-text('Pair next round')")
    page.wait_for_selector("text=Next round paired")
    second = _tables(t, 2)
    seated = [name for tb in second for name in _seats(tb)]
    assert leaver not in seated and LATE in seated and len(seated) == 7
    assert [tb.seats.count() for tb in second] == [4, 3]
    cards = page.locator("#round-controls[data-round='2']").locator("xpath=..")
    assert LATE in cards.inner_text() and leaver not in cards.inner_text()
    a, b = (_entry(t, _seats(tb)[0]) for tb in second)
    _swap(page, base, t, 2, a, b)
    second = _tables(t, 2)
    assert _seats(second[0])[0] == str(b.player) and _seats(second[1])[0] == str(a.player)
    shot(page, "club-night-round2-swapped-1280")
    _start_round(page, t, 2)

    # The round timer, from her controls.
    page.fill("#timer-minutes", "45")
    page.click("#timer-start")
    page.wait_for_selector("text=Timer of Round 2 running.")

    # ---- the projector: round 2, a running clock, a QR code to the player's table ----
    screen = page.context.new_page()
    screen.set_viewport_size({"width": 1280, "height": 720})
    screen.goto(f"{base}/tournaments/{t.pk}/screen/")
    screen.wait_for_selector(".screen-head .round-timer.running")
    assert screen.locator(".screen-round").inner_text() == "Round 2"
    pairings = screen.locator(".screen-pairings").inner_text()
    assert LATE in pairings and leaver not in pairings
    assert screen.locator(".screen-table").count() == 2
    before = _clock_seconds(screen)
    assert 44 * 60 <= before <= 45 * 60
    screen.wait_for_timeout(2200)  # the clock ticks on the page's own
    assert before - 4 <= _clock_seconds(screen) <= before - 1
    qr = screen.locator(".screen-qr svg.qr-code[role=img]")
    assert qr.is_visible() and qr.bounding_box()["width"] >= 150
    target = screen.locator("a.screen-qr").get_attribute("href")
    assert target == f"{detail}#my-table"
    # The picture encodes that address: the same modules as the code made from it.
    drawn = qr.locator("path.qrline").get_attribute("d")
    made = segno.make(target, error="m").svg_inline(scale=1, border=4, omitsize=True)
    assert f'd="{drawn}"' in made
    shot(screen, "club-night-projector-1280")
    screen.close()

    # ---- a member scans it on her phone, in Czech ------------------------------------
    hana_table = next(tb for tb in second if "hana" in _seats(tb))
    phone = page.context.browser.new_context(
        viewport=PHONE, locale="cs-CZ", timezone_id="Europe/Prague"
    )
    try:
        mine = phone.new_page()
        mine.set_default_timeout(20_000)
        log_in(mine, base, "hana")
        mine.goto(target)
        assert mine.locator("html").get_attribute("lang") == "cs"
        card = mine.locator("#my-table")
        card.wait_for()
        box = card.bounding_box()
        assert box["y"] + box["height"] <= PHONE["height"]  # on the first screen
        standings = mine.locator("#tournament-live h2", has_text="Pořadí").bounding_box()
        assert box["y"] < standings["y"]
        text = card.inner_text()
        assert "Váš stůl" in text and "2. kolo" in text and f"Stůl {hana_table.number}" in text
        assert "(vy)" in text and "začíná" in text
        seats = card.locator("ol.my-table-seats li").all_inner_texts()
        assert [li.split(" ")[0] for li in seats] == [n.split(" ")[0] for n in _seats(hana_table)]
        assert page_width(mine) <= PHONE["width"]
        # English left on the Czech page: said at the end, after the rest has been checked.
        english = {"my table": [w for w in ENGLISH if w in mine.locator("main").inner_text()]}
        shot(mine, "club-night-my-table-390-cs")
        card.locator("a.button", has_text="Nahlásit výsledek").click()
        mine.wait_for_url(f"{base}/tournaments/{t.pk}/tables/{hana_table.pk}/#report-form")
        assert f"2. kolo · Stůl {hana_table.number}" in mine.locator("main h1").inner_text()
        assert mine.locator("#report-result").is_visible()
        assert page_width(mine) <= PHONE["width"]
        english["report"] = [w for w in ENGLISH if w in mine.locator("main").inner_text()]
        shot(mine, "club-night-report-390-cs")
    finally:
        phone.close()

    # ---- the standings CSV: for programs, whatever the language ----------------------
    page.goto(detail)
    with page.expect_download() as info:
        page.click("nav.tournament-out a[href$='/export/standings.csv']")
    raw = Path(info.value.path()).read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # the BOM: Excel reads UTF-8
    text = raw.decode("utf-8-sig")
    header = text.split("\r\n", 1)[0].split(",")
    assert header[:7] == ["rank", "place", "entry", "player", "points", "played", "withdrawn"]
    assert all(re.fullmatch(r"[a-z]+(_[a-z0-9]+)*", key) for key in header), header
    czech = page.request.get(f"{base}/tournaments/{t.pk}/export/standings.csv",
                             headers={"Accept-Language": "cs"}).body()  # fmt: skip
    assert czech.decode("utf-8-sig").split("\r\n", 1)[0].split(",") == header
    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(text))}
    assert set(rows) == set(MEMBERS + GUESTS) | {LATE}
    assert float(rows[four_winner]["points"]) == float(rows[new_winner]["points"]) == 3
    assert rows[leaver]["withdrawn"] == "yes" and rows[NO_SHOWS[0]]["withdrawn"] == "yes"

    # ---- the printed pairings of round 2: venue, date, a column per seat -------------
    page.click("nav.tournament-out a[href*='/print/pairings/']")
    page.wait_for_selector("table.print-pairings")
    assert page.locator("h1").inner_text() == "Úterní Yspahan — Round 2"
    facts = dict(zip(page.locator(".paper-facts dt").all_inner_texts(),
                     page.locator(".paper-facts dd").all_inner_texts(), strict=True))  # fmt: skip
    started = Round.objects.get(tournament=t, number=2).started_at
    local = timezone.localtime(started, ZoneInfo("Europe/Prague"))  # the club's zone
    with translation.override("en"):
        day = formats.date_format(local, "DATE_FORMAT")
        hour = f"{formats.date_format(local, 'TIME_FORMAT')} ({dateformat.format(local, 'T')})"
    assert (facts["Venue"], facts["Date"], facts["Time"]) == (VENUE, day, hour), facts
    heads = [h.strip() for h in page.locator("table.print-pairings thead th").all_inner_texts()]
    assert heads[:5] == ["Table", "Seat 1 (starts)", "Seat 2", "Seat 3", "Seat 4"]
    rows = page.locator("table.print-pairings tbody tr")
    assert rows.count() == 2
    for i, table in enumerate(second):
        cells = [c.strip() for c in rows.nth(i).locator("td").all_inner_texts()]
        assert cells[0] == str(table.number)
        assert cells[1:5] == (_seats(table) + [""])[:4]
    shot(page, "club-night-print-pairings-1280")
    page.emulate_media(media="print")
    assert not page.locator("header.topbar").is_visible()
    page.emulate_media(media="screen")
    assert english == {"my table": [], "report": []}, english
