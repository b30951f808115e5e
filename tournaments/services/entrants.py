"""Who plays: entries made by the organiser, guests typed in by name, self-registration
(join / leave), the entry limit and its waitlist, check-in before the start (one by one
or several at once), withdrawal, the organiser's member picker, and linking a guest to an
account.

The waitlist: an entry made before the start while the limit is reached waits
(Entry.waitlisted_at); a place freed before the start goes to the first waiting entry.
A waiting entry is never paired, counted, checked in or ranked: those read `entered()`
(format_rows.entrants, selectors, the API's counts).

Guests are `Player` rows of kind GUEST: no account, never rated (a table with a guest is
recorded unrated), entered only in over-the-board tournaments (nobody could play their
online seat). A link to an account needs that account's consent, like any entry: the
organiser's own player is linked at once, anyone else accepts an invitation first.

A club's event (settings.TOURNAMENT_CLUB_HOOKS, through setup.club_hooks: tournaments never
imports clubs): a members-only event takes the club's members only, whichever way they
come in (add_entry, enter_player, join, a guest link); its guests are typed in by the
club's organisers. A guest of a club's event is the club's: typed in again at its next
event, the same Player is entered; linked to an account, all her entries go with her.
"""

from __future__ import annotations

import secrets
import unicodedata

from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext, ngettext

from core import names, permissions
from games import services as game_services
from games.models import Player, Seat
from games.models.players import PlayerKind, fold_name
from games.selectors import player_for_user
from tournaments import format_rows
from tournaments.models import Entry, Tournament, TournamentStatus
from tournaments.services import setup, versions


def add_entry(*, tournament: Tournament, player: Player, seed: int | None = None) -> Entry:
    """Join; after the start this is a late entry, paired from the next round on."""
    if seed is not None and not (setup._whole(seed) and 1 <= seed <= setup.MAX_SEED):
        raise ValidationError(
            gettext("A seed is a whole number from 1 to %(max)s.") % {"max": setup.MAX_SEED}
        )
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if t.status not in (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING):
            raise ValidationError(
                gettext("The tournament takes no more entries."), code="entries_closed"
            )
        if player.game and player.game != t.game:
            raise ValidationError(
                gettext("%(player)s plays only %(game)s.") % {"player": player, "game": player.game}
            )
        if t.entries.filter(player=player).exists():
            raise ValidationError(
                gettext("%(player)s has already entered.") % {"player": player},
                code="already_entered",
            )
        check_club_entry(t, player)
        # Full before the start: the waitlist (first come, first moved up). After it a
        # place never frees up for a waiting entry, so a late entry is refused instead.
        waiting = is_full(t) and t.status == TournamentStatus.REGISTRATION
        if not waiting:
            check_limit(t)
        entry = Entry.objects.create(
            tournament=t, player=player, seed=seed, rating=format_rows.rating_of(player, t.game),
            joined_round=t.current_round + 1, waitlisted_at=timezone.now() if waiting else None,
        )  # fmt: skip
        versions.touch(t.pk)
        return entry


def enter_player(*, tournament: Tournament, player: Player, by, seed: int | None = None):
    """An organiser (or the player himself) enters `player`: himself, his own external
    bots and built-in bots at once (the Entry); anyone else only if he accepts (the
    Invitation; tournaments.receivers makes the entry on acceptance)."""
    check_club_entry(tournament, player)  # before an invitation is sent: nothing changes
    if game_services.needs_invitation(player, by):
        return game_services.invite_to_entry(
            player=player, invited_by=by, target_kind="tournament", target_id=tournament.pk
        )
    return add_entry(tournament=tournament, player=player, seed=seed)


def club_entry_refusal(tournament: Tournament, player: Player | None) -> str | None:
    """Why `player` may not enter this members-only club event (shown instead of the Join
    button), or None."""
    hooks = setup.club_hooks()
    if player is None or hooks is None or is_guest(player):
        return None
    return hooks.entry_refusal(tournament, player)


def check_club_entry(tournament: Tournament, player: Player) -> None:
    """A members-only club event takes the club's members only (the hook says why not);
    guests are checked where they are typed in (add_guest: by the club's organisers)."""
    refusal = club_entry_refusal(tournament, player)
    if refusal:
        raise ValidationError(refusal, code="members_only")


