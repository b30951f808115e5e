"""Rows -> the pure formats' types: a tournament's config, entrants and played rounds as
`tournaments.formats` reads them (services and selectors both start from these)."""

from __future__ import annotations

import dataclasses

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.module_loading import import_string

from games.models import Player
from tournaments import formats
from tournaments.models import Tournament
from tournaments.services import setup


def format_config(tournament: Tournament) -> formats.Config:
    """The tournament's settings for its format; ValidationError({"config": reason}) for a
    row stored before settings were checked (pages show the reason instead of standings)."""
    try:
        config = setup.check_config(
            format_name=tournament.format, game=tournament.game, raw=tournament.config or {}
        )
    except ValidationError as exc:
        raise ValidationError({"config": exc.messages}) from None
    if not tournament.pk:
        return config
    forbidden = frozenset(frozenset((f.first_id, f.second_id)) for f in tournament.forbidden.all())
    return dataclasses.replace(config, forbidden=forbidden)


def format_for(tournament: Tournament):
    return formats.FORMATS[tournament.format](format_config(tournament))


def entrants(tournament: Tournament, entries=None) -> list[formats.Entrant]:
    """The format's view of the entries (``entries``: already loaded rows, saving a query);
    waitlisted entries have no place, so the format never sees them."""
    return [
        formats.Entrant(
            id=e.pk,
            rating=e.rating,
            seed=e.seed,
            withdrawn_after=e.withdrawn_after,
            joined_round=e.joined_round,
        )  # fmt: skip
        for e in (tournament.entries.all() if entries is None else entries)
        if e.waitlisted_at is None
    ]


def played_rounds(
    tournament: Tournament, *, finished_tables_only: bool = False
) -> list[formats.Round]:
    rounds = []
    qs = tournament.rounds.prefetch_related("tables__seats", "byes").order_by("number")
    for r in qs:
        tables = []
        for t in r.tables.all():
            result = None
            if t.result is not None:
                forfeited = tuple(t.result.get("forfeited") or ())
                result = formats.TableResult(ranks=tuple(t.result["ranks"]), forfeited=forfeited)
            elif finished_tables_only:
                continue
            seats = tuple(s.entry_id for s in sorted(t.seats.all(), key=lambda s: s.index))
            tables.append(formats.Table(seats=seats, result=result, bracket=t.bracket))
        byes = tuple(b.entry_id for b in r.byes.all())
        rounds.append(
            formats.Round(number=r.number, tables=tuple(tables), byes=byes, label=r.label)
        )
    return rounds


def rating_of(player: Player, game: str) -> float:
    """The player's rating in the game's default pool (ratings plug in via a hook)."""
    lookup = getattr(settings, "TOURNAMENT_RATING_LOOKUP", None)
    return float(import_string(lookup)(player, game)) if lookup else 1500.0
