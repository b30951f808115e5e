"""The clubs API: /api/clubs/ (list, found), /api/clubs/{slug}/ (read, edit), joining,
invitations, the members list, accepting a request, roles and leaving. Thin: the rules are
in clubs.services.membership (403 for a caller who may not, 409 for a state that forbids
it, 400 for bad input; nothing changes on any of them)."""

from __future__ import annotations

from django.db.models import Count, Q
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors
from clubs.api.serializers import (
    ClubIn,
    ClubOut,
    ClubPatch,
    InvitedOut,
    InviteIn,
    MembershipOut,
    RoleIn,
)
from clubs.models import Club, Membership, MembershipStatus
from clubs.services import membership as services
from core import throttling
from games.api.match_serializers import ErrorSerializer
from games.models import Invitation

ACTIVE_COUNT = Count("memberships", filter=Q(memberships__status=MembershipStatus.ACTIVE))
ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer}


def _club(request, slug: str) -> Club:
    """The club, if the reader may see it at all (a members-only club too: its name, city
    and how to join are public; its members are not)."""
    return get_object_or_404(Club.objects.annotate(members=ACTIVE_COUNT), slug=slug)


def _out(club: Club) -> dict:
    return ClubOut(Club.objects.annotate(members=ACTIVE_COUNT).get(pk=club.pk)).data


class ClubListView(throttling.WriteThrottleMixin, generics.GenericAPIView):
    """GET: the clubs listed to the caller (public ones and her members-only clubs); `q`
    and `city` search by name and city. POST: found a club (the caller is its owner)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    throttle_scopes = {"post": "tournament_create"}
    serializer_class = ClubOut

    def get_queryset(self):
        clubs = selectors.visible_clubs(self.request.user).annotate(members=ACTIVE_COUNT)
        q = str(self.request.query_params.get("q", ""))[: selectors.MAX_QUERY].strip()
        city = str(self.request.query_params.get("city", ""))[: selectors.MAX_QUERY].strip()
        if q:
            clubs = clubs.filter(name__icontains=q)
        if city:
            clubs = clubs.filter(city__icontains=city)
        return clubs.order_by("name", "pk")

    @extend_schema(responses=ClubOut(many=True))
    def get(self, request):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(ClubOut(page, many=True).data)

    @extend_schema(request=ClubIn, responses={201: ClubOut, **ERRORS})
    def post(self, request):
        payload = ClubIn(data=request.data)
        payload.is_valid(raise_exception=True)
        club = services.found_club(by=request.user, **payload.validated_data)
        return Response(_out(club), status=status.HTTP_201_CREATED)


class ClubDetailView(throttling.WriteThrottleMixin, APIView):
    """GET: a club. PATCH: edit it (owner or organisers); unknown fields (`rated` too: staff
    set it in the admin) are a 400."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    throttle_scopes = {"patch": "tournament_manage"}

    @extend_schema(responses={200: ClubOut, 404: ErrorSerializer})
    def get(self, request, slug: str):
        return Response(ClubOut(_club(request, slug)).data)

    @extend_schema(request=ClubPatch, responses={200: ClubOut, **ERRORS})
    def patch(self, request, slug: str):
        club = _club(request, slug)
        if not selectors.may_manage(request.user, club):
            raise PermissionDenied(gettext("Only the club's owner or organisers can do that."))
        payload = ClubPatch(data=request.data, partial=True)
        payload.is_valid(raise_exception=True)
        club = services.update_club(club=club, by=request.user, **payload.validated_data)
        return Response(_out(club))


class JoinView(throttling.WriteThrottleMixin, APIView):
    """POST: ask to join (201, status "requested"; an owner or organiser accepts). 409 when
    the caller has already asked or is a member."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_scopes = {"post": "tournament_entries"}

    @extend_schema(request=None, responses={201: MembershipOut, **ERRORS})
    def post(self, request, slug: str):
        made = services.ask_to_join(club=_club(request, slug), user=request.user)
        return Response(MembershipOut(made).data, status=status.HTTP_201_CREATED)


class InviteView(throttling.WriteThrottleMixin, APIView):
    """POST (owner or organisers): invite a person by user name (202: she becomes a member
    when she accepts on /invitations/; 200 when she had asked to join: a member at once)."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_scopes = {"post": "invitations"}

    @extend_schema(request=InviteIn, responses={200: InvitedOut, 202: InvitedOut, **ERRORS})
    def post(self, request, slug: str):
        payload = InviteIn(data=request.data)
        payload.is_valid(raise_exception=True)
        made = services.invite(club=_club(request, slug), by=request.user,
                               username=payload.validated_data["username"])  # fmt: skip
        if isinstance(made, Invitation):
            return Response({"invitation": made.pk, "membership": None},
                            status=status.HTTP_202_ACCEPTED)  # fmt: skip
        return Response({"invitation": None, "membership": MembershipOut(made).data})


class MembersView(generics.GenericAPIView):
    """GET: the club's members (owner and organisers first); the owner and organisers also
    see the requests to join (status "requested"). A members-only club's members are shown
    to its members only (403)."""

    permission_classes = [permissions.AllowAny]
    serializer_class = MembershipOut

    @extend_schema(responses={200: MembershipOut(many=True), 403: ErrorSerializer,
                              404: ErrorSerializer})  # fmt: skip
    def get(self, request, slug: str):
        club = _club(request, slug)
        if not selectors.shows_inside(request.user, club):
            raise PermissionDenied(gettext("Only the club's members see its members."))
        rows = club.memberships.select_related("user").order_by("pk")
        if not selectors.may_manage(request.user, club):
            rows = rows.filter(status=MembershipStatus.ACTIVE)
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(MembershipOut(page, many=True).data)


def _membership(club: Club, membership_id: str) -> Membership:
    return get_object_or_404(club.memberships.select_related("user", "club"), pk=membership_id)


class AcceptView(throttling.WriteThrottleMixin, APIView):
    """POST (owner or organisers): accept a request to join; 409 if already a member."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_scopes = {"post": "tournament_manage"}

    @extend_schema(request=None, responses={200: MembershipOut, **ERRORS})
    def post(self, request, slug: str, membership_id: str):
        club = _club(request, slug)
        if not selectors.may_manage(request.user, club):  # before telling what exists
            raise PermissionDenied(gettext("Only the club's owner or organisers can do that."))
        m = services.accept_request(membership=_membership(club, membership_id), by=request.user)
        return Response(MembershipOut(m).data)


class RoleView(throttling.WriteThrottleMixin, APIView):
    """POST (the owner only): {"role": "organiser"} or {"role": "member"} for an active
    member; the owner's own role changes only by handing the club over."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_scopes = {"post": "tournament_manage"}

    @extend_schema(request=RoleIn, responses={200: MembershipOut, **ERRORS})
    def post(self, request, slug: str, membership_id: str):
        club = _club(request, slug)
        if not selectors.is_owner(request.user, club):
            raise PermissionDenied(gettext("Only the club's owner can do that."))
        payload = RoleIn(data=request.data)
        payload.is_valid(raise_exception=True)
        m = services.set_role(membership=_membership(club, membership_id), by=request.user,
                              role=payload.validated_data["role"])  # fmt: skip
        return Response(MembershipOut(m).data)


class LeaveView(throttling.WriteThrottleMixin, APIView):
    """DELETE: leave the club (or withdraw one's request). 409 for the last owner (she hands
    the club over first) and for one who is not a member."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_scopes = {"delete": "tournament_entries"}

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def delete(self, request, slug: str):
        services.leave(club=_club(request, slug), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
