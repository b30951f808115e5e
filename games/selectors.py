"""Read-side queries: players and matches, as a given viewer may see them."""

from django.db.models import QuerySet

from games.engines import i18n as engine_i18n
from games.engines.registry import get_engine
from games.models import (
    Invitation,
    InvitationStatus,
    Match,
    MatchAction,
    MatchStatus,
    Player,
    PlayerKind,
    Seat,
)


def player_list(*, kind: str | None = None, active_only: bool = True) -> QuerySet[Player]:
    qs = Player.objects.select_related("user", "owner")
    if active_only:
        qs = qs.filter(is_active=True)
    if kind:
        qs = qs.filter(kind=kind)
    return qs


def player_for_user(user) -> Player | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).first()


def engine_bots() -> QuerySet[Player]:
    return player_list(kind=PlayerKind.ENGINE_BOT)


# ---- matches ---------------------------------------------------------------


def match_list(*, status: str | None = None, game: str | None = None, player: str | None = None):
    qs = Match.objects.prefetch_related("seats__player")
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
            {"action": a, "label": engine.describe(state, a)} for a in engine.legal_actions(state)
        ]
    return view


def match_log(match: Match, viewer: int | None) -> list[dict]:
    """The applied actions; while the match runs, as `viewer` may see them."""
    engine = get_engine(match.game)
    live = not record_is_public(match)
    rows = []
    actions = list(MatchAction.objects.filter(match=match).order_by("ply"))
    labels = [a.label for a in actions]
    if actions and engine_i18n.current_language() != "en":
        # Stored labels are English; describe each action again in the viewer's language,
        # replaying the record from the start (the state before each action is needed).
        state = engine.new_game(players=match.seats.count(), seed=match.seed, options=match.options)
        labels = []
        for a in actions:
            labels.append(engine.describe(state, a.action)[:200])
            state = engine.apply(state, a.action)
    for a, label in zip(actions, labels, strict=True):
        action = engine.redact_action(a.action, a.seat, viewer) if live else a.action
        rows.append(
            {
                "ply": a.ply,
                "seat": a.seat,
                "action": action,
                # A label describes the real action; drop it when the action was redacted.
                "label": label if action == a.action else "",
                "source": a.source,
                "time_used_ms": a.time_used_ms,
                "at": a.created_at.isoformat(),
            }
        )
    return rows


def turns_waiting_for(user) -> list[Match]:
    """Running matches whose pending decision belongs to one of `user`'s seats."""
    if not getattr(user, "is_authenticated", False):
        return []
    seats = Seat.objects.filter(
        player__user=user, match__status=MatchStatus.RUNNING
    ).select_related("match")
    return [s.match for s in seats if s.match.to_act == s.index]


def match_predictions(match: Match) -> dict | None:
    """Expected order and win chances, from whatever settings.MATCH_PREDICTIONS names
    (the ratings app); games itself knows nothing of ratings."""
    from django.conf import settings
    from django.utils.module_loading import import_string

    path = getattr(settings, "MATCH_PREDICTIONS", None)
    return import_string(path)(match) if path else None


def replay_step(match: Match, ply: int) -> dict:
    """A finished match rebuilt up to `ply` from its public record: the board as a
    spectator sees it and every seat's hand (nothing is secret after the end)."""
    if not record_is_public(match):
        raise ValueError("only a finished match has a public record")
    engine = get_engine(match.game)
    actions = list(MatchAction.objects.filter(match=match).order_by("ply"))
    ply = max(0, min(ply, len(actions)))
    state = engine.new_game(players=match.seats.count(), seed=match.seed, options=match.options)
    for a in actions[:ply]:
        state = engine.apply(state, a.action)
    spectator = engine.observation(state, None)
    full = engine.full_observation(state)
    hands = []
    for seat, (public, entry) in enumerate(
        zip(spectator.get("players", []), full.get("players", []), strict=False)
    ):
        private = {k: v for k, v in entry.items() if k not in public}
        hands.append({"seat": seat, "private": private})
    return {
        "ply": ply,
        "last": len(actions),
        "observation": full,
        "hands": hands,
        "current": actions[ply - 1] if ply else None,
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
