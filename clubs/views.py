"""The club pages: the directory, founding and editing a club, its page, its members page,
and the buttons (join, leave, accept, decline, invite, roles, remove, hand over). Thin: the
rules are in clubs.services.membership, the reads in clubs.selectors. A final action (leave,
remove, hand over) asks on a page of its own first (GET), and acts on its POST."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import selectors
from clubs.forms import ClubEditForm, ClubForm, DirectorySearch, InviteForm
from clubs.models import Club, Membership, MembershipStatus, Role
from clubs.services import membership as services
from core import throttling
from core.errors import DomainError, add_to_form, message_of
from games.models import Invitation

SCOPE_FOUND = "tournament_create"
SCOPE_JOIN = "tournament_entries"
SCOPE_MANAGE = "tournament_manage"
SCOPE_INVITE = "invitations"


def directory(request):
    search = DirectorySearch(request.GET or None)
    terms = search.cleaned_data if search.is_valid() else {}
    rows = selectors.directory(request.user, query=terms.get("q", ""), city=terms.get("city", ""))
    return render(request, "clubs/directory.html", {
        "search": search, "rows": rows, "searched": bool(terms.get("q") or terms.get("city")),
        "mine": selectors.my_clubs(request.user),
    })  # fmt: skip


@login_required
def found(request):
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        limit = throttling.page_limit(request, SCOPE_FOUND)
        if limit:
            form.add_error(None, limit)
        else:
            try:
                club = services.found_club(by=request.user, **form.cleaned_data)
            except (ValidationError, DomainError, PermissionDenied) as exc:
                add_to_form(form, exc)
            else:
                messages.success(request, _("The club %(name)s is founded.") % {"name": club.name})
                return redirect("club-detail", slug=club.slug)
    return render(request, "clubs/found.html", {"form": form})


def detail(request, slug: str):
    club = get_object_or_404(Club, slug=slug)
    inside = selectors.shows_inside(request.user, club)
    members = selectors.members(club) if inside else []
    return render(request, "clubs/detail.html", {
        "club": club, "inside": inside, "members": members,
        "organisers": [m for m in members if m.role in selectors.MANAGERS],
        "mine": selectors.membership_of(request.user, club),
        "manages": selectors.may_manage(request.user, club),
        "games": selectors.game_labels(club) if inside else [],
    })  # fmt: skip


def _managed(request, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    if not selectors.may_manage(request.user, club):
        raise PermissionDenied
    return club


@login_required
def edit(request, slug: str):
    club = _managed(request, slug)
    initial = {f: getattr(club, f) for f in services.EDITABLE}
    form = ClubEditForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        limit = throttling.page_limit(request, SCOPE_MANAGE)
        if limit:
            form.add_error(None, limit)
        else:
            try:
                club = services.update_club(club=club, by=request.user, **form.cleaned_data)
            except (ValidationError, DomainError) as exc:
                add_to_form(form, exc)
            else:
                messages.success(request, _("Saved."))
                return redirect("club-detail", slug=club.slug)
    return render(request, "clubs/edit.html", {"club": club, "form": form})


@login_required
def members_page(request, slug: str):
    club = _managed(request, slug)
    return render(request, "clubs/members.html", {
        "club": club, "requests": selectors.requests(club), "members": selectors.members(club),
        "owner": selectors.is_owner(request.user, club), "invite_form": InviteForm(),
    })  # fmt: skip


# ---- buttons -------------------------------------------------------------------------------
def button(scope: str):
    """A club page's button: POST, signed in, limited by ``scope``; a refusal of the
    service (not a 403) is the page's message, and the club's page (or ``next``) follows."""

    def decorate(view):
        @wraps(view)
        def limited(request, slug: str, *args, **kwargs):
            message = throttling.page_limit(request, scope)
            if message:
                messages.error(request, message)
                return redirect("club-detail", slug=slug)
            return view(request, slug, *args, **kwargs)

        return require_POST(login_required(limited))

    return decorate


def _run(request, action, done: str) -> bool:
    try:
        action()
    except (ValidationError, DomainError) as exc:
        messages.error(request, message_of(exc))
        return False
    messages.success(request, done)
    return True


def _membership(club: Club, membership_id: int) -> Membership:
    return get_object_or_404(Membership.objects.select_related("user", "club"),
                             pk=membership_id, club=club)  # fmt: skip


@button(SCOPE_JOIN)
def join(request, slug: str):
    club = get_object_or_404(Club, slug=slug)
    _run(request, lambda: services.ask_to_join(club=club, user=request.user),
         _("You asked to join; the club's organisers will answer."))  # fmt: skip
    return redirect("club-detail", slug=slug)


@button(SCOPE_MANAGE)
def accept(request, slug: str, membership_id: int):
    club = _managed(request, slug)
    m = _membership(club, membership_id)
    _run(request, lambda: services.accept_request(membership=m, by=request.user),
         _("%(user)s is a member now.") % {"user": m.user})  # fmt: skip
    return redirect("club-members", slug=slug)


@button(SCOPE_MANAGE)
def decline(request, slug: str, membership_id: int):
    club = _managed(request, slug)
    m = _membership(club, membership_id)
    _run(request, lambda: services.decline_request(membership=m, by=request.user),
         _("The request of %(user)s is declined.") % {"user": m.user})  # fmt: skip
    return redirect("club-members", slug=slug)


@button(SCOPE_MANAGE)
def set_role(request, slug: str, membership_id: int):
    club = _managed(request, slug)
    m = _membership(club, membership_id)
    role = request.POST.get("role", "")
    done = (_("%(user)s is an organiser now.") if role == Role.ORGANISER
            else _("%(user)s is a member now."))  # fmt: skip
    _run(request, lambda: services.set_role(membership=m, by=request.user, role=role),
         done % {"user": m.user})  # fmt: skip
    return redirect("club-members", slug=slug)


@button(SCOPE_INVITE)
def invite(request, slug: str):
    club = _managed(request, slug)
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the user name of the person to invite."))
        return redirect("club-members", slug=slug)
    name = form.cleaned_data["username"]
    try:
        made = services.invite(club=club, by=request.user, username=name)
    except (ValidationError, DomainError) as exc:
        messages.error(request, message_of(exc))
    else:
        if isinstance(made, Invitation):
            messages.success(request, _("%(user)s is invited; she becomes a member when she "
                                        "accepts.") % {"user": made.player})  # fmt: skip
        else:
            messages.success(request, _("%(user)s had asked to join: she is a member now.")
                             % {"user": made.user})  # fmt: skip
    return redirect("club-members", slug=slug)


# ---- final actions: a confirmation page first -------------------------------------------------
def _confirm(request, club: Club, *, title, consequences, button_label, back, undo=None):
    return render(request, "clubs/confirm.html", {
        "club": club, "title": title, "consequences": consequences, "button": button_label,
        "back": back, "undo": undo, "action": request.path,
    })  # fmt: skip


def final(scope: str):
    """GET: the confirmation page the view describes; POST: the action (as ``button``)."""

    def decorate(view):
        posted = button(scope)(view)

        @wraps(view)
        @login_required
        def final_view(request, slug: str, *args, **kwargs):
            if request.method == "GET":
                return view(request, slug, *args, ask=True, **kwargs)
            return posted(request, slug, *args, **kwargs)

        return final_view

    return decorate


@final(SCOPE_JOIN)
def leave(request, slug: str, ask: bool = False):
    club = get_object_or_404(Club, slug=slug)
    mine = selectors.membership_of(request.user, club)
    if ask:
        if mine is None:
            return redirect("club-detail", slug=slug)
        if mine.status == MembershipStatus.REQUESTED:
            title, lines = _("Withdraw your request?"), [_("Your request to join %(club)s is "
                                                           "withdrawn.") % {"club": club}]  # fmt: skip
        else:
            title = _("Leave %(club)s?") % {"club": club}
            lines = [_("You are no longer a member: the club's members-only pages and events "
                       "close to you."),
                     _("Your results in its events stay.")]  # fmt: skip
        return _confirm(request, club, title=title, consequences=lines,
                        button_label=_("Leave the club") if mine.status == MembershipStatus.ACTIVE
                        else _("Withdraw the request"),
                        back=club_url(club), undo=_("You may ask to join again."))  # fmt: skip
    _run(request, lambda: services.leave(club=club, user=request.user), _("You left the club."))
    return redirect("club-detail", slug=slug)


@final(SCOPE_MANAGE)
def remove(request, slug: str, membership_id: int, ask: bool = False):
    club = _managed(request, slug)
    m = _membership(club, membership_id)
    if ask:
        return _confirm(request, club, title=_("Remove %(user)s?") % {"user": m.user},
                        consequences=[_("%(user)s is no longer a member of %(club)s.")
                                      % {"user": m.user, "club": club}],
                        button_label=_("Remove %(user)s") % {"user": m.user},
                        back=members_url(club),
                        undo=_("She may ask to join again, or be invited."))  # fmt: skip
    _run(request, lambda: services.remove_member(membership=m, by=request.user),
         _("%(user)s is removed.") % {"user": m.user})  # fmt: skip
    return redirect("club-members", slug=slug)


@final(SCOPE_MANAGE)
def hand_over(request, slug: str, membership_id: int, ask: bool = False):
    club = get_object_or_404(Club, slug=slug)
    if not selectors.is_owner(request.user, club):
        raise PermissionDenied
    m = _membership(club, membership_id)
    if ask:
        return _confirm(request, club, title=_("Hand %(club)s over to %(user)s?")
                        % {"club": club, "user": m.user},
                        consequences=[_("%(user)s becomes the club's owner.") % {"user": m.user},
                                      _("You stay, as an organiser.")],
                        button_label=_("Hand the club over"), back=members_url(club),
                        undo=_("Only the new owner can hand it back."))  # fmt: skip
    _run(request, lambda: services.hand_over(club=club, by=request.user, to=m),
         _("%(user)s owns the club now.") % {"user": m.user})  # fmt: skip
    return redirect("club-detail", slug=slug)


def club_url(club: Club) -> str:
    return reverse("club-detail", args=[club.slug])


def members_url(club: Club) -> str:
    return reverse("club-members", args=[club.slug])
