"""Read-side queries: players and matches, as a given viewer may see them."""

import dataclasses
import logging

from django.core.exceptions import ValidationError
from django.db.models import F, QuerySet
from django.utils.translation import gettext

from games import match_log as log_format
from games.bot_labels import player_label
from games.engines import i18n as engine_i18n
from games.engines.registry import ENGINES, UnknownGame, get_engine
from games.match_log import Decision
from games.models import (
    Invitation,
    InvitationStatus,
    Match,
    MatchLog,
    MatchStatus,
    Player,
    PlayerKind,
    Seat,
    TimeControl,
    Variant,
)
from games.seat_colours import seat_colour

NAME_MAX_LENGTH = Player._meta.get_field("name").max_length

logger = logging.getLogger(__name__)


def player_list(*, kind: str | None = None, active_only: bool = True) -> QuerySet[Player]:
    qs = Player.objects.select_related("user", "owner")
    if active_only:
        qs = qs.filter(is_active=True)
    if kind:
        # An unknown kind matches nobody (and never reaches SQL: PostgreSQL refuses NUL).
        qs = qs.filter(kind=kind) if kind in PlayerKind.values else qs.none()
    return qs


def player_for_user(user) -> Player | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).first()


def engine_bots() -> QuerySet[Player]:
    return player_list(kind=PlayerKind.ENGINE_BOT)


# ---- matches ---------------------------------------------------------------


def match_list(*, status: str | None = None, game: str | None = None, player: str | None = None):
    """Matches, newest first; a filter value that can match nothing (an unknown status or
    game, a name no player can have) gives an empty list without reaching SQL."""
    qs = Match.objects.prefetch_related("seats__player", "open_seats")
    if (
        (status and status not in MatchStatus.values)
        or (game and game not in ENGINES)
        or (player and ("\x00" in player or len(player) > NAME_MAX_LENGTH))
    ):
        return qs.none()
    if status:
        qs = qs.filter(status=status)
    if game:
        qs = qs.filter(game=game)
    if player:
        qs = qs.filter(seats__player__name=player).distinct()
    return qs


def record_is_public(match: Match) -> bool:
    """The seed, the raw state and every unredacted action are public only once the
    match is over (finished or aborted); before that they would reveal hidden cards."""
    return match.status in (MatchStatus.FINISHED, MatchStatus.ABORTED)


def match_decisions(match: Match) -> list[Decision]:
    """The match's applied decisions in ply order, read back from its log (one query; a
    table of bots' compact entries are replayed from the seed: games.match_log).

    Kept on the match object for its ply: a page asks for them several times (the
    last move, the log, the replay's step), and the log only grows with the ply."""
    kept = getattr(match, "_decisions", None)
    if kept is not None and kept[0] == match.ply:
        return kept[1]
    entries = MatchLog.objects.filter(match=match).values_list("entries", flat=True).first()
    engine = get_engine(match.game)

    def start():
        players = match.seats.count()
        return engine.new_game(players=players, seed=match.seed, options=match.options)

    read = log_format.decisions(entries, engine, start) if entries else []
    match._decisions = (match.ply, read)
    return read


def viewer_seats(match: Match, user) -> list[int]:
    """The seats `user` holds in `match` (several only if the same account sits twice)."""
    if not getattr(user, "is_authenticated", False):
        return []
    return [s.index for s in match.seats.all() if s.player.user_id == user.pk]


def viewer_seat(match: Match, user, requested: int | None = None) -> int | None:
    """Whose eyes the caller sees through: a requested own seat, the own seat to act, or
    the first own seat; None (spectator) for everyone else."""
    seats = viewer_seats(match, user)
    if requested is not None:
        return requested if requested in seats else None
    if match.to_act in seats:
        return match.to_act
    return seats[0] if seats else None


def match_view(match: Match, seat: int | None) -> dict:
    """What `seat` (None: a spectator) may see of the match right now."""
    engine = get_engine(match.game)
    view = {
        "ply": match.ply,
        "status": match.status,
        "seat": seat,
        "to_act": match.to_act,
        "deadline": match.deadline.isoformat() if match.deadline else None,
        "observation": None,
        "legal_actions": [],
    }
    if match.state is None:
        return view
    state = engine.from_json(match.state)
    view["observation"] = engine.observation(state, seat)
    if seat is not None and match.status == MatchStatus.RUNNING and match.to_act == seat:
        view["legal_actions"] = [
            {
                "action": a,
                "label": engine.describe(state, a),
                "targets": action_targets(engine, state, a),
                "choice": action_choice(engine, state, a),
            }
            for a in engine.legal_actions(state)
        ]
    return view


