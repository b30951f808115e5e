"""Exports of a tournament: entrants, pairings, results and standings, as CSV and as .xlsx.

One table per kind (``sheet(t, kind)``), written two ways:

- **CSV is for programs** and stays the same whatever the reader's language: fixed English
  snake_case column keys (``round,table,seat,player,place,score``; tie-breaks by their keys,
  ``median_buchholz``) and codes for values (``status`` ``finished``, ``kind`` ``guest``,
  ``round_name`` the stored English label, ``forfeited`` ``yes``/``no``). UTF-8 with a
  byte-order mark (without it Excel, Czech Excel among them, reads the file as the local
  code page: "Ĺ˝ofie" for "Žofie"), comma-separated, CR LF, quoted as ``csv`` does.
  A text cell a spreadsheet would take for a formula (starting with = + - @, a tab or a
  carriage return) gets a leading apostrophe; numbers are written as numbers.
- **.xlsx is for reading** (openpyxl): the same rows and columns, headers and values in
  the reader's language (``Kolo``, ``Dokončeno``), numbers and yes/no as spreadsheet
  numbers and booleans, the header row frozen. Text is always stored as text, never as a
  formula (no apostrophe needed).

Table names (``services.table_names``) are in the pairings and results as ``table_name``,
after the columns older files had (a file read by column position keeps working).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from tournaments import format_rows, formats, selectors
from tournaments.formats.points import bye_points
from tournaments.models import Tournament
from tournaments.services.table_names import names_of
from tournaments.tiebreak_labels import label
from tournaments.zones import tournament_zone

KINDS = ("entrants", "pairings", "results", "standings")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
BOM = "\ufeff"
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

# The .xlsx headers (the CSV writes the keys themselves).
HEADERS = {
    "entry": gettext_lazy("Entry"),
    "player": gettext_lazy("Player"),
    "handle": gettext_lazy("Handle"),
    "kind": gettext_lazy("Kind"),
    "seed": gettext_lazy("Seed"),
    "rating": gettext_lazy("Rating"),
    "joined_round": gettext_lazy("Joined in round"),
    "withdrawn_after": gettext_lazy("Withdrawn after round"),
    "round": gettext_lazy("Round"),
    "round_name": gettext_lazy("Round name"),
    "table": gettext_lazy("Table"),
    "table_name": gettext_lazy("Table name"),
    "bracket": gettext_lazy("Bracket"),
    "seat": gettext_lazy("Seat"),
    "status": gettext_lazy("Status"),
    "place": gettext_lazy("Place"),
    "score": gettext_lazy("Score"),
    "forfeited": gettext_lazy("Forfeited"),
    "points": gettext_lazy("Points"),
    "rank": gettext_lazy("Rank"),
    "played": gettext_lazy("Played"),
    "withdrawn": gettext_lazy("Withdrawn"),
}
SHEET_TITLES = {
    "entrants": gettext_lazy("Entrants"),
    "pairings": gettext_lazy("Pairings"),
    "results": gettext_lazy("Results"),
    "standings": gettext_lazy("Standings"),
}


@dataclass(frozen=True)
class Coded:
    """A value with a stable code (the CSV's) and words for people (the .xlsx's)."""

    code: str
    shown: str


@dataclass
class Sheet:
    keys: list[str]
    rows: list[list]

    def headers(self) -> list[str]:
        return [str(HEADERS[k]) if k in HEADERS else label(k).name for k in self.keys]


def safe(value) -> object:
    """A CSV cell a spreadsheet shows as text, never evaluates."""
    if isinstance(value, Coded):
        value = value.code
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return f"{value:g}" if isinstance(value, float) else value
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def entry_name(entry) -> str:
    """The entrant's shown name (a guest is a player without an account: his typed name)."""
    return str(entry.player) if entry.player_id else "?"


def _rounds(t: Tournament):
    return list(
        t.rounds.prefetch_related("tables__seats__entry__player", "byes__entry__player").order_by(
            "number"
        )
    )


def _round_name(r) -> Coded:
    return Coded(r.label or f"Round {r.number}", str(r))


def _bye() -> Coded:
    return Coded("bye", gettext("bye"))


def entrants(t: Tournament) -> Sheet:
    rows = [
        [e.pk, entry_name(e), e.player.name if e.player_id else "",
         Coded(e.player.kind, e.player.get_kind_display()) if e.player_id else "", e.seed,
         round(e.rating, 2), e.joined_round, e.withdrawn_after]
        # The waitlist is no entrant (never paired, counted or ranked).
        for e in t.entries.filter(waitlisted_at__isnull=True).select_related("player").order_by("id")
    ]  # fmt: skip
    keys = ["entry", "player", "handle", "kind", "seed", "rating", "joined_round",
            "withdrawn_after"]  # fmt: skip
    return Sheet(keys, rows)


