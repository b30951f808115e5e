"""The engines' words: every human-visible engine string goes through `_()`.

Engines stay free of Django (DESIGN.md, "Languages"), so they translate with
the standard library's gettext. For now no catalog is installed and `_()`
returns the English text unchanged; the platform will call `set_language`
with a catalog directory once Czech exists, and no call site has to change.

Use it on a whole sentence with named placeholders, then format:
``_("take {good} from the display").format(good=_(good))`` - translators
need whole sentences, word order differs between languages.
"""

from __future__ import annotations

import gettext
from pathlib import Path

DOMAIN = "engines"

_translation: gettext.NullTranslations = gettext.NullTranslations()


def set_language(language: str | None, localedir: str | Path | None = None) -> None:
    """Use the catalog for `language` from `localedir` (English when missing or None)."""
    global _translation
    if not language or localedir is None:
        _translation = gettext.NullTranslations()
        return
    _translation = gettext.translation(DOMAIN, localedir, languages=[language], fallback=True)


def _(text: str) -> str:
    """The text in the current language (unchanged while only English exists)."""
    return _translation.gettext(text)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.ngettext(singular, plural, n)
