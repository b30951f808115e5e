"""A club, its members and roles, its events, guests and seasons."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Player
from tournaments.models import Tournament


class Visibility(models.TextChoices):
    PUBLIC = "public", _("Public")
    MEMBERS = "members", _("Members only")


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("address"), max_length=60, unique=True)
    city = models.CharField(_("city"), max_length=80, blank=True)
    description = models.TextField(_("description"), blank=True)
    logo_url = models.URLField(_("logo"), blank=True, help_text=_("An image's https address."))
    # Language codes the club speaks (settings.LANGUAGES), e.g. ["cs", "en"].
    languages = models.JSONField(_("languages"), default=list, blank=True)
    visibility = models.CharField(
        _("visibility"), max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    # Set by staff for a verified club: its organisers may run rated over-the-board events.
    rated = models.BooleanField(_("rated"), default=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    OWNER = "owner", _("Owner")
    ORGANISER = "organiser", _("Organiser")
    MEMBER = "member", _("Member")


class MembershipStatus(models.TextChoices):
    REQUESTED = "requested", _("Asked to join")
    ACTIVE = "active", _("Member")


class Membership(models.Model):
    """One person in one club: asked to join (waiting for an owner or organiser), or in."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    status = models.CharField(
        _("status"), max_length=10, choices=MembershipStatus.choices,
        default=MembershipStatus.REQUESTED,
    )  # fmt: skip
    created_at = models.DateTimeField(_("asked"), auto_now_add=True)
    joined_at = models.DateTimeField(_("joined"), null=True, blank=True)

    class Meta:
        ordering = ["club", "pk"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="club_member_once"),
        ]
        indexes = [models.Index(fields=["user", "status"], name="club_member_user")]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"


class Season(models.Model):
    """A club's competition over many events: standings add up each player's event results."""

    class Rule(models.TextChoices):
        SUM = "sum", _("Sum of event points")
        BEST = "best", _("Best N events")
        PLACES = "places", _("Points by final place")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=120)
    starts_on = models.DateField(_("starts"))
    ends_on = models.DateField(_("ends"))
    games = models.JSONField(_("games"), default=list, blank=True)  # game slugs; empty: all
    rule = models.CharField(_("rule"), max_length=8, choices=Rule.choices, default=Rule.SUM)
    best_n = models.PositiveIntegerField(_("best N"), null=True, blank=True)
    # Points by final place for rule "places": [25, 18, 15, ...] (1st, 2nd, ...).
    place_points = models.JSONField(_("points by place"), default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "-starts_on", "pk"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"


class ClubEvent(models.Model):
    """A tournament of a club (tournaments knows nothing of clubs: the link lives here)."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="club_event"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="events")
    members_only = models.BooleanField(_("members only"), default=False)
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="events",
        verbose_name=_("season"),
    )  # fmt: skip

    class Meta:
        verbose_name = _("club event")
        verbose_name_plural = _("club events")

    def __str__(self) -> str:
        return f"{self.club}: {self.tournament}"


class ClubGuest(models.Model):
    """A person without an account who comes to the club's nights: one guest player, reused
    by every event of the club."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="guests")
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="club_guest")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "pk"]
        verbose_name = _("club guest")
        verbose_name_plural = _("club guests")

    def __str__(self) -> str:
        return f"{self.player} ({self.club})"
