"""A fight's outcome on its stored fighters' sheets: computed when it ends, reviewed, applied.

A running fight keeps its own copy of each sheet (its opening events carry them), so editing a
sheet never breaks it; `record_start` notes which revision each stored fighter started from.
When the fight ends, the system's `fight_outcome` computes each fighter's sheet from that start
revision and the fight's final state; the changes are then moved onto the sheet as it is now
(`jdr.characters.changes.rebase`: XP awarded meanwhile adds up, a field changed both in the fight
and outside it is a conflict, left as it is and reported). Each fighter's outcome is one revision
(`fight`), journaled under the action id `#fightN.outcome.ID`, so applying it twice writes it
once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from jdr.characters.changes import Change, apply, changed_fields, diff, rebase
from jdr.characters.service import Decision, Revised, checked, revise, system_of
from jdr.fights.fold import fold
from jdr.fights.timeline import Timeline, fight_action_id
from jdr.i18n import _
from jdr.store import Campaign, Character, Fighter, Store
from jdr.systems.protocol import FightEnd, Json, RuleSystem

__all__ = ["FighterOutcome", "apply_outcome", "outcome", "record_start"]

FIGHT = "fight"


@dataclass(frozen=True)
class FighterOutcome:
    """What the fight changes on one stored fighter: the changes that land on the sheet as it is
    now, those that cannot (a field changed outside the fight too), and the rules; `revised` once
    applied."""

    fighter: str
    character: Character
    changes: list[Change]
    conflicts: list[Change]
    rules: tuple[str, ...]
    start_revision: int
    wanted: list[Change] = field(default_factory=list)
    revised: Revised | None = None
    why: tuple[str, ...] = ()
    """The outcome in sentences of the current language, with reasons and rule ids."""


def record_start(store: Store, fight_id: int, characters: Sequence[Character]) -> None:
    """Note the revision each stored character starts fight `fight_id` from: the one it was read
    at to set the fight up (a revision written since does not change the fight's copy)."""
    store.record_fighters(fight_id, [Fighter(c.id, c.name, c.version) for c in characters])


def outcome(store: Store, fight_id: int) -> tuple[Campaign, list[FighterOutcome]]:
    """What ending `fight_id` would change on each stored fighter's sheet, not applied."""
    campaign = store.campaign_of_fight(fight_id)
    system = system_of(campaign)
    fighters = _fighters(store, campaign, fight_id)
    compute = getattr(system, "fight_outcome", None)
    if system.fight is None or compute is None or not fighters:
        return campaign, []
    start = {f.fighter: store.sheet_at(f.character_id, f.revision)[1] for f in fighters}
    initial, final = _states(store, fight_id, system)
    effects = compute(FightEnd(start, initial, final))
    found = []
    for fighter in fighters:
        effect = effects.get(fighter.fighter)
        if effect is None or applied(store, campaign, fight_id, fighter.character_id):
            continue
        character = store.character(fighter.character_id)
        changes = diff(start[fighter.fighter], effect.sheet)
        moved, conflicts = rebase(changes, character.sheet)
        if moved or conflicts:
            found.append(
                FighterOutcome(
                    fighter.fighter,
                    character,
                    moved,
                    conflicts,
                    effect.rules,
                    fighter.revision,
                    changes,
                    why=tuple(effect.why()) if effect.why is not None else (),
                )
            )
    return campaign, found


def apply_outcome(
    store: Store, fight_id: int, actor: str | None = None
) -> tuple[Campaign, list[FighterOutcome]]:
    """Write each stored fighter's outcome as a revision of its sheet (see the module)."""
    campaign, found = outcome(store, fight_id)
    system = system_of(campaign)
    fighters = {
        f.fighter: [f.character_id, f.revision] for f in _fighters(store, campaign, fight_id)
    }
    applied = []
    for each in found:
        revised = _apply_one(store, campaign, system, fight_id, each, fighters, actor)
        applied.append(
            FighterOutcome(
                each.fighter,
                each.character,
                revised.changes if revised is not None else [],
                each.conflicts,
                each.rules,
                each.start_revision,
                each.wanted,
                revised,
                each.why,
            )
        )
    return campaign, applied


def _apply_one(
    store: Store,
    campaign: Campaign,
    system: RuleSystem,
    fight_id: int,
    each: FighterOutcome,
    fighters: Json,
    actor: str | None,
) -> Revised | None:
    def decide(now: Character) -> Decision:
        moved, conflicts = rebase(each.wanted, now.sheet)  # the sheet may have moved since
        data: Json = {
            "cause": {"fight": fight_id},
            "rules": list(each.rules),
            "from_revision": each.start_revision,
        }
        if conflicts:
            data["conflicts"] = conflicts
        return Decision(FIGHT, checked(system, apply(now.sheet, moved)), now.name, data)

    params = {"fight": fight_id, "fighter": each.fighter, "fighters": fighters}
    return revise(
        store,
        campaign,
        each.character.name,
        FIGHT,
        params,
        decide,
        actor,
        action_id=outcome_id(fight_id, each.character.id),
    )


def outcome_id(fight_id: int, character_id: int) -> str:
    """The journal's action id of a fighter's outcome: `#fight3.outcome.7`."""
    return f"{fight_action_id(fight_id, 0)[:-1]}outcome.{character_id}"


def applied(store: Store, campaign: Campaign, fight_id: int, character_id: int) -> bool:
    """Whether the fighter's outcome is written already (applying it again writes nothing)."""
    return store.journal_head(campaign.id, outcome_id(fight_id, character_id)).known is not None


def _states(store: Store, fight_id: int, system: RuleSystem) -> tuple[Json, Json]:
    """The fight's state after its opening action, and its final state."""
    assert system.fight is not None
    timeline = Timeline.of(store.events(fight_id))
    opening = next(iter(timeline.actions.values()), [])
    return fold(system.fight, opening), fold(system.fight, timeline.effective())


def _fighters(store: Store, campaign: Campaign, fight_id: int) -> list[Fighter]:
    """The stored fighters and their start revisions; for a fight from before they were noted,
    the characters named among its participants, at the revision they had when it started."""
    noted = store.fighters(fight_id)
    if noted:
        return noted
    events = store.events(fight_id)
    started: datetime | None = store.event_time(fight_id, events[0].seq) if events else None
    found = []
    for name in store.fight(fight_id).participants:
        character = next((c for c in store.characters(campaign.id) if c.name == name), None)
        if character is None or started is None:
            continue
        found.append(Fighter(character.id, name, store.revision_at(character.id, started)))
    return found


def describe_conflicts(conflicts: Sequence[Change], sheet: Any = None) -> str:
    """The fields a fight's outcome left as they are, for a reader."""
    return _("left as they are (changed outside the fight too): {fields}").format(
        fields=", ".join(changed_fields(conflicts, sheet))
    )
