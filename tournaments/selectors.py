"""Read side of tournaments: standings (cached per results version), rounds, progress, the
organiser's home (his tournaments and what each needs from him now), and typed-in results'
change log and the reports awaiting confirmation."""

from __future__ import annotations

from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import (
    BooleanField,
    Count,
    Exists,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    Value,
)
from django.shortcuts import get_object_or_404
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from core import permissions
from games.models import Invitation, InvitationStatus, Match, MatchStatus, Player
from games.selectors import player_for_user
from tournaments import format_rows, formats
from tournaments.bracket_svg import Box, Bracket, Seat
from tournaments.errors import InvalidConfig, InvalidRounds
from tournaments.models import (
    Entry,
    ReportStatus,
    ResultChange,
    ResultReport,
    Round,
    RoundStatus,
    Table,
    TableStatus,
    Tournament,
    TournamentStatus,
    bracket_mark,
    round_label,
)
from tournaments.services import entrants, results, scheduling, table_names
from tournaments.services.setup import event_club, format_error_message


def config_problem(tournament: Tournament) -> str | None:
    """Why the stored settings are unusable (a row from before they were checked), else
    None. Pages and the API show this instead of standings, progress and bracket."""
    try:
        format_rows.format_config(tournament)
    except ValidationError as exc:
        return gettext("Invalid tournament settings: %(reasons)s") % {
            "reasons": " ".join(exc.messages)
        }
    return None


def rounds_problem(tournament: Tournament) -> str | None:
    """Why the stored rounds can't be scored (rows edited by hand: an entrant seated twice,
    an entry moved to another tournament, a result with too few places), else None; in the
    reader's language. Computes the standings, which are cached for the page that asks."""
    try:
        standings(tournament)
    except formats.FormatError as exc:
        return gettext("The stored rounds can't be scored: %(reason)s") % {
            "reason": format_error_message(exc)
        }
    return None


def display_problem(tournament: Tournament) -> str | None:
    """What pages and exports show instead of standings, progress and the bracket."""
    return config_problem(tournament) or rounds_problem(tournament)


def standings(tournament: Tournament) -> list[dict]:
    """Rank, entrant, points and each tie-break; computed once per results version."""
    # created_at too: a database rebuilt from scratch reuses primary keys.
    key = f"standings:{tournament.pk}:{tournament.created_at.timestamp()}:{tournament.results_version}"
    rows = cache.get(key)
    if rows is None:
        rows = _standings(tournament)
        cache.set(key, rows, timeout=3600)
    return rows


def standings_out(tournament: Tournament) -> list[dict]:
    """The standings as the API and the CSV give them: no rank before any game is played
    (the page shows "—" then), not a shared first place."""
    rows = standings(tournament)
    if any(row["played"] for row in rows):
        return rows
    return [{**row, "rank": None, "place": None} for row in rows]


LIVE_FIELDS = ("created_at", "results_version", "status", "current_round", "organiser_id")


def live_version(pk: int, user_id: int | None = None) -> dict | None:
    """What the live fragment's ETag and cache key are made of, in one indexed lookup,
    with the reader's entry (``reader_entry``: her copy shows her own table).

    Every change the fragment shows moves one of these (versions.touch bumps the version;
    pairing moves the round; starting and finishing move the status). The creation time
    is in it because a database rebuilt from scratch reuses primary keys.
    """
    mine = Entry.objects.filter(tournament_id=OuterRef("pk"), player__user_id=user_id)
    co = Tournament.co_organisers.through.objects.filter(
        tournament_id=OuterRef("pk"), user_id=user_id
    )
    # A club's owner and organisers run its events (core.permissions): through the
    # reverse accessor club_event, in the same lookup (tournaments never imports clubs).
    club = Tournament.objects.filter(
        pk=OuterRef("pk"), club_event__club__memberships__user_id=user_id,
        club_event__club__memberships__status=permissions.CLUB_ACTIVE,
        club_event__club__memberships__role__in=permissions.CLUB_ORGANISER_ROLES,
    )  # fmt: skip
    return (
        Tournament.objects.filter(pk=pk)
        .annotate(
            reader_entry=Subquery(mine.values("pk")[:1])
            if user_id
            else Value(None, IntegerField()),
            reader_co_organiser=Exists(co) | Exists(club)
            if user_id
            else Value(False, BooleanField()),
        )
        .values(*LIVE_FIELDS, "reader_entry", "reader_co_organiser")
        .first()
    )


