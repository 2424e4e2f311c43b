"""`jdr roll|odds|advise SYSTEM ACTION`: options from the action's model, then render the answer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import typer

from jdr.cli.options import (
    TOP_CHOICES,
    Common,
    common_parameters,
    make_command,
    model_parameters,
    sheet_parameters,
)
from jdr.cli.render import (
    choices_table,
    console,
    decimal,
    distribution_table,
    emit_json,
    exact_notice,
    extra_lines,
    jsonable,
    outcomes_table,
)
from jdr.cli.roll_output import journal_footer, record_json, title
from jdr.cli.sheet_actions import read_params, roll_from_sheet, sheet_json, sheet_lines
from jdr.cli.shell import ShellGroup
from jdr.errors import NotOfferedError
from jdr.i18n import N_, _, current_language
from jdr.labels import action_label
from jdr.markup import escape
from jdr.systems.protocol import Action, RuleSystem, display_name


class _ActionsGroup(ShellGroup):
    """A system's actions for one mode, named loosely (`jdr.names`); an unknown one is refused
    with the closest and the list of known ones, one without odds or advisor with the actions
    that have them."""

    system: RuleSystem | None = None
    mode = "roll"

    def find_command(self, ctx: Any, cmd_name: str) -> Any:
        from jdr.errors import UnknownNameError
        from jdr.names import closest, find, fold

        system = self.system
        spellings = {name: name for name in sorted(self.commands)}
        if system is not None:  # an action by its display name, French or English
            spellings |= _action_spellings(system, set(self.commands))
        command = super().find_command(ctx, find(cmd_name, spellings) or cmd_name)
        if command is None and system is not None:
            name = find(cmd_name, _action_spellings(system, set(system.actions)))
            if name is not None:
                offering = sorted(
                    (action_label(a) for a in system.actions.values() if offers(a, self.mode)),
                    key=fold,
                )
                raise NotOfferedError(
                    self.mode, system.id, action_label(system.actions[name]), offering
                )
            if not ctx.resilient_parsing:
                shown = {k: action_label(system.actions[v]) for k, v in spellings.items()}
                known = sorted(
                    (action_label(a) for n, a in system.actions.items() if n in self.commands),
                    key=fold,
                )
                raise UnknownNameError(self.item_name(), cmd_name, known, closest(cmd_name, shown))
        return command

    def listing(self, ctx: Any) -> list[tuple[str, str]]:
        """(display name, one line) for each action, in the reader's language (`--json`: its
        identifier)."""
        from jdr.cli.shell import wants_json

        rows = super().listing(ctx)
        if self.system is None or wants_json(ctx):  # JSON keeps the identifiers
            return rows
        actions = self.system.actions
        return [(action_label(actions[n]) if n in actions else n, text) for n, text in rows]

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        """The actions by their identifiers and by their display names (`attaque`)."""
        from typer._click.shell_completion import CompletionItem

        from jdr.names import fold

        found = list(super().shell_complete(ctx, incomplete))
        if self.system is None:
            return found
        known = {item.value for item in found}
        shown = [action_label(a) for n, a in self.system.actions.items() if n in self.commands]
        typed = fold(incomplete)
        extra = [n for n in shown if fold(n).startswith(typed) and n not in known]
        return found + [CompletionItem(name) for name in extra]

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = self.listing(ctx)
        if rows:
            with formatter.section(self.listing_title()):
                formatter.write_dl(rows)

    def item_name(self) -> str:
        return _("action")

    def listing_title(self) -> str:
        return _("Actions")

    def hint(self, ctx: Any) -> str:
        return _("{command} ACTION --help: an action's options.").format(command=ctx.command_path)


def _action_spellings(system: RuleSystem, names: set[str]) -> dict[str, str]:
    """Each spelling of the actions `names` (their ids, their display names) → the id."""
    found: dict[str, str] = {}
    for name in names:
        action = system.actions[name]
        found[name] = name
        for lang in ("en", "fr"):
            found.setdefault(action_label(action, lang), name)
    return found


MODES = {"roll": N_("roll"), "odds": N_("odds"), "advise": N_("advice")}
"""What `jdr systems` says an action offers: `jdr roll`, `jdr odds`, `jdr advise`, in words."""


def offers(action: Action[Any], mode: str) -> bool:
    """Whether `action` can be asked for in `mode` (roll, odds or advise)."""
    return mode == "roll" or getattr(action, mode) is not None


def system_group(system: RuleSystem, mode: str) -> Any:
    """The click group of `system`'s actions for `mode` (roll, odds or advise).

    A system none of whose actions offers `mode` is refused, naming the systems that do."""
    if not any(offers(action, mode) for action in system.actions.values()):
        raise NotOfferedError(mode, system.id, None, systems_offering(mode))
    app = typer.Typer(
        cls=_ActionsGroup,
        help=display_name(system, current_language()),
        rich_markup_mode=None,
        subcommand_metavar="ACTION [OPTIONS]",
    )
    for name, action in system.actions.items():
        if not offers(action, mode):
            continue
        model = action.advise.params if mode == "advise" and action.advise else action.params
        parameters = model_parameters(model) + common_parameters(
            rolls=mode == "roll", exact=mode in ("odds", "advise"), ranked=mode == "advise"
        )
        binding = (getattr(system, "sheet_rolls", {}) or {}).get(name)
        if binding is not None:
            parameters += sheet_parameters(binding.uses, model, mode)

        def run(common: Common, values: dict[str, Any], action: Action[Any] = action) -> None:
            {"roll": run_roll, "odds": run_odds, "advise": run_advise}[mode](
                system, action, common, values
            )

        help_text = _(action.advise.help if mode == "advise" and action.advise else action.help)
        app.command(name, help=help_text or None)(make_command(parameters, run))
    group: Any = typer.main.get_group(app)
    group.system, group.mode = system, mode
    return group


def _loaded_systems() -> tuple[list[RuleSystem], dict[str, str]]:
    """Every installed system that loads, and the problem of each one that does not."""
    from jdr.errors import JdrError
    from jdr.systems import default_registry

    registry = default_registry()
    systems: list[RuleSystem] = []
    broken: dict[str, str] = {}
    for system_id in registry.ids():
        try:
            systems.append(registry.get(system_id))
        except JdrError as error:  # one broken plug-in must not hide the others
            broken[system_id] = error.message()
    return systems, broken


def systems_offering(mode: str) -> list[str]:
    """The ids of the systems with at least one action offering `mode`."""
    systems, _broken = _loaded_systems()
    return [s.id for s in systems if any(offers(a, mode) for a in s.actions.values())]


def system_lines(mode: str) -> list[tuple[str, str]]:
    """(id, name) of each system offering `mode`; a broken one shows its problem."""
    systems, broken = _loaded_systems()
    lang = current_language()
    rows = [
        (system.id, display_name(system, lang))
        for system in systems
        if any(offers(action, mode) for action in system.actions.values())
    ]
    rows += sorted(broken.items())
    return sorted(rows)


def _payload(system: RuleSystem, action: Action[Any], params: Any) -> dict[str, Any]:
    """The keys every JSON answer about an action starts with."""
    return {"system": system.id, "action": action.name, "params": params.model_dump(mode="json")}


def _add(payload: dict[str, Any], extra: Mapping[str, Any], exact: bool = False) -> None:
    """A system's own keys, never overwriting the contract's."""
    for key, value in extra.items():
        payload.setdefault(key, jsonable(value, exact))


def run_roll(
    system: RuleSystem, action: Action[Any], common: Common, values: dict[str, Any]
) -> None:
    from jdr.dice.source import GivenFaces, make_source

    journal = common.journal
    if journal is not None:
        journal.check()
    if common.sheet is not None:
        roll_from_sheet(system, action, common, values)
        return
    params, _source = read_params(system, action, action.params, values, common)
    if journal is not None and journal.campaign is not None:
        from jdr.cli.journal_commands import journal_json, roll_in_campaign

        rolled = roll_in_campaign(system, action, params, common, journal)
        record = rolled.record
        lines = journal_footer(params, rolled)
        extra: dict[str, Any] | None = journal_json(rolled.campaign, rolled.entry, rolled.replayed)
    else:
        rng = make_source(common.faces, common.seed)
        record = action.roll(params, rng)
        if isinstance(rng, GivenFaces):
            rng.finish()
        lines, extra = [], None
    explanation = record.explain()
    if common.json:
        payload = record_json(system, action, params, record, explanation)
        if extra is not None:
            payload["journal"] = extra
        emit_json(payload)
        return
    out = title(system, action, post=getattr(params, "recap", None) is not None)
    out.print(explanation, markup=False)
    for line in lines:
        out.print(line, markup=False, style="dim")


def run_odds(
    system: RuleSystem, action: Action[Any], common: Common, values: dict[str, Any]
) -> None:
    assert action.odds is not None  # only actions with odds are listed
    params, source = read_params(system, action, action.params, values, common)
    exact_notice(common.exact)
    odds = action.odds(params, common.exact)
    if common.json:
        from jdr.answers import odds_json

        payload = odds_json(system, action, params, odds, common.exact)
        if source is not None:
            payload["sheet"] = sheet_json(source)
        emit_json(payload)
        return
    out = title(system, action)
    if source is not None:
        for line in sheet_lines(source):
            out.print(line, markup=False)
    out.print(outcomes_table(odds.outcomes, common.exact))
    if odds.mean is not None:
        out.print(_("mean: {mean}").format(mean=decimal(odds.mean)))
    for shown in extra_lines(odds.extra):
        out.print()
        out.print(shown)
    if odds.distribution:
        out.print()
        out.print(distribution_table(odds.distribution, odds.label, common.exact))


def run_advise(
    system: RuleSystem, action: Action[Any], common: Common, values: dict[str, Any]
) -> None:
    assert action.advise is not None  # only actions with an advisor are listed
    params, source = read_params(system, action, action.advise.params, values, common)
    exact_notice(common.exact)
    advice = action.advise.advise(params, common.exact)
    sentence = advice.summary() if advice.summary is not None else ""
    ranked = list(advice.choices)
    shown = ranked if common.all else ranked[: common.top or TOP_CHOICES]
    if common.json:
        payload = _payload(system, action, params)
        if sentence:
            payload["summary"] = sentence
        payload["choices"] = jsonable(shown, common.exact)
        payload["choices_total"] = len(ranked)
        _add(payload, advice.extra, common.exact)
        if source is not None:
            payload["sheet"] = sheet_json(source)
        emit_json(payload)
        return
    if source is not None:
        for line in sheet_lines(source):
            console().print(line, markup=False)
    if sentence:
        console().print(sentence, markup=False)
    title(system, action).print(choices_table(shown))
    if len(shown) < len(ranked):
        console().print(
            _("The best {shown} of {total} choices: --top N for more, --all for every one.").format(
                shown=len(shown), total=len(ranked)
            ),
            markup=False,
        )


def show_systems(as_json: bool) -> None:
    systems, problems = _loaded_systems()
    broken = list(problems.values())
    lang = current_language()
    if as_json:
        emit_json(
            {
                "systems": [
                    {
                        "id": system.id,
                        "names": dict(system.names),
                        "actions": [
                            {
                                "name": name,
                                "odds": action.odds is not None,
                                "advise": action.advise is not None,
                            }
                            for name, action in system.actions.items()
                        ],
                        "fight": system.fight is not None,
                    }
                    for system in systems
                ],
                "broken": broken,
            }
        )
        return
    out = console()
    for problem in broken:
        out.print(problem, style="red", markup=False)
    if not systems:
        out.print(_("No rule system is installed."))
        return
    for system in systems:
        shown = escape(display_name(system, lang), "terminal")
        out.print(f"[bold]{escape(system.id, 'terminal')}[/bold] — {shown}", markup=True)
        for action in system.actions.values():
            modes = [_(MODES[m]) for m in MODES if offers(action, m)]
            shown = escape(action_label(action), "terminal")
            out.print(f"  {shown}  [dim]({', '.join(modes)})[/dim]", markup=True)
