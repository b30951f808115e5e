"""How many matches one person may keep going (issue #31): a search bot's decisions take
seconds of a worker each, so one account with many such matches would hold every worker.

The person is a human account together with the bot programs she owns (a bot's matches
count against its owner). Counted: the pending and running matches she or her bots
created or sit in. Tournament rounds (created by the platform for consenting entrants)
are not counted and never refused."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils.translation import gettext

from core.errors import DomainError
from games.models import Match, MatchStatus, Player, PlayerKind
from games.services.match_checks import person_of

# The built-in bots whose decisions take a worker for seconds (games.services.dispatch
# sends their turns to the bots-heavy queue).
HEAVY_BOTS = ("ismcts",)


class TooManyMatches(DomainError):
    status_code = 429
    code = "too_many_matches"


def principal(user):
    """The human account a user's matches count against: the person answerable for her
    player (`match_checks.person_of`: a bot program's owner), else the user."""
    player = getattr(user, "player", None) if hasattr(user, "player") else None
    person = person_of(player) if player is not None else None
    if person is None or person == user.pk:
        return user
    return get_user_model().objects.get(pk=person)


def accounts_of(person) -> list[int]:
    """The person's own user id and those of her bot programs."""
    bots = Player.objects.filter(owner=person, kind=PlayerKind.EXTERNAL_BOT, user__isnull=False)
    return [person.pk, *bots.values_list("user_id", flat=True)]


def live_matches(person):
    ids = accounts_of(person)
    return Match.objects.filter(
        Q(created_by_id__in=ids) | Q(seats__player__user_id__in=ids),
        status__in=[MatchStatus.PENDING, MatchStatus.RUNNING],
    ).distinct()


def heavy(qs):
    return qs.filter(seats__player__kind=PlayerKind.ENGINE_BOT,
                     seats__player__bot_name__in=HEAVY_BOTS)  # fmt: skip


def is_heavy(players) -> bool:
    return any(p is not None and p.kind == PlayerKind.ENGINE_BOT and p.bot_name in HEAVY_BOTS
               for p in players)  # fmt: skip


def check_allowance(user, players) -> None:
    """Refuse (429) a new match of `user` with these players when she already has the most
    matches allowed in all, or with search bots. Call inside the creating transaction:
    the person's account row is locked, so two requests at once can't both pass."""
    person = principal(user)
    get_user_model().objects.select_for_update().filter(pk=person.pk).first()
    most, most_heavy = settings.MAX_LIVE_MATCHES, settings.MAX_LIVE_SEARCH_BOT_MATCHES
    live = live_matches(person)
    if most is not None and live.count() >= most:
        raise TooManyMatches(
            gettext(
                "You already have %(n)d matches waiting or running, the most allowed: finish "
                "or abort one first."
            )
            % {"n": most}
        )
    if (
        most_heavy is not None
        and is_heavy(players)
        and heavy(live).values("pk").distinct().count() >= most_heavy
    ):
        raise TooManyMatches(
            gettext(
                "You already have %(n)d matches with the search bot waiting or running, "
                "the most allowed (its moves take a worker for seconds): wait until one ends."
            )
            % {"n": most_heavy}
        )
