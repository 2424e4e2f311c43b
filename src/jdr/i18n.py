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

A plug-in brings its own words (`System(messages=…)`, see docs/plugins.md): in code with
`Messages`, or as gettext catalogs shipped in its package with `GettextCatalog`. jdr's own catalog
answers first, then each plug-in's, in the order they were added:

>>> add_catalog(Messages(fr={"partial_success": "réussite partielle"}))
>>> with language("fr"):
...     _("partial_success"), _("success")
('réussite partielle', 'réussite')
>>> _("partial_success")
'partial success'
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Protocol, runtime_checkable

LANGUAGES = ("en", "fr")
DEFAULT_LANGUAGE = "en"
_LOCALE_DIR = Path(__file__).parent / "locale"
_current: ContextVar[str] = ContextVar("jdr_language", default=DEFAULT_LANGUAGE)


@cache
def _catalog(lang: str) -> gettext.NullTranslations:
    return gettext.translation("jdr", localedir=_LOCALE_DIR, languages=[lang], fallback=True)


def current_language() -> str:
    """The language of the current context: `en` or `fr` (set by the front end)."""
    return _current.get()


def set_language(lang: str) -> None:
    """Set the language of the current context (the CLI does this once per command)."""
    _current.set(normalize_language(lang) or DEFAULT_LANGUAGE)


@contextmanager
def language(lang: str) -> Iterator[None]:
    """Speak `lang` inside the `with` block (a test, a recap written for another reader)."""
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
    """Translate `message` into the current language (jdr's catalog, then the plug-ins')."""
    lang = _current.get()
    found = _catalog(lang).gettext(message)
    if found == message and _added:
        return _from_plugins(lang, message)
    return found


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate with the plural form for `n` (jdr's catalog, then the plug-ins')."""
    lang = _current.get()
    found = _catalog(lang).ngettext(singular, plural, n)
    if found == (singular if n == 1 else plural) and _added:
        for catalog in _added:
            translated = catalog.ngettext(lang, singular, plural, n)
            if translated is not None:
                return typeset(translated) if lang == "fr" else translated
    return found


NBSP, NNBSP = "\u00a0", "\u202f"
_SPACED_MARK = re.compile(r" ([:;!?])(?=\s|$|[»)])")
_TIGHT_MARK = re.compile(
    r'(?<=[^\s"\u00a0\u202f{(])([:;?])(?=\s|$|[»)])|(?<=[^\W\d_])(!)(?=\s|$|[»)])'
)
_QUOTES = re.compile(r"«[ \u00a0]?(.*?)[ \u00a0]?»")


def typeset(text: str) -> str:
    """French typography of a translation (the catalog's, by `scripts/i18n.py`; a plug-in's, as
    it is read): a no-break space before « : », a narrow one before
    « ; ! ? », no-break spaces inside « » (a line never starts with the mark).

    >>> typeset("Carapuce: Dextérité ; encore ? « oui »") == (
    ...     "Carapuce\u00a0: Dextérité\u202f; encore\u202f? «\u00a0oui\u00a0»")
    True
    >>> typeset('en JSON {"PNJ": "objet"} à 12:30')
    'en JSON {"PNJ": "objet"} à 12:30'
    >>> typeset(" ; ") == "\u202f; "
    True
    """

    def spaced(match: re.Match[str]) -> str:
        mark = match.group(1) or match.group(2)
        return (NBSP if mark == ":" else NNBSP) + mark

    text = _TIGHT_MARK.sub(spaced, _SPACED_MARK.sub(spaced, text))
    return _QUOTES.sub(lambda m: f"«{NBSP}{m.group(1)}{NBSP}»", text)


def labelled(label: str, text: str) -> str:
    """`label: text` in the current language's typography (French puts a no-break space before
    the colon).

    >>> labelled("Carapuce", "Dextérité")
    'Carapuce: Dextérité'
    >>> with language("fr"):
    ...     labelled("Carapuce", "Dextérité") == "Carapuce\u00a0: Dextérité"
    True
    """
    return _("{label}: {text}").format(label=label, text=text)


def joined(parts: Sequence[str]) -> str:
    """Clauses joined by semicolons, in the current language's typography.

    >>> joined(["a", "b"])
    'a; b'
    """
    return _("; ").join(parts)


@runtime_checkable
class Catalog(Protocol):
    """A plug-in's translations: `None` for a message it does not hold (the next catalog is
    asked, and at last the message is shown as written)."""

    def gettext(self, lang: str, message: str) -> str | None: ...

    def ngettext(self, lang: str, singular: str, plural: str, n: int) -> str | None: ...


_IDENTIFIER = re.compile(r"^[a-z]+(_[a-z]+)+$")


def plural_index(lang: str, n: int) -> int:
    """Which plural form `n` takes: French uses the singular for 0 and 1, English for 1 only.

    >>> plural_index("fr", 0), plural_index("en", 0), plural_index("fr", 2)
    (0, 1, 1)
    """
    return int(n > 1) if lang == "fr" else int(n != 1)


@dataclass(frozen=True)
class Messages:
    """Translations written in code, by language: `{"English msgid": "Français"}`, and for a
    plural `{"singular msgid": ["un", "des"]}` (the singular and plural forms).

    English needs no table: messages are written in English. An identifier shown to a reader
    (`partial_success`, an outcome) reads as words in English when no `en` entry says otherwise.

    >>> words = Messages(fr={"partial_success": "réussite partielle",
    ...                      "{n} die": ["{n} dé", "{n} dés"]})
    >>> words.gettext("fr", "partial_success"), words.gettext("en", "partial_success")
    ('réussite partielle', 'partial success')
    >>> words.ngettext("fr", "{n} die", "{n} dice", 2), words.gettext("fr", "unknown")
    ('{n} dés', None)
    """

    fr: Mapping[str, str | Sequence[str]] = field(default_factory=dict)
    en: Mapping[str, str | Sequence[str]] = field(default_factory=dict)

    def _table(self, lang: str) -> Mapping[str, str | Sequence[str]]:
        return self.fr if lang == "fr" else self.en

    def gettext(self, lang: str, message: str) -> str | None:
        found = self._table(lang).get(message)
        if found is None:  # the common case, kept cheap: most messages are not a plug-in's
            if lang == "en" and message in self.fr and _IDENTIFIER.match(message):
                return message.replace("_", " ")
            return None
        if isinstance(found, str):
            return found
        return str(found[0]) if len(found) > 0 else None

    def ngettext(self, lang: str, singular: str, plural: str, n: int) -> str | None:
        found = self._table(lang).get(singular)
        if found is None:
            return None
        if isinstance(found, str):  # one form given: the singular
            return found if plural_index(lang, n) == 0 else None
        forms = list(found)
        return str(forms[min(plural_index(lang, n), len(forms) - 1)])


@dataclass(frozen=True)
class GettextCatalog:
    """gettext catalogs shipped in a package: `LOCALE/fr/LC_MESSAGES/DOMAIN.mo` under
    `folder` (a path, or a package's folder as `importlib.resources.files` gives it, so it works
    from a wheel). `GettextCatalog.of_package("myhomebrew")` reads `myhomebrew/locale/`."""

    domain: str
    folder: Traversable | Path

    @classmethod
    def of_package(
        cls, package: str, domain: str | None = None, folder: str = "locale"
    ) -> GettextCatalog:
        """The catalogs under the package's `folder`, named after its top-level name."""
        return cls(domain or package.split(".", maxsplit=1)[0], files(package).joinpath(folder))

    def _translations(self, lang: str) -> gettext.NullTranslations | None:
        mo = self.folder.joinpath(lang, "LC_MESSAGES", f"{self.domain}.mo")
        if not mo.is_file():
            return None
        with mo.open("rb") as handle:
            return gettext.GNUTranslations(handle)

    def gettext(self, lang: str, message: str) -> str | None:
        translations = _loaded(self, lang)
        found = translations.gettext(message) if translations else message
        return None if found == message else found

    def ngettext(self, lang: str, singular: str, plural: str, n: int) -> str | None:
        translations = _loaded(self, lang)
        written = singular if n == 1 else plural
        found = translations.ngettext(singular, plural, n) if translations else written
        if found == written and translations is not None:
            # A catalog whose header asks for more forms than it gives (Babel's French has a
            # third, for millions): the form French grammar picks, if the catalog holds it.
            forms = getattr(translations, "_catalog", {})
            found = forms.get((singular, plural_index(lang, n)), written)
        return None if found == written else str(found)


