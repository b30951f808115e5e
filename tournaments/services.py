"""Running tournaments: entries, pairing rounds, starting tables, recording results.

Pairing logic lives in the pure `tournaments.formats` package; this module
turns rows into its types and back, and owns the transactions.
"""

from __future__ import annotations

import dataclasses
import secrets
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from games import services as game_services
from games.engines.base import InvalidOptions
from games.engines.registry import UnknownGame, get_engine
from games.models import Player
from tournaments import formats
from tournaments.models import (
    Bye,
    Entry,
    ForbiddenPairing,
    Round,
    RoundStatus,
    Table,
    TableSeat,
    TableStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.setup import (
    check_format_options,
    clean_details,
    format_error_message,
    setting_label,
)

CONFIG_KEYS = {
    "table_size", "rounds", "double", "points", "bye_points", "tiebreaks", "third_place",
    "advance", "grand_final_reset", "min_table_size",
}  # fmt: skip


# Server limits on tournament settings (documented in the README).
MAX_ROUNDS = 100  # Swiss rounds
MAX_ROUND_DAYS = 365  # league: days per round
MAX_SEED = 2**31 - 1  # tournament and entry seeds
MAX_POINTS = 10**6  # points for a place or a bye


# ---- rows -> format types ------------------------------------------------------
def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value) -> bool:
    return (_whole(value) or isinstance(value, float)) and abs(value) <= MAX_POINTS


def _config_values(raw) -> dict:
    """The stored settings as format values, every shape checked (ValidationError keyed by
    the setting that is wrong, "config" for the whole): a config is data from a form, the
    API or an old row."""
    if not isinstance(raw, dict):
        raise ValidationError({"config": gettext("The settings must be an object.")})
    unknown = set(raw) - CONFIG_KEYS
    if unknown:
        raise ValidationError(
            {"config": gettext("Unknown settings: %(names)s.")
             % {"names": ", ".join(sorted(map(str, unknown)))}}
        )  # fmt: skip
    values = {k: v for k, v in raw.items() if v is not None}
    whole = gettext("%(setting)s: a whole number from %(low)s to %(high)s.")
    for key in ("table_size", "advance", "min_table_size"):
        if key in values and not (_whole(values[key]) and 1 <= values[key] <= 5):
            raise ValidationError(
                {key: whole % {"setting": setting_label(key), "low": 1, "high": 5}}
            )
    if "table_size" in raw and raw["table_size"] is None:
        raise ValidationError(
            {"table_size": whole % {"setting": setting_label("table_size"), "low": 1, "high": 5}}
        )
    if "rounds" in values and not (
        _whole(values["rounds"]) and 1 <= values["rounds"] <= MAX_ROUNDS
    ):
        raise ValidationError(
            {"rounds": whole % {"setting": setting_label("rounds"), "low": 1, "high": MAX_ROUNDS}}
        )
    for key in ("double", "third_place", "grand_final_reset"):
        if key in values and not isinstance(values[key], bool):
            raise ValidationError(
                {key: gettext("%(setting)s: true or false.") % {"setting": setting_label(key)}}
            )
    if "bye_points" in values and not (_number(values["bye_points"]) and values["bye_points"] >= 0):
        raise ValidationError(
            {"bye_points": gettext("%(setting)s: a number from 0 to %(high)s.")
             % {"setting": setting_label("bye_points"), "high": MAX_POINTS}}
        )  # fmt: skip
    if "points" in values:
        points = values["points"]
        if not isinstance(points, dict):
            raise ValidationError(
                {"points": gettext(
                    "%(setting)s: a table size with points per place, e.g. %(example)s."
                ) % {"setting": setting_label("points"), "example": '{"3": [2, 1, 0]}'}}
            )  # fmt: skip
        converted = {}
        for size, places in points.items():
            if not (str(size).isascii() and str(size).isdigit() and len(str(size)) == 1):
                raise ValidationError(
                    {"points": gettext("%(setting)s: %(size)s is not a table size.")
                     % {"setting": setting_label("points"), "size": repr(size)}}
                )  # fmt: skip
            if not (isinstance(places, list | tuple) and all(_number(p) for p in places)):
                raise ValidationError(
                    {"points": gettext("%(setting)s for %(size)s seats: a list of numbers.")
                     % {"setting": setting_label("points"), "size": size}}
                )  # fmt: skip
            converted[int(size)] = tuple(places)
        values["points"] = converted
    if "tiebreaks" in values:
        names = values["tiebreaks"]
        if not (isinstance(names, list | tuple) and all(isinstance(n, str) for n in names)):
            raise ValidationError(
                {"tiebreaks": gettext("%(setting)s: a list of tie-break names.")
                 % {"setting": setting_label("tiebreaks")}}
            )  # fmt: skip
        values["tiebreaks"] = tuple(names)
    return values


