from django.conf import settings
from django.db import models
from django.db.models import Q


class PlayerKind(models.TextChoices):
    HUMAN = "human", "Human"
    ENGINE_BOT = "engine_bot", "Built-in bot"
    EXTERNAL_BOT = "external_bot", "External bot program"


class Player(models.Model):
    """Someone who takes a seat: a person, a built-in engine bot, or a bot program.

    Humans and external bots act through a user account (sessions or an API
    token); built-in bots are run by the platform's workers and have none.
    """

    name = models.SlugField(
        max_length=40, unique=True, help_text="Handle shown in tables and URLs."
    )
    display_name = models.CharField(max_length=80, blank=True)
    kind = models.CharField(max_length=16, choices=PlayerKind.choices, default=PlayerKind.HUMAN)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="player",
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="owned_bots",
        help_text="The author responsible for a bot.",
    )
    bot_name = models.CharField(
        max_length=40, blank=True, help_text="Built-in bot: random, greedy or ismcts."
    )
    bot_params = models.JSONField(
        default=dict, blank=True, help_text='Built-in bot parameters, e.g. {"iterations": 400}.'
    )
    game = models.CharField(
        max_length=32, blank=True, help_text="Restrict the player to one game (blank: any game)."
    )
    description = models.TextField(blank=True)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                name="player_kind_fields",
                condition=(
                    Q(kind=PlayerKind.HUMAN, user__isnull=False, bot_name="")
                    | Q(kind=PlayerKind.ENGINE_BOT, user__isnull=True) & ~Q(bot_name="")
                    | Q(kind=PlayerKind.EXTERNAL_BOT, user__isnull=False, bot_name="")
                ),
            )
        ]

    def __str__(self) -> str:
        return self.display_name or self.name

    @property
    def is_bot(self) -> bool:
        return self.kind != PlayerKind.HUMAN
