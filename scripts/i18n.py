"""Message catalogs: extract the English messages, merge them into the catalogs, compile.

    python scripts/i18n.py update     # src → fr/jdr.po (new messages untranslated), en/jdr.po
    python scripts/i18n.py translate F.json  # {"English": "Français", "plural": ["un", "des"]}
    python scripts/i18n.py compile    # each jdr.po → jdr.mo (committed; tests check they match)
    python scripts/i18n.py check      # fail if a message lacks a French translation

Needs Babel (a dev dependency). French translations are written by hand in fr/jdr.po. English
messages are the source strings themselves, except identifiers shown to a reader
(`critical_failure`, `p_success`): en/jdr.po, written by `update`, displays them as words.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "jdr"
FOLDER = SOURCE / "locale" / "fr" / "LC_MESSAGES"
PO = FOLDER / "jdr.po"
MO = FOLDER / "jdr.mo"
EN_PO = SOURCE / "locale" / "en" / "LC_MESSAGES" / "jdr.po"
IDENTIFIER = re.compile(r"^[a-z]+(_[a-z]+)+$")
sys.path.insert(0, str(SOURCE.parent))  # this checkout's jdr, whichever is installed

from jdr.i18n import typeset  # noqa: E402


def _typeset_catalog(catalog: Catalog) -> None:
    for message in catalog:
        if not message.id or not message.string:
            continue
        if isinstance(message.string, tuple):
            message.string = tuple(typeset(s) for s in message.string)
        else:
            message.string = typeset(message.string)


def english(identifier: str) -> str:
    """`critical_failure` → `critical failure`; `p_success` → `P(success)`."""
    if identifier.startswith("p_"):
        return f"P({english(identifier[2:]) if '_' in identifier[2:] else identifier[2:]})"
    return identifier.replace("_", " ")


KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}


def extract() -> Catalog:
    catalog = Catalog(project="jdr", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
        str(SOURCE),
        method_map=[("**.py", "python"), ("web/templates/**.html", "jinja2.ext:babel_extract")],
        keywords=KEYWORDS,
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def update() -> None:
    template = extract()
    FOLDER.mkdir(parents=True, exist_ok=True)
    if PO.exists():
        with PO.open("rb") as handle:
            catalog = read_po(handle, locale="fr")
        catalog.update(template, no_fuzzy_matching=True)
    else:
        catalog = Catalog(locale="fr", project="jdr", charset="utf-8")
        catalog.update(template, no_fuzzy_matching=True)
    _typeset_catalog(catalog)
    with PO.open("wb") as handle:
        write_po(
            handle, catalog, width=100, omit_header=False, sort_output=True, include_lineno=False
        )
    english_catalog = Catalog(locale="en", project="jdr", charset="utf-8", fuzzy=False)
    for message in template:
        if isinstance(message.id, str) and IDENTIFIER.match(message.id):
            english_catalog.add(message.id, english(message.id))
    EN_PO.parent.mkdir(parents=True, exist_ok=True)
    with EN_PO.open("wb") as handle:
        write_po(handle, english_catalog, width=100, sort_output=True, include_lineno=False)


def compile_mo() -> None:
    for po, lang in ((PO, "fr"), (EN_PO, "en")):
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        with po.with_suffix(".mo").open("wb") as handle:
            write_mo(handle, catalog)


def translate(path: Path) -> None:
    """Fill French translations from a JSON object keyed by the English (singular) message."""
    import json

    translations = json.loads(path.read_text(encoding="utf-8"))
    with PO.open("rb") as handle:
        catalog = read_po(handle, locale="fr")
    for message in catalog:
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        if not key or key not in translations:
            continue
        value = translations[key]
        if isinstance(message.id, tuple):
            one, other = value
            message.string = (one, *[other] * (catalog.num_plurals - 1))
        else:
            message.string = value
        message.flags.discard("fuzzy")
    _typeset_catalog(catalog)
    with PO.open("wb") as handle:
        write_po(handle, catalog, width=100, sort_output=True, include_lineno=False)


def missing() -> list[str]:
    with PO.open("rb") as handle:
        catalog = read_po(handle, locale="fr")
    gaps = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings) or message.fuzzy:
            gaps.append(str(message.id))
        elif any(typeset(s) != s for s in strings):
            gaps.append(f"{message.id} (French typography: run `update`)")
    return gaps


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "update"
    if command == "update":
        update()
        gaps = missing()
        print(f"{PO.relative_to(ROOT)}: {len(gaps)} message(s) to translate")
        for gap in gaps:
            print("  ", gap)
    elif command == "translate" and len(argv) == 2:
        translate(Path(argv[1]))
        print(f"{len(missing())} message(s) left to translate")
    elif command == "compile":
        compile_mo()
        print(f"wrote {MO.relative_to(ROOT)}")
    elif command == "check":
        gaps = missing()
        for gap in gaps:
            print("untranslated:", gap)
        return 1 if gaps else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
