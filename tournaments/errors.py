"""Refusals of tournaments with a status of their own (core/errors.py): bad input stays a
Django ValidationError (400) and a caller who may not a PermissionDenied (403)."""

from django.utils.translation import gettext_lazy as _

from core.errors import DomainError


class TournamentConflict(DomainError):
    status_code = 409
    code = "conflict"


class InvalidConfig(TournamentConflict):
    """The stored settings are unusable (edited by hand, or older rules): no standings."""

    code = "invalid_config"


class InvalidRounds(TournamentConflict):
    """The stored rounds are unusable (edited by hand): no standings."""

    code = "invalid_rounds"


class NoForecast(TournamentConflict):
    code = "no_forecast"
    default_message = _("Forecasts are for a league, round robin or Swiss in progress.")


class AlreadyRecorded(TournamentConflict):
    code = "already_recorded"
    default_message = _("This table already has a result; PUT corrects it.")
