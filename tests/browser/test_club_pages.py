"""A club from its founding to a season's standings, through the pages only (issue #32).

Olga founds the club; Petr and Radka ask to join and Simon is invited; Olga accepts the two
requests, Simon accepts on his Invitations page, and Olga makes Petr an organiser. Petr
creates two members-only over-the-board Yspahan evenings of the club from the create form
(the club picked for him by the club page's link), Xena (no member) is refused entry with
a message, the four members join, Petr types the results in and finishes both. He creates
a season, attaches the two evenings and reads its standings under rule "sum", then edits
the rule to "best 1" and reads them again: both tables are recomputed here by hand. The
club page, the directory and the season's standings are checked at 390 px (no sideways
panning). Accounts are made with factories; everything they do is clicked and typed."""

import datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from clubs.models import Club, ClubEvent, Membership, MembershipStatus, Role, Season
from tests.browser.conftest import log_in
from tests.browser.pages import page_width, shot
from tests.browser.test_club_season import _standing
from tests.games.factories import UserFactory
from tournaments.models import Entry, Round, Table, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

OWNER, ORGANISER, ASKER, INVITEE, OUTSIDER = "olga", "petr", "radka", "simon", "xena"
PLAYERS = [OWNER, ORGANISER, ASKER, INVITEE]
CLUB = "Karavana Brno"
PHONE = {"width": 390, "height": 844}

# The two evenings (Swiss, 1 round, tables of 2; a win 1 point, a draw ½, a loss 0). Each
# table: (first, second, result) with result "first" (she wins 30-10) or "draw" (20-20).
EVENINGS = {
    "Úterý 1": [(ASKER, OWNER, "first"), (INVITEE, ORGANISER, "draw")],
    "Úterý 2": [(ORGANISER, ASKER, "first"), (INVITEE, OWNER, "draw")],
}
# Each evening's own standings, by hand (rank, points); a draw's two players are level on
# points and on every tie-break (each other's Buchholz ½, Sonneborn-Berger ½·½, average
# place 1.5, head-to-head ½), so they share the place ("1224" ranks):
#   Úterý 1: radka 1 (1st) · simon ½, petr ½ (2nd=) · olga 0 (4th)
#   Úterý 2: petr 1 (1st) · simon ½, olga ½ (2nd=) · radka 0 (4th)
EVENT_STANDINGS = {
    "Úterý 1": {ASKER: ("1", "1"), INVITEE: ("2", "0.5"), ORGANISER: ("2", "0.5"),
                OWNER: ("4", "0")},
    "Úterý 2": {ORGANISER: ("1", "1"), INVITEE: ("2", "0.5"), OWNER: ("2", "0.5"),
                ASKER: ("4", "0")},
}  # fmt: skip


def _login_as(page, base: str, name: str) -> None:
    page.context.clear_cookies()
    log_in(page, base, name)


def _message(page) -> str:
    return page.locator("main ul.messages").inner_text()


def _seats(table: Table) -> list[str]:
    return [
        str(s.entry.player) for s in table.seats.select_related("entry__player").order_by("index")
    ]


def _tables(t: Tournament, number: int = 1) -> list[Table]:
    return list(Round.objects.get(tournament=t, number=number).tables.order_by("number"))


def _entry(t: Tournament, name: str) -> Entry:
    return t.entries.get(player__user__username=name)


def _create_evening(page, base: str, club: Club, name: str) -> Tournament:
    """From the club page: "New event of the club" opens the create form with the club
    picked; a members-only Swiss of one round over the board."""
    page.goto(f"{base}/clubs/{club.slug}/")
    page.click("a.button:has-text('New event of the club')")
    page.wait_for_selector("select[name=club]")
    assert page.locator("select[name=club]").input_value() == club.slug
    page.fill("input[name=name]", name)
    page.select_option("select[name=game]", "yspahan")
    page.select_option("select[name=format]", "swiss")
    page.fill("input[name=table_size]", "2")
    page.fill("input[name=rounds]", "1")
    page.check("input[name=over_the_board]")
    if page.is_checked("input[name=rated]"):  # the club is not rated
        page.uncheck("input[name=rated]")
    page.check("input[name=members_only]")
    page.click("main button[type=submit]")
    page.wait_for_selector("#start")
    t = Tournament.objects.get(name=name)
    event = ClubEvent.objects.get(tournament=t)
    assert (event.club_id, event.members_only, t.over_the_board, t.rated) == (
        club.pk, True, True, False)  # fmt: skip
    assert page.locator("#header-facts .club-of-event").inner_text() == f"Club: {CLUB}"
    return t


