"""The base of every request-body serializer: a field it does not know is refused (400,
code ``unknown_field``), not silently dropped — a misspelt option must not go unnoticed.

Nested serializers deriving from it check their own keys, so the error names the path
(``time_control.bogus``, ``seats.0.colour``). Free-form JSON objects (``BoundedDictField``:
engine options, bot parameters, tournament settings, actions) are left to the services,
which refuse keys they do not know (the engines' option schemas, the bots' parameter
checks, tournaments.services.setup's CONFIG_KEYS, the legal actions).
"""

from collections.abc import Mapping

from django.utils.translation import gettext
from rest_framework import serializers

UNKNOWN_FIELD = "unknown_field"
# Sent along by the browsable API's HTML forms (session log-in), not by the client.
FORM_EXTRAS = frozenset({"csrfmiddlewaretoken"})


class InputSerializer(serializers.Serializer):
    def to_internal_value(self, data):
        unknown = {}
        if isinstance(data, Mapping):
            # Read-only fields are known: a body read from the API may be sent back as is.
            unknown = {
                str(key): [serializers.ErrorDetail(gettext("Unknown field."), code=UNKNOWN_FIELD)]
                for key in data
                if key not in self.fields and key not in FORM_EXTRAS
            }
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            if unknown and isinstance(exc.detail, dict):
                exc.detail.update(unknown)
            raise
        if unknown:
            raise serializers.ValidationError(unknown)
        return value