def reader_entry(tournament: Tournament, user) -> tuple[Player | None, Entry | None]:
    """The reader's player and his entry in `tournament` (None for a visitor or none)."""
    player = player_for_user(user)
    return player, (tournament.entries.filter(player=player).first() if player else None)


def unrecorded_match_ids() -> list[int]:
    """Matches that ended while their table still plays: their result task was lost."""
    return list(
        Match.objects.filter(
            status=MatchStatus.FINISHED, table__status=TableStatus.PLAYING
        ).values_list("pk", flat=True)
    )


def stalled_tournament_ids() -> list[int]:
    """Running auto-advancing tournaments with no round paired or playing: the round
    finished but the next was never paired."""
    return list(
        Tournament.objects.filter(status=TournamentStatus.RUNNING, auto_advance=True)
        .exclude(rounds__status__in=[RoundStatus.PAIRED, RoundStatus.RUNNING])
        .values_list("pk", flat=True)
    )


def _standings(tournament: Tournament) -> list[dict]:
    entries = {e.pk: e for e in tournament.entries.select_related("player")}
    config = format_rows.format_config(tournament)
    played = format_rows.played_rounds(tournament, finished_tables_only=True)
    rows = formats.compute_standings(format_rows.entrants(tournament), played, config)
    final: dict[int, int] = {}
    places: dict[int, str] = {}
    if tournament.status == TournamentStatus.FINISHED and tournament.format in (
        "single_elimination",
        "double_elimination",
    ):
        # Players out in the same round share the places they span: "3-4", "5-8".
        start = 1
        for group in format_rows.format_for(tournament).final_ranking(
            format_rows.entrants(tournament), played
        ):
            end = start + len(group) - 1
            for entrant in group:
                final[entrant] = start
                places[entrant] = f"{start}–{end}" if end > start else str(start)
            start = end + 1
    # An entrant without a finished table has no average place (the ranking used a
    # neutral value for it): shown as "—", not as a number nobody earned.
    seated = {e for rnd in played for table in rnd.tables for e in table.seats}
    out = []
    for row in rows:
        entry = entries[row.entrant]
        tiebreaks = dict(row.tiebreaks)
        if "average_place" in tiebreaks and row.entrant not in seated:
            tiebreaks["average_place"] = None
        guest = entry.player.kind == "guest"
        if not tournament.rated:
            tiebreaks.pop("rating", None)  # an unrated event shows no rating anywhere
        elif guest and "rating" in tiebreaks:
            # Guests are never rated: the ranking used the default, not a rating of theirs.
            tiebreaks["rating"] = None
        rank = final.get(row.entrant, row.rank)
        out.append({
            "rank": rank,
            "place": places.get(row.entrant, str(rank)),  # "3–4" for a shared place
            "entry": entry.pk,
            "player": entry.player.name,  # the handle, the same in every API answer
            "name": str(entry.player),  # the shown name (a guest's: what the organiser typed)
            "points": row.points,
            "played": row.played,
            "tiebreaks": tiebreaks,
            "withdrawn": entry.withdrawn,
            "guest": guest,
        })  # fmt: skip
    if final:
        out.sort(key=lambda r: r["rank"])
    return out


POINTS_FORMATS = ("swiss", "round_robin", "league")


def points_scales(tournament: Tournament) -> list[dict]:
    """Points by place at each table size played (and the configured one), for the
    standings' legend: [{"size": 3, "points": (3.0, 1.5, 0.0)}, ...]; [] for the brackets
    (placed by rounds, not points) and settings the format can't use."""
    if tournament.format not in POINTS_FORMATS or config_problem(tournament):
        return []
    config = format_rows.format_config(tournament)
    played = (
        Table.objects.filter(round__tournament=tournament, result__isnull=False)
        .annotate(size=Count("seats"))
        .values_list("size", flat=True)
        .distinct()
    )
    legend = formats.points.points_legend(config, set(played))
    # whole numbers without a decimal point; the template localises the rest ("1,5" in Czech)
    return [
        {"size": size, "points": tuple(int(p) if float(p).is_integer() else p for p in points)}
        for size, points in legend
    ]


def rounds_overview(tournament: Tournament) -> list[Round]:
    """Rounds with their tables; each table gets `seat_rows`: (player, rank or None) per seat,
    `seat_scores`: (player, rank, score) per seat (None where unknown) and `name`: the
    organiser's name for its number ("" if none; services.table_names)."""
    rounds = list(
        tournament.rounds.prefetch_related("tables__seats__entry__player", "byes__entry__player")
    )
    names = table_names.names_of(tournament)
    for rnd in rounds:
        for table in rnd.tables.all():
            table.name = names.get(table.number, "")
            ranks = (table.result or {}).get("ranks") or []
            table.seat_rows = [
                (s.entry.player, ranks[s.index] if s.index < len(ranks) else None)
                for s in table.seats.all()
            ]
            scores = (table.result or {}).get("scores") or []
            table.seat_scores = [
                (player, rank, _score(scores, s.index))
                for (player, rank), s in zip(table.seat_rows, table.seats.all(), strict=True)
            ]
    return rounds