def _pair_as(page, base: str, t: Tournament, wanted: list[tuple[str, str, str]]) -> None:
    """Round 1 as the evening's plan seats it: one swap on the tournament page if the
    pairing put someone else together (four players at two tables: one swap mends it)."""
    pairs = sorted(sorted(p[:2]) for p in wanted)
    if sorted(sorted(_seats(tb)) for tb in _tables(t)) != pairs:
        a, b = wanted[0][:2]
        neighbour = next(n for n in _seats(next(tb for tb in _tables(t) if a in _seats(tb)))
                         if n != a)  # fmt: skip
        page.goto(f"{base}/tournaments/{t.pk}/")
        form = page.locator("#round-controls[data-round='1'] #swap-form")
        form.locator("#swap-first").select_option(str(_entry(t, neighbour).pk))
        form.locator("#swap-second").select_option(str(_entry(t, b).pk))
        form.locator("#swap").click()
        page.wait_for_selector("text=Swapped")
    assert sorted(sorted(_seats(tb)) for tb in _tables(t)) == pairs


def _play_evening(page, base: str, t: Tournament, plan) -> None:
    """Start (asks first), seat the plan, start round 1, type each table's result in on its
    page, and finish with "Pair next round" (no round is left)."""
    detail = f"{base}/tournaments/{t.pk}/"
    page.goto(detail)
    page.click("#start")
    page.click("#confirm")
    page.wait_for_selector(".tournament-status[data-status=running]")
    _pair_as(page, base, t, plan)
    page.goto(detail)
    page.click("#round-controls[data-round='1'] #start-round")
    page.click("#confirm")
    page.wait_for_selector("text=Round 1 started")
    for first, second, result in plan:
        table = next(tb for tb in _tables(t) if set(_seats(tb)) == {first, second})
        scores = {first: 30, second: 10} if result == "first" else {first: 20, second: 20}
        page.goto(f"{base}/tournaments/{t.pk}/tables/{table.pk}/result/")
        for index, name in enumerate(_seats(table)):
            page.fill(f"input[name=score_{index}]", str(scores[name]))
        page.click("#save-result")
        page.wait_for_selector(f"text={table} recorded")
    page.goto(detail)
    page.click("#pair-next")
    page.wait_for_selector(".tournament-status[data-status=finished]")
    t.refresh_from_db()
    assert t.status == "finished"


def _season_rows(page) -> list[tuple]:
    """The season's standings table: (rank, player, score, events, wins, head-to-head),
    the score as a number (the page writes it with up to two decimals: "1.50")."""
    rows = []
    for tr in page.locator("table.season-standings tbody tr").all():
        rank, player, score, events, wins, h2h = (
            c.strip() for c in tr.locator("td").all_inner_texts()[:6]
        )
        rows.append((rank, player, float(score), events, wins, h2h))
    return rows