def action_targets(engine, state, action: dict) -> list[str]:
    """The board ids a player clicks for `action`, in order ([] when the engine draws
    nothing clickable for it, or predates clickable boards)."""
    targets = getattr(engine, "action_targets", None)
    if targets is None:
        return []
    try:
        return [str(t) for t in targets(state, action) or []]
    except Exception:  # noqa: BLE001 - a board hint must never break the match page
        return []


def action_choice(engine, state, action: dict) -> str | None:
    """A short label for what of `action` is not on the board (a count, yes/no), if any."""
    choice = getattr(engine, "action_choice", None)
    if choice is None:
        return None
    try:
        label = choice(state, action)
    except Exception:  # noqa: BLE001
        return None
    return str(label) if label else None


def last_move_targets(match: Match, viewer: int | None) -> list[str]:
    """The board ids of the last applied action, to highlight it; nothing when the
    viewer may not see that action in full (a secret choice)."""
    if match.state is None or match.ply == 0:
        return []
    logged = match_decisions(match)
    if len(logged) < match.ply:
        return []
    last = logged[match.ply - 1]
    engine = get_engine(match.game)
    if not record_is_public(match) and engine.redact_action(last.action, last.seat, viewer) != (
        last.action
    ):
        return []
    # Ids are computed on the state after the move: where the moved pieces now stand.
    return action_targets(engine, engine.from_json(match.state), last.action)


def label_seats(match: Match, seats: list[Seat]) -> list[Seat]:
    """The seats with what pages show of them: `label` (the player's readable name) and
    `colour` (the seat's colour on the board, or None)."""
    for s in seats:
        s.label = player_label(s.player)
        s.colour = seat_colour(match.game, s.index)
    return seats


def page_log(match: Match, viewer: int | None, seats: list[Seat] | None = None) -> list[dict]:
    """The whole log as the match page lists it: match_log's rows (redacted for `viewer`)
    with `number` (from 1), `player` (the seat's readable name) and `colour`."""
    if seats is None or not all(hasattr(s, "label") for s in seats):
        seats = label_seats(match, list(match.seats.select_related("player")))
    by_index = {s.index: s for s in seats}
    rows = match_log(match, viewer)
    for row in rows:
        seat = by_index.get(row["seat"])
        row["number"] = row["ply"] + 1
        row["player"] = seat.label if seat else ""
        row["colour"] = seat.colour if seat else seat_colour(match.game, row["seat"])
    return rows


def since_start(rows: list[dict], viewer: int | None) -> int:
    """Where the "since your move" strip starts in the log: after the viewer's own last
    decision; for a spectator, the last round (back to the previous turn of whoever moved
    last), which stays readable while his page follows a quick table."""
    if viewer is not None:
        mine = [i for i, r in enumerate(rows) if r["seat"] == viewer]
        return mine[-1] + 1 if mine else 0
    i = len(rows) - 1
    if i < 0:
        return 0
    last = rows[i]["seat"]
    while i >= 0 and rows[i]["seat"] == last:  # the last turn (it may take several decisions)
        i -= 1
    while i >= 0 and rows[i]["seat"] != last:  # everyone else's since that seat's turn before
        i -= 1
    return i + 1


# Kinds of board id that name the clicking player's own pieces (a card in hand, a chip to
# lay): in another seat's decision they are that seat's, which the viewer's board does not
# draw under that id (it would mark her own card instead).
OWN_PIECE_IDS = ("hand:", "chip:")


def story_targets(match: Match, viewer: int | None, rows: list[dict]) -> list[str]:
    """The board ids of the decisions in `rows`, to highlight them all, in order and once
    each; a decision the viewer may not see in full (a secret choice) adds none, another
    seat's decision none of its own pieces (OWN_PIECE_IDS)."""
    if match.state is None or not rows:
        return []
    logged = match_decisions(match)
    engine = get_engine(match.game)
    # Ids are computed on the current state: where the moved pieces stand now.
    state = engine.from_json(match.state)
    out: list[str] = []
    for row in rows:
        if row["ply"] >= len(logged) or row["action"] != logged[row["ply"]].action:
            continue  # redacted for this viewer
        for target in action_targets(engine, state, row["action"]):
            if row["seat"] != viewer and target.startswith(OWN_PIECE_IDS):
                continue
            if target not in out:
                out.append(target)
    return out