def current_round(tournament: Tournament, rounds: list[Round] | None = None) -> Round | None:
    """The round the room plays now (projector view, round timer): the tournament's current
    round, else the last one (None before the first is paired)."""
    rounds = list(tournament.rounds.all()) if rounds is None else rounds
    return next((r for r in rounds if r.number == tournament.current_round),
                rounds[-1] if rounds else None)  # fmt: skip


def _score(scores: list, index: int) -> str | None:
    if index >= len(scores) or scores[index] is None:
        return None
    value = scores[index]
    return f"{value:g}" if isinstance(value, int | float) else str(value)


def progress(tournament: Tournament) -> dict:
    """How far the tournament is: finished tables against tables known so far."""
    total_rounds = None
    if tournament.status != TournamentStatus.REGISTRATION:
        total_rounds = format_rows.format_for(tournament).total_rounds(
            format_rows.entrants(tournament)
        )
    rounds = tournament.rounds.all()
    done = sum(1 for r in rounds if r.status == "finished")
    known = total_rounds or max(len(rounds), 1)
    percent = 100 if tournament.status == TournamentStatus.FINISHED else int(100 * done / known)
    return {"rounds_done": done, "rounds_total": total_rounds, "percent": min(percent, 100)}


def entries_of(tournament: Tournament) -> list[Entry]:
    """The entries with a place (the waitlist is ``entrants.waitlist``)."""
    return list(tournament.entries.filter(waitlisted_at__isnull=True).select_related("player"))


# ---- what games shows of tournaments (hooks named in settings) ----------------
def invitation_targets(keys: list[tuple[str, int]]) -> dict[tuple[str, int], dict]:
    """settings.INVITATION_TARGETS: {(kind, id): {"name", "url", "league"?}} for the entry invitations'
    targets this app owns (a tournament; a guest's entry to link to an account), one query
    per kind; targets gone or unknown are left out."""
    ids: dict[str, set[int]] = {}
    for kind, pk in keys:
        ids.setdefault(kind, set()).add(pk)
    out = {}
    if ids.get("tournament"):
        found = Tournament.objects.filter(pk__in=ids["tournament"]).values_list(
            "pk", "name", "format"
        )
        for pk, name, fmt in found:
            out[("tournament", pk)] = {"name": name, "league": fmt == "league",
                                       "url": reverse("tournament-detail", args=[pk])}  # fmt: skip
    link = entrants.LINK_TARGET
    if ids.get(link):
        for e in Entry.objects.filter(pk__in=ids[link]).select_related("tournament", "player"):
            where = {"tournament": e.tournament.name, "guest": e.player}
            # Once linked the entry is the reader's own: the guest's name is gone.
            name = (gettext("guest %(guest)s's results in %(tournament)s") % where
                    if entrants.is_guest(e.player)
                    else gettext("a guest's results in %(tournament)s") % where)  # fmt: skip
            out[(link, e.pk)] = {"name": name, "url": reverse("tournament-detail",
                                                              args=[e.tournament_id])}  # fmt: skip
    return out


def match_contexts(match_ids: list[int]) -> dict[int, dict]:
    """settings.MATCH_CONTEXT: the tournament, round and table each match is played at
    ({"name", "url", "round", "table", "table_name", "table_url"}), by match id; casual
    matches are left out. One query."""
    out = {}
    tables = Table.objects.filter(match_id__in=list(match_ids)).select_related("round__tournament")
    for table in tables:
        t = table.round.tournament
        out[table.match_id] = {
            "name": t.name, "url": reverse("tournament-detail", args=[t.pk]),
            "round": str(table.round), "table": gettext("Table %(n)s") % {"n": table.number},
            "table_name": table_names.name_of(t, table.number),
            "table_url": reverse("table-detail", args=[t.pk, table.pk]),
        }  # fmt: skip
    return out


# ---- the bracket picture -----------------------------------------------------
BRACKET_FORMATS = ("single_elimination", "double_elimination")


