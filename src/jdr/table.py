"""A seat at a campaign's table: what a signed-in viewer may roll, ask and read.

The web table's use cases, over the same services as the CLI (`jdr.journal.service`, the
actions' own `roll`/`odds`/`advise`, `jdr.params.validate_params`); `jdr.access.Viewer` says who
asks. A player rolls only for their own character and never hidden; a spectator only reads; a
hidden roll reaches no one but the GM before it is disclosed, whatever action id is asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from jdr.access import AccessError, Viewer
from jdr.errors import InputError
from jdr.i18n import _
from jdr.journal.entries import Entry
from jdr.journal.service import Rolled
from jdr.params import validate_params
from jdr.store import Campaign, Store
from jdr.systems.protocol import Action, RuleSystem


def system_of(campaign: Campaign) -> RuleSystem:
    from jdr.systems import default_registry

    return default_registry().get(campaign.system)


def action_of(system: RuleSystem, name: str | None, mode: str = "roll") -> Action[Any]:
    """The system's action `name` (as typed loosely), offering `mode`."""
    from jdr.errors import NotOfferedError, UnknownNameError
    from jdr.names import find

    found = find(name or "", list(system.actions)) if name else None
    if found is None:
        raise UnknownNameError("action", name or "", list(system.actions))
    action = system.actions[found]
    if mode != "roll" and getattr(action, mode) is None:
        offering = sorted(n for n, a in system.actions.items() if getattr(a, mode) is not None)
        raise NotOfferedError(mode, system.id, found, offering)
    return action


@dataclass(frozen=True)
class RollAsked:
    """What a viewer asks to roll: the action, its raw parameters as typed, the journal options."""

    action: str
    params: Mapping[str, Any]
    actor: str | None = None
    hidden: bool = False
    action_id: str | None = None
    client_seed: str | None = None


def roll(store: Store, viewer: Viewer, campaign: Campaign, asked: RollAsked) -> Rolled:
    """Roll through the campaign's journal as `viewer` may (see the module's docstring)."""
    from jdr.journal import service

    viewer.require_campaign(campaign.id)
    actor = viewer.require_actor(asked.actor)
    if asked.hidden and not viewer.is_gm:
        raise AccessError("hidden", True, _("the GM"), _("only the GM rolls hidden"))
    system = system_of(campaign)
    action = action_of(system, asked.action)
    params = validate_params(action.params, asked.params)
    if asked.client_seed is not None and len(asked.client_seed) > 200:
        raise InputError("client_seed", asked.client_seed[:20] + "…", _("1 to 200 characters"))
    rolled = service.roll(
        store,
        campaign,
        system,
        action,
        params,
        actor=actor,
        action_id=asked.action_id or None,
        client_seed=asked.client_seed or None,
        hidden=asked.hidden,
    )
    if rolled.replayed and not viewer.is_gm and not readable(store, campaign, rolled.entry):
        raise AccessError(
            "action_id", asked.action_id, _("an action id of yours"), _("a hidden roll")
        )
    return rolled


def readable(store: Store, campaign: Campaign, entry: Entry) -> bool:
    """Whether everyone may read `entry`'s body: not hidden, or disclosed."""
    if not entry.hidden:
        return True
    return any(row.seq == entry.seq and row.disclosed for row in store.journal(campaign.id))


def odds(campaign: Campaign, action_name: str, raw: Mapping[str, Any]) -> tuple[Any, Any, Any]:
    """The exact odds of an action with the parameters typed so far: (action, params, odds)."""
    system = system_of(campaign)
    action = action_of(system, action_name, "odds")
    params = validate_params(action.params, raw)
    assert action.odds is not None
    return action, params, action.odds(params, False)


def advise(campaign: Campaign, action_name: str, raw: Mapping[str, Any]) -> tuple[Any, Any, Any]:
    """An advisor's ranking (Passion's `advise`): (action, params, advice)."""
    system = system_of(campaign)
    action = action_of(system, action_name, "advise")
    assert action.advise is not None
    params = validate_params(action.advise.params, raw)
    return action, params, action.advise.advise(params, False)


def journal(store: Store, viewer: Viewer, campaign: Campaign) -> list[Entry]:
    """The journal as `viewer` may read it: the GM's whole, everyone else's with hidden rolls
    sealed until disclosed."""
    from jdr.journal.service import entry_of, public_entries

    viewer.require_campaign(campaign.id)
    if viewer.is_gm:
        return [entry_of(row) for row in store.journal(campaign.id)]
    return public_entries(store, campaign)