@cache
def _loaded(catalog: GettextCatalog, lang: str) -> gettext.NullTranslations | None:
    return catalog._translations(lang)


_added: list[Catalog] = []
_answers: dict[tuple[str, str], str] = {}
"""The plug-ins' answers already looked up, by (language, message): a message jdr's catalog
lacks (in English, nearly every one) costs one lookup, however many catalogs are added."""
_MOST_ANSWERS = 20_000


def _from_plugins(lang: str, message: str) -> str:
    key = (lang, message)
    answer = _answers.get(key)
    if answer is None:
        answer = message
        for catalog in _added:
            translated = catalog.gettext(lang, message)
            if translated is not None:
                answer = typeset(translated) if lang == "fr" else translated
                break
        if len(_answers) >= _MOST_ANSWERS:  # messages are few; a bound all the same
            _answers.clear()
        _answers[key] = answer
    return answer


def add_catalog(catalog: Catalog) -> None:
    """Make a plug-in's translations available to `_` and `ngettext`, after jdr's own and those
    added before (adding the same catalog again changes nothing). The registry adds a system's
    `messages` when it loads the system, so every front end uses them."""
    if not isinstance(catalog, Catalog):
        raise TypeError(f"not a catalog: {catalog!r} (Messages or GettextCatalog)")
    if all(catalog is not known for known in _added):
        _added.append(catalog)
        _answers.clear()


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