def pairings(t: Tournament) -> Sheet:
    names = names_of(t)
    rows = []
    for r in _rounds(t):
        for table in r.tables.all():
            for s in table.seats.all():
                rows.append([r.number, _round_name(r), table.number, table.bracket, s.index + 1,
                             s.entry_id, entry_name(s.entry), names.get(table.number, "")])  # fmt: skip
        for b in r.byes.all():
            rows.append([r.number, _round_name(r), _bye(), "", "", b.entry_id,
                         entry_name(b.entry), ""])  # fmt: skip
    keys = ["round", "round_name", "table", "bracket", "seat", "entry", "player", "table_name"]
    return Sheet(keys, rows)


def results(t: Tournament) -> Sheet:
    config = format_rows.format_config(t)
    names = names_of(t)
    rows = []
    for r in _rounds(t):
        for table in r.tables.all():
            result = table.result or {}
            ranks = result.get("ranks") or []
            scores = result.get("scores") or []
            forfeited = result.get("forfeited") or []
            points = _table_points(config, ranks, forfeited) if ranks else []
            for s in table.seats.all():
                i = s.index
                rows.append([
                    r.number, table.number, table.bracket, s.index + 1, s.entry_id,
                    entry_name(s.entry), Coded(table.status, table.get_status_display()),
                    ranks[i] if i < len(ranks) else None,
                    scores[i] if i < len(scores) else None,
                    bool(forfeited[i]) if i < len(forfeited) else None,
                    points[i] if i < len(points) else None,
                    names.get(table.number, ""),
                ])  # fmt: skip
        for b in r.byes.all():
            rows.append([r.number, _bye(), "", "", b.entry_id, entry_name(b.entry), _bye(),
                         None, None, None, bye_points(config), ""])  # fmt: skip
    keys = ["round", "table", "bracket", "seat", "entry", "player", "status", "place",
            "score", "forfeited", "points", "table_name"]  # fmt: skip
    return Sheet(keys, rows)


def _table_points(config, ranks: list[int], forfeited: list) -> list[float]:
    result = formats.TableResult(ranks=tuple(ranks), forfeited=tuple(bool(f) for f in forfeited))
    return list(formats.seat_points(config, result))


def standings(t: Tournament) -> Sheet:
    rows = [] if selectors.display_problem(t) else selectors.standings_out(t)
    tiebreaks = list(rows[0]["tiebreaks"]) if rows else []
    # place: the rank as people write it, a range for a shared elimination place ("3–4").
    keys = ["rank", "place", "entry", "player", "points", "played", "withdrawn", *tiebreaks]
    names = {e.pk: entry_name(e) for e in t.entries.select_related("player")}
    out = []
    for row in rows:
        out.append([row["rank"], row.get("place"), row["entry"], names.get(row["entry"], row["player"]), row["points"], row["played"],
                    row["withdrawn"]] + [row["tiebreaks"].get(k) for k in tiebreaks])  # fmt: skip
    return Sheet(keys, out)


SHEETS = {"entrants": entrants, "pairings": pairings, "results": results, "standings": standings}


def sheet(t: Tournament, kind: str) -> Sheet:
    return SHEETS[kind](t)


def to_csv(data: Sheet) -> str:
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(data.keys)
    for row in data.rows:
        writer.writerow([safe(v) for v in row])
    return out.getvalue()


def csv_of(t: Tournament, kind: str) -> str:
    return to_csv(sheet(t, kind))


def _sheet_title(kind: str) -> str:
    title = str(SHEET_TITLES[kind])
    return "".join(c for c in title if c not in "[]:*?/\\")[:31] or kind


def to_xlsx(data: Sheet, kind: str) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font

    book = Workbook()
    ws = book.active
    ws.title = _sheet_title(kind)
    ws.append(data.headers())
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for row in data.rows:
        ws.append([_xlsx_value(v) for v in row])
    for row in ws.iter_rows(min_row=2):
        for cell in row:
            if isinstance(cell.value, str) and cell.value.startswith("="):
                cell.data_type = "s"  # openpyxl took it for a formula: keep it text
    ws.freeze_panes = "A2"
    for column in ws.columns:
        width = max(len(str(c.value)) if c.value is not None else 0 for c in column)
        ws.column_dimensions[column[0].column_letter].width = min(40, max(6, width + 2))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _xlsx_value(value):
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    if isinstance(value, Coded):
        value = value.shown
    if isinstance(value, str):
        return ILLEGAL_CHARACTERS_RE.sub("", value)  # control characters: refused by xlsx
    return value


