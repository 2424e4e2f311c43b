"""Language choice and the French catalog."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from jdr.i18n import _, language, ngettext, normalize_language, resolve_language

ROOT = Path(__file__).parents[1]


@pytest.mark.parametrize(
    ("option", "environ", "expected"),
    [
        ("fr", {"JDR_LANG": "en"}, "fr"),
        (None, {"JDR_LANG": "fr"}, "fr"),
        (None, {"LANG": "fr_FR.UTF-8"}, "fr"),
        (None, {"LC_ALL": "fr_CA", "LANG": "en_US"}, "fr"),
        (None, {"LANG": "de_DE.UTF-8"}, "en"),
        (None, {}, "en"),
    ],
)
def test_language_is_option_then_env_then_locale_then_english(
    option: str | None, environ: dict[str, str], expected: str
) -> None:
    assert resolve_language(option, environ) == expected


def test_normalize() -> None:
    assert normalize_language("FR-fr") == "fr"
    assert normalize_language("C.UTF-8") is None


def test_french_catalog_translates_outcomes_and_plurals() -> None:
    with language("fr"):
        assert _("success") == "réussite"
        assert _("critical_failure") == "échec critique"
        assert ngettext("{n} success", "{n} successes", 2).format(n=2) == "2 succès"
        assert ngettext("{n} failure", "{n} failures", 1).format(n=1) == "1 échec"
    assert _("success") == "success"


def test_every_message_in_the_code_has_a_french_translation() -> None:
    """The catalog holds every message the code marks, each translated (scripts/i18n.py update)."""
    import sys

    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import i18n as tool  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    in_code = {m.id for m in tool.extract() if m.id}
    with open(tool.PO, "rb") as handle:
        catalog = read_po(handle, locale="fr")
    in_catalog = {m.id for m in catalog if m.id}
    assert in_code <= in_catalog, sorted(map(str, in_code - in_catalog))[:5]
    assert tool.missing() == []


def test_compiled_catalog_matches_its_source() -> None:
    """The committed .mo is compiled from the committed .po (run scripts/i18n.py compile)."""
    import io

    from babel.messages.mofile import write_mo

    for lang in ("fr", "en"):
        folder = ROOT / f"src/jdr/locale/{lang}/LC_MESSAGES"
        with open(folder / "jdr.po", "rb") as po:
            catalog = read_po(po, locale=lang)
        compiled = io.BytesIO()
        write_mo(compiled, catalog)
        assert compiled.getvalue() == (folder / "jdr.mo").read_bytes(), lang


def test_english_shows_identifiers_as_words() -> None:
    with language("en"):
        assert _("critical_failure") == "critical failure"
        assert _("p_success") == "P(success)"
        assert _("success") == "success"
