"""A season's standings as CSV (for programs: BOM, fixed English snake_case keys) and .xlsx
(for reading: headers in the reader's language), written by tournaments.exports' helpers
so both files behave exactly as a tournament's do (formula-like text neutralised, ...)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from clubs.season_selectors import SeasonTable
from tournaments import exports

KEYS = ["rank", "handle", "player", "guest", "score", "events", "counted", "wins",
        "head_to_head", "rating", "provisional"]  # fmt: skip
HEADERS = {
    "rank": gettext_lazy("Rank"),
    "handle": gettext_lazy("Handle"),
    "player": gettext_lazy("Player"),
    "guest": gettext_lazy("Guest"),
    "score": gettext_lazy("Season score"),
    "events": gettext_lazy("Events played"),
    "counted": gettext_lazy("Events counted"),
    "wins": gettext_lazy("Event wins"),
    "head_to_head": gettext_lazy("Head-to-head"),
    "rating": gettext_lazy("Rating"),
    "provisional": gettext_lazy("Provisional"),
}


class SeasonSheet(exports.Sheet):
    def headers(self) -> list[str]:
        return [str(HEADERS[k]) for k in self.keys]


def sheet(table: SeasonTable) -> SeasonSheet:
    rows = [
        [r["rank"], r["handle"], r["name"], r["guest"], r["score"], r["events"], r["counted"],
         r["wins"], r["head_to_head"], r["rating"], r["provisional"]]
        for r in table.rows
    ]  # fmt: skip
    return SeasonSheet(list(KEYS), rows)


def csv_of(table: SeasonTable) -> str:
    return exports.to_csv(sheet(table))


def xlsx_of(table: SeasonTable) -> bytes:
    return exports.to_xlsx(sheet(table), "standings")
