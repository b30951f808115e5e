"""API for entrants and the life cycle (mixed into TournamentViewSet): the entrants' list
(with the waitlist), guests, join, leave, check-in (one or several), linking a guest to an
account, pause, resume, cancel."""

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.generics import get_object_or_404
from rest_framework.response import Response

from core.permissions import may_manage_tournament
from games.api.inputs import InputSerializer
from games.api.invitations import InvitationSerializer
from games.models import Invitation, Player
from tournaments.models import Entry
from tournaments.services import entrants, lifecycle


class GuestIn(InputSerializer):
    guest = serializers.CharField(
        allow_blank=True, trim_whitespace=False, max_length=1000,
        help_text=f"The guest's name (at most {entrants.MAX_GUEST_NAME} characters); organisers only.",
    )  # fmt: skip


class EntryMadeOut(serializers.Serializer):
    """An entry as made (join, guest): who, and whether she has a place."""

    entry = serializers.IntegerField()
    player = serializers.CharField(help_text="The player's handle (Player.name).")
    name = serializers.CharField(help_text="The shown name (a guest's: as typed in).")
    guest = serializers.BooleanField()
    joined_round = serializers.IntegerField()
    waitlisted = serializers.BooleanField(
        help_text="No place (the limit was reached): never paired, counted or ranked until "
        "a place frees."
    )
    position = serializers.IntegerField(
        allow_null=True, help_text="Place on the waitlist (1 moves up first); null with a place."
    )


class EntrantOut(EntryMadeOut):
    """An entrant in the list: the entry as made, and where it stands now."""

    kind = serializers.CharField(help_text="human, engine_bot, external_bot or guest.")
    bot = serializers.BooleanField()
    seed = serializers.IntegerField(allow_null=True)
    withdrawn = serializers.BooleanField()
    checked_in = serializers.BooleanField()


class CheckInIn(InputSerializer):
    checked_in = serializers.BooleanField(default=True)


class CheckInOut(serializers.Serializer):
    entry = serializers.IntegerField()
    checked_in = serializers.BooleanField()


class CheckInManyIn(InputSerializer):
    entries = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=10**18), allow_empty=False,
        max_length=entrants.MAX_CHECK_IN_BATCH, help_text="Entry ids (organisers only).",
    )  # fmt: skip
    checked_in = serializers.BooleanField(default=True)


class CheckInManyOut(serializers.Serializer):
    changed = serializers.IntegerField(
        help_text="How many changed (waitlisted, withdrawn or already so: left alone)."
    )
    checked_in = serializers.IntegerField(help_text="Checked in now, of `entrants`.")
    entrants = serializers.IntegerField(help_text="Entrants with a place, not withdrawn.")


class LinkIn(InputSerializer):
    player = serializers.SlugField(max_length=40, help_text="The account's player name.")