def my_games(user, *, finished: int = 20) -> dict:
    """`user`'s matches: those waiting for his decision, the other running ones,
    pending ones (waiting for invitations) and the most recently finished."""
    empty = {"my_turn": [], "running": [], "pending": [], "finished": []}
    if not getattr(user, "is_authenticated", False):
        return empty
    seats = Seat.objects.filter(player__user=user).select_related("match")
    live = seats.filter(match__status__in=[MatchStatus.RUNNING, MatchStatus.PENDING])
    out = empty
    mine: dict[int, tuple[Match, set[int]]] = {}
    for seat in live.order_by("-match__created_at", "index"):
        mine.setdefault(seat.match_id, (seat.match, set()))[1].add(seat.index)
    for match, indices in mine.values():
        if match.status == MatchStatus.PENDING:
            out["pending"].append(match)
        elif match.to_act in indices:
            out["my_turn"].append(match)
        else:
            out["running"].append(match)
    recent = (
        Match.objects.filter(
            seats__player__user=user, status__in=[MatchStatus.FINISHED, MatchStatus.ABORTED]
        )  # fmt: skip
        .distinct()
        .order_by("-finished_at", "-created_at")[:finished]
    )
    out["finished"] = list(recent)
    ids = [m.pk for group in out.values() for m in group]
    seats_of = {}
    for s in Seat.objects.filter(match_id__in=ids).select_related("player").order_by("index"):
        seats_of.setdefault(s.match_id, []).append(s)
    contexts = match_contexts(ids)
    for group in out.values():
        for m in group:
            m.seat_list = label_seats(m, seats_of.get(m.pk, []))
            m.context = contexts.get(m.pk)
    return out


def turn_count(user) -> int:
    """How many running matches wait for `user`'s decision (one query, for the header)."""
    if not getattr(user, "is_authenticated", False):
        return 0
    return (
        Seat.objects.filter(
            player__user=user, match__status=MatchStatus.RUNNING, match__to_act=F("index")
        )
        .values("match_id")
        .distinct()
        .count()
    )


def _hook(setting: str):
    """The function a cross-app hook setting names (None when unset): games never imports
    the apps built on it (ratings, tournaments)."""
    from django.conf import settings
    from django.utils.module_loading import import_string

    path = getattr(settings, setting, None)
    return import_string(path) if path else None


def match_rating_changes(match: Match) -> dict:
    """{player id: {"before", "after", "delta"}} from whatever settings.MATCH_RATING_CHANGES
    names (the ratings app); empty when nothing is configured or the match was unrated."""
    hook = _hook("MATCH_RATING_CHANGES")
    return hook(match) if hook else {}


def match_log(match: Match, viewer: int | None, *, reveal: bool = False) -> list[dict]:
    """The applied actions; while the match runs, as `viewer` may see them (`reveal`:
    everything, for superusers only)."""
    engine = get_engine(match.game)
    live = not reveal and not record_is_public(match)
    rows = []
    actions = match_decisions(match)
    labels = [a.label for a in actions]
    shown = [engine.redact_action(a.action, a.seat, viewer) if live else a.action for a in actions]
    redacted = any(s != a.action for s, a in zip(shown, actions, strict=True))
    hidden: list[str | None] = [None] * len(actions)
    # A stored label of LABEL_CUT characters or more may have been cut short: describe it again.
    translate = (
        engine_i18n.current_language() != "en"
        or not all(labels)
        or any(len(label) >= LABEL_CUT for label in labels)
    )
    if actions and (translate or redacted):
        # Stored labels are English, and bot-only batches store none: describe the
        # actions in the viewer's language (cached per match, ply and language); a
        # redacted action gets its own line ("lay a chip"), never its raw type.
        described = described_log(match, engine, actions)
        if translate:
            labels = described["labels"]
        hidden = described["hidden"]
    for i, (a, label, action) in enumerate(zip(actions, labels, shown, strict=True)):
        if action != a.action:
            # The stored label describes the real action: show the public one instead
            # (the spectator's view, which is what any other viewer is shown).
            public = engine.redact_action(a.action, a.seat, None)
            label = hidden[i] if action == public and hidden[i] else ""
        rows.append(
            {
                "ply": a.ply,
                "seat": a.seat,
                "action": action,
                "label": label,
                "source": a.source,
                "time_used_ms": a.time_used_ms,
                "at": a.created_at.isoformat(),
            }
        )
    return rows


