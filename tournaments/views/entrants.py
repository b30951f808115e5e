"""Pages for entrants and the life cycle: join / leave (or the waitlist), check-in (one by
one or ticked ones at once), the member picker, guests, linking a guest, pause / resume /
cancel, and the organiser's "My tournaments". Thin: the rules are in
tournaments.services.entrants and tournaments.services.lifecycle."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core import permissions, throttling
from games.models import Invitation, Player
from tournaments import selectors, zones
from tournaments.forms import GuestForm, LinkGuestForm, PlannedStartForm
from tournaments.models import Entry, Tournament
from tournaments.services import entrants, lifecycle, scheduling
from tournaments.views import actions, confirmations


def _to(pk: int, anchor: str):
    """Back to the tournament's page, at the part acted on (the entrants' list stays in
    view after a check-in: it is no longer a <details> that closes on every reload)."""
    return redirect(reverse("tournament-detail", args=[pk]) + f"#{anchor}")


def entry_made_message(made, player) -> str:
    """What the organiser's "add" says: entered, waitlisted (full) or invited."""
    if isinstance(made, Invitation):  # another person is entered only once he accepts
        return _("%(player)s invited: entered once they accept") % {"player": player}
    if made.waitlisted_at is not None:
        return _("The tournament is full: %(player)s is on the waitlist (position %(n)s).") % {
            "player": player, "n": entrants.waitlist_position(made)}  # fmt: skip
    return _("%(player)s entered") % {"player": player}


def withdrawn_message(player, moved) -> str:
    """The organiser's message after a withdrawal; ``moved``: who got the freed place."""
    done = _("%(player)s withdrawn") % {"player": player}
    for e in moved or ():
        done += "; " + _("%(player)s moved up from the waitlist.") % {"player": e.player}
    return done


@actions.button("tournament_entries")
def join(request, pk: int):
    t = get_object_or_404(Tournament, pk=pk)

    def done(entry) -> str:
        if entry.waitlisted_at is None:
            return _("You have entered.")
        return _("The tournament is full: you are on the waitlist (position %(n)s).") % {
            "n": entrants.waitlist_position(entry)}  # fmt: skip

    return actions.run_then_show(
        request, pk, lambda: entrants.join(tournament=t, user=request.user), done
    )


@actions.button("tournament_entries")
def leave(request, pk: int):
    t = get_object_or_404(Tournament, pk=pk)
    return actions.run_then_show(
        request,
        pk,
        lambda: entrants.leave(tournament=t, user=request.user),
        _("You have left the tournament."),
    )


@actions.button("tournament_entries")
def check_in(request, pk: int, entry_id: int):
    entry = get_object_or_404(Entry.objects.select_related("tournament", "player"),
                              pk=entry_id, tournament_id=pk)  # fmt: skip
    undo = request.POST.get("undo") == "1"
    actions.run(
        request,
        lambda: entrants.check_in(entry=entry, by=request.user, checked_in=not undo),
        (_("%(player)s is no longer checked in.") if undo else _("%(player)s checked in."))
        % {"player": entry.player},
    )  # fmt: skip
    # The organiser goes on down his list; the entrant back to her own box.
    organiser = permissions.may_manage_tournament(request.user, entry.tournament)
    return _to(pk, "entrants" if organiser else "entering")


@actions.button("tournament_entries")
def check_in_many(request, pk: int):
    """The ticked entrants (``entry``, repeated) checked in, or with ``checked_in=0`` no
    longer; one click for the whole evening's arrivals."""
    t = actions.managed(request, pk)
    undo = request.POST.get("checked_in") == "0"
    ids = request.POST.getlist("entry")[: entrants.MAX_CHECK_IN_BATCH + 1]

    def done(n: int) -> str:
        if undo:
            return ngettext("%(n)s entrant no longer checked in.",
                            "%(n)s entrants no longer checked in.", n) % {"n": n}  # fmt: skip
        return ngettext("%(n)s entrant checked in.", "%(n)s entrants checked in.", n) % {"n": n}

    actions.run(
        request,
        lambda: entrants.check_in_many(
            tournament=t, entry_ids=ids, by=request.user, checked_in=not undo
        ),
        done,
    )
    return _to(pk, "entrants")


@login_required
def member_suggestions(request, pk: int):
    """The htmx list under the organiser's member search: at most 10 members (online also
    bots) matching what was typed, not entered yet (rate-limited like the link box)."""
    t = actions.managed(request, pk)
    limited = throttling.page_limit(request, "player_search")
    text = request.GET.get("member", "")
    players = [] if limited else entrants.member_suggestions(t, text)
    return render(request, "tournaments/_member_search.html#results", {
        "t": t, "member_players": players, "member_limited": limited,
        "member_typed": text.strip()[:80],
    })  # fmt: skip


@actions.button("tournament_entries")
def add_guest(request, pk: int):
    t = actions.managed(request, pk)
    form = GuestForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the guest's name."))
        return redirect("tournament-detail", pk=pk)
    name = form.cleaned_data["guest"]
    return actions.run_then_show(
        request,
        pk,
        lambda: entrants.add_guest(tournament=t, name=name, by=request.user),
        _("Guest %(name)s entered.") % {"name": " ".join(name.split())},
    )


