"""`--sheet NAME` on `jdr roll|odds|advise`: the options read from a stored character, what the
roll wrote back, and how both are shown. The reading and the writing are the sheet service's
(`jdr.characters.rolls`); this module only parses and renders."""

from __future__ import annotations

from typing import Any

from jdr.cli.options import Common, option_name
from jdr.cli.render import emit_json, jsonable
from jdr.cli.roll_output import journal_footer, record_json, title
from jdr.cli.stored import opened
from jdr.errors import InputError
from jdr.i18n import _
from jdr.systems.protocol import Action, RuleSystem

__all__ = [
    "changed_json",
    "changed_lines",
    "options_given",
    "read_params",
    "roll_from_sheet",
    "sheet_json",
    "sheet_lines",
]


def options_given(
    system: RuleSystem, action: Action[Any], model: Any, values: dict[str, Any], common: Common
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The action's options the user gave, and what to use of the sheet (`--stat` …).

    An option both have (Passion's `--talent`) names the sheet's score with `--sheet`, and gives
    the number without; a "what to use" option without `--sheet` is refused."""
    from jdr.cli.options import raw_values

    raw = raw_values(model, values)
    binding = (getattr(system, "sheet_rolls", {}) or {}).get(action.name)
    given = {k: v for k, v in (common.uses or {}).items() if v not in (None, [], False)}
    if common.sheet is None:
        for name, value in given.items():
            raise InputError(option_name(name), value, "--sheet NAME", _("only with --sheet NAME"))
        return raw, {}
    if binding is None:
        return raw, given
    shared = [f for f in binding.uses.model_fields if f in model.model_fields and f in raw]
    uses = {**given, **{f: raw[f] for f in shared}}
    return {k: v for k, v in raw.items() if k not in shared}, uses


def read_params(
    system: RuleSystem, action: Action[Any], model: Any, values: dict[str, Any], common: Common
) -> tuple[Any, Any]:
    """The action's parameters, and where they came from when read from a sheet (`FromSheet`,
    or None)."""
    from jdr.params import validate_params

    raw, uses = options_given(system, action, model, values, common)
    if common.sheet is None:
        return validate_params(model, raw, option_name), None
    from jdr.characters.rolls import bind

    journal = common.journal
    with opened(journal.db if journal else None) as store:
        found = store.campaign(sheet_campaign(common))
        source = bind(
            store, found, system, action.name, model, common.sheet, raw, uses, option_name
        )
    return source.params, source


def sheet_campaign(common: Common) -> str:
    campaign = common.journal.campaign if common.journal is not None else None
    if campaign is None:
        raise InputError(
            "--sheet", common.sheet, "--campaign NAME", _("a sheet is stored in a campaign")
        )
    return campaign


def sheet_json(source: Any) -> dict[str, Any]:
    """The `sheet` key: the character read, and each value it gave with where it came from."""
    return {
        "name": source.character.name,
        "character": source.character.id,
        "revision": source.character.version,
        "uses": source.uses,
        "used": {
            field: {"value": jsonable(value), "from": text}
            for field, (value, text) in source.used.items()
        },
    }


def sheet_lines(source: Any) -> list[str]:
    """`from Pikachu's sheet:` and one line per value it gave."""
    if not source.used:
        return []
    lines = [_("from {name}'s sheet:").format(name=source.character.name)]
    for field, (value, text) in source.used.items():
        used = _("{option} {value}: {source}").format(
            option=option_name(field), value=_value_words(value), source=text
        )
        lines.append(f"  {used}")
    return lines


def _value_words(value: Any) -> str:
    from jdr.cli.sheet_render import value_text

    return value_text(value)


def changed_json(changed: list[dict[str, Any]], docs: list[Any]) -> list[dict[str, Any]]:
    from jdr.cli.sheet_render import changes_json

    return [
        {**each, "changes": changes_json(each["changes"], doc)}
        for each, doc in zip(changed, docs, strict=False)
    ]


def changed_lines(changed: list[dict[str, Any]], docs: list[Any], words: Any = None) -> list[str]:
    """`Pikachu: revision 2 (PK-10)` and its changes in the system's `words` (`Énergie 10 → 8`),
    for each sheet a roll changed."""
    from jdr.cli.sheet_render import changes_lines
    from jdr.sheet_words import GENERIC

    lines = []
    for each, doc in zip(changed, docs, strict=False):
        head = _("{name}: revision {revision}").format(
            name=each["sheet"], revision=each["revision"]
        )
        rules = each.get("rules") or []
        lines.append(head + (f" ({', '.join(rules)})" if rules else ""))
        lines += changes_lines(each["changes"], doc, words or GENERIC)
    return lines


def roll_from_sheet(
    system: RuleSystem, action: Action[Any], common: Common, values: dict[str, Any]
) -> None:
    """`jdr roll SYSTEM ACTION --sheet NAME --campaign C …`: the roll through the journal, and
    what it changed on the sheets."""
    from jdr.characters.rolls import roll
    from jdr.cli.journal_commands import journal_json, showing_original
    from jdr.dice.source import make_source
    from jdr.journal.service import Who

    journal = common.journal
    assert journal is not None  # a roll has the journal's options
    campaign = sheet_campaign(common)
    raw, uses = options_given(system, action, action.params, values, common)
    typed = common.faces is not None or common.seed is not None
    rng = make_source(common.faces, common.seed) if typed else None
    who = Who(journal.actor, journal.action_id, journal.client_seed, journal.hidden)
    assert common.sheet is not None
    with opened(journal.db) as store, showing_original(campaign, common.json):
        found = store.campaign(campaign)
        done = roll(store, found, system, action, common.sheet, raw, uses, who, rng, option_name)
    rolled, params = done.rolled, done.source.params
    explanation = rolled.record.explain()
    if common.json:
        payload = record_json(system, action, params, rolled.record, explanation)
        payload["sheet"] = sheet_json(done.source)
        payload["sheets"] = changed_json(done.changed, done.after)
        payload["journal"] = journal_json(rolled.campaign, rolled.entry, rolled.replayed)
        emit_json(payload)
        return
    out = title(system, action, post=getattr(params, "recap", None) is not None)
    out.print(explanation, markup=False)
    from jdr.sheet_words import words_of

    changed = changed_lines(done.changed, done.after, words_of(system))
    for line in [*sheet_lines(done.source), *changed]:
        out.print(line, markup=False)
    for line in journal_footer(params, rolled):
        out.print(line, markup=False, style="dim")
