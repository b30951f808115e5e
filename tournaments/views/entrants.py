"""Pages for entrants and the life cycle: join / leave, check-in, guests, linking a guest,
pause / resume / cancel, and the organiser's "My tournaments". Thin: the rules are in
tournaments.services.entrants and tournaments.services.lifecycle."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from core import throttling
from games.models import Invitation, Player
from tournaments import selectors
from tournaments.forms import GuestForm, LinkGuestForm, PlannedStartForm
from tournaments.models import Entry, Tournament
from tournaments.services import entrants, lifecycle, scheduling
from tournaments.views import actions


@actions.button("tournament_entries")
def join(request, pk: int):
    t = get_object_or_404(Tournament, pk=pk)
    return actions.run_then_show(
        request, pk, lambda: entrants.join(tournament=t, user=request.user), _("You have entered.")
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
    return actions.run_then_show(
        request, pk,
        lambda: entrants.check_in(entry=entry, by=request.user, checked_in=not undo),
        (_("%(player)s is no longer checked in.") if undo else _("%(player)s checked in."))
        % {"player": entry.player},
    )  # fmt: skip


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


def _life(name: str, done):
    @actions.button("tournament_manage")
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
cancel = _life("cancel", lambda: _("Tournament cancelled."))


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
    return {
        "my_entry": my_entry,
        "can_join": entrants.can_join(t) and player is not None,
        "is_full": t.entry_limit is not None and active >= t.entry_limit,
        "active_entries": active,
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