# The runner stores labels cut to this length (games/services/runner.py).
LABEL_CUT = 200

# Translated log lines, per (match, ply, language). A record only grows, so an entry
# never goes stale; the state after the last action is kept with the lines so that the
# next ply describes one action instead of replaying the whole match again.
LOG_CACHE_S = 3600


def _log_cache_key(match_id: int, ply: int, language: str) -> str:
    # v2: lines are whole (v1 cut them at 200 characters).
    return f"games:log-labels:v2:{match_id}:{ply}:{language}"


def translated_labels(match: Match, engine, actions: list[Decision]) -> list[str]:
    """Each action described in the current (non-English) language, from the cache when
    possible. Stored labels are English; a description needs the state before the action."""
    return described_log(match, engine, actions)["labels"]


def described_log(match: Match, engine, actions: list[Decision]) -> dict:
    """{"labels": each action described in the current language, "hidden": for an action a
    spectator sees redacted (a Great Wall chip laid face down), that redacted action
    described, else None}; cached per match, ply and language."""
    from django.core.cache import cache

    language, ply = engine_i18n.current_language(), len(actions)
    try:
        hit = cache.get(_log_cache_key(match.pk, ply, language))
        if hit is not None and "hidden" in hit:
            return {"labels": hit["labels"], "hidden": hit["hidden"]}
        earlier = cache.get(_log_cache_key(match.pk, ply - 1, language))
    except Exception:  # noqa: BLE001 - without the cache the log is computed, not lost
        logger.warning("log cache unavailable for match %s", match.pk)
        hit = earlier = None
    if earlier is not None and "hidden" in earlier:
        labels, hidden = list(earlier["labels"]), list(earlier["hidden"])
        state = engine.from_json(earlier["state"])
    else:
        labels, hidden = [], []
        state = engine.new_game(players=match.seats.count(), seed=match.seed, options=match.options)
    for a in actions[len(labels) :]:
        labels.append(engine.describe(state, a.action))
        public = engine.redact_action(a.action, a.seat, None)
        hidden.append(engine.describe(state, public) if public != a.action else None)
        state = engine.apply(state, a.action)
    try:
        cache.set(
            _log_cache_key(match.pk, ply, language),
            {"labels": labels, "hidden": hidden, "state": engine.to_json(state)},
            timeout=LOG_CACHE_S,
        )
    except Exception:  # noqa: BLE001
        logger.warning("log cache not written for match %s", match.pk)
    return {"labels": labels, "hidden": hidden}


