"""Read side of seasons and ladders: who may see and run a club's seasons, a season's events
and standings (clubs.standings over each event's own tournament standings), a player's
season history, and the club's ladder (its members in the site's rating pools).

An event counts in its season once it runs: finished events are final, running ones are
counted and marked provisional (their standings from the tables finished so far).
Cancelled events and events still open for entries count for nothing. A player counts in
an event she played at least one game in (a bye included), guests too: a club's guest is
one Player reused by all its events, so she is counted like a member.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext

from clubs import selectors as club_selectors
from clubs import standings as rules
from clubs.models import Club, Membership, MembershipStatus, Season
from games.engines.registry import ENGINES
from games.models import Player
from ratings.models import Rating, RatingPool, System
from tournaments import selectors as tournament_selectors
from tournaments import zones
from tournaments.models import TableSeat, TableStatus, Tournament, TournamentStatus

COUNTED_STATUSES = (TournamentStatus.FINISHED, TournamentStatus.RUNNING)


# ---- who may ------------------------------------------------------------------------
def may_see(club: Club, user) -> bool:
    """A public club's seasons are public; a members-only club's are for its members
    (clubs.selectors.shows_inside, as the club page)."""
    return club_selectors.shows_inside(user, club)


def may_run_seasons(club: Club, user) -> bool:
    """Owners and organisers (clubs.selectors.may_manage) create and edit seasons and
    attach events to them."""
    return club_selectors.may_manage(user, club)


def visible_club(slug: str, user) -> Club:
    """The club, or a 404 for a members-only club to a non-member (its existence is not
    told)."""
    club = get_object_or_404(Club, slug=slug)
    if not may_see(club, user):
        raise Http404
    return club


def visible_season(slug: str, season_id: int, user) -> Season:
    club = visible_club(slug, user)
    season = get_object_or_404(Season, pk=season_id, club=club)
    season.club = club
    return season


# ---- seasons ------------------------------------------------------------------------
def event_date(t: Tournament):
    """The day an event is on, in its own time zone: its planned start, else when it
    started, else when it was made."""
    moment = t.starts_at or t.started_at or t.created_at
    return timezone.localtime(moment, zones.tournament_zone(t)).date()


def is_current(season: Season, today=None) -> bool:
    today = today or timezone.localdate()
    return season.starts_on <= today <= season.ends_on


def club_seasons(club: Club, today=None) -> list[Season]:
    """The club's seasons: the current ones first, then the coming, then the past, newest
    first within each."""
    today = today or timezone.localdate()
    seasons = list(club.seasons.annotate(n_events=Count("events")))
    for s in seasons:
        s.current = is_current(s, today)
        s.upcoming = s.starts_on > today
    order = {True: 0, False: 1}
    return sorted(
        seasons,
        key=lambda s: (order[s.current], order[s.upcoming], -s.starts_on.toordinal(), s.pk),
    )


def season_events(season: Season) -> list[Tournament]:
    """The season's events by date; each with `counted` (finished or running),
    `provisional` (running) and `date`."""
    events = list(
        Tournament.objects.filter(club_event__season=season).order_by(
            "starts_at", "created_at", "pk"
        )
    )
    for t in events:
        t.date = event_date(t)
        t.counted = t.status in COUNTED_STATUSES
        t.provisional = t.status == TournamentStatus.RUNNING
    events.sort(key=lambda t: (t.date, t.pk))
    return events


def attachable_events(season: Season) -> list[Tournament]:
    """The club's events not in a season that fit this one (dates and games)."""
    out = []
    for t in Tournament.objects.filter(club_event__club_id=season.club_id, club_event__season=None):
        if fits(season, t):
            t.date = event_date(t)
            out.append(t)
    return sorted(out, key=lambda t: (t.date, t.pk))


def fits(season: Season, t: Tournament) -> bool:
    day = event_date(t)
    in_games = not season.games or t.game in season.games
    return season.starts_on <= day <= season.ends_on and in_games


