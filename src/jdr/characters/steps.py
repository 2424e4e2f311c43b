"""The steps a sheet takes, as pure functions on its JSON: the sheet service decides each
revision with them, and `jdr verify` re-decides the journaled ones with the same code.

>>> from jdr.systems import default_registry
>>> import tomllib
>>> from jdr.sheet_check import systems_example
>>> system = default_registry().get("plus-ultra")
>>> kaito = checked(system, tomllib.loads(systems_example("plus-ultra", "hero")))
>>> set_sheet(system, kaito, ["techniques[Rafale].cooldown=2"])["techniques"][1]["cooldown"]
2
>>> renamed_sheet(kaito, "Kaito Arashi", "Kaito")["name"]
'Kaito'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from jdr.characters.changes import Change, apply, invert, parse_path, rebase, split_path
from jdr.errors import InputError, RulesError
from jdr.i18n import _
from jdr.systems.protocol import Json, Progressed, Progression, RuleSystem

__all__ = [
    "back",
    "checked",
    "progressed",
    "progression_step",
    "read_value",
    "renamed_sheet",
    "set_sheet",
]

UNDONE = "undone"


def checked(system: RuleSystem, data: Mapping[str, Any], label: str = "") -> Json:
    """A sheet's table validated by `system` as a new sheet is, as the JSON it is stored as."""
    from jdr.sheet_check import sheet_of

    sheet: Json = sheet_of(system, dict(data), label).model_dump(mode="json")
    return sheet


def set_sheet(
    system: RuleSystem, sheet: Json, assignments: Sequence[str], check: bool = True
) -> Json:
    """`field=value …` set on `sheet` and checked; `field=` removes the field (its default
    applies). `check=False` only reads the assignments, as new input: a malformed one is
    refused, and so is a whole number of more than `MAX_DIGITS` digits (a journal or a backup
    could not be read back with it); a journaled one is read as it was written."""
    if not assignments:
        raise InputError("FIELD=VALUE", None, "stats.magic=8 …", _("nothing to set"))
    pairs = [_assignment(text, digits=not check) for text in assignments]
    if not check:
        return sheet
    from jdr.sheet_words import words_of

    words = words_of(system)
    for path_text, value in pairs:
        path = parse_path(path_text, sheet, words)
        change: Change = {"path": path} if value is _REMOVE else {"path": path, "after": value}
        sheet = apply(sheet, [change])
    return checked(system, sheet)


_REMOVE = object()


def _assignment(text: str, digits: bool = False) -> tuple[str, Any]:
    key, equals, value = text.partition("=")
    if not equals or not key.strip():
        raise InputError("FIELD=VALUE", text, "stats.magic=8", _("not a field=value pair"))
    field = key.strip()
    split_path(field)  # its form and depth, before anything is read
    return field, (_REMOVE if not value.strip() else read_value(value, field, digits))


def read_value(text: str, field: str = "FIELD=VALUE", digits: bool = False) -> Any:
    """A value as typed after `=`: a TOML value when it reads as one (`8`, `true`, `["feu"]`,
    `{current = 3, max = 5}`, `"a b"`), else the text itself. Within `jdr.bounded`'s limits
    (`LimitError` on `field`): nested at most `MAX_NESTING` deep (checked before parsing), no
    whole number past Python's own limit, and with `digits` none of more than `MAX_DIGITS`
    digits.

    >>> read_value("8"), read_value("Sommeil"), read_value('["eau", "vol"]'), read_value("2.5")
    (8, 'Sommeil', ['eau', 'vol'], 2.5)
    """
    import tomllib

    from jdr.bounded import check_nesting, check_value, longest_number, too_many_digits

    stripped = text.strip()
    # brackets and braces, and the dots of an inline table's keys (a bare text's dots are not
    # nesting: `Sommeil...` stays a text)
    check_nesting(stripped, "toml" if "{" in stripped else "json", field, stripped)
    try:
        value = tomllib.loads(f"v = {stripped}")["v"]
    except tomllib.TOMLDecodeError:
        return stripped
    except ValueError:  # a whole number past Python's digits limit
        raise too_many_digits(field, stripped, longest_number(stripped)) from None
    check_value(value, field, stripped, digits)  # dotted keys nest too
    return value


def renamed_sheet(sheet: Json, old: str, new: str) -> Json:
    """The sheet of a character renamed: its own `name` follows when it was the stored one."""
    return {**sheet, "name": new} if sheet.get("name") == old else sheet


