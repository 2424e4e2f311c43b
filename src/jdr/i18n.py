"""Messages in French and English, through gettext catalogs.

Code is written with English messages wrapped in `_()` / `ngettext()`; the French catalog
(`locale/fr/LC_MESSAGES/jdr.po`, compiled to `.mo`) translates them. The language is chosen at the
edge and held in a context variable, so the pure core never reads the environment:

>>> with language("fr"):
...     _("success")
'réussite'
>>> _("success")
'success'

Game terms keep their French names in both languages (Énergie, Volonté, DD, PA).
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "fr")
DEFAULT_LANGUAGE = "en"
_LOCALE_DIR = Path(__file__).parent / "locale"
_current: ContextVar[str] = ContextVar("jdr_language", default=DEFAULT_LANGUAGE)


@cache
def _catalog(lang: str) -> gettext.NullTranslations:
    return gettext.translation("jdr", localedir=_LOCALE_DIR, languages=[lang], fallback=True)


def current_language() -> str:
    return _current.get()


def set_language(lang: str) -> None:
    """Set the language of the current context (the CLI does this once per command)."""
    _current.set(normalize_language(lang) or DEFAULT_LANGUAGE)


@contextmanager
def language(lang: str) -> Iterator[None]:
    token = _current.set(normalize_language(lang) or DEFAULT_LANGUAGE)
    try:
        yield
    finally:
        _current.reset(token)


def normalize_language(value: str | None) -> str | None:
    """`fr_FR.UTF-8` → `fr`; anything not French or English → None."""
    if not value:
        return None
    code = value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def resolve_language(option: str | None, environ: Mapping[str, str] = os.environ) -> str:
    """--lang, else JDR_LANG, else the locale (LC_ALL, LC_MESSAGES, LANG), else English."""
    for candidate in (
        option,
        environ.get("JDR_LANG"),
        environ.get("LC_ALL"),
        environ.get("LC_MESSAGES"),
        environ.get("LANG"),
    ):
        lang = normalize_language(candidate)
        if lang:
            return lang
    return DEFAULT_LANGUAGE


def _(message: str) -> str:
    """Translate `message` into the current language."""
    return _catalog(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate with the plural form for `n`."""
    return _catalog(_current.get()).ngettext(singular, plural, n)


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for "translate later"
    """Mark `message` for extraction without translating it now (translate later with `_`)."""
    return message


_ELISION = re.compile(r"\b([Dd]e|[Qq]ue) (?=[AEIOUaeiouÀÂÄÉÈÊËÎÏÔÖÙÛÜàâäéèêëîïôöùûü])")


def elide(text: str) -> str:
    """French text with its elisions made where a name or a number's word was filled in: `de` and
    `que` before a vowel become `d'` and `qu'` (a message's own words are already right; what
    was filled in, `de {name}`, is not known in advance). Other languages are left as they are.

    >>> with language("fr"):
    ...     elide("la fuite de Aiko, plus que Éloïse, le tour de Kaito")
    "la fuite d'Aiko, plus qu'Éloïse, le tour de Kaito"
    >>> elide("de Aiko")
    'de Aiko'
    """
    if current_language() != "fr":
        return text
    return _ELISION.sub(lambda m: m[1][0] + ("u'" if m[1].lower() == "que" else "'"), text)
