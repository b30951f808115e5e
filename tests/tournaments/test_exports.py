"""CSV, .xlsx and TRF exports, print views, the readable standings and the forecast
endpoint, on the database (SQLite or PostgreSQL)."""

import csv
import io
import re
from datetime import UTC, datetime

import pytest
from django.utils import translation
from openpyxl import load_workbook

from tests.config.test_i18n import CZECH
from tests.games.factories import EngineBotFactory, UserFactory
from tournaments import format_rows, formats, services
from tournaments.models import Round, Table, Tournament

pytestmark = pytest.mark.django_db

NAMES = [
    'Novák, "Honza"',
    '=HYPERLINK("http://x")',
    "Žofie Čapková",
    "+420 Řehoř",
    "@Šárka",
    "-Ďábel",
    "Plain",
]


def _swiss(n=7, rounds=3, play_rounds=2, organiser=None):
    organiser = organiser or UserFactory()
    t = services.create_tournament(
        name="Úterní švýcar", game="silkroad", format="swiss", organiser=organiser,
        config={"table_size": 2, "rounds": rounds}, over_the_board=True, rated=False,
        auto_advance=False, seed=5,
    )  # fmt: skip
    for i in range(n):
        bot = EngineBotFactory(display_name=NAMES[i % len(NAMES)])
        entry = services.add_entry(tournament=t, player=bot)
        entry.seed = i + 1
        entry.save(update_fields=["seed"])
    services.start_tournament(tournament=t)
    for number in range(1, play_rounds + 1):
        rnd = t.rounds.get(number=number)
        if rnd.status == "paired":
            services.start_round(round_=rnd)
        for k, table in enumerate(rnd.tables.order_by("number")):
            if k == 0 and number == 2:
                services.record_result(table=table, ranks=[1, 1], scores=[30, 30])  # a draw
            elif k == 1 and number == 2:
                entry = table.seats.get(index=0).entry
                services.record_forfeit(table=table, entry=entry, by=organiser)
            else:
                services.record_result(table=table, ranks=[2, 1], scores=[12, 40])
        t.refresh_from_db()
        if number < rounds:
            services.pair_next_round(tournament=t)
    t.refresh_from_db()
    return t


@pytest.fixture(autouse=True)
def _back_to_english():
    yield
    translation.activate("en")  # a Czech request leaves Czech active in this thread


def _rows(response):
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    # A byte-order mark first: Excel reads the file as UTF-8 then, not the local code page.
    assert response.content.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_csv_exports_round_trip_names_and_never_start_a_formula(client):
    t = _swiss()
    entrants = _rows(client.get(f"/tournaments/{t.pk}/export/entrants.csv"))
    assert entrants[0][:2] == ["entry", "player"]
    names = [row[1] for row in entrants[1:]]
    assert 'Novák, "Honza"' in names and "Žofie Čapková" in names and "Plain" in names
    # Formula-like names come back with a leading apostrophe, the rest unchanged.
    assert '\'=HYPERLINK("http://x")' in names and "'+420 Řehoř" in names
    assert "'@Šárka" in names and "'-Ďábel" in names
    for kind in ("entrants", "pairings", "results", "standings"):
        for row in _rows(client.get(f"/tournaments/{t.pk}/export/{kind}.csv")):
            for cell in row:
                assert not cell.startswith(("=", "+", "-", "@")) or _number(cell), (kind, cell)
    pairings = _rows(client.get(f"/tournaments/{t.pk}/export/pairings.csv"))
    assert pairings[0] == ["round", "round_name", "table", "bracket", "seat", "entry", "player",
                           "table_name"]  # fmt: skip
    seated = {(int(r[0]), int(r[5])) for r in pairings[1:]}
    expected = {(tb.round.number, s.entry_id) for tb in Table.objects.filter(round__tournament=t)
                for s in tb.seats.all()}  # fmt: skip
    assert expected <= seated
    results = _rows(client.get(f"/tournaments/{t.pk}/export/results.csv"))
    header = results[0]
    assert header[:6] == ["round", "table", "bracket", "seat", "entry", "player"]
    forfeits = [r for r in results[1:] if r[header.index("forfeited")] == "yes"]
    assert len(forfeits) == 1 and forfeits[0][header.index("points")] == "0"
    scores = {r[header.index("score")] for r in results[1:]}
    assert {"30", "12", "40"} <= scores
    standings = _rows(client.get(f"/tournaments/{t.pk}/export/standings.csv"))
    assert standings[0][:5] == ["rank", "place", "entry", "player", "points"]
    assert all(row[1] == row[0] for row in standings[1:] if row[0])  # no shared place in a Swiss
    assert "median_buchholz" in standings[0] and "sonneborn_berger" in standings[0]
    assert len(standings) == 1 + t.entries.count()