def back(sheet: Json, name: str, target: Json, kind: str) -> tuple[Json, str]:
    """The sheet and name once `target` (a revision's data) is taken back (`undone`) or put
    back (`redone`)."""
    changes = target.get("changes", [])
    wanted = invert(changes) if kind == UNDONE else changes
    moved, conflicts = rebase(wanted, sheet, numbers=False)
    if conflicts:  # only a change made outside the revisions could cause this
        from jdr.characters.changes import changed_fields

        raise RulesError(
            _("{name}'s sheet no longer shows what the revision changed: {fields}").format(
                name=name, fields=", ".join(changed_fields(conflicts))
            )
        )
    rename = target.get("rename")
    if rename:
        name = rename[0] if kind == UNDONE else rename[1]
    return apply(sheet, moved), name


def progression_step(
    system: RuleSystem, command: str, words: Sequence[str], pairs: Mapping[str, Any]
) -> tuple[Progression[Any], Any]:
    """The system's progression step `command` and its parameters from the words and
    `key=value` pairs typed (a trailing reason may take several words)."""
    from jdr.params import validate_params

    steps: Mapping[str, Progression[Any]] = getattr(system, "progression", {}) or {}
    step = steps.get(command)
    if step is None:
        raise InputError(
            command,
            system.id,
            ", ".join(steps) or "-",
            _("{system} has no such progression step").format(system=system.id),
        )
    fields = list(step.words)
    given = list(words)
    if fields and fields[-1] == "reason" and len(given) > len(fields):
        given = [*given[: len(fields) - 1], " ".join(given[len(fields) - 1 :])]
    if len(given) > len(fields):
        allowed = " ".join(f.upper() for f in fields) or "-"
        raise InputError(_("word"), " ".join(words), allowed, _("too many words"))
    raw = {**dict(zip(fields, given, strict=False)), **pairs}
    read = _sheet_names(system, step.params, raw)  # keys by their display names too (`coût`)
    return step, validate_params(step.params, read, keys=True)


def _sheet_names(system: RuleSystem, params: Any, raw: Mapping[str, Any]) -> dict[str, Any]:
    """`raw` with each choice given by the sheet's name for it read as its id: `rank Kaito
    volonté` is `free=willpower` (the names of `System.sheet_words`, any case or accent).

    >>> from jdr.systems import default_registry
    >>> from jdr.systems.plus_ultra.progress import RankParams
    >>> _sheet_names(default_registry().get("plus-ultra"), RankParams, {"free": "VOLONTE"})
    {'free': 'willpower'}
    >>> _sheet_names(default_registry().get("plus-ultra"), RankParams, {"free": "volnté"})
    Traceback (most recent call last):
    ...
    jdr.errors.UnknownNameError: free: 'volnté' (not allowed; allowed: Énergie, Volonté)
    """
    import typing

    from jdr.names import find
    from jdr.sheet_words import words_of

    words = words_of(system)
    read = dict(raw)
    for key, value in raw.items():
        info = params.model_fields.get(key)
        if info is None or not isinstance(value, str):
            continue
        choices = [c for c in typing.get_args(info.annotation) if isinstance(c, str)]
        if typing.get_origin(info.annotation) is not typing.Literal or value in choices:
            continue
        spellings: dict[str, str] = {}
        shown: dict[str, str] = {}
        for choice in choices:
            named = [words.word(choice), words.word(choice + "s")]
            named += [names.get(choice) for names in words.values.values()]
            for word in (w for w in named if w is not None):
                shown.setdefault(choice, str(word))
                for name in (word.en, word.fr):
                    spellings.setdefault(name, choice)
                    spellings.setdefault(name.removesuffix("s"), choice)
        try:
            found = find(value, spellings, key)
        except InputError:  # two choices spelt alike: the parameters' own message says
            continue
        if found is None and len(shown) == len(choices):  # every choice has its sheet's name
            from jdr.errors import UnknownNameError
            from jdr.names import closest

            near = closest(value, spellings)
            raise UnknownNameError(key, value, list(shown.values()), shown[near] if near else None)
        read[key] = found or value
    return read


def progressed(system: RuleSystem, step: Progression[Any], params: Any, sheet: Json) -> Progressed:
    """`step` run on `sheet`, its new sheet checked as a new sheet is."""
    done = step.run(sheet, params)
    return Progressed(checked(system, done.sheet), done.summary, done.rules, done.cost)
