"""Shell completion of the names a command takes: systems, campaigns, characters, fighters.

Typer's completion (`jdr --install-completion`, or `jdr --show-completion` to install it by hand)
calls these with what is typed so far. Each one is fast, prints nothing and never fails: names
come from the installed systems (by entry point, without loading them) and from the store the
command would use (`--db`, else `JDR_DATABASE_URL`, else the embedded file), read without
creating anything (`jdr.store.names`).

    $ jdr roll <TAB>                  ilvermorny  passion  plus-ultra  pokemon  poledemos
    $ jdr roll pokemon <TAB>          check  attack  capture  initiative  counter
    $ jdr sheet show --campaign <TAB> the campaigns
    $ jdr fight act 3 <TAB>           the fighters of fight 3
    $ jdr fight act 3 Kaito <TAB>     what Kaito may play now: attack defend technique flee
    $ jdr fight act 3 Kaito attack <TAB>  its keys: target= protector=
    $ jdr fight act 3 Kaito attack target=<TAB>  the fighters

In bash, a name with a space completes with the space escaped (`Kaito\\ Arashi`).
"""

from __future__ import annotations

import os
from typing import Any

from jdr.i18n import _

COMPLETE_VAR = "_JDR_COMPLETE"


def _db(ctx: Any) -> str | None:
    """The `--db` typed on the command line so far, if any."""
    params = getattr(ctx, "params", {}) or {}
    return params.get("db") or params.get("jdr_db")


def _matching(names: list[str], incomplete: str) -> list[str]:
    """`names` that start with `incomplete` (as typed, or in any case and without accents),
    escaped for bash (which splits at spaces and quotes)."""
    from jdr.names import fold

    typed = fold(incomplete)
    found = [n for n in names if n.startswith(incomplete) or fold(n).startswith(typed)]
    if os.environ.get(COMPLETE_VAR, "").endswith("bash") and " " not in incomplete:
        found = [name.replace(" ", "\\ ").replace("'", "\\'") for name in found]
    return found


def system_ids(incomplete: str) -> list[str]:
    """The installed systems' ids (entry-point names: no plug-in is imported)."""
    from jdr.systems import default_registry

    return _matching(default_registry().ids(), incomplete)


def campaigns(ctx: Any, incomplete: str) -> list[str]:
    """The stored campaigns' names."""
    from jdr.store.names import campaign_names

    return _matching(campaign_names(_db(ctx)), incomplete)


def _campaign_characters(ctx: Any) -> list[str]:
    from jdr.store.names import character_names

    params = getattr(ctx, "params", {}) or {}
    campaign = params.get("campaign") or params.get("jdr_campaign")
    return character_names(_db(ctx), campaign)


def characters(ctx: Any, incomplete: str) -> list[str]:
    """The stored characters: of the campaign typed so far (`--campaign`), else of every one."""
    return _matching(_campaign_characters(ctx), incomplete)


def character_lists(ctx: Any, incomplete: str) -> list[str]:
    """`--with A,B,…`: the names already typed, then each character not yet in the list."""
    typed, _comma, _last = incomplete.rpartition(",")
    head = [name for name in typed.split(",") if name]
    prefix = f"{typed}," if typed else ""
    names = [prefix + name for name in _campaign_characters(ctx) if name not in head]
    return _matching(names, incomplete)


def fighters(ctx: Any, incomplete: str) -> list[str]:
    """The fighters of the fight typed so far (`FIGHT`)."""
    from jdr.store.names import fighter_names

    params = getattr(ctx, "params", {}) or {}
    fight = params.get("fight")
    if not isinstance(fight, int):
        return []
    return _matching(fighter_names(_db(ctx), fight), incomplete)


def languages(incomplete: str) -> list[str]:
    return [lang for lang in ("fr", "en") if lang.startswith(incomplete)]


def journal_actors(ctx: Any, incomplete: str) -> list[str]:
    """`jdr journal luck NAME --actor`: the characters of campaign NAME."""
    from jdr.store.names import character_names

    params = getattr(ctx, "params", {}) or {}
    return _matching(character_names(_db(ctx), params.get("name")), incomplete)


def _fight(ctx: Any) -> tuple[Any, Any] | None:
    """The system and the state of the fight typed so far (`FIGHT`), or None."""
    from jdr.errors import JdrError
    from jdr.store import StoredEvent
    from jdr.store.names import fight_story
    from jdr.systems import default_registry

    params = getattr(ctx, "params", {}) or {}
    fight = params.get("fight")
    if not isinstance(fight, int):
        return None
    system_id, stored = fight_story(_db(ctx), fight)
    if system_id is None:
        return None
    try:
        system = default_registry().get(system_id)
    except JdrError:
        return None
    if system.fight is None:
        return None
    from jdr.fights.fold import fold
    from jdr.fights.timeline import effective_events

    events = [StoredEvent(seq, action, event) for seq, action, event in stored]
    return system, fold(system.fight, effective_events(events))


def fight_commands(ctx: Any, incomplete: str) -> list[str]:
    """`jdr fight act FIGHT ACTOR <TAB>`: what ACTOR may play now in that fight."""
    from jdr.errors import JdrError
    from jdr.fights.service import legal_now

    found = _fight(ctx)
    if found is None:
        return []
    system, state = found
    try:
        names = legal_now(system, state, (getattr(ctx, "params", {}) or {}).get("actor"))
    except (JdrError, KeyError, TypeError):
        return []
    commands = getattr(system, "fight_commands", None)
    return _matching(commands.shown_names(names) if commands else names, incomplete)


def fight_keys(ctx: Any, incomplete: str) -> list[str]:
    """`jdr fight act FIGHT ACTOR COMMAND <TAB>`: its keys by their display names (`target=`,
    `cible=` in French), then a key's values: the fighters for a key naming one, the choices
    of a choice and yes/no, by their display names."""
    from jdr.errors import JdrError
    from jdr.fights.commands import FIGHTER, choice_names, key_label, key_spellings
    from jdr.names import find, fold
    from jdr.params import is_flag

    found = _fight(ctx)
    params = getattr(ctx, "params", {}) or {}
    commands = getattr(found[0], "fight_commands", None) if found else None
    if commands is None or not params.get("command"):
        return []
    try:
        model = commands.get(params["command"]).keys
    except JdrError:
        return []
    spellings = key_spellings(model)
    typed = [str(pair).partition("=")[0] for pair in params.get("pairs") or []]
    given = {find(each, spellings) for each in typed}
    name, equals, _value = incomplete.partition("=")
    if not equals:
        keys = [f"{key_label(model, k)}=" for k in model.model_fields if k not in given]
        return _matching(keys, incomplete)
    meant = find(name, spellings)
    info = model.model_fields.get(meant) if meant is not None else None
    if info is None:
        return []
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    values = list(choice_names(info).values())
    if is_flag(info):
        values = [_("yes"), _("no")]
    if extra.get(FIGHTER):
        from jdr.store.names import fighter_names

        values = fighter_names(_db(ctx), int(params["fight"]))
    begun = fold(_value)
    values = [v for v in values if v.startswith(_value) or fold(v).startswith(begun)]
    return _matching([f"{name}={value}" for value in values], incomplete)
