from games.models.invitations import Invitation, InvitationKind, InvitationStatus
from games.models.matches import (
    DecisionSource,
    Match,
    MatchLog,
    MatchStatus,
    OpenSeat,
    Seat,
    TimeControl,
    TimeoutPolicy,
    Variant,
)
from games.models.players import Player, PlayerKind, fold_name, looks_taken, name_taken

__all__ = [
    "DecisionSource",
    "Invitation",
    "InvitationKind",
    "InvitationStatus",
    "Match",
    "MatchLog",
    "MatchStatus",
    "OpenSeat",
    "Player",
    "PlayerKind",
    "Seat",
    "TimeControl",
    "TimeoutPolicy",
    "Variant",
    "fold_name",
    "looks_taken",
    "name_taken",
]
