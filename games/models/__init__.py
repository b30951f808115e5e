from games.models.matches import (
    Match,
    MatchAction,
    MatchStatus,
    Seat,
    TimeControl,
    TimeoutPolicy,
    Variant,
)
from games.models.players import Player, PlayerKind

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
]
