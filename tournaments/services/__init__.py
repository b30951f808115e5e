"""Write-side operations of tournaments, one module per part of an event's life:

- ``setup``: settings checked against the format and the game; creation.
- ``entrants``: entries, guests, joining and leaving, check-in, withdrawal, guest links.
- ``rounds``: starting the event, pairing, re-pairing and starting rounds, advancing.
- ``results``: a table's result from its match, typed in, forfeited, corrected, reported.
- ``lifecycle``: pause, resume, cancel; the cap on rounds.
- ``scheduling``: the planned start and the sweep that starts due events.
- ``versions``: the results version live pages and caches are keyed on.

Views, the API, tasks and commands call these; the pairing itself is the pure
``tournaments.formats``. The names below are the ones callers outside use most; the
rows-to-formats reads are ``tournaments.format_rows``.
"""

from tournaments.services.entrants import add_entry, enter_player, withdraw_entry
from tournaments.services.results import (
    on_match_finished,
    record_forfeit,
    record_over_the_board_result,
    record_result,
)
from tournaments.services.rounds import (
    advance_tournament,
    pair_next_round,
    repair_round,
    start_round,
    start_tournament,
)
from tournaments.services.setup import (
    MAX_ROUND_DAYS,
    MAX_ROUNDS,
    RATED_PERMISSION,
    create_tournament,
)
from tournaments.services.versions import touch

__all__ = [
    "MAX_ROUNDS",
    "MAX_ROUND_DAYS",
    "RATED_PERMISSION",
    "add_entry",
    "advance_tournament",
    "create_tournament",
    "enter_player",
    "on_match_finished",
    "pair_next_round",
    "record_forfeit",
    "record_over_the_board_result",
    "record_result",
    "repair_round",
    "start_round",
    "start_tournament",
    "touch",
    "withdraw_entry",
]
