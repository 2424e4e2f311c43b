"""docs/api.md, the plug-in API's reference, built from the code's docstrings and annotations.

    python scripts/api_docs.py          # write docs/api.md
    python scripts/api_docs.py --check  # exit 1 if docs/api.md differs from the code

`tests/test_api_docs.py` runs the check, so the page cannot fall behind the code. Only the
standard library: `inspect` for signatures (annotations as written in the source), `ast` for the
docstrings written under a dataclass's fields.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "api.md"

SECTIONS: list[tuple[str, str, str, list[str]]] = [
    (
        "Rule systems",
        "jdr.systems",
        "What a plug-in declares: its `System`, its actions and what they return.",
        [
            "System",
            "Action",
            "Record",
            "Odds",
            "Advisor",
            "Advice",
            "FightRules",
            "SheetRoll",
            "Bound",
            "Effect",
            "Progression",
            "Progressed",
            "FightEnd",
            "RuleSystem",
            "display_name",
        ],
    ),
    (
        "Dice",
        "jdr.dice",
        "Random sources and scored pools: a rule's scoring written once, rolled and taken to "
        "its exact odds.",
        [
            "RandomSource",
            "GivenFaces",
            "Seeded",
            "ScoredDie",
            "Pool",
            "roll_pool",
            "PoolRoll",
            "DieRoll",
            "count_pool",
            "KeepPool",
            "roll_keep",
            "KeepRoll",
            "rolled_for",
        ],
    ),
    (
        "Dice pools",
        "jdr.dice.notation.pools",
        "The notation's pools (explode, compound, reroll, keep, count successes, Fate) for a "
        "plug-in's own rules: one dice term rolled, and its exact odds, with a tally of its dice "
        'for rules such as "half the dice showing 1 is a catastrophe".',
        ["pool", "pool_odds", "roll_pool", "tallied", "DiceTerm"],
    ),
    (
        "Exact odds",
        "jdr.prob",
        "Exact distributions (Fractions) or floats, from the same pools the rolls use.",
        [
            "Distribution",
            "pool_distribution",
            "keep_pool_distribution",
            "die_distribution",
            "convolve",
            "power",
            "sum_distributions",
            "unit",
        ],
    ),
    (
        "Fights",
        "jdr.fights",
        "A fight is a fold over its events.",
        ["fold"],
    ),
    (
        "Narration",
        "jdr.fights.narration",
        "One sentence per event type, in the reader's language.",
        ["Narration", "Line", "Words", "says", "over", "GENERIC"],
    ),
    (
        "Fight commands",
        "jdr.fights.commands",
        "Each command as a pydantic model of its keys.",
        ["Command", "Commands", "key"],
    ),
    (
        "Fight command odds",
        "jdr.fights.odds",
        "One exact distribution per fight command, the one its decider resolves with.",
        ["CommandOdds", "Chance", "command_odds"],
    ),
    (
        "Fight view",
        "jdr.fights.view",
        "A fight's state in words (`jdr fight show`).",
        ["View", "fighter_text", "fighter_line", "fighters_of"],
    ),
    (
        "Fights from stored sheets",
        "jdr.fights.setup",
        "From stored sheets and command-line words to the decider's setup and commands.",
        ["make_command", "parse_pairs", "parse_value"],
    ),
    (
        "Translations",
        "jdr.i18n",
        "Messages in French and English; a plug-in's own catalogs.",
        [
            "_",
            "ngettext",
            "N_",
            "Messages",
            "GettextCatalog",
            "Catalog",
            "add_catalog",
            "language",
            "current_language",
        ],
    ),
    (
        "Errors",
        "jdr.errors",
        "One error root; the CLI prints a message and exits 2.",
        ["RulesError", "InputError"],
    ),
    ("Sheets", "jdr.sheets", "Sheets read from TOML.", ["shipped_examples"]),
    (
        "Sheet words",
        "jdr.sheet_words",
        "How a sheet reads: its keys' and values' names in French and English, its sections.",
        ["SheetWords", "Section", "Word"],
    ),
]
"""(title, module, what it holds, the public names documented from it, in reading order)."""


def field_docs(cls: type) -> dict[str, str]:
    """The docstrings written under a class's annotated fields (`x: int` then `\"\"\"…\"\"\"`)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError):
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    found: dict[str, str] = {}
    for item, following in zip(body, [*body[1:], None], strict=True):
        if (
            isinstance(item, ast.AnnAssign)
            and isinstance(item.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            found[item.target.id] = inspect.cleandoc(following.value.value)
    return found


def signature(obj: Any) -> str:
    """`(a: int, b: str = 'x') -> bool`, annotations as the source writes them (no quotes)."""
    try:
        found = inspect.signature(obj)
    except (TypeError, ValueError):
        return ""
    parts = []
    star = False
    for param in found.parameters.values():
        if param.kind is param.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        text = ("*" if param.kind is param.VAR_POSITIONAL else "") + (
            "**" if param.kind is param.VAR_KEYWORD else ""
        )
        text += param.name
        if param.kind is param.VAR_POSITIONAL:
            star = True
        if param.annotation is not param.empty:
            text += f": {annotation(param.annotation)}"
        if param.default is not param.empty:
            text += f" = {param.default!r}"
        parts.append(text)
    back = found.return_annotation
    tail = f" -> {annotation(back)}" if back is not found.empty else ""
    return f"({', '.join(parts)}){tail}"


def annotation(value: Any) -> str:
    return value if isinstance(value, str) else inspect.formatannotation(value)


def field_default(f: dataclasses.Field[Any]) -> str:
    if f.default is not dataclasses.MISSING:
        return f" = {f.default!r}"
    if f.default_factory is not dataclasses.MISSING:
        return f" = {f.default_factory()!r}"
    return ""


def members(cls: type) -> Iterator[tuple[str, Any]]:
    """A class's own public methods and properties, in source order."""
    for name, value in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(value, classmethod | staticmethod):
            yield name, value.__func__
        elif isinstance(value, property) or inspect.isfunction(value):
            yield name, value


def document(module: str, name: str) -> list[str]:
    obj = getattr(importlib.import_module(module), name)
    doc = inspect.getdoc(obj) or ""
    lines = [f"### `{module}.{name}`", ""]
    if inspect.isclass(obj):
        bases = [b.__name__ for b in obj.__bases__ if b is not object and b.__name__ != "Generic"]
        lines += [
            f"```python\nclass {name}{'(' + ', '.join(bases) + ')' if bases else ''}\n```",
            "",
        ]
    elif callable(obj):
        lines += [f"```python\ndef {name}{signature(obj)}\n```", ""]
    else:
        lines += [f"`{name}`: `{type(obj).__name__}`", ""]
    if doc and not (inspect.isclass(obj) and doc.startswith(f"{name}(")):
        lines += [doc, ""]
    if inspect.isclass(obj):
        notes = field_docs(obj)
        if dataclasses.is_dataclass(obj):
            fields = [
                f"- `{f.name}: {annotation(f.type)}{field_default(f)}`"
                + (f" — {notes[f.name]}".replace("\n", " ") if f.name in notes else "")
                for f in dataclasses.fields(obj)
            ]
            if fields:
                lines += ["Fields:", "", *fields, ""]
        for member, value in members(obj):
            if isinstance(value, property):
                kind = f"`{member}` (property)"
                text = inspect.getdoc(value) or ""
            else:
                kind = f"`{member}{signature(value)}`"
                text = inspect.getdoc(value) or ""
            lines.append(f"- {kind}" + (f": {text}" if text and "\n" not in text else ""))
            if text and "\n" in text:
                lines += ["", textwrap.indent(text, "  "), ""]
        if lines[-1] != "":
            lines.append("")
    return lines


def render() -> str:
    out = [
        "# The plug-in API (reference)",
        "",
        "Built from the code's docstrings by `scripts/api_docs.py`; `tests/test_api_docs.py`",
        "fails when this page and the code differ. How to use it, step by step:",
        "[plugins.md](plugins.md).",
        "",
    ]
    for title, module, what, names in SECTIONS:
        out += [f"## {title} (`{module}`)", "", what, ""]
        for name in names:
            out += document(module, name)
    return "\n".join(out).rstrip() + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if argv[:1] == ["--check"]:
        if not PAGE.exists() or PAGE.read_text(encoding="utf-8") != text:
            sys.stderr.write("docs/api.md is out of date: run python scripts/api_docs.py\n")
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