def turns_waiting_for(user) -> list[Match]:
    """Running matches whose pending decision belongs to one of `user`'s seats, with what
    the API shows of them prefetched (the turn stream asks for this every few seconds)."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(
        Match.objects.filter(
            status=MatchStatus.RUNNING, seats__player__user=user, seats__index=F("to_act")
        )
        .distinct()
        .prefetch_related("seats__player", "open_seats")
        .order_by("pk")
    )


def match_predictions(match: Match) -> dict | None:
    """Expected order and win chances, from whatever settings.MATCH_PREDICTIONS names
    (the ratings app); games itself knows nothing of ratings."""
    hook = _hook("MATCH_PREDICTIONS")
    if match.status == MatchStatus.PENDING and match.open_seats.exists():
        return None  # nobody to predict for an open seat yet
    return hook(match) if hook else None


def match_context(match: Match) -> dict | None:
    """What a match is played for, from whatever settings.MATCH_CONTEXT names (a tournament's
    table: {"name", "url", "round", "table", "table_name", "table_url"}); None for a casual
    match."""
    return match_contexts([match.pk]).get(match.pk)


def match_contexts(match_ids: list[int]) -> dict[int, dict]:
    """`match_context` of many matches at once, by id (casual ones left out)."""
    hook = _hook("MATCH_CONTEXT")
    return hook(list(match_ids)) if hook and match_ids else {}


def with_targets(invitations: list[Invitation]) -> list[Invitation]:
    """Sets ``target`` ({"name", "url"}, or None when unknown) on each entry invitation, from
    whatever settings.INVITATION_TARGETS names (games knows targets only by kind and id): one
    dotted path, or a list of them (each app answers for the kinds it owns)."""
    from django.conf import settings
    from django.utils.module_loading import import_string

    paths = getattr(settings, "INVITATION_TARGETS", None) or []
    hooks = [import_string(p) for p in ([paths] if isinstance(paths, str) else paths)]
    keys = sorted({(i.target_kind, i.target_id) for i in invitations
                   if not i.match_id and i.target_kind and i.target_id is not None})  # fmt: skip
    found = {}
    for hook in hooks if keys else []:
        found.update(hook(keys))
    for i in invitations:
        i.target = found.get((i.target_kind, i.target_id))
    return invitations


def replay_step(match: Match, ply: int) -> dict:
    """A finished match rebuilt up to `ply` from its public record: the board as a
    spectator sees it and every seat's hand (nothing is secret after the end)."""
    if not record_is_public(match):
        raise ValueError("only a finished match has a public record")
    engine = get_engine(match.game)
    actions = match_decisions(match)
    ply = max(0, min(ply, len(actions)))
    state = engine.new_game(players=match.seats.count(), seed=match.seed, options=match.options)
    current = actions[ply - 1] if ply else None
    for a in actions[:ply]:
        if a is current and not a.label:
            # Bot-only batches store no label: describe the shown action from its state
            # (on a copy: the decisions are kept for the page's other readers).
            current = dataclasses.replace(a, label=engine.describe(state, a.action)[:200])
        state = engine.apply(state, a.action)
    spectator = engine.observation(state, None)
    full = engine.full_observation(state)
    hands = []
    public_players, full_players = spectator.get("players"), full.get("players")
    if not (isinstance(public_players, list) and isinstance(full_players, list)):
        public_players = full_players = []  # an engine that keeps no per-player list
    for seat, (public, entry) in enumerate(zip(public_players, full_players, strict=False)):
        private = {k: v for k, v in entry.items() if k not in public}
        hands.append({"seat": seat, "private": private})
    return {
        "ply": ply,
        "last": len(actions),
        "observation": full,
        "hands": hands,
        "current": current,
    }


def invitations_for(user, *, status: str | None = None) -> QuerySet[Invitation]:
    """`user`'s invitations, newest first; `status="pending"` means still open (not expired)."""
    if not getattr(user, "is_authenticated", False):
        return Invitation.objects.none()
    qs = Invitation.objects.filter(player__user=user).select_related(
        "player", "invited_by__player", "match"
    )
    if status == InvitationStatus.PENDING:
        from django.utils import timezone

        qs = qs.filter(status=status, expires_at__gt=timezone.now())
    elif status:
        qs = qs.filter(status=status)
    return qs


def open_games(user=None, *, limit: int = 50) -> list[Match]:
    """Waiting matches with a seat anyone may take, newest first (those past their time
    are left out before the sweep cancels them); `free` = open seats, `total` = seats,
    `mine` = the user created it, `seated` = he holds a seat in it."""
    from games.services.matches import open_seat_cutoff

    matches = list(
        Match.objects.filter(
            status=MatchStatus.PENDING, open_seats__isnull=False, created_at__gte=open_seat_cutoff()
        )
        .distinct()
        .select_related("variant", "created_by")
        .prefetch_related("seats__player", "open_seats")
        .order_by("-created_at")[:limit]
    )
    user_id = user.pk if getattr(user, "is_authenticated", False) else None
    for m in matches:
        m.free = len(m.open_seats.all())
        m.total = m.free + len(m.seats.all())
        m.mine = user_id is not None and m.created_by_id == user_id
        m.seated = user_id is not None and any(s.player.user_id == user_id for s in m.seats.all())
        # The default pools rate no table with a built-in bot (ratings app): not "rated".
        m.counts_for_rating = m.rated and not any(
            s.player.kind == PlayerKind.ENGINE_BOT for s in m.seats.all()
        )
    return matches


def time_control_presets() -> QuerySet[TimeControl]:
    """The admins' time-control presets, as every form offers them (lobby, tournaments):
    the fastest first, correspondence (a limit per move) after the clocks."""
    return TimeControl.objects.order_by(
        F("per_move_s").asc(nulls_first=True), "initial_s", "increment_s", "name"
    )