def bracket(
    tournament: Tournament, rounds: list[Round] | None = None, entries: list[Entry] | None = None
) -> Bracket | None:
    """An elimination tournament's bracket for ``bracket_svg``: a box per table, linked to the
    table its winner(s) go to. Two seats: the whole bracket, tables to come included, from
    the format's own bracket; more seats: the tables paired so far. ``rounds`` (from
    ``rounds_overview``) and ``entries`` save the queries when the caller has them."""
    if tournament.format not in BRACKET_FORMATS or tournament.status in (
        TournamentStatus.REGISTRATION, TournamentStatus.CANCELLED,
    ):  # fmt: skip
        return None
    rounds = rounds_overview(tournament) if rounds is None else rounds
    entries = entries_of(tournament) if entries is None else entries
    names = {e.pk: str(e.player) for e in entries}
    fmt = format_rows.format_for(tournament)
    finished = []
    for r in rounds:
        if r.status != RoundStatus.FINISHED:
            break
        finished.append(_as_format_round(r))
    try:
        run = fmt.bracket_run(format_rows.entrants(tournament, entries), finished)
    except formats.FormatError:
        run = None  # rounds that no longer fit the bracket: draw what was played
    if run is None:
        return _played_bracket(rounds, names, fmt.config.advance)
    return _two_seat_bracket(run, tournament.format, rounds, names, current=len(finished) + 1)


def _as_format_round(r: Round) -> formats.Round:
    tables = tuple(
        formats.Table(
            seats=tuple(s.entry_id for s in sorted(t.seats.all(), key=lambda s: s.index)),
            result=_table_result(t),
            bracket=t.bracket,
        )
        for t in r.tables.all()
    )
    return formats.Round(r.number, tables, tuple(b.entry_id for b in r.byes.all()), r.label)


def _table_result(t: Table) -> formats.TableResult | None:
    if t.result is None:
        return None
    return formats.TableResult(tuple(t.result["ranks"]), tuple(t.result.get("forfeited") or ()))


def _detail(result: dict | None, index: int) -> str:
    """What a seat shows at its right edge: the game score, else the place."""
    if not result:
        return ""
    if index < len(result.get("forfeited") or ()) and result["forfeited"][index]:
        return gettext("forfeit")
    scores = result.get("scores") or ()
    if index < len(scores) and scores[index] is not None:
        score = scores[index]
        return f"{score:g}" if isinstance(score, int | float) else str(score)
    ranks = result.get("ranks") or ()
    return f"{ranks[index]}." if index < len(ranks) else ""


def _href(table: Table | None) -> str | None:
    return reverse("match-detail", args=[table.match_id]) if table and table.match_id else None


def _key(match_key: tuple) -> str:
    return "-".join(str(part) for part in match_key)


