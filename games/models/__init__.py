from games.models.matches import (
    Match,
    MatchAction,
    MatchStatus,
    Seat,
    TimeControl,
    TimeoutPolicy,
    Variant,
)
from games.models.players import Player, PlayerKind, fold_name, name_taken

__all__ = [
    "Match",
    "MatchAction",
    "MatchStatus",
    "Player",
    "PlayerKind",
    "Seat",
    "TimeControl",
    "TimeoutPolicy",
    "Variant",
    "fold_name",
    "name_taken",
]
