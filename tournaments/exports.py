"""CSV exports of a tournament: entrants, pairings, results and standings.

UTF-8 (no byte-order mark), comma-separated, quoted as ``csv`` does (names with commas,
quotes and diacritics read back intact). A text cell that a spreadsheet would take for
a formula (starting with = + - @, a tab or a carriage return) gets a leading apostrophe;
numbers are written as numbers.
"""

from __future__ import annotations

import csv
import io

from tournaments import format_rows, formats, selectors
from tournaments.formats.points import bye_points
from tournaments.models import Tournament
from tournaments.tiebreak_labels import label

KINDS = ("entrants", "pairings", "results", "standings")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe(value) -> object:
    """A cell a spreadsheet shows as text, never evaluates."""
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


def _csv(header: list[str], rows) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([safe(h) for h in header])
    for row in rows:
        writer.writerow([safe(v) for v in row])
    return out.getvalue()


def _rounds(t: Tournament):
    return list(
        t.rounds.prefetch_related("tables__seats__entry__player", "byes__entry__player").order_by(
            "number"
        )
    )


def entrants_csv(t: Tournament) -> str:
    rows = [
        (e.pk, entry_name(e), e.player.name if e.player_id else "",
         e.player.get_kind_display() if e.player_id else "", e.seed, round(e.rating, 2),
         e.joined_round, e.withdrawn_after)
        for e in t.entries.select_related("player").order_by("id")
    ]  # fmt: skip
    header = ["entry", "player", "handle", "kind", "seed", "rating", "joined_round",
              "withdrawn_after"]  # fmt: skip
    return _csv(header, rows)


def pairings_csv(t: Tournament) -> str:
    rows = []
    for r in _rounds(t):
        for table in r.tables.all():
            for s in table.seats.all():
                rows.append((r.number, str(r), table.number, table.bracket, s.index + 1,
                             s.entry_id, entry_name(s.entry)))  # fmt: skip
        for b in r.byes.all():
            rows.append((r.number, str(r), "bye", "", "", b.entry_id, entry_name(b.entry)))
    header = ["round", "round_name", "table", "bracket", "seat", "entry", "player"]
    return _csv(header, rows)


def results_csv(t: Tournament) -> str:
    config = format_rows.format_config(t)
    rows = []
    for r in _rounds(t):
        for table in r.tables.all():
            result = table.result or {}
            ranks = result.get("ranks") or []
            scores = result.get("scores") or []
            forfeited = result.get("forfeited") or []
            seats = list(table.seats.all())
            points = _table_points(config, ranks, forfeited) if ranks else []
            for s in seats:
                i = s.index
                rows.append((
                    r.number, table.number, table.bracket, s.index + 1, s.entry_id,
                    entry_name(s.entry), table.get_status_display(),
                    ranks[i] if i < len(ranks) else None,
                    scores[i] if i < len(scores) else None,
                    bool(forfeited[i]) if i < len(forfeited) else None,
                    points[i] if i < len(points) else None,
                ))  # fmt: skip
        for b in r.byes.all():
            rows.append((r.number, "bye", "", "", b.entry_id, entry_name(b.entry), "bye",
                         None, None, None, bye_points(config)))  # fmt: skip
    header = ["round", "table", "bracket", "seat", "entry", "player", "status", "place",
              "score", "forfeited", "points"]  # fmt: skip
    return _csv(header, rows)


def _table_points(config, ranks: list[int], forfeited: list) -> list[float]:
    result = formats.TableResult(ranks=tuple(ranks), forfeited=tuple(bool(f) for f in forfeited))
    return list(formats.seat_points(config, result))


def standings_csv(t: Tournament) -> str:
    rows = [] if selectors.display_problem(t) else selectors.standings_out(t)
    keys = list(rows[0]["tiebreaks"]) if rows else []
    header = ["rank", "entry", "player", "points", "played", "withdrawn"]
    header += [label(k).name for k in keys]
    names = {e.pk: entry_name(e) for e in t.entries.select_related("player")}
    out = []
    for row in rows:
        out.append([row["rank"], row["entry"], names.get(row["entry"], row["player"]), row["points"], row["played"],
                    row["withdrawn"]] + [row["tiebreaks"].get(k) for k in keys])  # fmt: skip
    return _csv(header, out)


BUILDERS = {
    "entrants": entrants_csv,
    "pairings": pairings_csv,
    "results": results_csv,
    "standings": standings_csv,
}