def check_config(*, format_name: str, game: str, raw) -> formats.Config:
    """The format's own verdict on a config (ValidationError keyed by the setting at fault,
    "config" when no one setting is): shapes and ranges, the table size the game seats,
    and the format's checks."""
    if format_name not in formats.FORMATS:
        raise ValidationError(
            {"config": gettext("Unknown format %(name)s.") % {"name": repr(format_name)}}
        )
    try:
        engine = get_engine(game)
    except UnknownGame:
        raise ValidationError(
            {"config": gettext("Unknown game %(game)r.") % {"game": game}}
        ) from None
    check_format_options(format_name, raw)
    config = formats.Config(**_config_values(raw))
    if not engine.min_players <= config.table_size <= engine.max_players:
        raise ValidationError(
            {"table_size": gettext("%(game)s tables seat %(min)s to %(max)s players.")
             % {"game": gettext(engine.title), "min": engine.min_players,
                "max": engine.max_players}}
        )  # fmt: skip
    # The checks a format makes before it starts, with enough stand-in entrants to pass the
    # count (the real ones are checked again at the start).
    stand_ins = [formats.Entrant(id=i) for i in range(1, 2 * formats.types.MAX_TABLE_SIZE + 1)]
    try:
        formats.FORMATS[format_name](config).validate(stand_ins)
    except (formats.FormatError, TypeError, ValueError) as exc:
        setting = getattr(exc, "setting", None) or "config"
        raise ValidationError({setting: format_error_message(exc)}) from None
    return config


def format_config(tournament: Tournament) -> formats.Config:
    """The tournament's settings for its format; ValidationError({"config": reason}) for a
    row stored before settings were checked (pages show the reason instead of standings)."""
    try:
        config = check_config(format_name=tournament.format, game=tournament.game,
                              raw=tournament.config or {})  # fmt: skip
    except ValidationError as exc:
        raise ValidationError({"config": exc.messages}) from None
    if not tournament.pk:
        return config
    forbidden = frozenset(frozenset((f.first_id, f.second_id)) for f in tournament.forbidden.all())
    return dataclasses.replace(config, forbidden=forbidden)


def format_for(tournament: Tournament):
    return formats.FORMATS[tournament.format](format_config(tournament))