def withdraw_entry(*, entry: Entry) -> list[Entry]:
    """Withdraw (before the start: delete) an entry. A place freed before the start goes
    to the first waiting entry; returns the entries that moved up (at most one)."""
    moved: list[Entry] = []
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=entry.tournament_id)
        waiting = Entry.objects.filter(pk=entry.pk, waitlisted_at__isnull=False).exists()
        if waiting and t.status in (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING):
            entry.delete()  # never had a place, never played: off the waitlist
        elif t.status == TournamentStatus.REGISTRATION:
            entry.delete()
            moved = move_up(t)
        elif t.status != TournamentStatus.RUNNING:
            raise ValidationError(gettext("The tournament is over."), code="over")
        else:
            if Entry.objects.filter(pk=entry.pk, withdrawn_after__isnull=True).update(
                withdrawn_after=t.current_round
            ):
                # Out of a paired round not started yet too: it is paired again without him.
                from tournaments.services import rounds  # rounds imports this module

                rounds.after_withdrawal(t, entry.pk)
        versions.touch(t.pk)
    return moved


MAX_GUEST_NAME = 60


LINK_TARGET = "tournament_guest"  # Invitation.target_kind of a guest-to-account link


def _require_organiser(user, tournament: Tournament) -> None:
    if not permissions.may_manage_tournament(user, tournament):
        raise PermissionDenied(gettext("Only the organiser can do that."))


def is_guest(player: Player) -> bool:
    return player.kind == PlayerKind.GUEST


def rated_table(rated: bool, players: list[Player]) -> bool:
    """A table counts for ratings only without guests (they never consented to a rating
    and have no account to hold one)."""
    return rated and not any(is_guest(p) for p in players)


def _shown_names(tournament: Tournament) -> set[str]:
    names = set()
    for name, display in tournament.entries.values_list("player__name", "player__display_name"):
        names.add(fold_name(name))
        if display:
            names.add(fold_name(display))
    return names


def clean_guest_name(tournament: Tournament, name) -> str:
    name = " ".join(str(name or "").split())  # inner runs of spaces too
    if not name:
        raise ValidationError({"guest": gettext("Give the guest's name.")})
    if len(name) > MAX_GUEST_NAME:
        raise ValidationError(
            {"guest": gettext("A name has at most %(n)s characters.") % {"n": MAX_GUEST_NAME}}
        )
    try:
        names.check_text(name, field_label=gettext("Guest's name"))
    except ValidationError as exc:
        raise ValidationError({"guest": exc}) from None
    if fold_name(name) in _shown_names(tournament):
        raise ValidationError({"guest": gettext("%(name)s is already entered.") % {"name": name}})
    if _looks_like_an_entrant(tournament, name):
        raise ValidationError({"guest": ValidationError(names.LOOKS_TAKEN, code="looks_taken")})
    return name


def _looks_like_an_entrant(tournament: Tournament, name: str) -> bool:
    """Does `name` look like (core.names skeletons) a name shown in this tournament's
    lists: an entrant's display name, player name or account name? Within one tournament
    only, in Python: guests are not unique site-wide, and a list holds at most a thousand."""
    folded, cased = names.skeletons(name)
    rows = tournament.entries.values_list(
        "player__name", "player__display_name", "player__name_skeleton",
        "player__name_skeleton_cased",
    )  # fmt: skip
    for player_name, display, known_folded, known_cased in rows:
        if folded == known_folded or cased == known_cased:
            return True
        for shown in (player_name, display):
            if shown and names.looks_alike(name, shown):
                return True
    return False


def add_guest(*, tournament: Tournament, name, by) -> Entry:
    """The organiser enters a person without an account, by name."""
    _require_organiser(by, tournament)
    if not tournament.over_the_board:
        raise ValidationError(
            {"guest": gettext("Guests play only over the board (the organiser types results in).")}
        )
    hooks = setup.club_hooks()
    refusal = hooks.guest_refusal(tournament, by) if hooks else None
    if refusal:
        raise PermissionDenied(refusal)
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        name = clean_guest_name(t, name)
        # The club's guest of that name, when the event is a club's: the same person again.
        player = hooks.club_guest(t, name) if hooks else None
        if player is None:
            handle = slugify(name)[:20].strip("-")
            player = Player.objects.create(
                name=f"guest-{handle + '-' if handle else ''}{secrets.token_hex(4)}",
                display_name=name, kind=PlayerKind.GUEST, game=t.game,
                is_active=False,  # never offered in pickers, lobbies or invitations
            )  # fmt: skip
            if hooks:
                hooks.keep_guest(t, player)
        return add_entry(tournament=t, player=player)


def club_guest_names(tournament: Tournament) -> list[str]:
    """The club's guests not entered yet, for a club's event (typed in, they are reused)."""
    hooks = setup.club_hooks()
    return hooks.guest_names(tournament) if hooks else []