def event_results(events: list[Tournament]) -> tuple[list[rules.EventResult], dict[int, Player]]:
    """Each counted event's own standings as season rows, and the players met."""
    results: list[rules.EventResult] = []
    player_ids: dict[int, int] = {}  # entry -> player
    for t in events:
        if not getattr(t, "counted", t.status in COUNTED_STATUSES):
            continue
        if tournament_selectors.display_problem(t):
            continue  # settings or rounds that can't be scored: the event page says why
        rows = tournament_selectors.standings(t)
        entries = dict(t.entries.values_list("pk", "player_id"))
        for row in rows:
            if not row["played"] or row["rank"] is None:
                continue  # entered but never played
            player_ids[row["entry"]] = entries[row["entry"]]
            results.append(rules.EventResult(
                event=t.pk, player=entries[row["entry"]], points=float(row["points"]),
                place=int(row["rank"]), final=t.status == TournamentStatus.FINISHED,
            ))  # fmt: skip
    players = Player.objects.in_bulk({r.player for r in results})
    return results, players


def season_games(season: Season, events: list[Tournament]) -> list[str]:
    return sorted(set(season.games) | {t.game for t in events})


def ratings_of(player_ids, games: list[str]) -> dict[int, float]:
    """Each player's Elo in the games' default pools (the best of them, for a season of
    several games); a player without a rating there (a guest) has none."""
    out: dict[int, float] = {}
    rows = Rating.objects.filter(
        player_id__in=list(player_ids), system=System.ELO, pool__is_default=True,
        pool__game__in=games,
    ).values_list("player_id", "value")  # fmt: skip
    for player_id, value in rows:
        out[player_id] = max(value, out.get(player_id, value))
    return out


@dataclass
class SeasonTable:
    season: Season
    events: list[Tournament]
    rows: list[dict]
    provisional: bool  # a running event counts

    @property
    def counted_events(self) -> list[Tournament]:
        return [t for t in self.events if t.counted]


def standings(season: Season) -> SeasonTable:
    """The season's standings: rows with rank, player (Player), handle, name, score,
    events, counted, wins, head_to_head, rating, provisional, history (per event)."""
    events = season_events(season)
    results, players = event_results(events)
    ratings = ratings_of(players, season_games(season, events))
    computed = rules.season_standings(
        results, rule=season.rule, best_n=season.best_n, place_points=season.place_points,
        ratings=ratings,
    )  # fmt: skip
    by_id = {t.pk: t for t in events}
    rows = []
    for row in computed:
        player = players[row.player]
        rows.append({
            "rank": row.rank, "player": player, "handle": player.name, "name": str(player),
            "guest": player.kind == "guest", "score": row.score, "events": row.events,
            "counted": row.counted, "wins": row.wins, "head_to_head": row.head_to_head,
            "rating": round(row.rating, 1) if row.rating is not None else None,
            "provisional": row.provisional,
            "history": [{"event": by_id[s.event], "points": s.points, "place": s.place,
                         "score": s.score, "counted": s.counted, "final": s.final}
                        for s in row.history],
        })  # fmt: skip
    return SeasonTable(season, events, rows, any(r["provisional"] for r in rows))


def player_history(season: Season, player_id: int) -> tuple[Player, dict | None, SeasonTable]:
    """One player's row of the season (None when she played none of its events), and the
    whole table."""
    table = standings(season)
    row = next((r for r in table.rows if r["player"].pk == player_id), None)
    if row is None:
        player = get_object_or_404(Player, pk=player_id)
        # Only a player of the season's events, or a member of the club, has a history page.
        member = Membership.objects.filter(
            club_id=season.club_id, user_id=player.user_id, status=MembershipStatus.ACTIVE
        ).exists() if player.user_id else False  # fmt: skip
        if not member:
            raise Http404
        return player, None, table
    return row["player"], row, table


def rule_text(season: Season) -> str:
    """The season's rule in a sentence, in the reader's language."""
    if season.rule == Season.Rule.BEST:
        return gettext(
            "Each player's best %(n)s events count: the sum of her event points in them."
        ) % {"n": season.best_n}
    if season.rule == Season.Rule.PLACES:
        points = ", ".join(f"{p:g}" for p in (season.place_points or rules.DEFAULT_PLACE_POINTS))
        return gettext(
            "Points by final place in each event (1st, 2nd, …): %(points)s; nothing beyond. "
            "Players sharing a place share the points of the places they span."
        ) % {"points": points}
    return gettext("The sum of each player's event points over all the season's events.")