def entrants(tournament: Tournament, entries=None) -> list[formats.Entrant]:
    """The format's view of the entries (``entries``: already loaded rows, saving a query)."""
    return [
        formats.Entrant(
            id=e.pk,
            rating=e.rating,
            seed=e.seed,
            withdrawn_after=e.withdrawn_after,
            joined_round=e.joined_round,
        )  # fmt: skip
        for e in (tournament.entries.all() if entries is None else entries)
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


def touch(tournament_id: int) -> None:
    """Bump the version that keys the standings cache, the live fragment's cache and its ETag.

    Called on every change the live page shows (results, round starts, entries), not only
    on results: idle viewers get 304s until it moves, so a missed bump is a stale page.
    """
    Tournament.objects.filter(pk=tournament_id).update(results_version=F("results_version") + 1)


# ---- setting up --------------------------------------------------------------
RATED_PERMISSION = "tournaments.run_rated_events"


def may_run_rated(organiser, *, over_the_board: bool) -> bool:
    """Typed-in results are rated only for organisers staff trust with the permission:
    anyone else could type in any score. Online tables are rated by their matches' own rules."""
    if not over_the_board:
        return True
    return organiser is not None and organiser.has_perm(RATED_PERMISSION)


def _rated_allowed(*, organiser, over_the_board: bool, rated: bool | None) -> bool:
    allowed = may_run_rated(organiser, over_the_board=over_the_board)
    if rated is None:
        return allowed
    if rated and not allowed:
        raise ValidationError({"rated": gettext(
            "Over-the-board results are rated only for organisers with the "
            "'run rated events' permission (staff grant it); create the event unrated."
        )})  # fmt: skip
    return rated


def create_tournament(
    *, name: str, game: str, format: str, organiser=None, config: dict | None = None,
    options: dict | None = None, variant=None, time_control: dict | None = None,
    timeout_policy: str = "auto", rated: bool | None = None, over_the_board: bool = False,
    auto_advance: bool = True, round_days: int | None = None, seed: int | None = None,
    **details,
) -> Tournament:  # fmt: skip
    """``rated=None``: rated when the organiser may run it rated (see ``may_run_rated``).
    ``details``: variant-free extras checked by tournaments.setup.clean_details (venue,
    description, starts_at, auto_start, entry_limit, check_in, time_control_preset)."""
    details, time_control = clean_details(game=game, variant=variant, time_control=time_control,
                                          **details)  # fmt: skip
    rated = _rated_allowed(organiser=organiser, over_the_board=over_the_board, rated=rated)
    try:
        engine = get_engine(game)
    except UnknownGame:
        raise ValidationError(
            {"game": gettext("Unknown game %(game)r.") % {"game": game}}
        ) from None
    if format not in formats.FORMATS:
        raise ValidationError(
            {
                "format": gettext("Use one of %(names)s.")
                % {"names": ", ".join(sorted(formats.FORMATS))}
            }
        )
    try:
        options = engine.validate_options(
            {**(variant.options if variant else {}), **(options or {})}
        )
    except InvalidOptions as exc:
        raise ValidationError({"options": str(exc)}) from None
    tc = game_services.match_checks.time_control_fields(time_control)
    if round_days is not None and not (_whole(round_days) and 1 <= round_days <= MAX_ROUND_DAYS):
        raise ValidationError(
            {"round_days": gettext("From 1 to %(n)s days.") % {"n": MAX_ROUND_DAYS}}
        )
    if seed is not None and not (_whole(seed) and 0 <= seed <= MAX_SEED):
        raise ValidationError(
            {"seed": gettext("A whole number from 0 to %(max)s.") % {"max": MAX_SEED}}
        )
    tournament = Tournament(
        name=name, game=game, format=format, organiser=organiser, config=config or {},
        options=options, variant=variant, timeout_policy=timeout_policy, rated=rated,
        over_the_board=over_the_board, auto_advance=auto_advance, round_days=round_days,
        seed=secrets.randbits(31) if seed is None else seed, **tc, **details,
    )  # fmt: skip
    format_config(tournament)
    tournament.save()
    return tournament


def add_entry(*, tournament: Tournament, player: Player, seed: int | None = None) -> Entry:
    """Join; after the start this is a late entry, paired from the next round on."""
    if seed is not None and not (_whole(seed) and 1 <= seed <= MAX_SEED):
        raise ValidationError(
            gettext("A seed is a whole number from 1 to %(max)s.") % {"max": MAX_SEED}
        )
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if t.status not in (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING):
            raise ValidationError(gettext("The tournament takes no more entries."))
        if player.game and player.game != t.game:
            raise ValidationError(
                gettext("%(player)s plays only %(game)s.") % {"player": player, "game": player.game}
            )
        if t.entries.filter(player=player).exists():
            raise ValidationError(gettext("%(player)s has already entered.") % {"player": player})
        from tournaments import entrants as entrants_  # entrants imports this module

        entrants_.check_limit(t)
        entry = Entry.objects.create(
            tournament=t, player=player, seed=seed, rating=rating_of(player, t.game),
            joined_round=t.current_round + 1,
        )  # fmt: skip
        touch(t.pk)
        return entry


def enter_player(*, tournament: Tournament, player: Player, by, seed: int | None = None):
    """An organiser (or the player himself) enters `player`: himself, his own external
    bots and built-in bots at once (the Entry); anyone else only if he accepts (the
    Invitation; tournaments.receivers makes the entry on acceptance)."""
    if game_services.needs_invitation(player, by):
        return game_services.invite_to_entry(
            player=player, invited_by=by, target_kind="tournament", target_id=tournament.pk
        )
    return add_entry(tournament=tournament, player=player, seed=seed)


def withdraw_entry(*, entry: Entry) -> None:
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=entry.tournament_id)
        if t.status == TournamentStatus.REGISTRATION:
            entry.delete()
        elif t.status != TournamentStatus.RUNNING:
            raise ValidationError(gettext("The tournament is over."))
        else:
            Entry.objects.filter(pk=entry.pk, withdrawn_after__isnull=True).update(
                withdrawn_after=t.current_round
            )
        touch(t.pk)


