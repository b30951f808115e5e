"""Names people can't fake (issue #31): look-alike names and invisible characters.

- ``skeleton``: the confusable skeleton of Unicode's UTS #39 (NFD, every character mapped
  to its prototype in confusables.txt, NFD again), case-folded. ICU computes it
  (``icu.SpoofChecker``, the reference implementation, Unicode's current table), so
  "аlice" with a Cyrillic а, "pаypal" and "paypal", "rn" and "m" share one skeleton.
- ``skeletons``: the two keys a name is compared by: the skeleton of the name as written
  ("Ian" and "lan": a capital I is drawn like an l) and the skeleton of its case-folded form
  ("АLICE" with a Cyrillic А and "alice"). A single key cannot do both: folding first loses
  the I/l likeness, mapping first makes "ALICE" ("ALlCE") differ from "alice".
- ``check_text`` / ``NoControlCharacters``: control characters (Cc) and format characters
  (Cf: zero-width spaces and joiners, the bidi embeddings, overrides and isolates, the
  byte-order mark) are refused in names, where they hide or reorder letters ("a\u202elice"
  shows as "aecil"). Descriptions (``multiline``) keep newlines and tabs, and the
  zero-width joiner that emoji sequences need, nothing else of them.

Imports no app: games, tournaments and the account forms use it.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import icu
from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext, gettext_lazy

LOOKS_TAKEN = gettext_lazy("This name looks like one already taken.")

# Kept in descriptions: line breaks and tabs are layout, the joiner builds emoji sequences.
MULTILINE_ALLOWED = frozenset("\n\r\t\u200d")
# Refused whatever the field: controls (Cc), invisible format characters (Cf) and lone
# surrogates (Cs: PostgreSQL can't store them).
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})


@lru_cache(maxsize=1)
def _checker() -> icu.SpoofChecker:
    return icu.SpoofChecker()


def _uts39(text: str) -> str:
    # The type argument is ignored since ICU 58 (one table, mixed-script any-case).
    return _checker().getSkeleton(0, text)


def fold(text: str) -> str:
    """NFKC, case-folded, NFKC (games.models.fold_name: "ALICE", "Ａｌｉｃｅ", "alice")."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of `text` (NFKC first, so full-width letters count as theirs),
    case-folded and in NFD."""
    mapped = _uts39(unicodedata.normalize("NFKC", text or ""))
    return unicodedata.normalize("NFD", mapped.casefold())


def folded_skeleton(text: str) -> str:
    """The skeleton of the case-folded text: look-alikes whatever their case."""
    return skeleton(fold(text or ""))


def skeletons(text: str) -> tuple[str, str]:
    """(folded_skeleton, skeleton): two names look alike when either pair is equal."""
    return folded_skeleton(text), skeleton(text)


def looks_alike(a: str, b: str) -> bool:
    return any(x == y for x, y in zip(skeletons(a), skeletons(b), strict=True))


def refused_character(text: str, *, multiline: bool = False) -> str | None:
    """The first character `text` may not hold, or None."""
    for char in text or "":
        if multiline and char in MULTILINE_ALLOWED:
            continue
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            return char
    return None


def refusal_message(char: str, field_label) -> str:
    return gettext(
        "%(field)s can't contain invisible control or text-direction characters "
        "(it has U+%(code)s)."
    ) % {"field": field_label, "code": f"{ord(char):04X}"}


def check_text(text: str, *, field_label, multiline: bool = False) -> str:
    """`text` unchanged, or a ValidationError (code "control_character") naming the field
    by `field_label` and the first refused character by its code point."""
    char = refused_character(text, multiline=multiline)
    if char is not None:
        raise ValidationError(refusal_message(char, field_label), code="control_character")
    return text


@deconstructible
class NoControlCharacters:
    """A field validator for forms and serializers: check_text with the field's label."""

    def __init__(self, field_label=None, *, multiline: bool = False):
        self.field_label = field_label
        self.multiline = multiline

    def __call__(self, value) -> None:
        if isinstance(value, str):
            check_text(value, field_label=self.field_label or gettext("Text"),
                       multiline=self.multiline)  # fmt: skip

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, NoControlCharacters)
            and self.field_label == other.field_label
            and self.multiline == other.multiline
        )
