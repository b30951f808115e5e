"""The engines' words: every human-visible engine string goes through `_()`.

Engines stay free of Django (docs/architecture.md, "Engine i18n"), so they translate with
the standard library's gettext reading the project's compiled catalogs
(domain "engines", in the same `locale/` directory as Django's). The platform
tells the language with `set_language` (games/i18n.py does it per request).

The current translation lives in a context variable, not a module global: a
web process serves English and Czech requests on different threads at once,
and each thread (or asyncio task) must see only its own language. A fresh
thread starts in English, so bots and workers keep English.

Use it on a whole sentence with named placeholders, then format:
``_("take {good} from the display").format(good=_(good))`` - translators
need whole sentences, word order differs between languages.
"""

from __future__ import annotations

import contextvars
import functools
import gettext
from pathlib import Path

DOMAIN = "engines"

_ENGLISH = gettext.NullTranslations()
_translation: contextvars.ContextVar[gettext.NullTranslations] = contextvars.ContextVar(
    "engine_translation", default=_ENGLISH
)


@functools.lru_cache(maxsize=32)
def _load(language: str, localedir: str) -> gettext.NullTranslations:
    # Catalogs are read once per process; gettext.translation re-reads the file otherwise.
    return gettext.translation(DOMAIN, localedir, languages=[language], fallback=True)


def set_language(
    language: str | None, localedir: str | Path | None = None
) -> contextvars.Token[gettext.NullTranslations]:
    """Use the catalog for `language` from `localedir` (English when missing or None).

    Returns a token for `reset_language`, so a caller can restore what was there.
    """
    if not language or localedir is None or language.split("-")[0] == "en":
        return _translation.set(_ENGLISH)
    return _translation.set(_load(language, str(localedir)))


def reset_language(token: contextvars.Token[gettext.NullTranslations]) -> None:
    """Restore the translation that was current before `set_language` returned `token`."""
    _translation.reset(token)


def current_language() -> str:
    """The language code of the current catalog ("en" when none is active)."""
    info = _translation.get().info()
    return info.get("language", "en") or "en"


def _(text: str) -> str:
    """The text in the current context's language."""
    return _translation.get().gettext(text)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.get().ngettext(singular, plural, n)


def pgettext(context: str, text: str) -> str:
    """`text` translated in `context`: one English word can need two Czech ones
    ("M" is a market on the Silk Road board and a Mongol rider on the Great Wall)."""
    return _translation.get().pgettext(context, text)
