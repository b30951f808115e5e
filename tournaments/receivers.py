"""tournaments listens to games' signals (games never imports tournaments)."""

import logging

from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.db import connection
from django.db.models.signals import post_delete
from django.dispatch import receiver

from games.signals import invitation_accepted, match_finished

logger = logging.getLogger(__name__)


@receiver(match_finished, dispatch_uid="tournaments.match_finished")
def on_match_finished(sender, match_ids: list[int], **kwargs) -> None:
    from tournaments import tasks
    from tournaments.models import Table

    # One indexed lookup here spares a task for every match outside tournaments; the
    # tables that ended together take their results in one task. Raw: the ORM's building
    # of this query cost more than the lookup (it runs after every bot task's writes).
    if not match_ids:
        return
    marks = ", ".join(["%s"] * len(match_ids))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT match_id FROM {connection.ops.quote_name(Table._meta.db_table)} "
            f"WHERE match_id IN ({marks})",
            list(match_ids),
        )
        ids = [row[0] for row in cursor.fetchall()]
    if ids:
        tasks.matches_finished.delay(sorted(ids))


@receiver(invitation_accepted, dispatch_uid="tournaments.invitation_accepted")
def on_invitation_accepted(sender, target_kind: str, target_id: int, player_id: int, **kwargs):
    """An accepted invitation to a tournament becomes the entry (once, however often sent)."""
    if target_kind != "tournament":
        return
    from games.models import Player
    from tournaments import services
    from tournaments.models import Entry, Tournament

    tournament = Tournament.objects.filter(pk=target_id).first()
    if (
        tournament is None
        or Entry.objects.filter(tournament=tournament, player_id=player_id).exists()
    ):
        return
    try:
        services.add_entry(tournament=tournament, player=Player.objects.get(pk=player_id))
    except ValidationError as exc:  # e.g. registration closed meanwhile
        logger.warning("accepted invitation to tournament %s not entered: %s", target_id, exc)


@receiver(invitation_accepted, dispatch_uid="tournaments.guest_link_accepted")
def on_guest_link_accepted(sender, target_kind: str, target_id: int, player_id: int, **kwargs):
    """An accepted invitation to take over a guest's entry links it (tournaments.services.entrants)."""
    from tournaments.services import entrants

    if target_kind != entrants.LINK_TARGET:
        return
    try:
        entrants.complete_link(entry_id=target_id, player_id=player_id)
    except (ValidationError, ObjectDoesNotExist) as exc:  # entry gone, or entered meanwhile
        logger.warning("guest entry %s not linked to player %s: %s", target_id, player_id, exc)


@receiver(post_delete, sender="tournaments.Entry", dispatch_uid="tournaments.guest_entry_deleted")
def on_entry_deleted(sender, instance, **kwargs) -> None:
    """A guest exists only for his entry: withdrawn before the start (or the tournament
    deleted), the guest player goes too, unless he has played or is a club's guest (the
    club keeps her for its next events: the reverse accessor club_guest, no import)."""
    from games.models import Player, PlayerKind

    Player.objects.filter(pk=instance.player_id, kind=PlayerKind.GUEST, entries__isnull=True,
                          seats__isnull=True, club_guest__isnull=True).delete()  # fmt: skip