# ---- self-registration ---------------------------------------------------------
def _own_player(user) -> Player:
    player = player_for_user(user) if getattr(user, "is_authenticated", False) else None
    if player is None:
        raise ValidationError(gettext("Your account has no player."), code="no_player")
    return player


def can_join(tournament: Tournament) -> bool:
    return tournament.status == TournamentStatus.REGISTRATION


def join(*, tournament: Tournament, user) -> Entry:
    """A player enters himself while entries are open (consent is his own click)."""
    player = _own_player(user)
    tournament = Tournament.objects.get(pk=tournament.pk)  # the status now, not the caller's copy
    if not can_join(tournament):
        raise ValidationError(gettext("Entries are closed."), code="entries_closed")
    check_club_entry(tournament, player)  # a members-only club event (add_entry asks again)
    return add_entry(tournament=tournament, player=player)


def leave(*, tournament: Tournament, user) -> None:
    player = _own_player(user)
    tournament = Tournament.objects.get(pk=tournament.pk)
    if not can_join(tournament):
        raise ValidationError(
            gettext("Entries are closed; ask the organiser to withdraw you."), code="entries_closed"
        )
    entry = tournament.entries.filter(player=player).first()
    if entry is None:
        raise ValidationError(gettext("You have not entered."), code="not_entered")
    withdraw_entry(entry=entry)


def entered(tournament: Tournament):
    """The tournament's entries that have a place: not on the waitlist (withdrawn ones
    included). Everything that pairs, counts, checks in or ranks reads these."""
    return tournament.entries.filter(waitlisted_at__isnull=True)


def active_count(tournament: Tournament) -> int:
    return entered(tournament).filter(withdrawn_after__isnull=True).count()


def is_full(tournament: Tournament) -> bool:
    return tournament.entry_limit is not None and active_count(tournament) >= tournament.entry_limit


# ---- the waitlist -------------------------------------------------------------
MOVED_UP_KEY = "tournaments:moved-up:{entry}"
MOVED_UP_DAYS = 30


def waitlist(tournament: Tournament) -> list[Entry]:
    """The waiting entries, first come first: position i + 1 is the i-th."""
    return list(
        tournament.entries.filter(waitlisted_at__isnull=False)
        .select_related("player")
        .order_by("waitlisted_at", "id")
    )


def waitlist_position(entry: Entry) -> int | None:
    """1 for the first waiting entry; None for an entry with a place."""
    if entry.waitlisted_at is None:
        return None
    ahead = Entry.objects.filter(tournament_id=entry.tournament_id, waitlisted_at__isnull=False)
    ahead = ahead.filter(
        Q(waitlisted_at__lt=entry.waitlisted_at)
        | Q(waitlisted_at=entry.waitlisted_at, pk__lt=entry.pk)
    )
    return ahead.count() + 1


def move_up(tournament: Tournament) -> list[Entry]:
    """Give the free places (under the entry limit) to the first waiting entries. Called
    under the tournament's lock, before the start."""
    free = None
    if tournament.entry_limit is not None:
        free = tournament.entry_limit - active_count(tournament)
        if free <= 0:
            return []
    first = tournament.entries.filter(waitlisted_at__isnull=False).order_by("waitlisted_at", "id")
    moved = list(first.select_related("player")[:free] if free is not None else first)
    if moved:
        Entry.objects.filter(pk__in=[e.pk for e in moved]).update(waitlisted_at=None)
        keys = [MOVED_UP_KEY.format(entry=e.pk) for e in moved]
        # Her page says so on her next visit: a notice, not a record (no field holds it; a
        # lost cache entry only loses the line, never says something untrue).
        transaction.on_commit(
            lambda: cache.set_many(dict.fromkeys(keys, True), timeout=MOVED_UP_DAYS * 86400)
        )
        for e in moved:
            e.waitlisted_at = None
    return moved


def take_moved_up_notice(entry: Entry) -> bool:
    """Whether the entry moved up from the waitlist since its player last looked (then
    forgotten: said once)."""
    key = MOVED_UP_KEY.format(entry=entry.pk)
    if entry.waitlisted_at is None and cache.get(key):
        cache.delete(key)
        return True
    return False


def check_limit(tournament: Tournament) -> None:
    """Called by add_entry under the tournament's lock."""
    if is_full(tournament):
        raise ValidationError(
            ngettext(
                "The tournament is full (%(n)s entrant).",
                "The tournament is full (%(n)s entrants).",
                tournament.entry_limit,
            )
            % {"n": tournament.entry_limit},
            code="full",
        )


