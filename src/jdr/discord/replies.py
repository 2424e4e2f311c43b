"""What each `/jdr` subcommand answers on Discord, over the services the web table and the CLI
call (`jdr.table`, `jdr.dice.notation`, `jdr.fights.recaps`): the dispatcher gives the campaign
bound to the channel, the caller's seat (`jdr.access.Viewer`) and the options, and gets a
`Reply` back, in French for a French Discord client, else in English.

Who may do what is the services' own rule (`jdr.access`, issue "Every decision by its owner"):
a player rolls and plays for their own character, the GM for anyone, a spectator only reads;
a refusal is raised (`InputError`, `AccessError`, `RulesError`) for the dispatcher to answer
ephemerally. Without a seat only `dice` and `odds` answer (they change nothing); without a
campaign only `dice` does: a free roll, not journaled. In a bound channel, a seated writer's
`dice` goes through the campaign's journal like `jdr dice EXPR --campaign NAME`.

Every reply that wrote to the journal ends with its journal line; a hidden roll answers only its
roller (`ephemeral`); every message holds at most `MESSAGE_LIMIT` characters, cut between lines.
"""

from __future__ import annotations

from typing import Any

from jdr.access import Viewer
from jdr.discord import replies_fight
from jdr.discord.reading import (
    bound,
    fight_of,
    flag_option,
    int_option,
    journal_notes,
    keyed,
    marked,
    pairs,
    reply,
    seated,
    speaking,
    spelled,
    text_option,
)
from jdr.discord.types import Caller, Options, Reply
from jdr.errors import InputError
from jdr.i18n import _, current_language
from jdr.markup import escape
from jdr.store import Campaign, Store

__all__ = ["PATHS", "answer"]

PATHS = (("dice",), ("roll",), ("odds",), ("fight", "act"), ("fight", "show"), ("recap",))
"""The subcommand paths below `/jdr` this module answers."""


def answer(
    store: Store,
    campaign: Campaign | None,
    viewer: Viewer | None,
    caller: Caller,
    path: tuple[str, ...],
    options: Options,
) -> Reply:
    """The reply to `/jdr <path> <options>` typed by `caller` (see the module's docstring)."""
    with speaking(caller):
        if path not in PATHS:
            raise InputError(_("command"), " ".join(path), ", ".join(" ".join(p) for p in PATHS))
        if path == ("dice",):
            return _dice(store, campaign, viewer, options)
        campaign = bound(campaign)
        if path == ("odds",):
            return _odds(store, campaign, options)
        viewer = seated(viewer, campaign)
        if path == ("roll",):
            return _roll(store, campaign, viewer, options)
        if path == ("recap",):
            return _recap(store, campaign, viewer, options)
        if path == ("fight", "show"):
            return replies_fight.show(store, campaign, viewer, options)
        return replies_fight.act(store, campaign, viewer, options)


# --- dice, roll, odds --------------------------------------------------------------------------


def _dice(
    store: Store, campaign: Campaign | None, viewer: Viewer | None, options: Options
) -> Reply:
    """`/jdr dice expression:…`: each roll's result and explanation, as `jdr dice` gives them;
    through the campaign's journal for a seated GM or player in a bound channel."""
    from jdr.dice import notation
    from jdr.dice.source import SystemRandom

    text = text_option(options, "expression")
    if text is None:
        raise InputError("expression", None, "2d6+3", _("no dice given"))
    rolls = notation.parse_rolls(text)
    journaled = campaign is not None and viewer is not None and viewer.may_write
    lines: list[str] = []
    rng = SystemRandom()
    for expression in rolls:
        if journaled:
            assert campaign is not None and viewer is not None
            rolled = _journaled_dice(store, campaign, viewer, expression)
            result, notes = rolled.record, journal_notes(rolled.entry, rolled.replayed)
        else:
            result, notes = notation.roll(expression, rng), []
        said = result.explain()
        label = f"**{escape(expression.label, 'markdown')}** " if expression.label else ""
        lines.append(f"{label}`{expression.text}` → **{result.total}**")
        lines += [marked(line) for line in said.splitlines()]
        lines += [f"-# {escape(note, 'markdown')}" for note in notation.notes(expression)]
        lines += notes
    if not journaled:
        free = _("a free roll: not written in any journal")
        lines.append(f"-# {free}")
    return reply(lines)


def _journaled_dice(store: Store, campaign: Campaign, viewer: Viewer, expression: Any) -> Any:
    from jdr.journal import service

    viewer.require_campaign(campaign.id)
    actor = viewer.character if not viewer.is_gm else None
    return service.roll_dice(store, campaign, expression, service.Who(actor, None, None, False))


