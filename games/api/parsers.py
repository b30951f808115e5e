"""Request parsing with limits: a JSON body is at most `MAX_BODY_BYTES` and `MAX_DEPTH`
levels deep, so a hostile body gets a 400 instead of a RecursionError or a huge parse."""

import json

from django.conf import settings
from django.utils.translation import gettext
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils.json import strict_constant

MAX_BODY_BYTES = 256 * 1024
MAX_DEPTH = 32


def depth_of(value, limit: int = MAX_DEPTH) -> int:
    """Nesting depth of a JSON value (a scalar is 0), counted without recursion;
    stops counting once past `limit`."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        level += 1
        deepest = max(deepest, level)
        if deepest > limit:
            return deepest
        stack.extend((child, level) for child in children)
    return deepest


def _too_deep() -> str:
    return gettext("JSON nested deeper than %(n)s levels.") % {"n": MAX_DEPTH}


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        raw = stream.read(MAX_BODY_BYTES + 1) if stream is not None else b""
        if len(raw) > MAX_BODY_BYTES:
            raise ParseError(gettext("JSON body larger than %(n)s bytes.") % {"n": MAX_BODY_BYTES})
        try:
            data = json.loads(raw.decode(encoding), parse_constant=strict_constant)
        except RecursionError:
            raise ParseError(_too_deep()) from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(gettext("JSON parse error - %(error)s") % {"error": exc}) from None
        if depth_of(data) > MAX_DEPTH:
            raise ParseError(_too_deep())
        return data
