"""Read side of tournaments: standings (cached per results version), rounds, progress."""

from __future__ import annotations

from django.core.cache import cache

from tournaments import formats, services
from tournaments.models import Entry, Round, Tournament, TournamentStatus


def standings(tournament: Tournament) -> list[dict]:
    """Rank, entrant, points and each tie-break; computed once per results version."""
    # created_at too: a database rebuilt from scratch reuses primary keys.
    key = f"standings:{tournament.pk}:{tournament.created_at.timestamp()}:{tournament.results_version}"
    rows = cache.get(key)
    if rows is None:
        rows = _standings(tournament)
        cache.set(key, rows, timeout=3600)
    return rows


def live_version(pk: int) -> dict | None:
    """What the live fragment's ETag and cache key are made of, in one indexed lookup.

    Every change the fragment shows moves one of these (services.touch bumps the version;
    pairing moves the round; starting and finishing move the status). The creation time
    is in it because a database rebuilt from scratch reuses primary keys.
    """
    return (
        Tournament.objects.filter(pk=pk)
        .values("created_at", "results_version", "status", "current_round", "organiser_id")
        .first()
    )


def _standings(tournament: Tournament) -> list[dict]:
    entries = {e.pk: e for e in tournament.entries.select_related("player")}
    config = services.format_config(tournament)
    played = services.played_rounds(tournament, finished_tables_only=True)
    rows = formats.compute_standings(services.entrants(tournament), played, config)
    final = {}
    if tournament.status == TournamentStatus.FINISHED and tournament.format in (
        "single_elimination",
        "double_elimination",
    ):
        for place, group in enumerate(
            services.format_for(tournament).final_ranking(services.entrants(tournament), played), 1
        ):
            for entrant in group:
                final[entrant] = place
    out = []
    for row in rows:
        entry = entries[row.entrant]
        out.append({
            "rank": final.get(row.entrant, row.rank),
            "entry": entry.pk,
            "player": entry.player.name,
            "points": row.points,
            "played": row.played,
            "tiebreaks": dict(row.tiebreaks),
            "withdrawn": entry.withdrawn,
        })  # fmt: skip
    if final:
        out.sort(key=lambda r: r["rank"])
    return out


def rounds_overview(tournament: Tournament) -> list[Round]:
    """Rounds with their tables; each table gets `seat_rows`: (player, rank or None) per seat."""
    rounds = list(
        tournament.rounds.prefetch_related("tables__seats__entry__player", "byes__entry__player")
    )
    for rnd in rounds:
        for table in rnd.tables.all():
            ranks = (table.result or {}).get("ranks") or []
            table.seat_rows = [
                (s.entry.player, ranks[s.index] if s.index < len(ranks) else None)
                for s in table.seats.all()
            ]
    return rounds


def progress(tournament: Tournament) -> dict:
    """How far the tournament is: finished tables against tables known so far."""
    total_rounds = None
    if tournament.status != TournamentStatus.REGISTRATION:
        total_rounds = services.format_for(tournament).total_rounds(services.entrants(tournament))
    rounds = tournament.rounds.all()
    done = sum(1 for r in rounds if r.status == "finished")
    known = total_rounds or max(len(rounds), 1)
    percent = 100 if tournament.status == TournamentStatus.FINISHED else int(100 * done / known)
    return {"rounds_done": done, "rounds_total": total_rounds, "percent": min(percent, 100)}


def entries_of(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.select_related("player"))
