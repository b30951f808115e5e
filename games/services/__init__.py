"""Write-side operations of the games app. Views, the API, tasks and commands call these."""

from games.services.matches import (
    IllegalMove,
    MatchError,
    MatchNotRunning,
    NotYourSeat,
    StalePly,
    TimeUp,
    abort_match,
    create_match,
    overdue_matches,
    play_bot_decisions,
    record_offline_match,
    start_match,
    submit_action,
    time_out,
)
from games.services.players import (
    builtin_bot_player,
    create_engine_bot,
    create_external_bot,
    register_human,
    rotate_token,
)

__all__ = [
    "IllegalMove",
    "MatchError",
    "MatchNotRunning",
    "NotYourSeat",
    "StalePly",
    "TimeUp",
    "abort_match",
    "overdue_matches",
    "builtin_bot_player",
    "create_engine_bot",
    "create_external_bot",
    "create_match",
    "play_bot_decisions",
    "record_offline_match",
    "register_human",
    "rotate_token",
    "start_match",
    "submit_action",
    "time_out",
]
