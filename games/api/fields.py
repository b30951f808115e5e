"""Serializer fields with the bounds every free-form input needs."""

import json

from django.utils.translation import gettext
from rest_framework import serializers

from games.api.parsers import depth_of


def _has_nul(value) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


class BoundedDictField(serializers.DictField):
    """A JSON object of bounded size and depth, without NUL characters (which PostgreSQL
    cannot store): actions, engine options, bot parameters, tournament settings."""

    def __init__(self, *, max_keys: int = 64, max_depth: int = 8, max_bytes: int = 16 * 1024,
                 **kwargs):  # fmt: skip
        self.max_keys, self.max_depth, self.max_bytes = max_keys, max_depth, max_bytes
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if len(value) > self.max_keys:
            raise serializers.ValidationError(gettext("At most %(n)s keys.") % {"n": self.max_keys})
        if depth_of(value, self.max_depth) > self.max_depth:
            raise serializers.ValidationError(
                gettext("Nested at most %(n)s levels deep.") % {"n": self.max_depth}
            )
        try:
            size = len(json.dumps(value, allow_nan=False))
        except (TypeError, ValueError):
            raise serializers.ValidationError(gettext("Only plain JSON values.")) from None
        if size > self.max_bytes:
            raise serializers.ValidationError(
                gettext("At most %(n)s bytes of JSON.") % {"n": self.max_bytes}
            )
        if _has_nul(value):
            raise serializers.ValidationError(gettext("Null characters are not allowed."))
        return value
