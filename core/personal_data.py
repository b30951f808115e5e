"""A person's own data (issue #30, GDPR): everything the site holds about her as one JSON
document (`export_for`), and deleting her account (`delete_account`).

Like the account pages, this module stands above the apps: it reads games, tournaments,
ratings (and notifications and mail when installed), each imported inside the function
that needs it.

Deleting keeps the record of play. The account row cannot go: her human player must have
a user (Player's check constraint `player_kind_fields`, no new kind without a migration)
and her seats, ratings and standings point at the player. So the user row stays,
anonymised: username "deleted-<id>", no e-mail, no names, an unusable password, inactive,
no rights, no sessions, no API tokens. The player becomes "deleted-player-<id>" (shown as
"deleted player <id>" in the reader's language), off every list. Finished matches,
ratings, rating changes and standings are untouched, so nobody else's numbers move.
"""

from __future__ import annotations

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

User = get_user_model()


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None


# ---- export --------------------------------------------------------------------------------
def export_for(user) -> dict:
    """Everything about `user`: account, players, matches, ratings, entries, invitations,
    notifications. Plain JSON types; times in ISO 8601 with their offset (UTC)."""
    from games.models import Invitation, Player, PlayerKind, Seat

    human = Player.objects.filter(user=user, kind=PlayerKind.HUMAN).first()
    # Her human player first, then the bots she owns (a bot program's own account: itself).
    others = Player.objects.filter(Q(owner=user) | Q(user=user)).exclude(kind=PlayerKind.HUMAN)
    players = ([human] if human else []) + list(others.order_by("pk"))
    ids = [p.pk for p in players]
    seats = (
        Seat.objects.filter(player_id__in=ids)
        .select_related("match__variant")
        .order_by("match__created_at", "match_id")
    )
    invitations = Invitation.objects.filter(Q(player_id__in=ids) | Q(invited_by=user))
    data = {
        "format": "caravan-club-personal-data/1",
        "exported_at": _iso(timezone.now()),
        "account": {
            "username": user.get_username(),
            "email": user.email,
            "email_verified_at": _iso(human.email_verified_at) if human else None,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "date_joined": _iso(user.date_joined),
            "last_login": _iso(user.last_login),
            "language": human.language if human else "",
            "time_zone": human.time_zone if human else "",
            "turn_sound": bool(human and human.turn_sound),
            "calendar_feed": bool(human and human.calendar_token),
        },
        "players": [_player(p) for p in players],
        "matches": _matches(list(seats)),
        "ratings": _ratings(ids),
        "rating_history": _rating_history(ids),
        "tournament_entries": _entries(ids),
        "tournaments_organised": _organised(user),
        "invitations": [
            _invitation(i, ids) for i in invitations.select_related("player", "invited_by")
        ],
    }
    if apps.is_installed("notifications"):
        data["notifications"] = _notifications(user)
    return data


def _player(p) -> dict:
    return {
        "id": p.pk, "name": p.name, "display_name": p.display_name, "kind": p.kind,
        "game": p.game, "bot_name": p.bot_name, "bot_params": p.bot_params,
        "description": p.description, "active": p.is_active, "created_at": _iso(p.created_at),
    }  # fmt: skip


def _matches(mine: list) -> list[dict]:
    from games.models import Seat

    match_ids = [s.match_id for s in mine]
    all_seats: dict[int, list] = {}
    for s in Seat.objects.filter(match_id__in=match_ids).select_related("player").order_by("index"):
        all_seats.setdefault(s.match_id, []).append(s)
    out = []
    for seat in mine:
        m = seat.match
        out.append({
            "id": m.pk, "game": m.game, "variant": m.variant.name if m.variant else None,
            "status": m.status, "rated": m.rated, "finish_reason": m.finish_reason,
            "created_at": _iso(m.created_at), "started_at": _iso(m.started_at),
            "finished_at": _iso(m.finished_at), "my_seat": seat.index, "as": seat.player.name,
            "players": [
                {"seat": s.index, "name": s.player.name, "shown_as": str(s.player),
                 "score": s.score, "place": s.rank, "forfeited": s.forfeited}
                for s in all_seats.get(m.pk, [])
            ],
            "result": {"score": seat.score, "place": seat.rank, "forfeited": seat.forfeited},
        })  # fmt: skip
    return out


def _ratings(ids: list[int]) -> list[dict]:
    from ratings.models import Rating

    rows = Rating.objects.filter(player_id__in=ids).select_related("pool", "player")
    return [
        {"player": r.player.name, "pool": r.pool.name, "game": r.pool.game, "system": r.system,
         "value": r.value, "mu": r.mu, "sigma": r.sigma, "games": r.games,
         "updated_at": _iso(r.updated_at)}
        for r in rows.order_by("pool_id", "system", "player_id")
    ]  # fmt: skip


def _rating_history(ids: list[int]) -> list[dict]:
    from ratings.models import RatingChange

    rows = RatingChange.objects.filter(player_id__in=ids).select_related("pool", "player")
    return [
        {"player": c.player.name, "pool": c.pool.name, "system": c.system, "match": c.match_id,
         "before": c.before, "after": c.after, "place": c.rank, "at": _iso(c.created_at)}
        for c in rows.order_by("created_at", "pk")
    ]  # fmt: skip