def forbid_pairing(*, first: Entry, second: Entry) -> ForbiddenPairing:
    if first.tournament_id != second.tournament_id or first.pk == second.pk:
        raise ValidationError(gettext("Pick two different entries of the same tournament."))
    return ForbiddenPairing.objects.create(
        tournament_id=first.tournament_id, first=first, second=second
    )


def rating_of(player: Player, game: str) -> float:
    """The player's rating in the game's default pool (ratings plug in via a hook)."""
    from django.conf import settings
    from django.utils.module_loading import import_string

    lookup = getattr(settings, "TOURNAMENT_RATING_LOOKUP", None)
    return float(import_string(lookup)(player, game)) if lookup else 1500.0


def start_tournament(*, tournament: Tournament) -> Round | None:
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if t.status != TournamentStatus.REGISTRATION:
            raise ValidationError(
                gettext("The tournament is %(status)s.")
                % {"status": str(t.get_status_display()).lower()}
            )
        from tournaments import entrants as entrants_

        entrants_.drop_unchecked(t)
        for e in t.entries.select_related("player"):
            e.rating = rating_of(e.player, t.game)
            e.save(update_fields=["rating"])
        try:
            format_for(t).validate(entrants(t))
        except ValueError as exc:
            raise ValidationError(format_error_message(exc)) from None
        t.status, t.started_at = TournamentStatus.RUNNING, timezone.now()
        t.save(update_fields=["status", "started_at"])
        rnd = pair_next_round(tournament=t)
        if rnd is not None and t.auto_advance:
            start_round(round_=rnd)
        return rnd


# ---- rounds -------------------------------------------------------------------
def pair_next_round(*, tournament: Tournament, seed: int | None = None) -> Round | None:
    """Pair the next round (not started yet), or finish the tournament if none is left."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if t.status != TournamentStatus.RUNNING:
            raise ValidationError(gettext("Only a running tournament is paired."))
        if t.rounds.exclude(status=RoundStatus.FINISHED).exists():
            raise ValidationError(gettext("The current round is not finished."))
        number = t.current_round + 1
        from tournaments import lifecycle  # lifecycle imports this module

        go_on = lifecycle.may_pair(t, number)
        if go_on is False:
            raise ValidationError(gettext("The tournament is paused."))
        plan = (
            None
            if go_on is None
            else _next_round(format_for(t), entrants(t), played_rounds(t),
                             seed=t.seed * 1009 + number if seed is None else seed)
        )  # fmt: skip
        if plan is None:
            t.status, t.finished_at = TournamentStatus.FINISHED, timezone.now()
            t.save(update_fields=["status", "finished_at"])
            return None
        # Clamped: rows from before round_days was bounded may hold 10^8 days.
        days = min(t.round_days, MAX_ROUND_DAYS) if t.round_days else None
        deadline = timezone.now() + timedelta(days=days) if days else None
        rnd = Round.objects.create(tournament=t, number=number, label=plan.label or f"Round {number}",
                                   deadline=deadline)  # fmt: skip
        _create_tables(rnd, plan)
        t.current_round = number
        t.save(update_fields=["current_round"])
        return rnd


def _next_round(fmt, entrants_: list, played: list, *, seed: int) -> formats.Round | None:
    """The format's next round; a history it can't follow (rows edited by hand: a seat
    twice, an entry moved to another tournament) is the organiser's ValidationError, in
    his language, not a 500."""
    try:
        return fmt.next_round(entrants_, played, seed=seed)
    except formats.FormatError as exc:
        raise ValidationError(format_error_message(exc)) from None


def _create_tables(rnd: Round, plan: formats.Round) -> None:
    for i, planned in enumerate(plan.tables, start=1):
        table = Table.objects.create(round=rnd, number=i, bracket=planned.bracket)
        TableSeat.objects.bulk_create(
            TableSeat(table=table, index=s, entry_id=entry_id)
            for s, entry_id in enumerate(planned.seats)
        )
    Bye.objects.bulk_create(Bye(round=rnd, entry_id=e) for e in plan.byes)


def repair_round(*, round_: Round) -> Round:
    """Pair a round again before it starts (e.g. after a late withdrawal)."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
        if rnd.status != RoundStatus.PAIRED:
            raise ValidationError(gettext("Only a round that has not started can be paired again."))
        t = rnd.tournament
        rnd.tables.all().delete()
        rnd.byes.all().delete()
        played = [r for r in played_rounds(t) if r.number < rnd.number]
        plan = _next_round(format_for(t), entrants(t), played, seed=secrets.randbits(31))
        if plan is None:
            raise ValidationError(gettext("Nothing is left to pair."))
        _create_tables(rnd, plan)
        touch(t.pk)
        return rnd


