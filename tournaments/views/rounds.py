"""The organiser's controls of a paired round (templates/tournaments/_round_controls.html):
start, pair again and unpair ask first (final); swap, move and forbidden pairs are buttons.
The work is in tournaments.services.rounds and tournaments.services.overrides."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from core import permissions
from tournaments.models import Round
from tournaments.services import overrides, rounds
from tournaments.views import actions


def _round(request, pk: int, number: int) -> Round:
    t = actions.managed(request, pk)
    return get_object_or_404(Round.objects.select_related("tournament"), tournament=t,
                             number=number)  # fmt: skip


def _table_count(rnd: Round) -> int:
    return rnd.tables.count()


# ---- start, pair again, unpair: final, they ask first -----------------------------------
def _ask_start(request, pk: int, number: int) -> dict:
    rnd = _round(request, pk, number)
    n = _table_count(rnd)
    return {
        "title": _("Start %(round)s?") % {"round": rnd},
        "consequences": [
            _("Its pairing is fixed: no more swaps, moves or pairing again."),
            _(
                "Every table starts: online tables become matches, over-the-board tables await their results."
            )  # noqa: E501
            if n
            else _("The round has only byes: it is finished at once."),
        ],
        "button": _("Start round"),
    }


@actions.final("tournament_manage", _ask_start)
def round_start(request, pk: int, number: int):
    rnd = _round(request, pk, number)
    return actions.run_then_show(
        request, pk, lambda: rounds.start_round(round_=rnd), _("%(round)s started") % {"round": rnd}
    )


def _ask_repair(request, pk: int, number: int) -> dict:
    rnd = _round(request, pk, number)
    return {
        "title": _("Pair %(round)s again?") % {"round": rnd},
        "consequences": [
            _("Its tables and byes are replaced by a different pairing, if the format allows one."),  # noqa: E501
            _("Swaps and moves made by hand are lost."),
            _("The change is logged."),
        ],
        "button": _("Pair again"),
        "undo": _("Until the round starts you can swap or move entrants by hand."),
    }


@actions.final("tournament_manage", _ask_repair)
def round_repair(request, pk: int, number: int):
    rnd = _round(request, pk, number)
    return actions.run_then_show(
        request, pk, lambda: rounds.repair_round(round_=rnd, by=request.user),
        _("%(round)s paired again") % {"round": rnd},
    )  # fmt: skip


def _ask_unpair(request, pk: int, number: int) -> dict:
    rnd = _round(request, pk, number)
    return {
        "title": _("Unpair %(round)s?") % {"round": rnd},
        "consequences": [
            _("Its tables and byes are deleted, with the log of its changes."),
            _("The tournament is back before this round: “Pair next round” pairs it again."),
        ],
        "button": _("Unpair"),
        "undo": _("Pair the round again with “Pair next round”."),
    }


@actions.final("tournament_manage", _ask_unpair)
def round_unpair(request, pk: int, number: int):
    rnd = _round(request, pk, number)
    label = str(rnd)
    return actions.run_then_show(
        request, pk, lambda: overrides.unpair(round_=rnd, by=request.user),
        _("%(round)s unpaired") % {"round": label},
    )  # fmt: skip


# ---- swap and move -----------------------------------------------------------------------
@actions.button("tournament_manage")
def round_swap(request, pk: int, number: int):
    rnd = _round(request, pk, number)
    return actions.run_then_show(
        request, pk,
        lambda: overrides.swap(round_=rnd, first=request.POST.get("first"),
                               second=request.POST.get("second"), by=request.user),
        _("Swapped"),
    )  # fmt: skip


def _table_number(value: str | None) -> int | None:
    """The move form's target: a table number, or "bye"."""
    if value in (None, "", "bye"):
        return None
    try:
        return int(value)
    except ValueError:
        return -1  # no such table: the service says so


@actions.button("tournament_manage")
def round_move(request, pk: int, number: int):
    rnd = _round(request, pk, number)
    table = _table_number(request.POST.get("table"))
    return actions.run_then_show(
        request, pk,
        lambda: overrides.move(round_=rnd, entry=request.POST.get("entry"), table=table,
                               by=request.user),
        _("Moved"),
    )  # fmt: skip


# ---- forbidden pairs ---------------------------------------------------------------------
@actions.button("tournament_manage")
def forbidden_add(request, pk: int):
    t = actions.managed(request, pk)
    return actions.run_then_show(
        request, pk,
        lambda: overrides.add_forbidden(tournament=t, first=request.POST.get("first"),
                                        second=request.POST.get("second")),
        _("They will not be paired together from the next pairing on."),
    )  # fmt: skip


@actions.button("tournament_manage")
def forbidden_remove(request, pk: int, pairing_id: int):
    t = actions.managed(request, pk)
    return actions.run_then_show(
        request, pk, lambda: overrides.remove_forbidden(tournament=t, pairing_id=pairing_id),
        _("The pair may meet again."),
    )  # fmt: skip


def organiser_extras(request, t) -> dict:
    """The tournament page's pairing log and forbidden pairs (organisers only)."""
    if not permissions.may_manage_tournament(request.user, t):
        return {}
    return {
        "pairing_log": overrides.pairing_log(t),
        "forbidden_pairs": overrides.forbidden_pairs(t),
    }
