"""Co-organisers (issue #31): people who run a tournament as its organiser does (entries,
rounds, results, pause and resume), chosen by the organiser."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext

from core import permissions
from tournaments.models import Tournament
from tournaments.services import versions

MAX_CO_ORGANISERS = 10
HUMAN = "human"  # games.models.PlayerKind.HUMAN: bot programs run nothing


def parse_names(text: str) -> list[str]:
    """User names from a box: separated by commas, semicolons or spaces."""
    return [n for n in text.replace(",", " ").replace(";", " ").split() if n]


def set_co_organisers(*, tournament: Tournament, by, names: list[str]) -> list:
    """Replace the co-organisers by the accounts named (user names, any case). Refused as a
    whole (ValidationError on "co_organisers") for an unknown name, a bot, the organiser
    herself or more than MAX_CO_ORGANISERS; only the organiser or a holder of
    tournaments.change_tournament may."""
    if not permissions.may_choose_co_organisers(by, tournament):
        raise PermissionDenied(gettext("Only the organiser chooses the co-organisers."))
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValidationError({"co_organisers": gettext("A list of user names.")})
    wanted = list(dict.fromkeys(n.strip().casefold() for n in names if n.strip()))
    if len(wanted) > MAX_CO_ORGANISERS:
        raise ValidationError({"co_organisers": gettext(
            "At most %(n)d co-organisers.") % {"n": MAX_CO_ORGANISERS}})  # fmt: skip
    users = {
        u.username.casefold(): u
        for u in get_user_model().objects.filter(is_active=True, player__kind=HUMAN)
        .filter(username__in=_candidates(wanted))
    }  # fmt: skip
    unknown = [n for n in wanted if n not in users]
    if unknown:
        raise ValidationError({"co_organisers": gettext(
            "No member called %(names)s.") % {"names": ", ".join(unknown)}})  # fmt: skip
    chosen = [users[n] for n in wanted]
    if any(u.pk == tournament.organiser_id for u in chosen):
        raise ValidationError({"co_organisers": gettext(
            "The organiser runs the tournament already.")})  # fmt: skip
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        tournament.co_organisers.set(chosen)
        versions.touch(tournament.pk)
    return chosen


def _candidates(wanted: list[str]) -> list[str]:
    """The stored user names that fold to the wanted ones (user names keep their case)."""
    from django.db.models.functions import Lower

    model = get_user_model()
    return list(
        model.objects.annotate(folded=Lower("username")).filter(folded__in=wanted)
        .values_list("username", flat=True)
    )  # fmt: skip


def names_of(tournament: Tournament) -> list[str]:
    return sorted(u.username for u in tournament.co_organisers.all())