def test_a_club_from_founding_to_season_standings(live_server, browser_page):
    page, base = browser_page, live_server.url
    page.set_viewport_size({"width": 1280, "height": 900})
    for name in [*PLAYERS, OUTSIDER]:  # in this order: player ids follow it
        UserFactory(username=name)

    # ---- Olga founds the club from the directory -------------------------------------
    _login_as(page, base, OWNER)
    page.goto(f"{base}/clubs/")
    page.click("a.button:has-text('Found a club')")
    page.fill("input[name=name]", CLUB)
    page.fill("input[name=city]", "Brno")
    page.click("main button[type=submit]")
    page.wait_for_selector("h1:has-text('Karavana Brno')")
    assert f"The club {CLUB} is founded." in _message(page)
    club = Club.objects.get(name=CLUB)
    assert page.url == f"{base}/clubs/{club.slug}/"
    assert "You are a member (Owner)." in page.locator("section.club-join").inner_text()
    club_page = page.url

    # ---- Petr and Radka ask to join --------------------------------------------------
    for name in (ORGANISER, ASKER):
        _login_as(page, base, name)
        page.goto(club_page)
        page.click("#join")
        page.wait_for_selector("p.waiting")
        assert "You asked to join; the club's organisers will answer." in _message(page)
    assert set(club.memberships.filter(status=MembershipStatus.REQUESTED)
               .values_list("user__username", flat=True)) == {ORGANISER, ASKER}  # fmt: skip

    # ---- Olga accepts both, invites Simon, makes Petr an organiser -------------------
    _login_as(page, base, OWNER)
    page.goto(club_page)
    page.click("a:has-text('Members and requests')")
    page.wait_for_selector("h1:has-text('Members and requests')")
    for name in (ORGANISER, ASKER):
        request = page.locator("section.club-requests li", has_text=name)
        request.locator("button", has_text="Accept").click()
        page.wait_for_selector(f"text={name} is a member now.")
    assert "Nobody is waiting." in page.locator("section.club-requests").inner_text()
    page.fill("section.club-invite input[name=username]", INVITEE)
    page.click("section.club-invite button[type=submit]")
    page.wait_for_selector(f"text={INVITEE} is invited; she becomes a member when she accepts.")
    assert not Membership.objects.filter(club=club, user__username=INVITEE).exists()
    row = page.locator("section.club-roster tr", has_text=ORGANISER)
    row.locator("button", has_text="Make an organiser").click()
    page.wait_for_selector(f"text={ORGANISER} is an organiser now.")
    assert (
        page.locator("section.club-roster tr", has_text=ORGANISER).locator("td").nth(1).inner_text()
        == "Organiser"
    )

    # ---- Simon accepts on his Invitations page ----------------------------------------
    _login_as(page, base, INVITEE)
    page.goto(f"{base}/invitations/")
    invitation = page.locator("ul.invitations li", has_text=CLUB)
    invitation.locator("button.accept").click()
    page.wait_for_selector("text=Accepted.")
    page.goto(club_page)
    assert "You are a member (Member)." in page.locator("section.club-join").inner_text()
    roles = dict(club.memberships.filter(status=MembershipStatus.ACTIVE)
                 .values_list("user__username", "role"))  # fmt: skip
    assert roles == {OWNER: Role.OWNER, ORGANISER: Role.ORGANISER, ASKER: Role.MEMBER,
                     INVITEE: Role.MEMBER}  # fmt: skip

    # ---- Petr, the organiser, creates the two members-only evenings ------------------
    _login_as(page, base, ORGANISER)
    evenings = {name: _create_evening(page, base, club, name) for name in EVENINGS}

    # ---- Xena, no member, is refused entry (a message; nothing entered) ---------------
    _login_as(page, base, OUTSIDER)
    first = evenings["Úterý 1"]
    page.goto(f"{base}/tournaments/{first.pk}/")
    # No Join button for her: the reason stands in its place ...
    assert page.locator("#join").count() == 0
    assert page.inner_text("#join-refusal") == (
        f"Úterý 1 is for members of {CLUB} only: {OUTSIDER} is not a member "
        "(ask to join the club first)."
    )
    # ... and a join posted anyway (an old tab, a script) is refused the same way.
    page.evaluate(
        """url => { const f = document.createElement('form'); f.method = 'post'; f.action = url;
        const c = document.createElement('input'); c.name = 'csrfmiddlewaretoken';
        c.value = document.querySelector('[name=csrfmiddlewaretoken]').value; f.append(c);
        document.body.append(f); f.submit(); }""",
        f"/tournaments/{first.pk}/join/",
    )
    page.wait_for_selector("main ul.messages li.error")
    assert _message(page).startswith(f"Úterý 1 is for members of {CLUB} only")
    assert not first.entries.filter(player__user__username=OUTSIDER).exists()

    # ---- The four members join both evenings --------------------------------------------
    for name in PLAYERS:
        _login_as(page, base, name)
        for t in evenings.values():
            page.goto(f"{base}/tournaments/{t.pk}/")
            page.click("#join")
            page.wait_for_selector("text=You have entered.")
    for t in evenings.values():
        assert set(t.entries.values_list("player__user__username", flat=True)) == set(PLAYERS)

    # ---- Petr runs both evenings: results typed in, each finished -----------------------
    _login_as(page, base, ORGANISER)
    for name, plan in EVENINGS.items():
        t = evenings[name]
        _play_evening(page, base, t, plan)
        page.goto(f"{base}/tournaments/{t.pk}/")
        for player, expected in EVENT_STANDINGS[name].items():
            assert _standing(page, player) == expected, (name, player)
    # The club page lists both as recent results with their winners.
    page.goto(club_page)
    recent = page.locator("ul.recent-events").inner_text()
    assert "Úterý 1 · Yspahan" in recent and f"winner: {ASKER}" in recent
    assert f"winner: {ORGANISER}" in recent

    # ---- The season: created by Petr, both evenings attached ------------------------------
    page.click("#new-season")
    today = timezone.localtime(timezone.now(), ZoneInfo("Europe/Prague")).date()
    page.fill("input[name=name]", "Jaro")
    page.fill("input[name=starts_on]", (today - datetime.timedelta(days=30)).isoformat())
    page.fill("input[name=ends_on]", (today + datetime.timedelta(days=60)).isoformat())
    page.check("input[name=games][value=yspahan]")
    page.check("input[name=rule][value=sum]")
    page.click("main form.season-form button[type=submit]")
    page.wait_for_selector("text=Season created.")
    season = Season.objects.get(club=club, name="Jaro")
    season_page = f"{base}/clubs/{club.slug}/seasons/{season.pk}/"
    assert page.url == season_page
    for name in EVENINGS:
        page.select_option("form.attach-event select[name=tournament]", str(evenings[name].pk))
        page.click("form.attach-event button[type=submit]")
        page.wait_for_selector(f"text={name} now counts in the season.")
    assert set(ClubEvent.objects.filter(season=season).values_list("tournament__name", flat=True)
               ) == set(EVENINGS)  # fmt: skip

    # ---- Rule "sum", by hand ----------------------------------------------------------
    # Each player's event points (Úterý 1 + Úterý 2) and event wins (1st places):
    #   petr   ½ + 1 = 1.5   wins 1 (Úterý 2)
    #   radka  1 + 0 = 1     wins 1 (Úterý 1)
    #   simon  ½ + ½ = 1     wins 0
    #   olga   0 + ½ = 0.5   wins 0
    # radka and simon are level on 1: radka has more event wins (1 > 0), so she is 2nd.
    # Head-to-head is computed only among players level on score and wins: nobody is, so
    # 0 for all. No ratings (unrated evenings). Events: 2 each.
    assert "Sum of event points." in page.locator("p.season-rule").inner_text()
    assert _season_rows(page) == [
        ("1", ORGANISER, 1.5, "2", "1", "0"),
        ("2", ASKER, 1.0, "2", "1", "0"),
        ("3", INVITEE, 1.0, "2", "0", "0"),
        ("4", OWNER, 0.5, "2", "0", "0"),
    ]
    assert page.locator("table.season-standings tbody tr td:nth-child(7)").all_inner_texts() == [
        "—"] * 4  # fmt: skip

    # ---- Rule "best 1" on the season's edit page, by hand -------------------------------
    page.click("#edit-season")
    page.check("input[name=rule][value=best]")
    page.fill("input[name=best_n]", "1")
    page.click("main form.season-form button[type=submit]")
    page.wait_for_selector("text=Season saved.")
    season.refresh_from_db()
    assert (season.rule, season.best_n) == ("best", 1)
    # Each player's best single evening:
    #   petr   max(½, 1) = 1    wins 1
    #   radka  max(1, 0) = 1    wins 1
    #   simon  max(½, ½) = 0.5  wins 0
    #   olga   max(0, ½) = 0.5  wins 0
    # petr and radka level on 1 and on wins: head-to-head over the evenings both played:
    #   Úterý 1 radka 1st above petr 2nd (radka +1), Úterý 2 petr 1st above radka 4th
    #   (petr +1): 1 each, still level; no ratings either: they share 1st (listed by
    #   player id: petr's account is older).
    # simon and olga level on ½ and 0 wins: Úterý 1 simon 2nd above olga 4th (simon +1),
    #   Úterý 2 both 2nd (nobody): simon 1, olga 0, so simon 3rd and olga 4th.
    # Events: 1 counted of 2.
    assert "Best N events (1)." in page.locator("p.season-rule").inner_text()
    assert _season_rows(page) == [
        ("1", ORGANISER, 1.0, "1/2", "1", "1"),
        ("1", ASKER, 1.0, "1/2", "1", "1"),
        ("3", INVITEE, 0.5, "1/2", "0", "1"),
        ("4", OWNER, 0.5, "1/2", "0", "0"),
    ]
    shot(page, "club-season-standings-1280")

    # ---- On a phone: nothing pans sideways ----------------------------------------------
    page.set_viewport_size(PHONE)
    for url in (club_page, f"{base}/clubs/", season_page):
        page.goto(url)
        page.wait_for_load_state("load")
        assert page_width(page) <= PHONE["width"], (url, page_width(page))
        shot(page, "club-pages-390-" + url.rstrip("/").rsplit("/", 1)[-1])
