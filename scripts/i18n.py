"""Message catalogs: extract the English messages, merge them into the French catalog, compile.

    python scripts/i18n.py update    # src → jdr.pot → fr/jdr.po (new messages appear untranslated)
    python scripts/i18n.py compile   # fr/jdr.po → fr/jdr.mo (committed; tests check it is current)
    python scripts/i18n.py check     # fail if a message lacks a French translation

Needs Babel (a dev dependency). Translations are written by hand in the .po file.
"""

from __future__ import annotations

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
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}


def extract() -> Catalog:
    catalog = Catalog(project="jdr", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
        str(SOURCE), method_map=[("**.py", "python")], keywords=KEYWORDS
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
    with PO.open("wb") as handle:
        write_po(
            handle, catalog, width=100, omit_header=False, sort_output=True, include_lineno=False
        )


def compile_mo() -> None:
    with PO.open("rb") as handle:
        catalog = read_po(handle, locale="fr")
    with MO.open("wb") as handle:
        write_mo(handle, catalog)


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
    return gaps


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "update"
    if command == "update":
        update()
        gaps = missing()
        print(f"{PO.relative_to(ROOT)}: {len(gaps)} message(s) to translate")
        for gap in gaps:
            print("  ", gap)
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
