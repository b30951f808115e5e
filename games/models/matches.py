"""Matches: variants, time controls, seats and the log of applied actions.

A match is stored as (game, options, seed, seats, action log); `state` is a
cache of the engine state after the last logged action.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engines.base import InvalidOptions
from games.engines.registry import ENGINES
from games.time_limits import MAX_DECISION_S, MAX_INCREMENT_S


def game_choices() -> list[tuple[str, str]]:
    # Titles are in the django catalog (games/i18n.py): Czech names on Czech pages.
    return [(slug, _(engine.title)) for slug, engine in sorted(ENGINES.items())]


class Variant(models.Model):
    """A named set of engine options an admin configures (e.g. random action tiles)."""

    game = models.CharField(max_length=32, choices=game_choices, verbose_name=_("game"))
    name = models.CharField(max_length=80, verbose_name=_("name"))
    options = models.JSONField(default=dict, blank=True, verbose_name=_("options"))
    description = models.TextField(blank=True, verbose_name=_("description"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))

    class Meta:
        verbose_name = _("variant")
        verbose_name_plural = _("variants")
        ordering = ["game", "name"]
        constraints = [models.UniqueConstraint(fields=["game", "name"], name="variant_unique_name")]

    def __str__(self) -> str:
        return f"{self.get_game_display()}: {self.name}"

    def clean(self) -> None:
        engine = ENGINES.get(self.game)
        if engine is None:
            raise ValidationError({"game": "Unknown game."})
        try:
            self.options = engine.validate_options(self.options)
        except InvalidOptions as exc:
            raise ValidationError({"options": str(exc)}) from None


# The platform's bounds (games/time_limits.py: a week, a day), said in words.
PER_MOVE_MAX = _("At most %(limit_value)s seconds (7 days) per decision.")
INITIAL_MAX = _("At most %(limit_value)s seconds (7 days) on the clock.")
INCREMENT_MAX = _("At most %(limit_value)s seconds (1 day) added per decision.")
AT_LEAST_ONE_S = MinValueValidator(1, message=_("A time limit must be at least one second."))
ONE_KIND = _("Set either a limit per decision or an initial clock (with its increment), not both.")


class TimeControl(models.Model):
    """A preset: either a limit per decision, or a clock per seat (initial + increment).
    Bounded like every time control the services accept (games/time_limits.py)."""

    name = models.CharField(_("name"), max_length=80, unique=True)
    per_move_s = models.PositiveIntegerField(
        _("seconds per decision"), null=True, blank=True,
        validators=[AT_LEAST_ONE_S, MaxValueValidator(MAX_DECISION_S, PER_MOVE_MAX)],
        help_text=_("A limit for every decision; leave empty for a clock."),
    )  # fmt: skip
    initial_s = models.PositiveIntegerField(
        _("initial clock (s)"), null=True, blank=True,
        validators=[AT_LEAST_ONE_S, MaxValueValidator(MAX_DECISION_S, INITIAL_MAX)],
        help_text=_("Each seat's clock at the start; leave empty for a limit per decision."),
    )  # fmt: skip
    increment_s = models.PositiveIntegerField(
        _("increment (s)"), default=0,
        validators=[MaxValueValidator(MAX_INCREMENT_S, INCREMENT_MAX)],
        help_text=_("Added to a clock after each decision (clocks only)."),
    )  # fmt: skip

    class Meta:
        verbose_name = _("time control")
        verbose_name_plural = _("time controls")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                name="time_control_one_kind",
                condition=Q(per_move_s__isnull=False, initial_s__isnull=True)
                | Q(per_move_s__isnull=True, initial_s__isnull=False),
                violation_error_message=ONE_KIND,
            )
        ]

    def __str__(self) -> str:
        # The presets a fresh install has are named by msgids (games/time_limits.py).
        return gettext(self.name) if self.name else ""

    def as_dict(self) -> dict:
        if self.per_move_s is not None:
            return {"per_move_s": self.per_move_s}
        return {"initial_s": self.initial_s, "increment_s": self.increment_s}

    def clean(self) -> None:
        # Named fields, so the form marks them (and the constraint's own check is skipped).
        if self.per_move_s is None and self.initial_s is None:
            raise ValidationError({"per_move_s": ONE_KIND, "initial_s": ONE_KIND})
        if self.per_move_s is not None and self.initial_s is not None:
            raise ValidationError({"per_move_s": ONE_KIND, "initial_s": ONE_KIND})
        if self.per_move_s is not None and self.increment_s:
            raise ValidationError(
                {"increment_s": _("An increment goes with a clock, not with a limit per decision.")}
            )


class MatchStatus(models.TextChoices):
    PENDING = "pending", _("Not started")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    ABORTED = "aborted", _("Aborted")


class TimeoutPolicy(models.TextChoices):
    AUTO = "auto", _("A simple bot moves for the seat")
    FORFEIT = "forfeit", _("The seat forfeits: a bot plays on, the seat ranks last")


class FinishReason(models.TextChoices):
    """Why a finished match ended (empty: not finished, or finished before this was kept)."""

    PLAYED_OUT = "played_out", _("Played to the end")
    LOST_ON_TIME = "time", _("A player lost on time")
    FORFEIT = "forfeit", _("At most one player was left")


class ForfeitReason(models.TextChoices):
    """Why a seat was forfeited by the platform (empty: it was not, or its player resigned)."""

    LOST_ON_TIME = "time", _("Lost on time")
    TIMEOUTS = "timeouts", _("Too many time-outs in a row")
    TIMEOUT_POLICY = "timeout", _("Timed out (the match forfeits a seat that times out)")


class Match(models.Model):
    # No index of its own: three values, and the queries by game are the rating pools',
    # which match_rated_finished serves.
    game = models.CharField(max_length=32, choices=game_choices, verbose_name=_("game"))
    variant = models.ForeignKey(
        Variant, null=True, blank=True, on_delete=models.SET_NULL, verbose_name=_("variant")
    )
    options = models.JSONField(
        default=dict, blank=True, help_text="Resolved engine options.", verbose_name=_("options")
    )
    seed = models.BigIntegerField(verbose_name=_("seed"))
    status = models.CharField(
        max_length=12,
        choices=MatchStatus.choices,
        default=MatchStatus.PENDING,
        verbose_name=_("status"),
    )
    # Time control, copied from a preset or given directly: per decision or per seat clock.
    per_move_s = models.PositiveIntegerField(
        null=True, blank=True, verbose_name=_("seconds per decision")
    )
    initial_s = models.PositiveIntegerField(
        null=True, blank=True, verbose_name=_("initial clock (s)")
    )
    increment_s = models.PositiveIntegerField(default=0, verbose_name=_("increment (s)"))
    timeout_policy = models.CharField(
        max_length=8,
        choices=TimeoutPolicy.choices,
        default=TimeoutPolicy.AUTO,
        verbose_name=_("time-out policy"),
    )
    rated = models.BooleanField(default=False, verbose_name=_("rated"))
    ply = models.PositiveIntegerField(
        default=0, help_text="Number of actions applied.", verbose_name=_("ply")
    )
    to_act = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("seat to act"))
    deadline = models.DateTimeField(
        null=True, blank=True, db_index=True, verbose_name=_("deadline")
    )
    turn_started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("turn started"))
    state = models.JSONField(null=True, blank=True, editable=False, verbose_name=_("state"))
    outcome = models.JSONField(null=True, blank=True, verbose_name=_("outcome"))
    abort_reason = models.CharField(max_length=200, blank=True, verbose_name=_("abort reason"))
    finish_reason = models.CharField(
        max_length=12, blank=True, default="", choices=FinishReason.choices,
        verbose_name=_("finish reason"),
    )  # fmt: skip
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("started"))
    finished_at = models.DateTimeField(
        null=True, blank=True, db_index=True, verbose_name=_("finished")
    )
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated"))

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at"]
        indexes = [
            # A plain index: db_index on a CharField also makes a second one for LIKE
            # patterns on PostgreSQL, which nothing asks; every match row a write moves
            # to another status updated both (about 4 % of a bot group's write).
            models.Index(fields=["status"], name="match_status"),
            # Rated finished matches by game: what a rating pool counts; the operations
            # page anti-joins it with the pool's applied matches to find pending ones.
            models.Index(
                fields=["game", "variant", "finished_at", "id"],
                condition=models.Q(status="finished", rated=True),
                name="match_rated_finished",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_game_display()}"

    @property
    def is_live(self) -> bool:
        return self.status == MatchStatus.RUNNING

    def time_control(self) -> dict | None:
        if self.per_move_s is not None:
            return {"per_move_s": self.per_move_s}
        if self.initial_s is not None:
            return {"initial_s": self.initial_s, "increment_s": self.increment_s}
        return None


class Seat(models.Model):
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="seats", verbose_name=_("match")
    )
    index = models.PositiveSmallIntegerField(verbose_name=_("seat number"))
    player = models.ForeignKey(
        "games.Player", on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    clock_ms = models.BigIntegerField(
        null=True, blank=True, help_text="Time left on a clock.", verbose_name=_("clock (ms)")
    )
    forfeited = models.BooleanField(default=False, verbose_name=_("forfeited"))
    timeouts = models.PositiveIntegerField(default=0, verbose_name=_("time-outs"))
    # Reset by a decision of the seat's own (games/time_limits.py: TIMEOUTS_TO_FORFEIT).
    timeouts_in_row = models.PositiveSmallIntegerField(
        default=0, verbose_name=_("time-outs in a row")
    )
    forfeit_reason = models.CharField(
        max_length=12, blank=True, default="", choices=ForfeitReason.choices,
        verbose_name=_("forfeit reason"),
    )  # fmt: skip
    score = models.FloatField(null=True, blank=True, verbose_name=_("score"))
    rank = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("place"))

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index")]

    def __str__(self) -> str:
        return f"{self.match} seat {self.index}: {self.player}"


class OpenSeat(models.Model):
    """A seat of a waiting match that anyone may take from the lobby. The taker's Seat
    row replaces it; the match starts once none (and no pending invitation) is left."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="open_seats", verbose_name=_("match")
    )
    index = models.PositiveSmallIntegerField(verbose_name=_("seat number"))

    class Meta:
        verbose_name = _("open seat")
        verbose_name_plural = _("open seats")
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="open_seat_unique_index")
        ]

    def __str__(self) -> str:
        return f"{self.match} open seat {self.index}"


