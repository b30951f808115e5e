"""Tournaments and leagues: entries, rounds, tables (online matches or over the board)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Match, Player, TimeoutPolicy, Variant
from games.models.matches import game_choices

FORMAT_CHOICES = [
    ("round_robin", _("Round robin")),
    ("swiss", _("Swiss")),
    ("single_elimination", _("Single elimination")),
    ("double_elimination", _("Double elimination")),
    ("league", _("League")),
]


class TournamentStatus(models.TextChoices):
    REGISTRATION = "registration", _("Open for entries")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


class Tournament(models.Model):
    name = models.CharField(max_length=120)
    game = models.CharField(max_length=32, choices=game_choices)
    format = models.CharField(max_length=24, choices=FORMAT_CHOICES)
    config = models.JSONField(
        default=dict, blank=True,
        help_text="table_size, rounds, double, points, bye_points, tiebreaks, third_place, advance, grand_final_reset",
    )  # fmt: skip
    variant = models.ForeignKey(Variant, null=True, blank=True, on_delete=models.SET_NULL)
    options = models.JSONField(default=dict, blank=True)
    per_move_s = models.PositiveIntegerField(null=True, blank=True)
    initial_s = models.PositiveIntegerField(null=True, blank=True)
    increment_s = models.PositiveIntegerField(default=0)
    timeout_policy = models.CharField(
        max_length=8, choices=TimeoutPolicy.choices, default=TimeoutPolicy.AUTO
    )
    rated = models.BooleanField(default=True)
    over_the_board = models.BooleanField(
        default=False, help_text="Tables are played at the club; the organiser types results in."
    )
    auto_advance = models.BooleanField(
        default=True, help_text="Pair and start the next round as soon as a round is complete."
    )
    round_days = models.PositiveIntegerField(
        null=True, blank=True, help_text="League: days each round may take (its deadline)."
    )
    seed = models.BigIntegerField(
        default=0, help_text="Makes pairings and match seeds reproducible."
    )
    status = models.CharField(
        max_length=14, choices=TournamentStatus.choices, default=TournamentStatus.REGISTRATION
    )
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="organised",
    )
    # Run the tournament as the organiser does (core.permissions), but only the organiser
    # (or a holder of tournaments.change_tournament) changes this list.
    co_organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="co_organised",
        verbose_name=_("co-organisers"),
    )  # fmt: skip
    current_round = models.PositiveIntegerField(default=0)
    # Entrants and life cycle (tournaments.services.entrants, tournaments.services.lifecycle).
    venue = models.CharField(max_length=120, blank=True)
    description = models.TextField(blank=True)
    starts_at = models.DateTimeField(
        null=True, blank=True, help_text="Planned start (shown; with auto_start, acted on)."
    )
    # tournaments.services.scheduling: the sweep starts the tournament at starts_at, as the Start
    # button would. A refusal (too few entrants, ...) is recorded once and not retried.
    auto_start = models.BooleanField(
        default=False, help_text="Start automatically at the planned time."
    )
    auto_start_failed_at = models.DateTimeField(
        null=True, blank=True, help_text="When the automatic start was refused (not retried)."
    )
    auto_start_failure = models.JSONField(
        null=True, blank=True, help_text='Why: {"code": "too_few", "entrants": 1, "needed": 2} '
        'or {"code": "refused", "reason": "..."}.',
    )  # fmt: skip
    entry_limit = models.PositiveIntegerField(
        null=True, blank=True, help_text="Most entrants; blank: no limit."
    )
    check_in = models.BooleanField(
        default=False, help_text="Only checked-in entrants are paired at the start."
    )
    paused = models.BooleanField(
        default=False, help_text="No new round is paired until the organiser resumes."
    )
    results_version = models.PositiveIntegerField(
        default=0, help_text="Bumped on every result: the standings' cache key and ETag."
    )
    # The organiser's time zone: every time of the event is shown in it (and says so).
    time_zone = models.CharField(
        max_length=64, blank=True, help_text="IANA name; blank: the site's."
    )
    # A cancel can be undone for a while (tournaments.services.lifecycle): what it was before.
    cancelled_at = models.DateTimeField(null=True, blank=True)
    status_before_cancel = models.CharField(max_length=14, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        permissions = [
            ("run_rated_events", _("Can run rated over-the-board events (results typed in)")),
        ]

    def __str__(self) -> str:
        return self.name

    def time_control(self) -> dict | None:
        if self.per_move_s is not None:
            return {"per_move_s": self.per_move_s}
        if self.initial_s is not None:
            return {"initial_s": self.initial_s, "increment_s": self.increment_s}
        return None


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveIntegerField(
        null=True, blank=True, help_text="1 = top seed; blank: by rating."
    )
    rating = models.FloatField(default=1500.0, help_text="Rating when the tournament started.")
    joined_round = models.PositiveIntegerField(default=1)
    withdrawn_after = models.PositiveIntegerField(null=True, blank=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    # Behind the entry limit: waiting since then (first come, first moved up); null: entered.
    waitlisted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "seed", "-rating", "id"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_unique_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_after is not None


class ForbiddenPairing(models.Model):
    """Two entrants who must not share a table (e.g. one club's bots, or family)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="forbidden")
    first = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")

    def __str__(self) -> str:
        return f"{self.first.player} / {self.second.player}"


# Round labels are stored in English by the formats ("Round 3", "Semifinals",
# "Winners round 2 / Losers final"); shown in the reader's language.
_NUMBERED_ROUNDS = {
    "Round": _("Round %(n)s"),
    "Matchday": _("Matchday %(n)s"),
    "Winners round": _("Winners round %(n)s"),
    "Losers round": _("Losers round %(n)s"),
    # One table of a bracket ("Semifinal 2"), the bracket picture's box labels.
    "Quarterfinal": _("Quarterfinal %(n)s"),
    "Semifinal": _("Semifinal %(n)s"),
}
_NAMED_ROUNDS = {
    "Final": _("Final"),
    "Semifinals": _("Semifinals"),
    "Quarterfinals": _("Quarterfinals"),
    "Grand final": _("Grand final"),
    "Grand final reset": _("Grand final reset"),
    "Winners final": _("Winners final"),
    "Losers final": _("Losers final"),
    "3rd place": _("3rd place"),
}


def round_label(label: str, number: int) -> str:
    parts = []
    for part in (label or f"Round {number}").split(" / "):
        word, _sep, n = part.rpartition(" ")
        if word in _NUMBERED_ROUNDS and n.isdigit():
            parts.append(str(_NUMBERED_ROUNDS[word]) % {"n": n})
        else:
            parts.append(str(_NAMED_ROUNDS.get(part, part)))
    return " / ".join(parts)


# A table's bracket (Table.bracket, from the formats) as its short mark beside the table
# number: "W" winners' (or the only) bracket, "L" losers', "GF"/"GF2" grand final and reset.
_BRACKET_MARKS = {
    "W": _("W"),
    "L": _("L"),
    "GF": _("GF"),
    "GF2": _("GF reset"),
    "3rd": _("3rd place"),
}


def bracket_mark(code: str) -> str:
    return str(_BRACKET_MARKS.get(code, code))


class RoundStatus(models.TextChoices):
    PAIRED = "paired", _("Paired")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    label = models.CharField(max_length=60, blank=True)
    status = models.CharField(
        max_length=10, choices=RoundStatus.choices, default=RoundStatus.PAIRED
    )
    deadline = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The room's round timer (projector view): running since timer_started_at, after
    # timer_elapsed_s already run before its last pause; timer_minutes: its length.
    timer_minutes = models.PositiveIntegerField(null=True, blank=True)
    timer_started_at = models.DateTimeField(null=True, blank=True)
    timer_elapsed_s = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")
        ]

    def __str__(self) -> str:
        return round_label(self.label, self.number)