def xlsx_of(t: Tournament, kind: str) -> bytes:
    return to_xlsx(sheet(t, kind), kind)


# The CSV of each kind (callers before the .xlsx export read these).
BUILDERS = {kind: (lambda t, kind=kind: csv_of(t, kind)) for kind in KINDS}


# ---- iCalendar (RFC 5545) ------------------------------------------------------------
def _ical_text(value) -> str:
    """A TEXT value: backslash, semicolon, comma and line breaks escaped (3.3.11)."""
    text = str(value).replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    return text.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n")


def _ical_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def fold(line: str) -> str:
    """One content line folded at 75 octets (3.1): each further part starts with a space;
    a UTF-8 character is never split."""
    parts, current, size = [], [], 0
    for char in line:
        width = len(char.encode("utf-8"))
        limit = 75 if not parts else 74  # a continuation's leading space counts
        if size + width > limit:
            parts.append("".join(current))
            current, size = [], 0
        current.append(char)
        size += width
    parts.append("".join(current))
    return "\r\n ".join(parts)


def ical(t: Tournament, *, url: str, host: str, now: datetime | None = None) -> str:
    """The tournament's calendar: its planned start, each round from its start (to its end,
    or for its timer's length) and each round's deadline; times in UTC ("Z"), lines folded,
    CR LF. Event UIDs stay the same from one download to the next (a calendar that
    subscribes updates them in place)."""
    return calendar_text(tournament_events(t, url=url), name=t.name,
                         zone=tournament_zone(t).key, host=host, now=now)  # fmt: skip


def tournament_events(t: Tournament, *, url: str) -> list[dict]:
    """The tournament's events for calendar_text (also a person's feed, core.calendar_feed)."""
    uid_base = f"tournament-{t.pk}-{t.created_at:%Y%m%d%H%M%S}"
    common = {"location": t.venue, "url": url, "cancelled": t.status == "cancelled"}
    events: list[dict] = []
    if t.starts_at:
        events.append({"uid": "start", "start": t.starts_at, "end": None,
                       "summary": gettext("%(name)s: start") % {"name": t.name}})  # fmt: skip
    for r in t.rounds.order_by("number"):
        what = {"name": t.name, "round": r}
        if r.started_at:
            end = r.finished_at
            if end is None and r.timer_minutes:
                end = r.started_at + timedelta(minutes=r.timer_minutes)
            events.append({"uid": f"round-{r.number}", "start": r.started_at, "end": end,
                           "summary": gettext("%(name)s: %(round)s") % what})  # fmt: skip
        if r.deadline:
            events.append({"uid": f"round-{r.number}-deadline", "start": r.deadline,
                           "end": None,
                           "summary": gettext("%(name)s: %(round)s due") % what})  # fmt: skip
    return [{**common, **e, "uid": f"{uid_base}-{e['uid']}"} for e in events]


def calendar_text(events: list[dict], *, name: str, zone: str, host: str,
                  now: datetime | None = None) -> str:  # fmt: skip
    """An iCalendar (RFC 5545) of `events`: dicts of uid, start, end (or None), summary
    and optionally location, url and cancelled."""
    stamp = _ical_time(now or timezone.now())
    lines = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Caravan Club//Tournaments//EN",
        "CALSCALE:GREGORIAN", "METHOD:PUBLISH", f"X-WR-CALNAME:{_ical_text(name)}",
        f"X-WR-TIMEZONE:{zone}",
    ]  # fmt: skip
    for e in events:
        lines += ["BEGIN:VEVENT", f"UID:{e['uid']}@{host}", f"DTSTAMP:{stamp}",
                  f"DTSTART:{_ical_time(e['start'])}"]  # fmt: skip
        if e.get("end") and e["end"] > e["start"]:
            lines.append(f"DTEND:{_ical_time(e['end'])}")
        lines.append(f"SUMMARY:{_ical_text(e['summary'])}")
        if e.get("location"):
            lines.append(f"LOCATION:{_ical_text(e['location'])}")
        if e.get("url"):
            lines += [f"URL:{e['url']}", f"DESCRIPTION:{_ical_text(e['url'])}"]
        if e.get("cancelled"):
            lines.append("STATUS:CANCELLED")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)
