"""Readable names of the tie-breaks (``formats/tiebreaks.py``) with a one-line explanation,
for the standings' column heads and their legend (pages, print view, CSV)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class TiebreakLabel:
    key: str
    name: str
    short: str  # the column head where space is tight
    explanation: str


_LABELS = {
    "buchholz": (
        _("Buchholz"),
        _("Buchholz"),
        _("Sum of the points of every opponent met."),
    ),
    "median_buchholz": (
        _("Median Buchholz"),
        _("Med. Buchholz"),
        _("Sum of opponents' points without the best and the worst one."),
    ),
    "sonneborn_berger": (
        _("Sonneborn–Berger"),
        _("S–B"),
        _("Opponents' points weighted by the result against each: full if ahead, half if level."),
    ),
    "average_place": (
        _("Average place"),
        _("Avg. place"),
        _("Mean finishing place at the tables played; lower is better."),
    ),
    "head_to_head": (
        _("Head to head"),
        _("H2H"),
        _("Results against the others tied on points with this entrant."),
    ),
    "rating": (
        _("Rating"),
        _("Rating"),
        _("Elo rating when the tournament started."),
    ),
}


def label(key: str) -> TiebreakLabel:
    """The label of a tie-break key; an unknown key is shown as it is (never an error)."""
    name, short, explanation = _LABELS.get(key, (key, key, ""))
    return TiebreakLabel(key=key, name=str(name), short=str(short), explanation=str(explanation))


def labels(keys) -> list[TiebreakLabel]:
    return [label(k) for k in keys]