def _entries(ids: list[int]) -> list[dict]:
    from tournaments import selectors
    from tournaments.models import Entry, TournamentStatus

    out = []
    for e in Entry.objects.filter(player_id__in=ids).select_related("tournament", "player"):
        t = e.tournament
        points = None
        if t.status in (TournamentStatus.RUNNING, TournamentStatus.FINISHED):
            # Cached per results version (tournaments.selectors.standings): cheap.
            row = next((r for r in selectors.standings(t) if r["entry"] == e.pk), None)
            points = row["points"] if row else None
        if e.withdrawn:
            status = "withdrawn"
        elif e.waitlisted_at:
            status = "waitlisted"
        else:
            status = "entered"
        out.append({
            "tournament": t.pk, "name": t.name, "game": t.game, "tournament_status": t.status,
            "as": e.player.name, "status": status, "withdrawn_after_round": e.withdrawn_after,
            "points": points, "entered_at": _iso(e.created_at),
        })  # fmt: skip
    return out


def _organised(user) -> list[dict]:
    from tournaments.models import Tournament

    return [
        {"tournament": t.pk, "name": t.name, "status": t.status, "created_at": _iso(t.created_at)}
        for t in Tournament.objects.filter(organiser=user).order_by("pk")
    ]


def _invitation(i, ids: list[int]) -> dict:
    inviter = getattr(i.invited_by, "player", None) if i.invited_by_id else None
    return {
        "id": i.pk, "kind": i.kind, "match": i.match_id, "target_kind": i.target_kind,
        "target_id": i.target_id, "to": i.player.name, "received": i.player_id in ids,
        "invited_by": inviter.name if inviter else None, "status": i.status,
        "created_at": _iso(i.created_at), "expires_at": _iso(i.expires_at),
        "answered_at": _iso(i.answered_at),
    }  # fmt: skip


def _notifications(user) -> list[dict]:
    from notifications.models import Notification  # another app, optional

    return [
        {"kind": n.kind, "key": n.key, "url": n.url, "data": n.data,
         "created_at": _iso(n.created_at), "read_at": _iso(n.read_at),
         "emailed_at": _iso(getattr(n, "emailed_at", None))}
        for n in Notification.objects.filter(recipient=user).order_by("created_at", "pk")
    ]  # fmt: skip


# ---- deletion --------------------------------------------------------------------------------
def check_deletion(user, *, confirm, password) -> None:
    """The two proofs deletion asks for: her username typed again and her password.
    A ValidationError on the field that is missing or wrong; nothing is changed."""
    errors = {}
    if not isinstance(confirm, str) or not confirm:
        errors["confirm"] = gettext("Type your username to confirm.")
    elif confirm.strip() != user.get_username():
        errors["confirm"] = gettext("That is not your username.")
    if not isinstance(password, str) or not password:
        errors["password"] = gettext("Give your password.")
    elif not user.check_password(password):
        errors["password"] = gettext("The password is not right.")
    if errors:
        raise ValidationError(errors)
    if running := organised_and_open(user):
        # Her players would be left without an organiser: she finishes, cancels or hands
        # them over (staff can change the organiser in the admin) first.
        raise ValidationError(
            gettext("You organise %(names)s, not finished yet: finish or cancel it first.")
            % {"names": ", ".join(running)},
            code="organises_open_events",
        )


def organised_and_open(user) -> list[str]:
    """The names of the tournaments she organises that are taking entries or running."""
    from tournaments.models import Tournament, TournamentStatus

    open_ = (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING)
    return list(
        Tournament.objects.filter(organiser=user, status__in=open_).values_list("name", flat=True)
    )


def delete_account(user) -> None:
    """Remove `user`'s personal data and log-in, keeping the record of play (see the module
    docstring). Not undoable."""
    from core.timezones import forget_preference
    from games.services.departures import DELETED_PREFIX, retire_player
    from tournaments.models import Entry, TournamentStatus
    from tournaments.services import versions
    from tournaments.services.entrants import withdraw_entry

    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        players = retire_player(user)
        ids = [p.pk for p in players]
        # Entries in tournaments not started yet: withdrawn (her bots' too: they stopped).
        for entry in Entry.objects.filter(
            player_id__in=ids, tournament__status=TournamentStatus.REGISTRATION,
            withdrawn_after__isnull=True,
        ).order_by("pk"):  # fmt: skip
            withdraw_entry(entry=entry)
        # The standings cache holds names: every tournament she is in shows the new one.
        for tid in set(
            Entry.objects.filter(player_id__in=ids).values_list("tournament_id", flat=True)
        ):
            versions.touch(tid)
        name, n = f"{DELETED_PREFIX}{user.pk}", 1
        while User.objects.filter(username__iexact=name).exclude(pk=user.pk).exists():
            n += 1
            name = f"{DELETED_PREFIX}{user.pk}-{n}"
        user.username, user.email, user.first_name, user.last_name = name, "", "", ""
        user.is_active = user.is_staff = user.is_superuser = False
        user.set_unusable_password()
        user.save()
        user.groups.clear()
        user.user_permissions.clear()
        from core import tokens

        tokens.revoke_all([user.pk])
        _delete_sessions(user.pk)
        if apps.is_installed("notifications"):
            from notifications.models import Notification, NotificationPreference

            Notification.objects.filter(recipient=user).delete()
            NotificationPreference.objects.filter(user=user).delete()
        if apps.is_installed("mail"):
            from mail.models import OutgoingMail  # her address is in its rows

            OutgoingMail.objects.filter(user=user).delete()
        transaction.on_commit(lambda: forget_preference(user.pk))


def _delete_sessions(user_id: int) -> None:
    # Sessions are stored by key, not by user: read each live one (deletion is rare).
    doomed = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if str(session.get_decoded().get("_auth_user_id")) == str(user_id):
            doomed.append(session.pk)
    Session.objects.filter(pk__in=doomed).delete()