# ---- check-in ------------------------------------------------------------------
def check_in(*, entry: Entry, by, checked_in: bool = True) -> Entry:
    """The entrant himself or the organiser checks in (or undoes it) before the start."""
    t = Tournament.objects.get(pk=entry.tournament_id)
    if not (
        permissions.may_manage_tournament(by, t)
        or (entry.player.user_id and entry.player.user_id == by.pk)
    ):
        raise PermissionDenied(gettext("Only the entrant or the organiser can check in."))
    _check_in_open(t)
    entry.refresh_from_db(fields=["waitlisted_at", "withdrawn_after"])
    if entry.waitlisted_at is not None:
        raise ValidationError(
            gettext("%(player)s is on the waitlist: check-in opens once a place is free.")
            % {"player": entry.player},
            code="waitlisted",
        )
    entry.checked_in_at = timezone.now() if checked_in else None
    entry.save(update_fields=["checked_in_at"])
    versions.touch(t.pk)
    return entry


def _check_in_open(t: Tournament) -> None:
    if not t.check_in:
        raise ValidationError(gettext("This tournament has no check-in."), code="no_check_in")
    if t.status != TournamentStatus.REGISTRATION:
        raise ValidationError(
            gettext("Check-in closes when the tournament starts."), code="check_in_closed"
        )


MAX_CHECK_IN_BATCH = 1000  # more than any entry limit (setup.MAX_ENTRY_LIMIT)


def check_in_many(*, tournament: Tournament, entry_ids, by, checked_in: bool = True) -> int:
    """The organiser checks several entrants in (or undoes it) at once; entrants without a
    place (waitlisted, withdrawn) and ids of other tournaments are left alone. Returns how
    many changed (an entrant checked in already keeps the time he checked in)."""
    t = Tournament.objects.get(pk=tournament.pk)
    _require_organiser(by, t)
    _check_in_open(t)
    ids = {int(i) for i in entry_ids if str(i).isdigit() and len(str(i)) <= 18}
    if not ids:
        raise ValidationError(gettext("Tick the entrants first."), code="none_ticked")
    if len(ids) > MAX_CHECK_IN_BATCH:
        raise ValidationError(gettext("Too many entrants at once."), code="too_many")
    rows = entered(t).filter(pk__in=ids, withdrawn_after__isnull=True)
    if checked_in:
        changed = rows.filter(checked_in_at__isnull=True).update(checked_in_at=timezone.now())
    else:
        changed = rows.filter(checked_in_at__isnull=False).update(checked_in_at=None)
    if changed:
        versions.touch(t.pk)
    return changed


def drop_unchecked(tournament: Tournament) -> int:
    """At the start of a tournament with check-in: those who did not check in don't play
    (kept as withdrawn before round 1, so the list still shows them). Waiting entries are
    left on the waitlist: they never had a place to lose."""
    if not tournament.check_in:
        return 0
    return (
        entered(tournament)
        .filter(checked_in_at__isnull=True, withdrawn_after__isnull=True)
        .update(withdrawn_after=0)
    )


# ---- guest -> account ----------------------------------------------------------
MAX_SUGGESTIONS = 10


def account_active(player: Player) -> bool:
    """The player and his account (if he has one) are active: not blocked by staff."""
    return player.is_active and (player.user_id is None or player.user.is_active)


def _link_targets(tournament: Tournament):
    """Accounts a guest of this tournament may be linked to: active people not entered."""
    return (
        Player.objects.filter(kind=PlayerKind.HUMAN, is_active=True, user__is_active=True)
        .exclude(entries__tournament=tournament)
        .select_related("user")
    )


def link_suggestions(
    tournament: Tournament, text: str, limit: int = MAX_SUGGESTIONS
) -> list[Player]:
    """Accounts matching what the organiser typed, names compared folded (fold_name: case
    and Unicode look-alikes ignored): names that begin with it first, then names or
    display names that contain it."""
    return _search(_link_targets(tournament), text, limit)


def _search(targets, text: str, limit: int) -> list[Player]:
    # NFKC for display names too (full-width letters); their case is left to icontains.
    text = unicodedata.normalize("NFKC", " ".join(str(text or "").split()))[:80]
    folded = fold_name(text)
    if not folded:
        return []
    found = list(targets.filter(name_key__startswith=folded).order_by("name_key")[:limit])
    if len(found) < limit:
        found += (
            targets.filter(Q(name_key__contains=folded) | Q(display_name__icontains=text))
            .exclude(pk__in=[p.pk for p in found])
            .order_by("name_key")[: limit - len(found)]
        )
    return found