def tiebreak_text() -> str:
    return gettext(
        "Ties: more event wins, then head-to-head (finished above the others level with "
        "her in more of the events they shared), then rating."
    )


# ---- the ladder ---------------------------------------------------------------------
def club_games(club: Club) -> list[str]:
    """The games of the club's events and seasons, most played first."""
    counts = {}
    for game, n in (
        Tournament.objects.filter(club_event__club=club).values_list("game").annotate(n=Count("pk"))
    ):
        counts[game] = n
    for season in club.seasons.all():
        for game in season.games:
            counts.setdefault(game, 0)
    return sorted((g for g in counts if g in ENGINES), key=lambda g: (-counts[g], g))


def ladder(club: Club, *, game: str, season: Season | None = None) -> list[dict]:
    """The club's active members in the game's default rating pool (Elo), best first, each
    with her games (finished tables) in the club's events of the game, or of the season's
    events when a season is chosen. With a season, only members who played in it are
    listed; without, every active member with a rating or a club game. Members without a
    rating in the game come last."""
    members = list(
        Player.objects.filter(
            user__club_memberships__club=club,
            user__club_memberships__status=MembershipStatus.ACTIVE,
        ).distinct()
    )
    seats = TableSeat.objects.filter(
        entry__player__in=members, table__status=TableStatus.FINISHED,
        table__round__tournament__game=game,
    )  # fmt: skip
    if season is not None:
        seats = seats.filter(table__round__tournament__club_event__season=season)
    else:
        seats = seats.filter(table__round__tournament__club_event__club=club)
    games = dict(seats.values_list("entry__player_id").annotate(n=Count("pk")))
    pool = RatingPool.objects.filter(game=game, is_default=True).first()
    rated = {}
    if pool is not None:
        rated = {r.player_id: r for r in Rating.objects.filter(
            pool=pool, system=System.ELO, player__in=members)}  # fmt: skip
    rows = []
    for p in members:
        rating = rated.get(p.pk)
        if season is not None and not games.get(p.pk):
            continue
        if season is None and rating is None and not games.get(p.pk):
            continue
        rows.append({
            "player": p, "name": str(p), "handle": p.name,
            "rating": round(rating.value, 1) if rating else None,
            "rated_games": rating.games if rating else 0,
            "provisional": bool(rating and rating.games < pool.provisional_games),
            "club_games": games.get(p.pk, 0),
        })  # fmt: skip
    rows.sort(
        key=lambda r: (r["rating"] is None, -(r["rating"] or 0), -r["club_games"], r["handle"])
    )
    rank = 0
    for r in rows:
        if r["rating"] is not None:
            rank += 1
        r["rank"] = rank if r["rating"] is not None else None
    return rows


def ladder_context(club: Club, params) -> dict:
    """What the club page's ladder shows for the query `params` (``ladder_game``,
    ``ladder_season``); junk values fall back to the defaults."""
    games = club_games(club)
    seasons = club_seasons(club)
    season = None
    raw = str(params.get("ladder_season", ""))
    if raw.isdigit() and len(raw) < 12:
        season = next((s for s in seasons if s.pk == int(raw)), None)
    game = str(params.get("ladder_game", ""))
    if season is not None and not game and season.games:
        game = season.games[0]
    if game not in games:
        game = games[0] if games else ""
    rows = ladder(club, game=game, season=season) if game else []
    return {
        "club": club, "games": [(g, ENGINES[g].title) for g in games], "game": game,
        "game_title": ENGINES[game].title if game else "", "seasons": seasons,
        "season": season, "rows": rows,
    }  # fmt: skip


def seasons_of_club(club: Club, user) -> dict:
    """The club page's seasons partial."""
    return {"club": club, "seasons": club_seasons(club), "may_run": may_run_seasons(club, user)}
