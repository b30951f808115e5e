"""Rating pools, current ratings, and every change (for history and charts)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Match, Player, Variant
from games.models.matches import game_choices


class System(models.TextChoices):
    ELO = "elo", _("Elo (multiplayer)")
    OPENSKILL = "openskill", _("OpenSkill (Plackett-Luce)")


class RatingPool(models.Model):
    """Ratings of one game, optionally limited to a variant; one default pool per game."""

    game = models.CharField(max_length=32, choices=game_choices, verbose_name=_("game"))
    name = models.CharField(max_length=80, verbose_name=_("name"))
    variant = models.ForeignKey(Variant, null=True, blank=True, on_delete=models.CASCADE,
                                help_text="Only matches of this variant count (blank: all).", verbose_name=_("variant"))  # fmt: skip
    is_default = models.BooleanField(default=False, verbose_name=_("default"))
    k = models.FloatField(default=20.0, verbose_name=_("K factor"))
    provisional_k = models.FloatField(default=40.0, verbose_name=_("provisional K factor"))
    provisional_games = models.PositiveIntegerField(default=10, verbose_name=_("provisional games"))
    start_rating = models.FloatField(default=1500.0, verbose_name=_("starting rating"))
    # Off, as on Lichess: beating the house's random bot is no achievement. A bot ladder
    # (house bots as fixed anchors) may opt in; changing it recomputes the pool.
    rate_builtin_bots = models.BooleanField(
        default=False, verbose_name=_("rate games with built-in bots"),
        help_text=_("Off: a match with any built-in bot seat (random, greedy, search) changes "
                    "no rating in this pool, neither the people's nor the bots'. Bot programs "
                    "connected through the API are always rated. Changing this recomputes the pool."),
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))

    class Meta:
        verbose_name = _("rating pool")
        verbose_name_plural = _("rating pools")
        ordering = ["game", "name"]
        constraints = [
            models.UniqueConstraint(fields=["game", "name"], name="pool_unique_name"),
            models.UniqueConstraint(
                fields=["game"], condition=models.Q(is_default=True), name="pool_one_default"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Rating(models.Model):
    pool = models.ForeignKey(
        RatingPool, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("rating pool")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("player")
    )
    system = models.CharField(
        max_length=10, choices=System.choices, verbose_name=_("rating system")
    )
    value = models.FloatField(
        help_text="Elo rating, or the OpenSkill ordinal (mu - 3 sigma).", verbose_name=_("value")
    )
    mu = models.FloatField(null=True, blank=True, verbose_name=_("mu"))
    sigma = models.FloatField(null=True, blank=True, verbose_name=_("sigma"))
    games = models.PositiveIntegerField(default=0, verbose_name=_("games played"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated"))

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["pool", "system", "-value"]
        constraints = [
            models.UniqueConstraint(fields=["pool", "player", "system"], name="rating_unique")
        ]
        indexes = [models.Index(fields=["pool", "system", "-value"])]

    def __str__(self) -> str:
        return f"{self.player} {self.system} {self.value:.1f}"


class AppliedMatch(models.Model):
    """A match counted in a pool. Unique: no match can be applied to a pool twice."""

    pool = models.ForeignKey(
        RatingPool, on_delete=models.CASCADE, related_name="applied", verbose_name=_("rating pool")
    )
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="+", verbose_name=_("match")
    )
    sequence = models.PositiveIntegerField(
        help_text="Order of application in the pool.", verbose_name=_("order")
    )
    applied_at = models.DateTimeField(auto_now_add=True, verbose_name=_("applied"))

    class Meta:
        verbose_name = _("rated match")
        verbose_name_plural = _("rated matches")
        ordering = ["pool", "sequence"]
        constraints = [models.UniqueConstraint(fields=["pool", "match"], name="applied_once")]

    def __str__(self) -> str:
        return f"{self.match} in {self.pool}"


class RatingChange(models.Model):
    pool = models.ForeignKey(
        RatingPool, on_delete=models.CASCADE, related_name="changes", verbose_name=_("rating pool")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("player")
    )
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("match")
    )
    system = models.CharField(
        max_length=10, choices=System.choices, verbose_name=_("rating system")
    )
    before = models.FloatField(verbose_name=_("before"))
    after = models.FloatField(verbose_name=_("after"))
    rank = models.PositiveSmallIntegerField(verbose_name=_("place"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["pool", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["pool", "match", "player", "system"], name="change_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.before:.1f}->{self.after:.1f}"
