"""FIDE Tournament Report File (TRF-16) of a two-seat Swiss or round robin (a league is a
round robin by matchdays), for Swiss Manager, bbpPairings or JaVaFo.

Fixed columns (1-based, inclusive) of a player line, as TRF-16 lays them out:

    1-3 "001"   5-8 starting rank   10 sex   11-13 title   15-47 name   49-52 rating
    54-56 federation   58-68 FIDE id   70-79 birth date   81-84 points   86-89 rank
    then per round r (r = 1, 2, ...), from column 92 + 10 (r - 1):
    4 columns opponent's starting rank ("0000": none), a space, the colour (w, b, -),
    a space, the result (1 0 = for games; + - for forfeits; U pairing bye,
    H half-point bye, F full-point bye, Z zero-point bye / absent).

Starting ranks follow the tournament's seeding order (seed, then rating, then id).
Seat 0 of a table has white. Only finished tables are written (a round in progress
leaves the unfinished tables' columns blank). Names are the shown names, at most 33
characters, written in UTF-8 (the pairing programs read the numbers, not the names).
Ratings are the Elo ratings frozen at the start, rounded; FIDE ids, sexes, titles,
federations and birth dates stay blank. Tournament lines: 012 name, 022 venue, 042/052
dates (in the tournament's time zone), 062/072 player counts, 092 type (Swiss-System,
Round-Robin, Double Round-Robin), 102 the organiser, XXR the number of rounds (the
JaVaFo/bbpPairings extension for a tournament in progress). Lines end in CR LF.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext

from tournaments import format_rows, formats
from tournaments.exports import entry_name
from tournaments.models import Tournament
from tournaments.zones import tournament_zone

ROUND_START = 92  # column of round 1's opponent
ROUND_WIDTH = 10


# Formats a TRF describes: one opponent per round (two seats), every game counted.
FORMATS = ("swiss", "round_robin", "league")


class NotExportable(ValueError):
    pass


NotTwoSeatSwiss = NotExportable  # its name before round robins were exported


def exportable(t: Tournament) -> bool:
    """Whether ``build`` writes this tournament (the page links the file only then)."""
    if t.format not in FORMATS:
        return False
    config = t.config if isinstance(t.config, dict) else {}
    return config.get("table_size", 2) == 2


def _type_line(t: Tournament, config) -> str:
    if t.format == "swiss":
        return "092 Individual: Swiss-System"
    if getattr(config, "double", False):
        return "092 Individual: Double Round-Robin"
    return "092 Individual: Round-Robin"


def _put(line: list[str], column: int, text: str) -> None:
    """Write ``text`` starting at 1-based ``column``."""
    end = column - 1 + len(text)
    if len(line) < end:
        line.extend(" " * (end - len(line)))
    line[column - 1 : end] = list(text)


def _bye_code(bye_points: float, win: float) -> str:
    if bye_points >= win:
        return "U"
    if bye_points > 0:
        return "H"
    return "Z"


def _points_text(value: float) -> str:
    return f"{value:4.1f}"


def build(t: Tournament) -> str:
    if t.format not in FORMATS:
        raise NotExportable(gettext("The TRF export is for Swiss and round-robin tournaments."))
    config = format_rows.format_config(t)
    if config.table_size != 2:
        raise NotExportable(gettext("The TRF export is for tournaments of two-player tables."))
    entries = {e.pk: e for e in t.entries.select_related("player")}
    entrants = format_rows.entrants(t, entries.values())
    order = [e.id for e in formats.seeding_order(entrants)]
    start_rank = {e: i for i, e in enumerate(order, start=1)}
    finished = format_rows.played_rounds(t, finished_tables_only=True)
    rows = formats.compute_standings(entrants, finished, config)
    points = {r.entrant: r.points for r in rows}
    rank = {r.entrant: r.rank for r in rows}
    win = formats.place_points(config, 2)[0]
    bye = formats.bye_points(config)

    cells: dict[int, dict[int, tuple[int, str, str]]] = {e: {} for e in order}
    rounds = list(t.rounds.prefetch_related("tables__seats", "byes").order_by("number"))
    for r in rounds:
        for table in r.tables.all():
            seats = [s.entry_id for s in sorted(table.seats.all(), key=lambda s: s.index)]
            if table.result is None or len(seats) != 2:
                continue
            ranks = table.result["ranks"]
            forfeited = table.result.get("forfeited") or [False, False]
            for i, (me, other) in enumerate(((seats[0], seats[1]), (seats[1], seats[0]))):
                j = 1 - i
                if forfeited[i] or forfeited[j]:
                    code = "-" if forfeited[i] else "+"
                elif ranks[i] < ranks[j]:
                    code = "1"
                elif ranks[i] > ranks[j]:
                    code = "0"
                else:
                    code = "="
                cells[me][r.number] = (start_rank[other], "w" if i == 0 else "b", code)
        for b in r.byes.all():
            cells[b.entry_id][r.number] = (0, "-", _bye_code(bye, win))
        if r.status == "finished":
            for e in order:  # absent from a finished round: a zero-point "bye"
                cells[e].setdefault(r.number, (0, "-", "Z"))

    total_rounds = format_rows.format_for(t).total_rounds(entrants) or len(rounds)
    zone = tournament_zone(t)
    lines = [
        f"012 {t.name}",
        f"022 {getattr(t, 'venue', '') or ''}".rstrip(),
        # Dates of the event where it is held (stored times are UTC).
        f"042 {timezone.localdate(t.started_at or t.created_at, zone):%Y/%m/%d}",
    ]
    if t.finished_at:
        lines.append(f"052 {timezone.localdate(t.finished_at, zone):%Y/%m/%d}")
    lines += [
        f"062 {len(order)}",
        f"072 {len(order)}",
        _type_line(t, config),
        f"102 {t.organiser.get_username() if t.organiser else ''}".rstrip(),
        f"XXR {total_rounds}",
    ]
    for e in order:
        line = list("001")
        _put(line, 5, f"{start_rank[e]:>4}")
        _put(line, 15, f"{entry_name(entries[e])[:33]:<33}")
        _put(line, 49, f"{max(0, min(9999, round(entries[e].rating))):>4}")
        _put(line, 81, _points_text(points.get(e, 0.0)))
        _put(line, 86, f"{rank.get(e, 0):>4}")
        for number, (opponent, colour, code) in sorted(cells[e].items()):
            column = ROUND_START + ROUND_WIDTH * (number - 1)
            who = "0000" if opponent == 0 else f"{opponent:>4}"
            _put(line, column, f"{who} {colour} {code}")
        lines.append("".join(line).rstrip())
    return "\r\n".join(lines) + "\r\n"