def _two_seat_bracket(run, format_name: str, rounds: list[Round], names: dict[int, str],
                      current: int) -> Bracket:  # fmt: skip
    double = format_name == "double_elimination"
    w = run.w if double else run.rounds
    losers = run.losers_rounds if double else 0
    by_key = run.by_key

    def label(k: tuple, short: bool = False) -> str:
        """A box's label in the reader's language; ``short`` inside "winner of …"."""
        if k[0] == "W" and not double:
            left, n = w - k[1], k[2] + 1
            if left == 0:
                return round_label("Final", 0)
            if left in (1, 2):  # the long form through round_label, like the column titles
                if short:
                    return (gettext("SF %(n)s") if left == 1 else gettext("QF %(n)s")) % {"n": n}
                return round_label(f"{('Semifinal', 'Quarterfinal')[left - 1]} {n}", 0)
            return gettext("R%(round)s · %(n)s") % {"round": k[1], "n": n}
        if k[0] == "W":
            return gettext("W%(round)s · %(n)s") % {"round": k[1], "n": k[2] + 1}
        if k[0] == "L":
            return gettext("L%(round)s · %(n)s") % {"round": k[1], "n": k[2] + 1}
        if short:
            return bracket_mark(k[0])
        long = {"GF": "Grand final", "GF2": "Grand final reset", "3rd": "3rd place"}
        return round_label(long.get(k[0], k[0]), 0)

    empty_memo: dict = {}

    def empty(src) -> bool:
        """Structurally nobody: an empty slot, or what a bye match hands on (no loser; and no
        winner when both its sources are empty). Decided by the draw alone."""
        kind, ref = src
        if kind == "slot":
            return run.slots[ref] is None
        if (kind, ref) not in empty_memo:
            sources = by_key[ref].sources
            test = any if kind == "lose" else all
            empty_memo[(kind, ref)] = test(empty(s) for s in sources)
        return empty_memo[(kind, ref)]

    def hidden(m) -> bool:
        return m.void or any(empty(s) for s in m.sources)

    def place(k: tuple) -> tuple[str, int, int]:
        if k[0] in ("W", "L"):
            return k[0], k[1] - 1, k[2]
        if k[0] == "3rd":
            return "W", w - 1, 1
        return "F", max(w, losers) + (k[0] == "GF2"), 0

    tables = {
        (r.number, frozenset(s.entry_id for s in t.seats.all())): t
        for r in rounds for t in r.tables.all()
    }  # fmt: skip
    boxes, links = [], []
    for m in run.matches:
        if m.void:
            continue
        band, column, order = place(m.key)
        box = Box(
            key=_key(m.key), band=band, column=column, label=label(m.key), order=order,
            sources=[_key(ref) for kind, ref in m.sources if kind == "win"],
            hidden=hidden(m), conditional=m.key == ("GF2",) and m.decided is None,
        )  # fmt: skip
        boxes.append(box)
        if box.hidden:
            continue
        links += [(_key(ref), box.key) for kind, ref in m.sources
                  if kind == "win" and not hidden(by_key[ref])]  # fmt: skip
        table = None
        if m.players is not None and None not in m.players:
            played_in = int(m.decided) if m.table else current if m.decided is None else None
            table = tables.get((played_in, frozenset(m.players)))
        if table is not None:
            ranks = (table.result or {}).get("ranks") or []
            seats = sorted(table.seats.all(), key=lambda s: s.index)
            decided_winner = m.winner if m.table else None
            if decided_winner is None and ranks.count(1) == 1:
                decided_winner = seats[ranks.index(1)].entry_id  # a result the round waits on
            box.seats = [
                Seat(names.get(s.entry_id, "?"), _detail(table.result, s.index),
                     won=s.entry_id == decided_winner)
                for s in seats
            ]  # fmt: skip
            box.status, box.href = table.status, _href(table)
            continue
        for kind, ref in m.sources:
            if kind == "slot":
                who, known = run.slots[ref], True
            else:
                src = by_key[ref]
                known = src.decided is not None
                who = (src.winner if kind == "win" else src.loser) if known else None
            if not known:
                where = (gettext("winner of %(match)s") if kind == "win"
                         else gettext("loser of %(match)s"))  # fmt: skip
                box.seats.append(Seat(where % {"match": label(ref, short=True)}, placeholder=True))
            else:
                won = m.decided is not None and who is not None and who == m.winner
                box.seats.append(Seat(names.get(who, "?") if who else gettext("nobody"),
                                      gettext("w/o") if won else "", won=won))  # fmt: skip
        box.status = "walkover" if m.decided is not None else "pending"

    columns = {}
    for r in range(1, w + 1):
        if double:
            columns[("W", r - 1)] = "Winners final" if r == w else f"Winners round {r}"
        else:
            columns[("W", r - 1)] = {0: "Final", 1: "Semifinals", 2: "Quarterfinals"}.get(
                w - r, f"Round {r}"
            )
    for j in range(1, losers + 1):
        columns[("L", j - 1)] = "Losers final" if j == losers else f"Losers round {j}"
    columns = {k: round_label(v, 0) for k, v in columns.items()}  # English labels, shown translated
    bands = {"W": gettext("Winners' bracket"), "L": gettext("Losers' bracket")}
    return Bracket(boxes=boxes, links=links, columns=columns, bands=bands)


def _played_bracket(rounds: list[Round], names: dict[int, str], advance: int) -> Bracket:
    """The tables paired so far, a column per round; a table links to the next table of each
    player who went through (multiplayer elimination: the top ``advance`` of each table)."""
    seated: list[dict[int, str]] = [  # per round: entrant -> key of their table
        {s.entry_id: f"r{r.number}t{t.number}" for t in r.tables.all() for s in t.seats.all()}
        for r in rounds
    ]
    boxes, links = {}, []
    columns = {}
    for ri, r in enumerate(rounds):
        for order, t in enumerate(r.tables.all()):
            band = "L" if t.bracket == "L" else "F" if t.bracket.startswith("GF") else "W"
            columns.setdefault((band, ri), str(r))
            key = f"r{r.number}t{t.number}"
            ranks = (t.result or {}).get("ranks") or []
            forfeited = (t.result or {}).get("forfeited") or []
            label = (
                gettext("Table %(n)s") % {"n": t.number}
                if band == "W"
                else (
                    gettext("%(bracket)s · table %(n)s")
                    % {"bracket": t.bracket_label, "n": t.number}
                )
            )
            box = Box(key=key, band=band, column=ri, order=order, status=t.status, label=label,
                      href=_href(t))  # fmt: skip
            for s in sorted(t.seats.all(), key=lambda s: s.index):
                target = next((tables[s.entry_id] for tables in seated[ri + 1 :]
                               if s.entry_id in tables), None)  # fmt: skip
                rank = ranks[s.index] if s.index < len(ranks) else None
                out_of_it = s.index < len(forfeited) and forfeited[s.index]
                won = rank is not None and rank <= advance and not out_of_it
                box.seats.append(Seat(names.get(s.entry_id, "?"), _detail(t.result, s.index),
                                      won=won))  # fmt: skip
                if won and target is not None and (key, target) not in links:
                    links.append((key, target))
            boxes[key] = box
    for source, target in links:
        boxes[target].sources.append(source)
    return Bracket(boxes=list(boxes.values()), links=links, columns=columns)


