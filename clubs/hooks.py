"""What tournaments asks about a club's events (settings.TOURNAMENT_CLUB_HOOKS names this
module; tournaments.services.setup.club_hooks loads it): tournaments never imports clubs.

Each function answers for one tournament (or a new one's club) and says nothing about a
tournament that is no club's event. The work is in clubs.services.events.
"""

from clubs.services.events import (
    attach,
    club_for_event,
    club_guest,
    entry_refusal,
    guest_names,
    guest_refusal,
    keep_guest,
    link_refusal,
    may_run_rated,
    organised_clubs,
)

__all__ = [
    "attach",  # (tournament, club, members_only=): the new tournament is the club's event
    "club_for_event",  # (user, slug) -> Club: 400 unknown, 403 not its owner or organiser
    "club_guest",  # (tournament, name) -> the club's guest of that name, or None
    "entry_refusal",  # (tournament, player) -> why not (members only), or None
    "guest_names",  # (tournament) -> the club's guests not entered yet
    "guest_refusal",  # (tournament, by) -> why `by` may not type in a guest, or None
    "keep_guest",  # (tournament, player): a new guest of a club's event is the club's
    "link_refusal",  # (entry, player, by) -> why a club guest may not be linked, or None
    "may_run_rated",  # (user, club) -> rated over the board (a rated club's organiser)
    "organised_clubs",  # (user) -> the clubs whose events the user may create
]
