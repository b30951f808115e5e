from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core import names
from core.timezones import validate_zone
from games.bot_labels import bot_description, bot_label


def fold_name(name: str) -> str:
    """The form two names are compared in: NFKC, case-folded (so "Alice", "ALICE" and
    the full-width "Ａｌｉｃｅ" are one name)."""
    return names.fold(name)


class PlayerKind(models.TextChoices):
    HUMAN = "human", _("Human")
    ENGINE_BOT = "engine_bot", _("Built-in bot")
    EXTERNAL_BOT = "external_bot", _("External bot program")
    # A tournament entrant typed in by name: no account, never rated, plays over the board.
    GUEST = "guest", _("Guest")


class Player(models.Model):
    """Someone who takes a seat: a person, a built-in engine bot, or a bot program.

    Humans and external bots act through a user account (sessions or an API
    token); built-in bots are run by the platform's workers and have none.
    """

    name = models.SlugField(
        max_length=40,
        unique=True,
        help_text="Handle shown in tables and URLs.",
        verbose_name=_("name"),
    )
    # fold_name(name), set in save(): the unique key across humans and bots.
    name_key = models.CharField(
        max_length=80, unique=True, editable=False, verbose_name=_("name key")
    )
    # core.names.skeletons of the name people know the player by (the account's user name,
    # else the player's name), set in save() and when the account's name changes
    # (games.receivers): a new name whose skeleton matches one is refused (looks_taken).
    # Text, not a bounded char field: a skeleton can be longer than its name ("m" -> "rn").
    name_skeleton = models.TextField(
        blank=True, default="", db_index=True, editable=False, verbose_name=_("name skeleton")
    )
    name_skeleton_cased = models.TextField(
        blank=True, default="", db_index=True, editable=False,
        verbose_name=_("name skeleton as written"),
    )  # fmt: skip
    display_name = models.CharField(max_length=80, blank=True, verbose_name=_("display name"))
    kind = models.CharField(
        max_length=16, choices=PlayerKind.choices, default=PlayerKind.HUMAN, verbose_name=_("kind")
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="player",
        verbose_name=_("user"),
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="owned_bots",
        help_text="The author responsible for a bot.",
        verbose_name=_("owner"),
    )
    bot_name = models.CharField(
        max_length=40,
        blank=True,
        help_text="Built-in bot: random, greedy or ismcts.",
        verbose_name=_("bot"),
    )
    bot_params = models.JSONField(
        default=dict,
        blank=True,
        help_text='Built-in bot parameters, e.g. {"iterations": 400}.',
        verbose_name=_("bot parameters"),
    )
    game = models.CharField(
        max_length=32,
        blank=True,
        help_text="Restrict the player to one game (blank: any game).",
        verbose_name=_("game"),
    )
    description = models.TextField(blank=True, verbose_name=_("description"))
    is_active = models.BooleanField(default=True, verbose_name=_("active"))
    # A person's preference (core.timezones); blank: their browser's zone, else the site's.
    # Checked against the tz database by the service, not by choices here: the list
    # changes with tzdata releases, and a migration per release would be noise.
    time_zone = models.CharField(
        max_length=64, blank=True, default="", validators=[validate_zone],
        verbose_name=_("time zone"),
        help_text=_("Times on pages are shown in it; blank: the browser's zone."),
    )  # fmt: skip
    # Off by default: a page that beeps unasked is rude (the settings page turns it on).
    turn_sound = models.BooleanField(
        default=False, verbose_name=_("sound on my turn"),
        help_text=_("A short sound when it becomes your move or you are invited."),
    )  # fmt: skip
    # The language mails and notices reach her in (blank: the site's); the site sets it
    # from the page language at sign-up and when she saves her settings.
    language = models.CharField(
        max_length=8, blank=True, default="", choices=settings.LANGUAGES,
        verbose_name=_("language"),
    )  # fmt: skip
    # When the account's current e-mail address was proven hers (a link followed); None
    # until then and again after a change: notices go only to a verified address.
    email_verified_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("e-mail verified")
    )
    # The secret part of her calendar feed's address (blank: no feed yet); rotating it
    # makes the old address answer 404.
    calendar_token = models.CharField(
        max_length=43, blank=True, default="", db_index=True, editable=False,
        verbose_name=_("calendar token"),
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                name="player_kind_fields",
                condition=(
                    Q(kind=PlayerKind.HUMAN, user__isnull=False, bot_name="")
                    | Q(kind=PlayerKind.ENGINE_BOT, user__isnull=True) & ~Q(bot_name="")
                    | Q(kind=PlayerKind.EXTERNAL_BOT, user__isnull=False, bot_name="")
                    | Q(kind=PlayerKind.GUEST, user__isnull=True, bot_name="")
                ),
            )
        ]

    def __str__(self) -> str:
        # Pages name a lobby-made bot by its kind ("Search bot, 1000 iterations").
        from games.bot_labels import player_label

        return player_label(self)

    def save(self, *args, **kwargs) -> None:
        self.name_key = fold_name(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is None or "name" in update_fields:
            self.name_skeleton, self.name_skeleton_cased = names.skeletons(self.known_as)
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key", "name_skeleton",
                                       "name_skeleton_cased"}  # fmt: skip
        super().save(*args, **kwargs)

    @property
    def known_as(self) -> str:
        """The name its look-alikes are checked against: the account's user name (shown in
        the header, the lobby, invitations, mails), else the player's name."""
        return self.user.get_username() if self.user_id else self.name

    def validate_unique(self, exclude=None) -> None:
        # name_key is not a form field, so forms (the admin) would not check it.
        super().validate_unique(exclude)
        if self.name and name_taken(self.name, exclude_pk=self.pk):
            raise ValidationError({"name": "That name is taken (names ignore case)."})

    @property
    def is_bot(self) -> bool:
        return self.kind != PlayerKind.HUMAN

    @property
    def bot_label(self) -> str:
        """A built-in bot's kind in the reader's words ("Search bot, 300 iterations");
        empty for everyone else."""
        return bot_label(self.bot_name, self.bot_params) if self.bot_name else ""

    @property
    def bot_description(self) -> str:
        """How a built-in bot plays, in the reader's words; empty for everyone else."""
        return bot_description(self.bot_name) if self.bot_name else ""


def name_taken(name: str, *, exclude_pk: int | None = None) -> bool:
    qs = Player.objects.filter(name_key=fold_name(name))
    if exclude_pk is not None:
        qs = qs.exclude(pk=exclude_pk)
    return qs.exists()


def looks_taken(name: str, *, exclude_pk: int | None = None) -> bool:
    """Does another player go by a name that looks like `name` (core.names.skeletons, on
    the indexed skeleton columns)?"""
    folded, cased = names.skeletons(name)
    if not folded:
        return False
    qs = Player.objects.filter(Q(name_skeleton=folded) | Q(name_skeleton_cased=cased))
    if exclude_pk is not None:
        qs = qs.exclude(pk=exclude_pk)
    return qs.exists()
