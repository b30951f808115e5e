"""Who may do what: the one home of the rules services, the API, pages and templates ask.

Every function takes (user, obj) and answers False for None or an anonymous visitor.
`is_staff` alone grants nothing here: it only opens the admin. What a staff account may
change is its permissions (a superuser holds them all), so a view-only staff account can
look at everything and change nothing (docs/architecture.md, Permissions).

The models are reached through the objects passed in: this module imports no app's models.
"""

from django.core.exceptions import ObjectDoesNotExist

CHANGE_TOURNAMENT = "tournaments.change_tournament"
CHANGE_MATCH = "games.change_match"
HUMAN = "human"  # games.models.PlayerKind.HUMAN: a bot program's account does not abort
# clubs.models: the members who run a club's events (Membership.role and .status values).
CLUB_ORGANISER_ROLES = ("owner", "organiser")
CLUB_ACTIVE = "active"


def _signed_in(user) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False))


def tournament_organiser_ids(tournament) -> set[int]:
    """The accounts that run `tournament` by their role in it: its organiser, its
    co-organisers (one query, or none when they were prefetched) and, for a club's event,
    the club's owner and organisers (through the reverse accessor `club_event`: no import
    of clubs; one query when there is no club event, three when there is, none when
    `club_event__club` and its memberships were prefetched)."""
    ids = {tournament.organiser_id} - {None}
    if tournament.pk is not None:
        ids |= {u.pk for u in tournament.co_organisers.all()}
        ids |= club_organiser_ids(tournament)
    return ids


def club_organiser_ids(tournament) -> set[int]:
    """The active owner and organisers of the club `tournament` belongs to (empty: none)."""
    try:
        event = tournament.club_event
    except ObjectDoesNotExist:
        return set()
    rows = event.club.memberships.filter(status=CLUB_ACTIVE, role__in=CLUB_ORGANISER_ROLES)
    return set(rows.values_list("user_id", flat=True))


def may_choose_co_organisers(user, tournament) -> bool:
    """Who runs the tournament alongside: its organiser's choice (or a permission holder's),
    not a co-organiser's."""
    if not _signed_in(user):
        return False
    return user.pk == tournament.organiser_id or user.has_perm(CHANGE_TOURNAMENT)


def may_manage_tournament(user, tournament, *, co_organiser: bool | None = None) -> bool:
    """Its entries, rounds, results, pause / resume / cancel and planned start.
    `co_organiser`: whether the user is one, when the caller read it already."""
    if not _signed_in(user):
        return False
    if user.pk == tournament.organiser_id or user.has_perm(CHANGE_TOURNAMENT):
        return True  # without a query
    if co_organiser is not None:
        return co_organiser
    return user.pk in tournament_organiser_ids(tournament)


def may_manage_table(user, table) -> bool:
    """A table's result (entered, corrected, forfeited, reports decided): as its tournament."""
    return may_manage_tournament(user, table.round.tournament)


def may_abort_match(user, match) -> bool:
    """Its creator, a human still seated in it (not resigned), or a holder of change_match."""
    if not _signed_in(user):
        return False
    if match.created_by_id == user.pk or user.has_perm(CHANGE_MATCH):
        return True
    seated = match.seats.filter(player__user_id=user.pk, player__kind=HUMAN, forfeited=False)
    return seated.exists()