def start_round(*, round_: Round) -> Round:
    """Start every table: online tables become matches; over-the-board tables await results."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
        if rnd.status != RoundStatus.PAIRED:
            raise ValidationError(gettext("The round has already started."))
        t = rnd.tournament
        rnd.status, rnd.started_at = RoundStatus.RUNNING, timezone.now()
        rnd.save(update_fields=["status", "started_at"])
        tables = list(rnd.tables.all())
        if not t.over_the_board:
            players = _players_by_table(rnd)
            # All the round's matches in a few statements (games.services.match_batches):
            # one by one they cost a dozen round trips a table.
            matches = game_services.create_matches([
                game_services.MatchSpec(
                    game=t.game, players=players.get(table.pk, []),
                    options=t.options, variant=t.variant, time_control=t.time_control(),
                    timeout_policy=t.timeout_policy, rated=t.rated, created_by=t.organiser,
                    consented=True,  # they entered
                )
                for table in tables
            ])  # fmt: skip
            for table, match in zip(tables, matches, strict=True):
                table.match = match
        _set_playing(tables)
        touch(t.pk)
        if not tables:  # only byes: nothing to wait for
            _finish_round_if_done(rnd)
        return rnd


def _players_by_table(rnd: Round) -> dict[int, list[Player]]:
    """Each table's players in seat order: one query (a prefetch of seats, entries and
    players took three and twice the time for a 250-table round)."""
    seats = TableSeat.objects.filter(table__round=rnd).select_related("entry__player")
    players: dict[int, list[Player]] = {}
    for seat in seats.order_by("table_id", "index"):
        players.setdefault(seat.table_id, []).append(seat.entry.player)
    return players


def _set_playing(tables: list[Table]) -> None:
    """Every table of the round playing, with its match if any: one executemany (a
    pipeline on PostgreSQL), 6x faster than bulk_update's CASE per table."""
    for table in tables:
        table.status = TableStatus.PLAYING
    q = connection.ops.quote_name
    sql = (f"UPDATE {q(Table._meta.db_table)} SET {q('status')} = %s, {q('match_id')} = %s "
           f"WHERE {q('id')} = %s")  # fmt: skip
    with connection.cursor() as cursor:
        cursor.executemany(sql, [(table.status, table.match_id, table.pk) for table in tables])


# ---- results ------------------------------------------------------------------
def record_result(*, table: Table, ranks: list[int], scores: list | None = None,
                  forfeited: list[bool] | None = None) -> bool:  # fmt: skip
    """Record a table's result once; returns False if it already had one."""
    with transaction.atomic():
        t = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
        if t.status == TableStatus.FINISHED:
            return False
        n = t.seats.count()
        if len(ranks) != n or any(not 1 <= r <= n for r in ranks):
            raise ValidationError(
                gettext("Give one finishing place from 1 to %(n)s per seat.") % {"n": n}
            )
        t.result = {"ranks": list(ranks), "scores": list(scores) if scores else None,
                    "forfeited": list(forfeited) if forfeited else [False] * n}  # fmt: skip
        t.status, t.finished_at = TableStatus.FINISHED, timezone.now()
        t.save(update_fields=["result", "status", "finished_at"])
        touch(t.round.tournament_id)
        _finish_round_if_done(t.round)
        return True