@actions.button("tournament_entries")
def link_guest(request, pk: int, entry_id: int):
    t = actions.managed(request, pk)
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, tournament=t)
    form = LinkGuestForm(request.POST, tournament=t)
    if not form.is_valid():  # unknown or inactive account: said, nothing changes
        messages.error(request, " ".join(form.errors.get("player", [_("Pick a player.")])))
        return redirect("tournament-detail", pk=pk)
    player: Player = form.cleaned_data["account"]
    guest = str(entry.player)
    return actions.run_then_show(
        request,
        pk,
        lambda: entrants.link_guest(entry=entry, player=player, by=request.user),
        lambda made: (
            _("%(player)s invited: %(guest)s's results become theirs once they accept.")
            % {"player": player, "guest": guest}
            if isinstance(made, Invitation)
            else _("%(guest)s linked to %(player)s.") % {"guest": guest, "player": player}
        ),
    )


@login_required
def link_suggestions(request, pk: int, entry_id: int):
    """The htmx list under a guest's link box: at most 10 accounts matching what was typed
    (organisers only; rate-limited, as every keystroke after a pause asks)."""
    t = actions.managed(request, pk)
    entry = get_object_or_404(Entry, pk=entry_id, tournament=t)
    limited = throttling.page_limit(request, "player_search")
    text = request.GET.get("player", "")
    players = [] if limited else entrants.link_suggestions(t, text)
    return render(request, "tournaments/_link_suggestions.html",
                  {"players": players, "limited": limited, "typed": text.strip(), "e": entry})  # fmt: skip


def _life(name: str, done, ask=None):
    """``ask``: a final action, asking first (tournaments.views.confirmations)."""

    @(actions.final("tournament_manage", ask) if ask else actions.button("tournament_manage"))
    def view(request, pk: int):
        t = actions.managed(request, pk)
        return actions.run_then_show(
            request,
            pk,
            lambda: getattr(lifecycle, name)(tournament=t, by=request.user),
            str(done()),
        )

    view.__name__ = name
    return view


@actions.button("tournament_manage")
def planned_start(request, pk: int):
    """Set, move or clear the planned start and auto-start (tournaments.services.scheduling)."""
    t = actions.managed(request, pk)
    with timezone.override(zones.tournament_zone(t)):  # typed in the event's zone
        form = PlannedStartForm(request.POST)
        if not form.is_valid():
            messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
            return redirect("tournament-detail", pk=pk)
        d = form.cleaned_data
        return actions.run_then_show(
            request,
            pk,
            lambda: scheduling.plan_start(
                tournament=t,
                by=request.user,
                starts_at=d.get("starts_at"),
                auto_start=bool(d.get("auto_start")),
            ),
            _("Planned start saved."),
        )


pause = _life("pause", lambda: _("Paused: no new round is paired until you resume."))
resume = _life("resume", lambda: _("Resumed."))
cancel = _life(
    "cancel",
    lambda: _("Tournament cancelled. While the page shows “Undo cancel”, you can undo it."),
    confirmations.cancel,
)
undo_cancel = _life("undo_cancel", lambda: _("Cancel undone: the tournament is back."))


@login_required
def my_tournaments(request):
    return render(
        request, "tournaments/mine.html", {"rows": selectors.my_tournaments(request.user)}
    )


def detail_extras(request, t: Tournament) -> dict:
    """What the tournament page shows this reader about entering (outside the shared,
    cached live fragment: it differs per reader)."""
    player, my_entry = selectors.reader_entry(t, request.user)
    active = entrants.active_count(t)
    waitlist = entrants.waitlist(t)
    my_position = None
    for position, e in enumerate(waitlist, 1):
        e.position = position
        if my_entry and e.pk == my_entry.pk:
            my_position = position
    extras = {
        "my_entry": my_entry,
        "my_position": my_position,
        # Said once, on her first look after a place came free for her.
        "moved_up": bool(
            my_entry and entrants.can_join(t) and entrants.take_moved_up_notice(my_entry)
        ),
        "can_join": entrants.can_join(t) and player is not None,
        # A members-only club event: the reason, where the Join button would be.
        "join_refusal": (
            entrants.club_entry_refusal(t, player)
            if not my_entry and entrants.can_join(t)
            else None
        ),
        "is_full": t.entry_limit is not None and active >= t.entry_limit,
        "active_entries": active,
        "waitlist": waitlist,
        "guest_form": GuestForm(),
        "autostart_failure": scheduling.failure_text(t),
        "starts_when": scheduling.when(t.starts_at) if t.starts_at else "",
        "planned_start_form": PlannedStartForm(
            initial={
                "starts_at": timezone.localtime(t.starts_at) if t.starts_at else None,
                "auto_start": t.auto_start,
            }  # fmt: skip
        ),
    }
    if permissions.may_manage_tournament(request.user, t):
        extras.update(_organiser_extras(request, t))
    return extras


def _organiser_extras(request, t: Tournament) -> dict:
    """The organiser's picker (a search typed without JS comes back as ``?member=``) and
    the check-in count."""
    typed = request.GET.get("member", "").strip()
    limited = throttling.page_limit(request, "player_search") if typed else None
    found = entrants.member_suggestions(t, typed) if typed and not limited else []
    placed = [e for e in selectors.entries_of(t) if not e.withdrawn]
    return {
        "member_typed": typed[:80],
        "member_players": found,
        "member_limited": limited,
        "checked_in_count": sum(1 for e in placed if e.checked_in_at),
        "placed_count": len(placed),
        # A club's event: the club's guests not entered yet, offered by the guest form.
        "club_guest_names": entrants.club_guest_names(t) if t.over_the_board else [],
    }