def time_control_choices() -> list[tuple[str, str]]:
    """(choice key, name) per preset; games.forms.parse_time_control reads the key back."""
    from games.forms import time_control_key  # forms import the models, not the selectors

    return [(time_control_key(t.as_dict()), str(t)) for t in time_control_presets()]


def player_or_none(name: str) -> Player | None:
    return Player.objects.filter(name=name).first()


def player_named(name: str, *, field: str = "seats") -> Player:
    """The player called `name`; bad input (a ValidationError on `field`) when none is."""
    player = player_or_none(name)
    if player is None:
        raise ValidationError({field: gettext("No player called %(name)r.") % {"name": name}})
    return player


def variant_by_id(pk: int | None) -> Variant | None:
    """The variant with this id (None for none asked); bad input when there is no such one
    (whether it is a variant of the match's game is the services' check)."""
    if pk is None:
        return None
    variant = Variant.objects.filter(pk=pk).first()
    if variant is None:
        raise ValidationError({"variant": gettext("No such variant.")})
    return variant


# ---- what the lobby and the match page read (their views only render it) ----------------
def is_waiting(match_id: int) -> bool:
    """The match still waits for players (the lobby calls off only those)."""
    return Match.objects.filter(pk=match_id, status=MatchStatus.PENDING).exists()


def rematch_of(user, match_id: int | None) -> tuple[Match, list[Seat]] | None:
    """A match `user` played in and its seats in order, for a rematch; None if he did not."""
    # An id past the key's range is nobody's match (PostgreSQL would refuse the query).
    if match_id is None or not 0 < match_id < 2**63 or not getattr(user, "is_authenticated", False):
        return None
    match = Match.objects.filter(pk=match_id, seats__player__user=user).distinct().first()
    if match is None:
        return None
    return match, list(match.seats.select_related("player").order_by("index"))


def match_page_state(match: Match, user) -> dict:
    """What the match page shows `user` around the board: the seats, what a waiting match
    waits for, whether he may resign, and a finished match's result table."""
    seats = label_seats(match, list(match.seats.select_related("player")))
    user_id = user.pk if getattr(user, "is_authenticated", False) else None
    pending = match.status == MatchStatus.PENDING
    result = result_rows(match, seats)
    columns = {
        "clock": bool(match.deadline) or any(s.clock_ms is not None for s in seats),
        "score": any(s.score is not None for s in seats),
        "place": any(s.rank is not None for s in seats),
    }
    return {
        "seats": seats,
        # The seats table leaves out a column nobody has a value in yet (a clock without a
        # time limit, scores and places while running): the names get the room.
        "seat_columns": columns,
        "open_seat_span": 1 + sum(columns.values()),  # the player column and those shown
        "open_seats": list(match.open_seats.all()) if pending else [],
        "waiting_invited": pending
        and match.invitations.filter(status=InvitationStatus.PENDING).exists(),
        # Bots' seats have no user: a visitor who is not logged in holds none of them.
        "can_resign": match.status == MatchStatus.RUNNING
        and user_id is not None
        and any(s.player.user_id == user_id and not s.forfeited for s in seats),
        "result": result,
        # The banner refreshes until the rating changes of a rated match are in.
        "rating_pending": bool(result and match.rated and any(r["change"] is None for r in result)),
        # A rated table the pool applied without moving anyone (built-in bots, ratings
        # app): the banner says so instead of a column of +0.0.
        "rating_unchanged": bool(
            result and match.rated and all((r["change"] or {}).get("unchanged") for r in result)
        ),
        "against_builtin_bots": any(s.player.kind == PlayerKind.ENGINE_BOT for s in seats),
    }


def result_rows(match: Match, seats: list[Seat]) -> list[dict] | None:
    """The finished match's table for the banner: places, players, scores, rating changes."""
    if match.status != MatchStatus.FINISHED:
        return None
    changes = match_rating_changes(match)
    return [
        {"seat": s, "change": changes.get(s.player_id)}
        for s in sorted(seats, key=lambda s: (s.rank or 99, s.index))
    ]


def engine_for(game: str, *, field: str = "game"):
    """The game's engine; an unknown game is bad input on ``field`` (ValidationError)."""
    try:
        return get_engine(game)
    except UnknownGame:
        raise ValidationError({field: gettext("Unknown game %(game)r.") % {"game": game}}) from None