# ---- the organiser's member picker ---------------------------------------------
def member_candidates(tournament: Tournament):
    """Who the organiser may pick to enter: the site's members (people with an active
    account) and, online only, built-in bots and bot programs (nobody plays a bot's seat
    at the club's table); never a guest, a player of another game or one entered already
    (waiting ones included)."""
    who = Q(kind=PlayerKind.HUMAN, user__is_active=True)
    if not tournament.over_the_board:
        who |= Q(kind=PlayerKind.ENGINE_BOT) | Q(kind=PlayerKind.EXTERNAL_BOT, user__is_active=True)
    return (
        Player.objects.filter(who, is_active=True)
        .filter(Q(game="") | Q(game=tournament.game))
        .exclude(entries__tournament=tournament)
        .select_related("user")
    )


def member_suggestions(
    tournament: Tournament, text: str, limit: int = MAX_SUGGESTIONS
) -> list[Player]:
    """Members (and, online, bots) matching what the organiser typed, as link_suggestions
    compares names."""
    return _search(member_candidates(tournament), text, limit)


def link_target(tournament: Tournament, name: str) -> Player:
    """The account a typed or picked name means (folded, as names are unique); a form
    error for an unknown or inactive one."""
    name = str(name or "").strip()
    if not name:
        raise ValidationError({"player": gettext("Pick a player.")})
    player = Player.objects.select_related("user").filter(name_key=fold_name(name)).first()
    if player is None or is_guest(player):
        raise ValidationError(
            {"player": gettext("No account is called %(name)s.") % {"name": name}}
        )
    if not account_active(player):
        raise ValidationError(
            {"player": gettext("%(player)s's account is not active.") % {"player": player}}
        )
    return player


def link_guest(*, entry: Entry, player: Player, by):
    """Give a guest's entry (results, seats) to an account's player. The organiser's own
    player is linked at once (the Entry); anyone else first accepts (the Invitation)."""
    t = entry.tournament
    _require_organiser(by, t)
    if not is_guest(entry.player):
        raise ValidationError({"player": gettext("Only a guest can be linked to an account.")})
    if player.kind != PlayerKind.HUMAN:
        raise ValidationError({"player": gettext("Link a guest to a person's account.")})
    if not account_active(player):
        raise ValidationError(
            {"player": gettext("%(player)s's account is not active.") % {"player": player}}
        )
    if t.entries.filter(player=player).exists():
        raise ValidationError(
            {"player": gettext("%(player)s has already entered.") % {"player": player}}
        )
    _check_link(entry.player, player)
    hooks = setup.club_hooks()
    refusal = hooks.link_refusal(entry, player, by) if hooks else None
    if refusal:
        raise ValidationError({"player": refusal}, code="members_only")
    if game_services.needs_invitation(player, by):
        return game_services.invite_to_entry(
            player=player, invited_by=by, target_kind=LINK_TARGET, target_id=entry.pk
        )
    return complete_link(entry_id=entry.pk, player_id=player.pk)


def _check_link(guest: Player, player: Player) -> None:
    """A club's guest may have entries in several of its events: all of them go to the
    account, so none of those may have the account entered already."""
    both = (
        Tournament.objects.filter(entries__player=guest)
        .filter(entries__player=player)
        .order_by("pk")
    )
    clash = both.first()
    if clash is not None:
        raise ValidationError(
            {"player": gettext("%(player)s has already entered %(tournament)s, as has the guest.")
             % {"player": player, "tournament": clash.name}},
            code="already_entered",
        )  # fmt: skip


def complete_link(*, entry_id: int, player_id: int) -> Entry:
    """Move the guest's entry and match seats to the player, then drop the guest. The
    matches stay unrated: they were played without a consented, rated seat."""
    with transaction.atomic():
        entry = Entry.objects.select_for_update().select_related("player").get(pk=entry_id)
        guest = entry.player
        if not is_guest(guest):
            return entry  # linked already (an invitation accepted twice)
        player = Player.objects.get(pk=player_id)
        if Entry.objects.filter(tournament_id=entry.tournament_id, player=player).exists():
            raise ValidationError(
                gettext("%(player)s has already entered.") % {"player": player},
                code="already_entered",
            )
        _check_link(guest, player)
        Seat.objects.filter(player=guest).update(player=player)
        # Every entry of the guest: one, or a club guest's in each of the club's events
        # she played (her club guest row goes with the guest player).
        tournament_ids = set(
            Entry.objects.filter(player=guest).values_list("tournament_id", flat=True)
        )
        Entry.objects.filter(player=guest).update(player=player)
        entry.player = player
        guest.delete()
        for tid in sorted(tournament_ids | {entry.tournament_id}):
            versions.touch(tid)
        return entry