def test_csv_headers_and_codes_do_not_change_with_the_language(client):
    t = _swiss()
    for kind in ("entrants", "pairings", "results", "standings"):
        english = _rows(client.get(f"/tournaments/{t.pk}/export/{kind}.csv"))
        czech = _rows(client.get(f"/tournaments/{t.pk}/export/{kind}.csv", **CZECH))
        assert czech == english, kind
        assert all(re.fullmatch(r"[a-z_]+", key) for key in english[0]), english[0]
    results = _rows(client.get(f"/tournaments/{t.pk}/export/results.csv", **CZECH))
    status = results[0].index("status")
    assert {r[status] for r in results[1:]} <= {"finished", "playing", "pending", "bye"}
    pairings = _rows(client.get(f"/tournaments/{t.pk}/export/pairings.csv", **CZECH))
    assert {r[1] for r in pairings[1:]} == {"Round 1", "Round 2", "Round 3"}


def _sheet(response):
    assert response.status_code == 200
    assert response["Content-Type"] == (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    assert response["Content-Disposition"].endswith('.xlsx"')
    book = load_workbook(io.BytesIO(response.content))
    return book.active


def test_xlsx_has_the_same_rows_with_headers_for_reading(client):
    t = _swiss()
    for kind in ("entrants", "pairings", "results", "standings"):
        rows = _rows(client.get(f"/tournaments/{t.pk}/export/{kind}.csv"))
        ws = _sheet(client.get(f"/tournaments/{t.pk}/export/{kind}.xlsx"))
        assert ws.max_row == len(rows) and ws.max_column == len(rows[0]), kind
        assert ws.freeze_panes == "A2"
    ws = _sheet(client.get(f"/tournaments/{t.pk}/export/standings.xlsx"))
    header = [c.value for c in ws[1]]
    assert header[:5] == ["Rank", "Place", "Entry", "Player", "Points"]
    assert "Median Buchholz" in header
    ws = _sheet(client.get(f"/tournaments/{t.pk}/export/entrants.xlsx"))
    names = [c.value for c in ws["B"][1:]]
    # Formula-like names stay text, as typed (no apostrophe needed in a spreadsheet file).
    assert '=HYPERLINK("http://x")' in names and "+420 Řehoř" in names
    for cell in ws["B"][1:]:
        assert cell.data_type == "s"
    assert all(isinstance(c.value, int) for c in ws["A"][1:])  # numbers as numbers
    ws = _sheet(client.get(f"/tournaments/{t.pk}/export/results.xlsx"))
    header = [c.value for c in ws[1]]
    forfeited = [r[header.index("Forfeited")] for r in ws.iter_rows(min_row=2, values_only=True)]
    assert forfeited.count(True) == 1
    czech = _sheet(client.get(f"/tournaments/{t.pk}/export/results.xlsx", **CZECH))
    assert czech.title != "Results" or translation.gettext("Results") == "Results"
    statuses = {r[header.index("Status")] for r in czech.iter_rows(min_row=2, values_only=True)}
    assert "Skončeno" in statuses  # the table's status in the reader's words
    assert client.get(f"/tournaments/{t.pk}/export/passwords.xlsx").status_code == 404


def _number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def test_unknown_export_is_404(client):
    t = _swiss(play_rounds=0)
    assert client.get(f"/tournaments/{t.pk}/export/passwords.csv").status_code == 404
    assert client.get("/tournaments/999999/export/standings.csv").status_code == 404


def _parse_trf(text: str) -> dict:
    """Read a TRF-16 file back by its column positions."""
    players = {}
    for line in text.split("\r\n"):
        if not line.startswith("001"):
            continue
        number = int(line[4:8])
        rounds = []
        column = 92
        while len(line) >= column + 7:
            block = line[column - 1 : column + 7]
            opponent, colour, result = block[0:4], block[5], block[7]
            rounds.append((int(opponent), colour, result))
            column += 10
        players[number] = {
            "name": line[14:47].rstrip(),
            "rating": int(line[48:52]),
            "points": float(line[80:84]),
            "rank": int(line[85:89]),
            "rounds": rounds,
        }
    return players


def test_trf_export_follows_the_field_positions_and_matches_the_records(client):
    t = _swiss(n=7, rounds=3, play_rounds=2)
    response = client.get(f"/tournaments/{t.pk}/export/trf")
    assert response.status_code == 200
    text = response.content.decode("utf-8")
    assert text.startswith(f"012 {t.name}\r\n") and "\r\nXXR 3\r\n" in text
    players = _parse_trf(text)
    entrants = format_rows.entrants(t)
    order = [e.id for e in formats.seeding_order(entrants)]
    number_of = {e: i for i, e in enumerate(order, start=1)}
    entries = {e.pk: e for e in t.entries.select_related("player")}
    assert sorted(players) == list(range(1, 8))
    for entry_id, number in number_of.items():
        p = players[number]
        assert p["name"] == str(entries[entry_id].player)[:33]
        assert p["rating"] == round(entries[entry_id].rating)
    # Every round's opponent, colour and result, from the tournament's own records.
    expected: dict[int, dict[int, tuple]] = {n: {} for n in players}
    for table in Table.objects.filter(round__tournament=t).select_related("round"):
        seats = [s.entry_id for s in table.seats.order_by("index")]
        if table.result is None:
            continue
        ranks, forfeited = table.result["ranks"], table.result["forfeited"]
        for i in (0, 1):
            j = 1 - i
            code = ("-" if forfeited[i] else "+") if any(forfeited) else (
                "1" if ranks[i] < ranks[j] else "0" if ranks[i] > ranks[j] else "=")  # fmt: skip
            expected[number_of[seats[i]]][table.round.number] = (
                number_of[seats[j]], "w" if i == 0 else "b", code)  # fmt: skip
    for rnd in t.rounds.all():
        for b in rnd.byes.all():
            expected[number_of[b.entry_id]][rnd.number] = (0, "-", "U")
    for number, p in players.items():
        assert dict(enumerate(p["rounds"], start=1)) == expected[number], number
    # 7 players: one bye per paired round (3, the third not played yet); a draw and a
    # forfeit were written as such.
    all_codes = [r[2] for p in players.values() for r in p["rounds"]]
    assert all_codes.count("U") == 3 and all_codes.count("=") == 2
    assert all_codes.count("+") == 1 and all_codes.count("-") == 1
    # Points and ranks are the standings'.
    rows = {r["entry"]: r for r in client.get(f"/api/tournaments/{t.pk}/standings/").json()}
    for entry_id, number in number_of.items():
        assert players[number]["points"] == rows[entry_id]["points"]
        assert players[number]["rank"] == rows[entry_id]["rank"]


def test_trf_is_for_two_seat_swiss_and_round_robin_only(client):
    organiser = UserFactory()
    for fmt, config in (("single_elimination", {"table_size": 2}),
                        ("swiss", {"table_size": 3})):  # fmt: skip
        t = services.create_tournament(name="No", game="silkroad", format=fmt,
                                       organiser=organiser, config=config)  # fmt: skip
        assert client.get(f"/tournaments/{t.pk}/export/trf").status_code == 404, fmt
        assert "/export/trf" not in client.get(f"/tournaments/{t.pk}/").content.decode()


@pytest.mark.parametrize(("fmt", "config", "kind"), [
    ("round_robin", {"table_size": 2}, "Round-Robin"),
    ("round_robin", {"table_size": 2, "double": True}, "Double Round-Robin"),
    ("league", {"table_size": 2}, "Round-Robin"),
])  # fmt: skip
def test_trf_of_a_round_robin(client, fmt, config, kind):
    t = services.create_tournament(
        name="Kruh", game="silkroad", format=fmt, organiser=UserFactory(), config=config,
        over_the_board=True, rated=False, auto_advance=False, seed=3,
    )  # fmt: skip
    for i in range(5):
        services.add_entry(tournament=t, player=EngineBotFactory(display_name=NAMES[i]))
    services.start_tournament(tournament=t)
    rnd = t.rounds.get(number=1)
    if rnd.status == "paired":
        services.start_round(round_=rnd)
    for table in rnd.tables.all():
        services.record_result(table=table, ranks=[1, 2], scores=[40, 12])
    assert f"/tournaments/{t.pk}/export/trf" in client.get(f"/tournaments/{t.pk}/").content.decode()
    response = client.get(f"/tournaments/{t.pk}/export/trf")
    assert response.status_code == 200
    text = response.content.decode("utf-8")
    assert f"\r\n092 Individual: {kind}\r\n" in text
    t.refresh_from_db()
    total = format_rows.format_for(t).total_rounds(format_rows.entrants(t))
    assert f"\r\nXXR {total}\r\n" in text
    players = _parse_trf(text)
    assert sorted(players) == [1, 2, 3, 4, 5]
    round_one = [p["rounds"][0] for p in players.values()]
    # Five entrants: two tables (white wins each) and a bye in round 1.
    assert sorted(code for _o, _c, code in round_one) == ["0", "0", "1", "1", "U"]
    for number, p in players.items():
        opponent, colour, code = p["rounds"][0]
        if code == "U":
            continue
        back = players[opponent]["rounds"][0]
        assert back[0] == number and {colour, back[1]} == {"w", "b"}
        assert (code == "1") == (colour == "w")


def test_trf_dates_are_the_tournaments_own(client):
    t = _swiss(play_rounds=0)
    # 23:30 UTC is already the next day in Prague, and still that day in New York.
    Tournament.objects.filter(pk=t.pk).update(
        started_at=datetime(2026, 11, 3, 23, 30, tzinfo=UTC), time_zone="America/New_York"
    )
    text = client.get(f"/tournaments/{t.pk}/export/trf").content.decode()
    assert "\r\n042 2026/11/03\r\n" in text
    Tournament.objects.filter(pk=t.pk).update(time_zone="")  # the site's: Europe/Prague
    text = client.get(f"/tournaments/{t.pk}/export/trf").content.decode()
    assert "\r\n042 2026/11/04\r\n" in text


def test_print_views_open_and_link_from_the_page(client):
    t = _swiss()
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert f"/tournaments/{t.pk}/print/standings/" in page
    assert f"/tournaments/{t.pk}/print/pairings/?round=" in page
    assert f"/tournaments/{t.pk}/export/trf" in page
    assert f"/tournaments/{t.pk}/export/results.csv" in page
    printed = client.get(f"/tournaments/{t.pk}/print/pairings/?round=2")
    assert printed.status_code == 200
    body = printed.content.decode()
    assert "print.css" in body
    # A write-in box per seat; a finished table's boxes hold its scores.
    assert body.count('<span class="write-in"') == 2 * Table.objects.filter(
        round__tournament=t, round__number=2).count()  # fmt: skip
    assert (
        '<small>1</small>30</span><span class="write-in" aria-label="Seat 2"><small>2</small>30'
        in body
    )
    assert client.get(f"/tournaments/{t.pk}/print/pairings/?round=9").status_code == 404
    assert client.get(f"/tournaments/{t.pk}/print/pairings/").status_code == 200
    standings = client.get(f"/tournaments/{t.pk}/print/standings/")
    assert standings.status_code == 200 and "Median Buchholz" in standings.content.decode()


def test_standings_read_like_people_wrote_them(client):
    t = _swiss(play_rounds=0)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    # Before play: no rank that looks like a result, no average place of a game not played.
    assert "Median Buchholz" in page and "without the best and the worst" in page
    assert "medianbuchholz" not in page and ">median_buchholz<" not in page
    rows = client.get(f"/api/tournaments/{t.pk}/standings/").json()
    assert all(r["tiebreaks"]["average_place"] is None for r in rows)
    assert '<td class="secondary tb">—</td>' in page  # no average place (cells classed for phones)
    t = _swiss(play_rounds=1)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert '<span class="score">(40)</span>' in page  # finished tables show the scores
    rows = client.get(f"/api/tournaments/{t.pk}/standings/").json()
    bye = [r for r in rows if r["played"] == 1 and r["tiebreaks"]["average_place"] is None]
    assert len(bye) == 1  # the bye: played, but no table, so no average place
    assert all(r["tiebreaks"]["average_place"] in (1.0, 2.0) for r in rows if r not in bye)


def test_forecast_api_and_page(client):
    t = _swiss(n=6, rounds=4, play_rounds=1)
    rows = client.get(f"/api/tournaments/{t.pk}/forecast/").json()
    assert len(rows) == 6 and {r["entry"] for r in rows} == set(
        t.entries.values_list("pk", flat=True)
    )
    for r in rows:
        assert len(r["places"]) == 6 and sum(r["places"]) == pytest.approx(1.0, abs=1e-3)
    for place in range(6):
        assert sum(r["places"][place] for r in rows) == pytest.approx(1.0, abs=1e-3)
    assert client.get(f"/api/tournaments/{t.pk}/forecast/").json() == rows  # cached, same seed
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'class="grid forecast-table"' in page and "Can still win" in page
    schema = client.get("/api/schema/").content.decode()
    assert "/api/tournaments/{id}/forecast/" in schema
    league = services.create_tournament(name="L", game="silkroad", format="single_elimination",
                                        organiser=UserFactory(), config={"table_size": 2})  # fmt: skip
    assert client.get(f"/api/tournaments/{league.pk}/forecast/").status_code == 409


def test_print_view_heads_the_sheet_with_venue_date_and_time_in_the_tournaments_zone(client):
    t = _swiss(play_rounds=1)
    Tournament.objects.filter(pk=t.pk).update(venue="Klubovna", time_zone="America/New_York")
    Round.objects.filter(tournament=t, number=1).update(
        started_at=datetime(2026, 11, 3, 23, 30, tzinfo=UTC)
    )
    body = client.get(f"/tournaments/{t.pk}/print/pairings/?round=1").content.decode()
    facts = body[body.index('class="paper-facts"') : body.index("</dl>")]
    assert "Klubovna" in facts and "Nov. 3, 2026" in facts and "6:30 p.m." in facts
    assert "(EST)" in facts
    standings = client.get(f"/tournaments/{t.pk}/print/standings/").content.decode()
    assert "Klubovna" in standings and "(EST)" in standings


def test_print_view_has_room_for_five_scores():
    organiser = UserFactory()
    t = services.create_tournament(
        name="Pět", game="silkroad", format="swiss", organiser=organiser,
        config={"table_size": 5, "rounds": 2}, over_the_board=True, rated=False, seed=2,
    )  # fmt: skip
    for i in range(10):
        services.add_entry(tournament=t, player=EngineBotFactory(display_name=f"Hráč {i}"))
    services.start_tournament(tournament=t)
    from django.test import Client

    body = Client().get(f"/tournaments/{t.pk}/print/pairings/?round=1").content.decode()
    assert 'class="print-page wide"' in body  # printed in landscape (site.css)
    rows = re.findall(r'<td class="result-cell">(.*?)</td>', body, re.S)
    assert len(rows) == 2 and all(r.count('class="write-in"') == 5 for r in rows)
    assert "Seat 1 (starts)" in body and "Seat 5" in body