OPEN = (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING)


def _todo(t: Tournament, pending: int, now) -> list[str]:
    todo = []
    if t.paused:
        todo.append(gettext("Paused: resume to go on."))
    if t.status == TournamentStatus.REGISTRATION:
        if pending:
            todo.append(ngettext("%(n)s invitation awaits an answer.",
                                 "%(n)s invitations await an answer.", pending) % {"n": pending})  # fmt: skip
        if t.check_in:
            todo.append(gettext("Check-in open: %(done)s of %(n)s checked in.")
                        % {"done": t.checked_in, "n": t.active_entries})  # fmt: skip
        failure = scheduling.failure_text(t)
        if failure:
            todo.append(failure)
        elif t.auto_start and t.starts_at:
            todo.append(gettext("Starts automatically at %(time)s.")
                        % {"time": scheduling.when(t.starts_at)})  # fmt: skip
        # With auto-start the sweep starts it (or, paused, once resumed): nothing to do.
        if t.starts_at and t.starts_at <= now and (not t.auto_start or failure):
            todo.append(gettext("Start time reached: start the tournament."))
        elif not t.check_in:
            todo.append(ngettext("Entries open: %(n)s entrant.", "Entries open: %(n)s entrants.",
                                 t.active_entries) % {"n": t.active_entries})  # fmt: skip
    elif t.status == TournamentStatus.RUNNING:
        rounds = list(t.rounds.exclude(status=RoundStatus.FINISHED))
        if t.over_the_board:
            missing = sum(
                r.tables.exclude(status=TableStatus.FINISHED).count()
                for r in rounds if r.status == RoundStatus.RUNNING
            )  # fmt: skip
            if missing:
                todo.append(ngettext("%(n)s result missing.", "%(n)s results missing.", missing)
                            % {"n": missing})  # fmt: skip
        for r in rounds:
            if r.status == RoundStatus.PAIRED:
                todo.append(gettext("%(round)s is paired: start it.") % {"round": r})
            elif r.deadline and r.deadline <= now:
                todo.append(gettext("%(round)s is past its deadline.") % {"round": r})
        if not rounds and not t.paused and not t.auto_advance:
            todo.append(gettext("Round due: pair the next round."))
    return todo


def my_tournaments(user) -> list[dict]:
    """Open ones first, then the latest finished or cancelled (at most 100 in all)."""
    placed = Q(entries__waitlisted_at__isnull=True)  # the waitlist has no places
    co = Tournament.co_organisers.through.objects.filter(user_id=user.pk)
    qs = (
        # A subquery, not a join: the counts below must not grow with the co-organisers.
        Tournament.objects.filter(Q(organiser=user) | Q(pk__in=co.values("tournament_id")))
        .annotate(
            active_entries=Count(
                "entries", filter=placed & Q(entries__withdrawn_after__isnull=True)
            ),
            checked_in=Count("entries", filter=placed & Q(entries__checked_in_at__isnull=False)),
        )
        .order_by("-created_at")
    )
    rows = list(qs.filter(status__in=OPEN)[:100])
    rows += list(qs.exclude(status__in=OPEN)[: max(0, 100 - len(rows))])
    ids = [t.pk for t in rows]
    pending: dict[int, int] = {}
    for target in Invitation.objects.filter(
        target_kind="tournament", target_id__in=ids, status=InvitationStatus.PENDING
    ).values_list("target_id", flat=True):  # fmt: skip
        pending[target] = pending.get(target, 0) + 1
    now = timezone.now()
    return [{"t": t, "todo": _todo(t, pending.get(t.pk, 0), now)} for t in rows]


def _name(user) -> str | None:
    if user is None:
        return None
    player = getattr(user, "player", None)
    return str(player) if player is not None else user.get_username()