class TableStatus(models.TextChoices):
    PENDING = "pending", _("Not started")
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField()
    bracket = models.CharField(max_length=8, blank=True)
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="table"
    )
    status = models.CharField(
        max_length=10, choices=TableStatus.choices, default=TableStatus.PENDING
    )
    result = models.JSONField(null=True, blank=True, help_text="ranks, scores, forfeited per seat")
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_unique_number")
        ]

    def __str__(self) -> str:  # shown in messages ("Round 2 table 3 recorded"): translated
        return f"{self.round} " + gettext("table %(n)s") % {"n": self.number}

    @property
    def bracket_label(self) -> str:
        """The bracket's mark in the reader's language ("" outside brackets)."""
        return bracket_mark(self.bracket) if self.bracket else ""


class TableSeat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="table_seats")

    class Meta:
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="tableseat_unique_index")
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.index}"


class Bye(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="byes")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "entry"], name="bye_unique_entry")]

    def __str__(self) -> str:
        return f"bye for {self.entry.player} in {self.round}"


# ---- results typed in, corrected and reported ----------------------------------
class ReportStatus(models.TextChoices):
    PENDING = "pending", _("Awaiting confirmation")
    CONFIRMED = "confirmed", _("Confirmed")
    REJECTED = "rejected", _("Rejected")
    SUPERSEDED = "superseded", _("Replaced")


class ResultReport(models.Model):
    """A seated player's account of his table's result; it counts once the organiser, or
    every other seated player, confirms it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="reports")
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    scores = models.JSONField()
    tiebreak = models.JSONField(null=True, blank=True)
    ranks = models.JSONField()
    status = models.CharField(
        max_length=10, choices=ReportStatus.choices, default=ReportStatus.PENDING
    )
    confirmed_entries = models.JSONField(
        default=list, blank=True, help_text="Entries (seats) that agree, the reporter's first."
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "-created_at", "-id"]

    def __str__(self) -> str:
        return f"report on {self.table}"


class ResultChangeKind(models.TextChoices):
    ENTERED = "entered", _("Entered")
    CORRECTED = "corrected", _("Corrected")
    FORFEIT = "forfeit", _("Forfeit")
    REPORTED = "reported", _("Reported and confirmed")
    CLEARED = "cleared", _("Result deleted")  # typed on the wrong table: back to playing


class ResultChange(models.Model):
    """One change of a table's typed-in result: who, when, before and after (never edited)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="result_changes")
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    changed_at = models.DateTimeField(auto_now_add=True)
    kind = models.CharField(max_length=10, choices=ResultChangeKind.choices)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField()
    report = models.ForeignKey(
        ResultReport, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["table", "changed_at", "id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.table}"


class PairingChangeKind(models.TextChoices):
    SWAP = "swap", _("Swapped")
    MOVE = "move", _("Moved")
    UNPAIR = "unpair", _("Unpaired")
    REPAIR = "repair", _("Paired again")


class PairingChange(models.Model):
    """One override of a paired round by its organiser: who, when, the round's tables and
    byes before and after (never edited), like ResultChange for results."""

    # The tournament and the round's number stay when an unpair deletes the round row.
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="pairing_changes"
    )
    round_number = models.PositiveIntegerField()
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="pairing_changes"
    )
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    changed_at = models.DateTimeField(auto_now_add=True)
    kind = models.CharField(max_length=8, choices=PairingChangeKind.choices)
    before = models.JSONField(help_text='{"tables": [[entry ids by seat], ...], "byes": [ids]}')
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "changed_at", "id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} round {self.round_number}"