class JSONTextField(models.JSONField):
    """JSON kept as text: PostgreSQL's `json`, not `jsonb`. Storing a bot game's log (tens
    of kilobytes) as jsonb made the server parse it into its binary form, which took it
    longer than the engine took to play the game; nothing in the database looks inside
    a log (games.match_log reads it)."""

    def db_type(self, connection):
        return "json" if connection.vendor == "postgresql" else super().db_type(connection)

    def get_db_prep_value(self, value, connection, prepared=False):
        value = super().get_db_prep_value(value, connection, prepared)
        if connection.vendor == "postgresql":
            from psycopg.types.json import Json, Jsonb

            if isinstance(value, Jsonb):  # sent as json, the column's type
                return Json(value.obj, value.dumps)
        return value

    def from_db_value(self, value, expression, connection):
        if value is not None and not isinstance(value, str | bytes):
            return value  # psycopg decodes `json` itself (Django has it load only jsonb as text)
        return super().from_db_value(value, expression, connection)


class MatchLog(models.Model):
    """A match's applied decisions, one row per match: `entries[ply]` is the decision of
    that ply, and `plies` their number. An entry is written in full,
    `[seat, action, label, source, time_used_ms, at_epoch_ms]`, or, at a table of
    built-in bots, compactly as the action's index among the legal actions (games.match_log):
    read back by replaying the game, as a chess site keeps a game's moves.

    A bot batch appends all its decisions in one statement, guarded by `plies`
    (services.match_writes.append_actions), so a ply is logged once only; a label is
    left empty where nobody reads it while the match runs (bot and forced decisions)
    and is described again when the log is shown. Read it through
    `selectors.match_decisions`, never entry by entry."""

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="log_record"
    )
    entries = JSONTextField(default=list, verbose_name=_("decisions"))
    plies = models.PositiveIntegerField(default=0, verbose_name=_("number of decisions"))

    class Meta:
        verbose_name = _("match record")
        verbose_name_plural = _("match records")

    def __str__(self) -> str:
        return f"{self.match_id}: {self.plies} decisions"


class DecisionSource(models.TextChoices):
    """Who took a logged decision."""

    PLAYER = "player", _("Player")
    BOT = "bot", _("Built-in bot")
    FORCED = "forced", _("Only legal choice")
    TIMEOUT = "timeout", _("Time-out")