def history(table: Table) -> list[dict]:
    """Every change of the table's result, oldest first."""
    rows = []
    changes = ResultChange.objects.filter(table=table).select_related(
        "changed_by__player", "report__decided_by__player"
    )
    for c in changes:
        rows.append({
            "id": c.pk, "kind": c.kind, "kind_label": c.get_kind_display(),
            "by": _name(c.changed_by),
            "confirmed_by": _name(c.report.decided_by) if c.report_id and c.report else None,
            "at": c.changed_at, "before": c.before, "after": c.after,
        })  # fmt: skip
    return rows


def describe(result: dict | None, names: list[str]) -> str:
    """'Anna 12 (1.), Bob 10 (2.)': a result as a line of text."""
    if not result:
        return "–"
    parts = []
    scores = result.get("scores") or [None] * len(names)
    for i, name in enumerate(names):
        score = scores[i] if i < len(scores) else None
        rank = result["ranks"][i] if i < len(result.get("ranks", [])) else "?"
        forfeit = (result.get("forfeited") or [False] * len(names))[i]
        shown = "F" if forfeit else ("" if score is None else f"{score}")
        parts.append(f"{name} {shown} ({rank}.)".replace("  ", " "))
    return ", ".join(parts)


def table_view(table: Table, user) -> dict:
    """What the table's page shows `user`: seats, the log as text, the reports and what he
    may do with them."""
    seats = list(table.seats.select_related("entry__player").order_by("index"))
    names = [str(s.entry.player) for s in seats]
    t = table.round.tournament
    manage = permissions.may_manage_table(user, table)
    mine = results.own_entries(user, table)
    log = [
        {**row, "before_text": describe(row["before"], names),
         "after_text": describe(row["after"], names)}
        for row in history(table)
    ]  # fmt: skip
    reports = []
    for r in ResultReport.objects.filter(table=table, status=ReportStatus.PENDING).select_related(
        "reported_by__player"
    ):
        waiting_for = [
            names[i] for i, s in enumerate(seats) if s.entry_id not in r.confirmed_entries
        ]
        reports.append({
            "report": r, "by": _name(r.reported_by),
            "text": describe({"ranks": r.ranks, "scores": r.scores}, names),
            "waiting_for": waiting_for,
            "can_confirm": manage or bool(mine and not set(mine) <= set(r.confirmed_entries)),
            "can_reject": manage or bool(mine),
        })  # fmt: skip
    return {
        "seats": seats, "names": names, "log": log, "reports": reports, "manage": manage,
        "seated": bool(mine), "current": describe(table.result, names) if table.result else None,
        "can_report": bool(mine) and t.over_the_board and table.status == "playing",
    }  # fmt: skip


def pending_reports(tournament: Tournament, user) -> list[dict]:
    """Reports awaiting confirmation in the tournament, for its page (with what `user` may
    do: the organiser every one, a seated player his table's)."""
    manage = permissions.may_manage_tournament(user, tournament)
    rows = []
    qs = (
        ResultReport.objects.filter(
            table__round__tournament=tournament, status=ReportStatus.PENDING
        )
        .select_related("table__round", "reported_by__player")
        .prefetch_related("table__seats__entry__player")
    )
    for r in qs:
        seats = sorted(r.table.seats.all(), key=lambda s: s.index)
        names = [str(s.entry.player) for s in seats]
        mine = [
            s.entry_id for s in seats if user.is_authenticated and s.entry.player.user_id == user.pk
        ]
        rows.append({
            "report": r, "table": r.table, "by": _name(r.reported_by),
            "waiting_for": [n for s, n in zip(seats, names, strict=True)
                            if s.entry_id not in r.confirmed_entries],
            "text": describe({"ranks": r.ranks, "scores": r.scores}, names),
            "can_confirm": manage or bool(mine and not set(mine) <= set(r.confirmed_entries)),
            "can_reject": manage or bool(mine),
        })  # fmt: skip
    return rows


def require_usable(tournament: Tournament) -> None:
    """Refuse (409, tournaments.errors) what needs standings when the stored settings
    (invalid_config) or rounds (invalid_rounds) can't give them."""
    for error, problem in ((InvalidConfig, config_problem), (InvalidRounds, rounds_problem)):
        detail = problem(tournament)
        if detail:
            raise error(detail)


