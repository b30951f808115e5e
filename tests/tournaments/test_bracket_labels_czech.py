"""The bracket's labels in the reader's language: box labels ("Čtvrtfinále 1", "V2 · 1"),
the seats still to come ("vítěz ČF 1"), nobody and walkovers, in the picture
(tournaments/bracket_svg.py) and in the phone's list (templates/tournaments/_bracket_list.html),
and the bracket marks beside the table numbers of the tournament page."""

import re
import xml.etree.ElementTree as ET

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from tests.config.test_i18n import CZECH, main_text
from tests.games.factories import UserFactory
from tests.tournaments.factories import tournament_with_bots
from tournaments import bracket_svg, selectors, services
from tournaments.models import Round, RoundStatus
from tournaments.services import entrants

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"
# Every English word the bracket builds; none may be left on a Czech page.
ENGLISH = re.compile(
    r"\b(Quarterfinals?|Semifinals?|Final|Grand final|reset|3rd place|winner of|loser of|"
    r"nobody|w/o|[Tt]able \d|playing|walkover|Bracket|Round|Winners|Losers|QF|GF|R\d+ ·|"
    r"W\d+ ·|L\d+ ·|forfeit)"
)


@pytest.fixture(autouse=True)
def _back_to_english():
    yield
    translation.activate("en")  # a Czech request leaves Czech active in this thread


def _tournament(n, format="single_elimination", **config):
    t = tournament_with_bots(n=n, format=format, config={"table_size": 2, **config},
                             over_the_board=True, auto_advance=False,
                             organiser=UserFactory())  # fmt: skip
    services.start_tournament(tournament=t)
    return t


def _play_round(t):
    """Record the current round: the better seed (seat 0) wins every table."""
    t.refresh_from_db()
    rnd = Round.objects.get(tournament=t, number=t.current_round)
    if rnd.status == RoundStatus.PAIRED:
        services.start_round(round_=rnd)
    for table in rnd.tables.all():
        n = table.seats.count()
        ranks = list(range(1, n + 1))
        services.record_result(table=table, ranks=ranks, scores=[10 * (n - r) for r in ranks])
    services.pair_next_round(tournament=t)
    t.refresh_from_db()


def _drawn(t, language):
    """(texts of the picture by class, the list's visible text) in ``language``."""
    t.refresh_from_db()
    with translation.override(language):
        picture = selectors.bracket(t)
        svg = str(bracket_svg.render(picture))
        html = render_to_string("tournaments/_bracket_list.html",
                                {"bracket_list": bracket_svg.as_list(picture)})  # fmt: skip
    root = ET.fromstring(svg)
    texts: dict[str, list[str]] = {}
    for el in root.iter(f"{SVG}text"):
        for cls in (el.get("class") or "").split():
            texts.setdefault(cls, []).append(el.text)
    texts["title"] = [el.text for el in root.iter(f"{SVG}title")]
    return texts, " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _all(texts):
    return "\n".join(s for values in texts.values() for s in values)


def test_single_elimination_of_eight_in_czech_and_english():
    t = _tournament(8, third_place=True)
    texts, listed = _drawn(t, "cs")
    assert texts["bk-column"] == ["Čtvrtfinále", "Semifinále", "Finále"]
    assert texts["bk-label"] == [
        "Čtvrtfinále 1", "Čtvrtfinále 2", "Čtvrtfinále 3", "Čtvrtfinále 4",
        "Semifinále 1", "Semifinále 2", "Finále", "O 3. místo",
    ]  # fmt: skip
    seats = texts["bk-seat"]
    assert {"vítěz ČF 1", "vítěz ČF 4", "vítěz SF 1", "poražený SF 2"} <= set(seats)
    assert texts["title"] == ["Pavouk"]
    for label in ("Čtvrtfinále 3", "Semifinále 2", "vítěz ČF 2", "poražený SF 1", "O 3. místo"):
        assert label in listed
    assert ENGLISH.findall(_all(texts)) == [] and ENGLISH.findall(listed) == []

    texts, listed = _drawn(t, "en")
    assert texts["bk-label"][0] == "Quarterfinal 1" and texts["bk-label"][-1] == "3rd place"
    assert {"winner of QF 1", "winner of SF 1", "loser of SF 2"} <= set(texts["bk-seat"])
    assert "Semifinal 2" in listed and "loser of SF 1" in listed
    assert texts["title"] == ["Bracket"]


def test_sixteen_entrants_number_the_early_rounds():
    t = _tournament(16)
    texts, listed = _drawn(t, "cs")
    assert texts["bk-label"][:2] == ["K1 · 1", "K1 · 2"]
    assert "vítěz K1 · 1" in texts["bk-seat"] and "1. kolo" in texts["bk-column"]
    assert ENGLISH.findall(_all(texts)) == [] and ENGLISH.findall(listed) == []
    texts, _listed = _drawn(t, "en")
    assert texts["bk-label"][0] == "R1 · 1" and "winner of R1 · 1" in texts["bk-seat"]


def test_double_elimination_of_four_in_czech_and_english():
    t = _tournament(4, format="double_elimination")
    texts, listed = _drawn(t, "cs")
    assert texts["bk-label"] == [
        "V1 · 1", "V1 · 2", "V2 · 1", "P1 · 1", "P2 · 1", "Velké finále", "Opakované velké finále",
    ]  # fmt: skip
    assert {"vítěz V1 · 1", "poražený V1 · 2", "vítěz P2 · 1", "vítěz VF", "poražený VF"} <= set(
        texts["bk-seat"]
    )
    assert texts["bk-band"] == ["Pavouk vítězů", "Pavouk poražených"]
    assert "Velké finále" in listed and "poražený V2 · 1" in listed
    assert ENGLISH.findall(_all(texts)) == [] and ENGLISH.findall(listed) == []

    # The two best withdraw after round 1: the winners' final goes to nobody, walkovers after.
    _play_round(t)
    for entry in list(t.entries.order_by("seed", "-rating", "id"))[:2]:
        entrants.withdraw_entry(entry=entry)
    _play_round(t)
    texts, listed = _drawn(t, "cs")
    assert "nikdo" in texts["bk-seat"] and "kont." in texts["bk-detail"]
    assert "Velké finále · bez boje" in texts["bk-label"]
    assert "nikdo" in listed and "kont." in listed
    assert ENGLISH.findall(_all(texts)) == [] and ENGLISH.findall(listed) == []

    texts, listed = _drawn(t, "en")
    assert "nobody" in texts["bk-seat"] and "w/o" in texts["bk-detail"]
    assert "Grand final · walkover" in texts["bk-label"]
    assert texts["bk-band"] == ["Winners' bracket", "Losers' bracket"]


def test_the_tournament_page_marks_the_tables_brackets_in_czech():
    t = _tournament(4, format="double_elimination")
    _play_round(t)
    client = Client()
    client.force_login(t.organiser)  # the organiser sees the table cards under the picture
    cards = re.findall(r'<span class="label">([^<]*)<', client.get(f"/tournaments/{t.pk}/", **CZECH)
                       .content.decode())  # fmt: skip
    assert {"V #1", "V #2", "P #2"} <= {" ".join(c.split()) for c in cards}  # round 2: W and L
    page = " ".join(client.get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
                    .split())  # fmt: skip
    assert "W #1" in page and "L #2" in page and "P #2" not in page
    assert "Velké finále" in main_text(
        client.get(f"/tournaments/{t.pk}/", **CZECH).content.decode()
    )