def _finish_round_if_done(rnd: Round) -> None:
    if rnd.tables.exclude(status=TableStatus.FINISHED).exists():
        return
    Round.objects.filter(pk=rnd.pk).update(status=RoundStatus.FINISHED, finished_at=timezone.now())
    touch(rnd.tournament_id)
    if rnd.tournament.auto_advance:
        from tournaments import tasks  # tasks import services

        tournament_id = rnd.tournament_id
        transaction.on_commit(lambda: tasks.advance_tournament.delay(tournament_id))


def record_over_the_board_result(
    *, table: Table, scores: list[float], tiebreak: list[float] | None = None
) -> bool:
    """The organiser types in a game played at the club: ranks follow the game's rules."""
    t = table.round.tournament
    engine = get_engine(t.game)
    if not t.over_the_board:
        raise ValidationError(
            gettext("This table is an online match; its result comes from the match.")
        )
    seats = list(table.seats.select_related("entry__player").order_by("index"))
    if len(scores) != len(seats):
        raise ValidationError(gettext("Give one score per seat."))
    try:
        ranks = engine.ranks_from_result(
            list(scores), list(tiebreak) if tiebreak is not None else None
        )
    except InvalidOptions as exc:
        raise ValidationError(str(exc)) from None
    from tournaments import entrants as entrants_

    with transaction.atomic():
        # The status is checked under the row lock and the match made in the same
        # transaction: concurrent posts of one result wait here, then see it finished.
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if locked.status == TableStatus.FINISHED:
            return False
        # Stored as a finished match too, so ratings and player histories count it.
        match = game_services.record_offline_match(
            game=t.game, players=[s.entry.player for s in seats], ranks=ranks, scores=list(scores),
            rated=entrants_.rated_table(t.rated, [s.entry.player for s in seats]),
            created_by=t.organiser, variant=t.variant,
        )  # fmt: skip
        locked.match = match
        locked.save(update_fields=["match"])
        return record_result(table=locked, ranks=ranks, scores=scores)


def record_forfeit(*, table: Table, entry: Entry, by) -> bool:
    """The organiser declares a seat forfeited: it ranks last, the others share first place;
    a running match at the table is aborted."""
    seats = list(table.seats.order_by("index"))
    if entry.pk not in [s.entry_id for s in seats]:
        raise ValidationError(gettext("That entrant does not sit at this table."))
    if table.match_id is not None and table.match.status == "running":
        game_services.abort_match(match_id=table.match_id, user=by)
    n = len(seats)
    forfeited = [s.entry_id == entry.pk for s in seats]
    ranks = [n if f else 1 for f in forfeited]
    return record_result(table=table, ranks=ranks, forfeited=forfeited)


def on_match_finished(*, match_id: int) -> bool:
    """A tournament match ended: its table takes the result (idempotent)."""
    table = Table.objects.filter(match_id=match_id).select_related("match").first()
    if table is None or table.match.outcome is None:
        return False
    outcome = table.match.outcome
    return record_result(table=table, ranks=outcome["ranks"], scores=outcome.get("scores"),
                         forfeited=outcome.get("forfeited"))  # fmt: skip


def advance_tournament(*, tournament_id: int) -> Round | None:
    """Pair and start the next round if the current one is done (idempotent)."""
    t = Tournament.objects.get(pk=tournament_id)
    if (
        t.status != TournamentStatus.RUNNING
        or t.paused
        or t.rounds.exclude(status=RoundStatus.FINISHED).exists()
    ):
        return None
    try:
        rnd = pair_next_round(tournament=t)
    except ValidationError:
        return None  # someone else paired it meanwhile
    if rnd is not None:
        start_round(round_=rnd)
    return rnd


def cancel_tournament(*, tournament: Tournament, by) -> None:
    """See tournaments.lifecycle.cancel (what happens to running matches)."""
    from tournaments import lifecycle

    lifecycle.cancel(tournament=tournament, by=by)