def _roll(store: Store, campaign: Campaign, viewer: Viewer, options: Options) -> Reply:
    """`/jdr roll action:… character:… hidden:… options:…`: the roll as the journal records it
    (`table.roll`), from the character's sheet when the action rolls from one."""
    from jdr import table
    from jdr.journal.words import recap_texts

    system = table.system_of(campaign)
    action = table.action_of(system, text_option(options, "action"))
    hidden = flag_option(options, "hidden")
    actor = text_option(options, "character")
    typed = keyed(pairs(text_option(options, "options")))
    sheet = _sheet_for(store, campaign, viewer, system, action, actor, hidden)
    params, uses = _split(action.params, table.sheet_uses(system, action), typed, bool(sheet))
    asked = table.RollAsked(
        action=action.name,
        params=params,
        actor=actor,
        hidden=hidden,
        sheet=sheet,
        uses=uses,
    )
    rolled = table.roll(store, viewer, campaign, asked)
    post = recap_texts(system, action, rolled.record.explain(), rolled.entry)["markdown"]
    lines = post.splitlines()
    who = rolled.entry.actor
    if who:
        lines.insert(1, f"*{escape(str(who), 'markdown')}*")
    lines += journal_notes(rolled.entry, rolled.replayed)[1:]
    return reply(lines, ephemeral=hidden)


def _sheet_for(
    store: Store,
    campaign: Campaign,
    viewer: Viewer,
    system: Any,
    action: Any,
    actor: str | None,
    hidden: bool,
) -> str | None:
    """The sheet a roll is made from: the character's (given, or the player's own) when the
    action rolls from a sheet, the campaign holds it and the roll is not hidden; else none
    (the parameters are the options typed, as `jdr roll` without `--sheet`)."""
    from jdr import table
    from jdr.names import same

    name = actor or (viewer.character if not viewer.is_gm else None)
    if hidden or name is None or table.sheet_uses(system, action) is None:
        return None
    stored = [c.name for c in store.characters(campaign.id)]
    return next((n for n in stored if same(n, name)), None)


def _split(
    params: Any, uses: Any, typed: dict[str, str], sheet: bool = False
) -> tuple[dict[str, str], dict[str, str]]:
    """The options typed, by field: the action's parameters, and what it uses of a sheet
    (`uses`' fields; first, when rolling from a sheet: `target` names the target's sheet then),
    each key by its name or display name in either language."""
    from jdr.errors import UnknownNameError
    from jdr.labels import field_spellings
    from jdr.names import closest

    spelt = field_spellings(params)
    used = field_spellings(uses) if uses is not None else {}
    order = [(used, 1), (spelt, 0)] if sheet else [(spelt, 0), (used, 1)]
    found: tuple[dict[str, str], dict[str, str]] = ({}, {})
    for key, value in typed.items():
        for spellings, into in order:
            name = spelled(key, spellings)
            if name is not None:
                found[into][name] = value
                break
        else:
            known = sorted({*spelt.values(), *used.values()})
            raise UnknownNameError(_("option"), key, known, closest(key, {**spelt, **used}))
    return found


def _odds(store: Store, campaign: Campaign, options: Options) -> Reply:
    """`/jdr odds action:… options:…`: the exact odds `table.odds` gives (from the character's
    sheet when one is named and the action rolls from one)."""
    from jdr import table
    from jdr.labels import action_label
    from jdr.numbers import decimal, percent
    from jdr.systems.protocol import display_name

    system = table.system_of(campaign)
    action = table.action_of(system, text_option(options, "action"), "odds")
    typed = keyed(pairs(text_option(options, "options")))
    character = text_option(options, "character")
    sheet = None
    if character is not None and table.sheet_uses(system, action) is not None:
        sheet = store.character_named(campaign.id, character).name
    params, uses = _split(action.params, table.sheet_uses(system, action), typed, bool(sheet))
    found = table.odds(campaign, action.name, params, store, sheet, uses)[2]
    title = f"{display_name(system, current_language())} · {action_label(action)}"
    exact = _("exact odds")
    lines = [f"**{escape(title, 'markdown')}** — {exact}"]
    for outcome, p in found.outcomes.items():
        shown = _("{value}: {p}").format(value=escape(_(outcome), "markdown"), p=percent(p))
        lines.append(f"- {shown}")
    if found.mean is not None:
        lines.append(_("mean: {mean}").format(mean=decimal(found.mean, 2)))
    return reply(lines)


# --- recap -----------------------------------------------------------------------------------


def _recap(store: Store, campaign: Campaign, viewer: Viewer, options: Options) -> Reply:
    """`/jdr recap fight:… round:…`: the fight's recap in Markdown (`jdr fight recap`), the
    whole fight or one round, its journal footnote under it."""
    from jdr import table
    from jdr.fights.recaps import posted

    fight_id = fight_of(store, viewer, campaign, int_option(options, "fight"))
    table.fight_in(store, viewer, campaign, fight_id)
    round_ = int_option(options, "round")
    cut = posted(store, fight_id, "discord", round_, None, whole=round_ is None).messages
    return Reply(cut[0], tuple(cut[1:]))
