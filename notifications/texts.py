"""A notice's words in the active language, from its stored data (names and numbers only:
the sentence is made at reading time, so every reader gets it in her language)."""

from __future__ import annotations

from django.utils.translation import gettext

from notifications.models import NoticeKind


def _names(names) -> str:
    names = [str(n) for n in names or []]
    if len(names) <= 1:
        return "".join(names)
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def _round(data: dict) -> str:
    from tournaments.models import round_label  # the formats' round words, translated

    return round_label(data.get("round_label", ""), int(data.get("round", 0) or 0))


def _table(data: dict) -> str:
    if data.get("table_name"):
        return gettext("table %(number)s (%(name)s)") % {
            "number": data.get("table"), "name": data["table_name"],
        }  # fmt: skip
    return gettext("table %(number)s") % {"number": data.get("table")}


def text(kind: str, data: dict) -> str:
    d = data or {}
    if kind == NoticeKind.INVITATION:
        return gettext("%(by)s invites you to %(target)s.") % {
            "by": d.get("by", ""), "target": d.get("target", ""),
        }  # fmt: skip
    if kind == NoticeKind.INVITATION_ANSWERED:
        words = (
            gettext("%(player)s accepted your invitation to %(target)s.")
            if d.get("accepted")
            else gettext("%(player)s declined your invitation to %(target)s.")
        )
        return words % {"player": d.get("player", ""), "target": d.get("target", "")}
    if kind == NoticeKind.ROUND_PAIRED:
        values = {"round": _round(d), "tournament": d.get("tournament", ""), "table": _table(d),
                  "opponents": _names(d.get("opponents"))}  # fmt: skip
        if not d.get("opponents"):
            return gettext("%(round)s of %(tournament)s is paired: you play at %(table)s.") % values
        return (
            gettext(
                "%(round)s of %(tournament)s is paired: you play at %(table)s against %(opponents)s."
            )
            % values
        )
    if kind == NoticeKind.RESULT_TO_CONFIRM:
        return gettext(
            "%(reporter)s reported the result of %(table)s in %(tournament)s: please confirm "
            "or reject it."
        ) % {"reporter": d.get("reporter", ""), "table": _table(d),
             "tournament": d.get("tournament", "")}  # fmt: skip
    if kind == NoticeKind.RESULT_CORRECTED:
        return gettext("The result of %(table)s in %(round)s of %(tournament)s was corrected.") % {
            "table": _table(d), "round": _round(d), "tournament": d.get("tournament", ""),
        }  # fmt: skip
    if kind == NoticeKind.YOUR_MOVE:
        if not d.get("opponents"):
            return gettext("It is your move in %(match)s.") % {"match": d.get("match", "")}
        return gettext("It is your move in %(match)s against %(opponents)s.") % {
            "match": d.get("match", ""), "opponents": _names(d.get("opponents")),
        }  # fmt: skip
    if kind == NoticeKind.TOURNAMENT_STARTING:
        values = {"tournament": d.get("tournament", "")}
        if not d.get("table"):
            return gettext("%(tournament)s has started.") % values
        values.update(round=_round(d), table=_table(d))
        return gettext("%(tournament)s has started: %(round)s, your %(table)s.") % values
    if kind == NoticeKind.MATCH_FINISHED:
        return _match_finished(d)
    return str(d.get("text", ""))


def _match_finished(d: dict) -> str:
    values = {"match": d.get("match", ""), "place": d.get("place"), "seats": d.get("seats")}
    if not d.get("place"):
        return gettext("Your match %(match)s has finished.") % values
    if d.get("rating") is None:
        return gettext("Your match %(match)s has finished: place %(place)s of %(seats)s.") % values
    values.update(rating=d["rating"], delta=f"{int(d.get('delta') or 0):+d}".replace("-", "−"))
    return (
        gettext(
            "Your match %(match)s has finished: place %(place)s of %(seats)s, rating "
            "%(rating)s (%(delta)s)."
        )
        % values
    )


def subject(kind: str, data: dict) -> str:
    label = str(NoticeKind(kind).label) if kind in NoticeKind.values else kind
    d = data or {}
    place = d.get("tournament") or d.get("target") or d.get("match") or ""
    return f"{label}: {place}" if place else label
