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

    game = models.CharField(max_length=32, choices=game_choices)
    name = models.CharField(max_length=80)
    variant = models.ForeignKey(Variant, null=True, blank=True, on_delete=models.CASCADE,
                                help_text="Only matches of this variant count (blank: all).")  # fmt: skip
    is_default = models.BooleanField(default=False)
    k = models.FloatField(default=20.0)
    provisional_k = models.FloatField(default=40.0)
    provisional_games = models.PositiveIntegerField(default=10)
    start_rating = models.FloatField(default=1500.0)
    created_at = models.DateTimeField(auto_now_add=True)

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
    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    system = models.CharField(max_length=10, choices=System.choices)
    value = models.FloatField(help_text="Elo rating, or the OpenSkill ordinal (mu - 3 sigma).")
    mu = models.FloatField(null=True, blank=True)
    sigma = models.FloatField(null=True, blank=True)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

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

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="applied")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    sequence = models.PositiveIntegerField(help_text="Order of application in the pool.")
    applied_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("rated match")
        verbose_name_plural = _("rated matches")
        ordering = ["pool", "sequence"]
        constraints = [models.UniqueConstraint(fields=["pool", "match"], name="applied_once")]

    def __str__(self) -> str:
        return f"{self.match} in {self.pool}"


class RatingChange(models.Model):
    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    system = models.CharField(max_length=10, choices=System.choices)
    before = models.FloatField()
    after = models.FloatField()
    rank = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

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
