"""What the confirmation pages of final actions say (``actions.final``'s ``ask``): cancel,
start, withdraw an entrant, forfeit a table. Each checks the reader's rights as the action
would (403) and says what will happen, in the reader's language."""

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core import permissions
from tournaments.models import Entry, Table, TournamentStatus
from tournaments.services import lifecycle, rounds, scheduling
from tournaments.views import actions


def cancel(request, pk: int) -> dict:
    t = actions.managed(request, pk)
    preview = lifecycle.cancel_preview(t)
    lines = [_("The tournament ends now: no further round is paired, and nobody can enter.")]
    in_play, minutes = preview["in_play"], preview["window_minutes"]
    if in_play:
        lines.append(
            ngettext(
                "%(n)s match is in play: it is aborted if nobody has made a decision in it "
                "yet, otherwise it is played out as an ordinary match.",
                "%(n)s matches are in play: each is aborted if nobody has made a decision in "
                "it yet, otherwise it is played out as an ordinary match.",
                in_play,
            )
            % {"n": in_play}
        )
        undo = _(
            "If a match is aborted, the cancel can't be undone (an aborted match can't be "
            "restarted). Otherwise you can undo it on the tournament's page for %(n)s minutes."
        ) % {"n": minutes}
    else:
        undo = _("You can undo it on the tournament's page for %(n)s minutes.") % {"n": minutes}
    return {"title": _("Cancel %(name)s?") % {"name": t.name}, "consequences": lines,
            "button": _("Cancel the tournament"), "undo": undo}  # fmt: skip


def start(request, pk: int) -> dict:
    t = actions.managed(request, pk)
    playing = scheduling.playing_entrants(t)
    lines = [
        ngettext(
            "%(n)s entrant is paired for round 1.", "%(n)s entrants are paired for round 1.",
            playing,
        ) % {"n": playing}
    ]  # fmt: skip
    if t.check_in:
        unchecked = t.entries.filter(withdrawn_after__isnull=True, checked_in_at__isnull=True)
        if (n := unchecked.count()) > 0:
            lines.append(
                ngettext(
                    "%(n)s entrant has not checked in and is withdrawn.",
                    "%(n)s entrants have not checked in and are withdrawn.",
                    n,
                )
                % {"n": n}
            )
    if t.auto_advance:
        lines.append(_("Round 1 starts at once, and each next round when the last result is in."))
    else:
        lines.append(_("Round 1 is paired; you start it with “Start round”."))
    lines.append(
        _("The format, table size, points, tie-breaks and rated can no longer be changed.")
    )
    return {"title": _("Start %(name)s?") % {"name": t.name}, "consequences": lines,
            "button": _("Start the tournament")}  # fmt: skip


def withdraw(request, pk: int, entry_id: int) -> dict:
    t = actions.managed(request, pk)
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, tournament=t)
    who = {"player": entry.player}
    if t.status == TournamentStatus.REGISTRATION:
        lines = [_("%(player)s's entry is removed (they may enter again before the start).")
                 % who]  # fmt: skip
    else:
        lines = [
            _("%(player)s is not paired in any later round.") % who,
            _("Their games played so far still count in the standings; a game they are "
              "playing now is not stopped.") % who,
        ]  # fmt: skip
        # tournaments.services.rounds.after_withdrawal: the paired round is paired again.
        if (paired := rounds.seated_in_paired_round(entry)) is not None:
            lines.append(_("%(round)s is paired but not started: it is paired again without "
                           "them (logged).") % {"round": paired})  # fmt: skip
    return {"title": _("Withdraw %(player)s?") % who, "consequences": lines,
            "button": _("Withdraw %(player)s") % who}  # fmt: skip


def forfeit(request, pk: int, table_id: int, entry_id: int) -> dict:
    table = get_object_or_404(Table.objects.select_related("round__tournament", "match"),
                              pk=table_id, round__tournament_id=pk)  # fmt: skip
    if not permissions.may_manage_table(request.user, table):
        raise PermissionDenied
    seat = get_object_or_404(table.seats.select_related("entry__player"), entry_id=entry_id)
    who = {"player": seat.entry.player, "table": table.number}
    lines = [
        _("%(player)s forfeits table %(table)s and is ranked last there; the others share "
          "first place.") % who,
    ]  # fmt: skip
    if table.match_id is not None and table.match.status == "running":
        lines.append(_("The match being played at the table is aborted."))
    return {"title": _("%(player)s forfeits?") % who, "consequences": lines,
            "button": _("Record the forfeit"),
            "undo": _("The result can be corrected later on the table's page (logged).")}  # fmt: skip
