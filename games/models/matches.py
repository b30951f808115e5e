"""Matches: variants, time controls, seats and the log of applied actions.

A match is stored as (game, options, seed, seats, action log); `state` is a
cache of the engine state after the last logged action.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.engines.base import InvalidOptions
from games.engines.registry import ENGINES
from games.time_limits import MAX_DECISION_S, MAX_INCREMENT_S


def game_choices() -> list[tuple[str, str]]:
    # Titles are in the django catalog (games/i18n.py): Czech names on Czech pages.
    return [(slug, _(engine.title)) for slug, engine in sorted(ENGINES.items())]


class Variant(models.Model):
    """A named set of engine options an admin configures (e.g. random action tiles)."""

    game = models.CharField(max_length=32, choices=game_choices)
    name = models.CharField(max_length=80)
    options = models.JSONField(default=dict, blank=True)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
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
        return self.name

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


class Match(models.Model):
    game = models.CharField(max_length=32, choices=game_choices, db_index=True)
    variant = models.ForeignKey(Variant, null=True, blank=True, on_delete=models.SET_NULL)
    options = models.JSONField(default=dict, blank=True, help_text="Resolved engine options.")
    seed = models.BigIntegerField()
    status = models.CharField(
        max_length=12, choices=MatchStatus.choices, default=MatchStatus.PENDING, db_index=True
    )
    # Time control, copied from a preset or given directly: per decision or per seat clock.
    per_move_s = models.PositiveIntegerField(null=True, blank=True)
    initial_s = models.PositiveIntegerField(null=True, blank=True)
    increment_s = models.PositiveIntegerField(default=0)
    timeout_policy = models.CharField(
        max_length=8, choices=TimeoutPolicy.choices, default=TimeoutPolicy.AUTO
    )
    rated = models.BooleanField(default=False)
    ply = models.PositiveIntegerField(default=0, help_text="Number of actions applied.")
    to_act = models.PositiveSmallIntegerField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    state = models.JSONField(null=True, blank=True, editable=False)
    outcome = models.JSONField(null=True, blank=True)
    abort_reason = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "matches"

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
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    player = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="seats")
    clock_ms = models.BigIntegerField(null=True, blank=True, help_text="Time left on a clock.")
    forfeited = models.BooleanField(default=False)
    timeouts = models.PositiveIntegerField(default=0)
    score = models.FloatField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["match", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index")]

    def __str__(self) -> str:
        return f"{self.match} seat {self.index}: {self.player}"


class MatchAction(models.Model):
    """One applied decision. (match, ply) is unique: a ply can be applied once only."""

    class Source(models.TextChoices):
        PLAYER = "player", _("Player")
        BOT = "bot", _("Built-in bot")
        FORCED = "forced", _("Only legal choice")
        TIMEOUT = "timeout", _("Time-out")

    # No index of its own: the unique (match, ply) index serves every lookup by
    # match, and one index fewer is cheaper for the ~300 rows a bot match writes.
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="actions", db_index=False
    )
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    label = models.CharField(max_length=200, blank=True)
    source = models.CharField(max_length=8, choices=Source.choices, default=Source.PLAYER)
    time_used_ms = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "ply"]
        constraints = [models.UniqueConstraint(fields=["match", "ply"], name="action_unique_ply")]

    def __str__(self) -> str:
        return f"{self.match} ply {self.ply}"