class LifecycleOut(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    paused = serializers.BooleanField()


def _made(entry: Entry) -> dict:
    return {"entry": entry.pk, "player": entry.player.name, "name": str(entry.player), "guest": entrants.is_guest(entry.player),
            "joined_round": entry.joined_round, "waitlisted": entry.waitlisted_at is not None,
            "position": entrants.waitlist_position(entry)}  # fmt: skip


def _entrant(entry: Entry, position: int | None) -> dict:
    p = entry.player
    return {"entry": entry.pk, "player": p.name, "name": str(p), "kind": p.kind,
            "guest": entrants.is_guest(p), "bot": p.is_bot and not entrants.is_guest(p),
            "seed": entry.seed, "joined_round": entry.joined_round, "withdrawn": entry.withdrawn,
            "checked_in": entry.checked_in_at is not None,
            "waitlisted": position is not None, "position": position}  # fmt: skip


def add_guest(request, tournament) -> Response:
    """POST .../entries/ with {"guest": name}: 403 unless organiser, 400 for a bad name."""
    if not may_manage_tournament(request.user, tournament):
        raise PermissionDenied(gettext("Only the organiser can enter guests."))
    payload = GuestIn(data=request.data)
    payload.is_valid(raise_exception=True)
    entry = entrants.add_guest(
        tournament=tournament, name=payload.validated_data["guest"], by=request.user
    )
    return Response(_made(entry), status=status.HTTP_201_CREATED)


class EntrantActions:
    """Actions of TournamentViewSet (which supplies get_object and the throttles)."""

    @extend_schema(request=None, responses={200: EntrantOut(many=True)})
    @action(detail=True, methods=["get"], url_path="entrants", url_name="entrants",
            pagination_class=None)  # fmt: skip
    def entrants_list(self, request, pk=None):
        """Everyone with a place (in seed order, withdrawn ones too), then the waitlist,
        first come first (``waitlisted``, ``position``)."""
        t = self.get_object()
        placed = entrants.entered(t).select_related("player")
        waiting = entrants.waitlist(t)
        rows = [_entrant(e, None) for e in placed]
        rows += [_entrant(e, i) for i, e in enumerate(waiting, 1)]
        return Response(EntrantOut(rows, many=True).data)

    @extend_schema(request=CheckInManyIn, responses={200: CheckInManyOut})
    @action(detail=True, methods=["post"], url_path="check-in",
            permission_classes=[permissions.IsAuthenticated])  # fmt: skip
    def check_in_many(self, request, pk=None):
        """Check several entries in at once, or with {"checked_in": false} undo it
        (organisers only, before the start)."""
        t = self.get_object()
        payload = CheckInManyIn(data=request.data)
        payload.is_valid(raise_exception=True)
        changed = entrants.check_in_many(
            tournament=t, entry_ids=payload.validated_data["entries"], by=request.user,
            checked_in=payload.validated_data["checked_in"],
        )  # fmt: skip
        active = entrants.entered(t).filter(withdrawn_after__isnull=True)
        return Response({"changed": changed, "entrants": active.count(),
                         "checked_in": active.filter(checked_in_at__isnull=False).count()})  # fmt: skip

    @extend_schema(request=None, responses={201: EntryMadeOut})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def join(self, request, pk=None):
        """Enter yourself while entries are open (400 when closed, full or entered)."""
        entry = entrants.join(tournament=self.get_object(), user=request.user)
        return Response(_made(entry), status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def leave(self, request, pk=None):
        """Leave while entries are open."""
        entrants.leave(tournament=self.get_object(), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=CheckInIn, responses={200: CheckInOut})
    @action(detail=True, methods=["post"], url_path=r"entries/(?P<entry_id>[0-9]{1,18})/check-in",
            permission_classes=[permissions.IsAuthenticated])  # fmt: skip
    def check_in(self, request, pk=None, entry_id=None):
        """Check an entry in (the entrant or the organiser); {"checked_in": false} undoes it."""
        t = self.get_object()
        entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, tournament=t)
        payload = CheckInIn(data=request.data)
        payload.is_valid(raise_exception=True)
        entry = entrants.check_in(
            entry=entry, by=request.user, checked_in=payload.validated_data["checked_in"]
        )
        return Response({"entry": entry.pk, "checked_in": entry.checked_in_at is not None})

    @extend_schema(request=LinkIn, responses={200: EntryMadeOut, 202: InvitationSerializer})
    @action(detail=True, methods=["post"], url_path=r"entries/(?P<entry_id>[0-9]{1,18})/link",
            permission_classes=[permissions.IsAuthenticated])  # fmt: skip
    def link(self, request, pk=None, entry_id=None):
        """Give a guest's entry and results to an account (organisers only). Another
        person's account is linked once they accept the invitation (202)."""
        t = self.get_object()
        if not may_manage_tournament(request.user, t):
            raise PermissionDenied(gettext("Only the organiser can link guests."))
        entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, tournament=t)
        payload = LinkIn(data=request.data)
        payload.is_valid(raise_exception=True)
        player = get_object_or_404(Player, name=payload.validated_data["player"])
        made = entrants.link_guest(entry=entry, player=player, by=request.user)
        if isinstance(made, Invitation):
            return Response({"invitation": InvitationSerializer(made).data},
                            status=status.HTTP_202_ACCEPTED)  # fmt: skip
        return Response(_made(made))

    def _life(self, request, fn):
        t = fn(tournament=self.get_object(), by=request.user)
        return Response({"id": t.pk, "status": t.status, "paused": t.paused})

    @extend_schema(request=None, responses={200: LifecycleOut})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def pause(self, request, pk=None):
        """No new round is paired until resumed; tables in play go on."""
        return self._life(request, lifecycle.pause)

    @extend_schema(request=None, responses={200: LifecycleOut})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def resume(self, request, pk=None):
        return self._life(request, lifecycle.resume)

    @extend_schema(request=None, responses={200: LifecycleOut})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def cancel(self, request, pk=None):
        """Final. Matches nobody has played a decision in yet are aborted; the others are
        left to finish as ordinary matches."""
        return self._life(request, lifecycle.cancel)