def player_to_enter(tournament: Tournament, user, name: str | None = None) -> Player:
    """The player an entry request is about: the one called `name` (404 if none; another
    person's only for the organiser, else PermissionDenied), by default the caller's own
    (bad input when the account has none)."""
    if not name:
        player = player_for_user(user)
        if player is None:
            raise ValidationError(gettext("Your account has no player."))
        return player
    player = get_object_or_404(Player, name=name)
    if player.user_id != user.pk and not permissions.may_manage_tournament(user, tournament):
        raise PermissionDenied(gettext("Only the organiser can do that."))
    return player


def report_to_answer(table: Table, report_id: int | None = None) -> ResultReport:
    """The report a confirmation is about: the given one of this table (404 if it is not
    the table's), by default the table's waiting one (bad input when none waits)."""
    reports = ResultReport.objects.filter(table=table)
    if report_id is not None:
        return get_object_or_404(reports, pk=report_id)
    report = reports.filter(status=ReportStatus.PENDING).first()
    if report is None:
        raise ValidationError(gettext("This table has no report waiting for confirmation."))
    return report


# ---- the reader's own table (issue #29, part 7) ---------------------------------
def my_table(tournament: Tournament, entry: Entry | None, rounds: list[Round]) -> dict | None:
    """What the entrant ``entry`` plays now, for the top of the tournament page (None for a
    visitor, a non-entrant, or a tournament not running): ``state`` "table" (``table``,
    ``seats``: (player, starts, mine) in seat order; seat 0 starts; ``link`` to the match
    online, to the table's report form over the board), "bye", "waiting" (the round is
    not paired yet) or "out" (withdrawn, or no longer playing: eliminated)."""
    if entry is None or tournament.status != TournamentStatus.RUNNING:
        return None
    # every table of hers, for the rounds list to mark
    mine = {t.pk for r in rounds for t in r.tables.all()
            if any(s.entry_id == entry.pk for s in t.seats.all())}  # fmt: skip
    base = {"round": None, "table": None, "seats": [], "link": None, "table_ids": mine}
    if entry.withdrawn:
        return {**base, "state": "out"}
    current = rounds[-1] if rounds else None
    if current is None or current.status == RoundStatus.FINISHED:
        return {**base, "state": "waiting"}
    for table in current.tables.all():
        seats = sorted(table.seats.all(), key=lambda s: s.index)
        if any(s.entry_id == entry.pk for s in seats):
            if table.match_id:
                link = reverse("match-detail", args=[table.match_id])
            elif tournament.over_the_board:
                link = reverse("table-detail", args=[tournament.pk, table.pk]) + "#report-form"
            else:
                link = None  # online, the round not started yet: no match so far
            return {
                **base, "state": "table", "round": current, "table": table, "link": link,
                "seats": [(s.entry.player, s.index == 0, s.entry_id == entry.pk) for s in seats],
            }  # fmt: skip
    if any(b.entry_id == entry.pk for b in current.byes.all()):
        return {**base, "state": "bye", "round": current}
    return {**base, "state": "out", "round": current}


# ---- the tournament page's header (templates/tournaments/_header_facts.html) ----------
def _and(items: list[str]) -> str:
    if len(items) < 2:
        return "".join(items)
    return gettext("%(rest)s and %(last)s") % {"rest": ", ".join(items[:-1]), "last": items[-1]}


def header_facts(tournament: Tournament) -> dict:
    """What the header states: the format, the table sizes in use (those of the tables
    paired so far, e.g. "3 and 4"; before pairing, the configured size), the number of
    rounds (None: not known yet), rated, over the board or online."""
    t = tournament
    sizes = sorted(
        set(
            Table.objects.filter(round__tournament=t)
            .annotate(n=Count("seats"))
            .values_list("n", flat=True)
        )
        - {0}
    )
    if not sizes:
        config = t.config if isinstance(t.config, dict) else {}  # rows from before the checks
        sizes = [config.get("table_size") or 2]
    try:
        rounds = format_rows.format_for(t).total_rounds(format_rows.entrants(t))
    except (ValidationError, ValueError, TypeError):
        rounds = None
    return {
        "game": t.get_game_display(),
        "format": t.get_format_display(),
        "table_sizes": _and([str(n) for n in sizes]),
        "rounds": rounds,
        "rated": t.rated,
        "over_the_board": t.over_the_board,
        "club": club_link(t),
    }


def club_link(tournament: Tournament) -> dict | None:
    """{"name", "url"} of the club whose event it is (the reverse accessor club_event:
    tournaments never imports clubs), or None."""
    club = event_club(tournament)
    if club is None:
        return None
    try:
        url = reverse("club-detail", args=[club.slug])
    except NoReverseMatch:  # the club pages not routed (yet): their path
        url = f"/clubs/{club.slug}/"
    return {"name": club.name, "url": url}
