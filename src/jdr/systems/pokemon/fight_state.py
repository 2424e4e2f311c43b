"""The state of a Pokémon fight and `evolve`, the only way it changes (PK-5 … PK-18).

A fight's state is `fold(evolve, events, {})`: a JSON dict. `evolve` never rolls: every face and
every computed number is in the events (see `jdr.systems.pokemon.fight` for the vocabulary).

>>> state = evolve({}, {"type": "fight_started", "settings": {}, "pokemon": []})
>>> state["round"], state["order"], state["over"]
(0, [], False)
>>> accuracy(85, -1), accuracy(85, -2), accuracy(85, 2)
(75, 60, 85)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from jdr import json_keys
from jdr.i18n import N_, _
from jdr.labels import Choices, named
from jdr.names import find
from jdr.names import fold as fold_name
from jdr.params import PERCENT
from jdr.systems.pokemon.sheets import MAJOR_CONDITIONS, Pokemon, effective_stats
from jdr.systems.protocol import Json

ACCURACY_BY_STAGE = {
    -6: 33,
    -5: 38,
    -4: 43,
    -3: 50,
    -2: 60,
    -1: 75,
    0: 100,
    1: 133,
    2: 166,
    3: 200,
    4: 233,
    5: 266,
    6: 300,
}
"""PK-9: accuracy stages −6 … +6 and their percentages."""

SNORE_MOVES = ("ronflement", "blabladodo")
"""PK-16: the only moves a sleeping Pokémon may use (names folded: no case, accents, spaces)."""
THAW_MOVES = ("feusacre", "rouedefeu")
"""PK-16: using one of these thaws a frozen Pokémon."""
BURNS_FIRE_TYPES = "triplattaque"
"""PK-16: the one move that burns a Feu-type Pokémon."""
CURSE_MOVE = "malediction"
"""PK-17: Malédiction only curses when a Spectre-type Pokémon uses it."""

_ACTS = frozenset(("move_used", "waited", "free_order", "passed", "action_lost", "counter_started"))
"""Events that spend a Pokémon's action for the round (PK-6)."""


REACTIONS: Choices = {
    "ask": ("ask", "demander"),
    "none": ("none", "aucune", "rien"),
    "endure": ("endure", "encaisser", "encaisse", "endurer"),
    "dodge": ("dodge", "esquiver", "esquive"),
}
"""`reactions`' display names (English, French, other spellings accepted)."""


class FightSettings(BaseModel):
    """A table's settings for the rules' chances (the project's defaults, PK-16 … PK-18)."""

    model_config = ConfigDict(extra="forbid")

    paralysis_chance: Annotated[int, PERCENT] = Field(
        default=50,
        ge=0,
        le=100,
        description=N_("% chance that paralysis costs the action"),
        json_schema_extra=named("paralysis chance", "chance de paralysie"),
    )
    thaw_chance: Annotated[int, PERCENT] = Field(
        default=10,
        ge=0,
        le=100,
        description=N_("% chance to thaw at each turn"),
        json_schema_extra=named("thaw chance", "chance de dégel"),
    )
    wake_chance: Annotated[int, PERCENT] = Field(
        default=20,
        ge=0,
        le=100,
        description=N_("% chance to wake at each turn"),
        json_schema_extra=named("wake chance", "chance de réveil"),
    )
    sleep_min_turns: int = Field(
        default=1,
        ge=0,
        le=100,
        description=N_("turns slept through before the first wake roll"),
        json_schema_extra=named("turns asleep before waking", "tours de sommeil avant le réveil"),
    )
    sleep_max_turns: int = Field(
        default=7,
        ge=0,
        le=100,
        description=N_("turns lost asleep at most"),
        json_schema_extra=named("turns asleep at most", "tours de sommeil au plus"),
    )
    confusion_chance: Annotated[int, PERCENT] = Field(
        default=50,
        ge=0,
        le=100,
        description=N_("% chance that confusion hurts itself"),
        json_schema_extra=named("confusion chance", "chance de confusion"),
    )
    infatuation_chance: Annotated[int, PERCENT] = Field(
        default=50,
        ge=0,
        le=100,
        description=N_("% chance that infatuation stops an attack"),
        json_schema_extra=named("infatuation chance", "chance d'attirance"),
    )
    counter_exchanges: int = Field(
        default=50,
        ge=1,
        le=1000,
        description=N_("counter exchanges before both moves fail"),
        json_schema_extra=named("counter exchanges", "échanges de contre"),
    )
    reactions: Literal["ask", "none", "endure", "dodge"] = Field(
        default="ask",
        description=N_(
            "the defender's answer to an attack: asked of it each time, or always the same (none,"
            " endure, or dodge when it can)"
        ),
        json_schema_extra=named("reactions", "réactions", REACTIONS),
    )


ASK = "ask"
"""`reactions`: the fight waits for the defender's answer (PK-12 … PK-14)."""
LEGACY = "attacker"
"""`reactions` of a fight started before defenders were asked: the attacker's command gives the
answer (none by default), and no `reaction_given` is written. Its journal replays as it was."""
LEGACY_SLEEP_MIN_TURNS = 0
"""`sleep_min_turns` of a fight started before a sleeper slept through a turn of its own first
(issue 29): it rolled to wake at its very next turn. Its journal replays as it was."""


def accuracy(move_accuracy: int, stage: int) -> int:
    """PK-9: effective accuracy = min(move accuracy, stage %); stages above 0 only buffer."""
    return min(move_accuracy, ACCURACY_BY_STAGE[max(-6, min(6, stage))])


def fraction_of(maximum: int, numerator: int, denominator: int) -> int:
    """PK-18: a fraction of max Vitalité, floored, at least 1.

    >>> fraction_of(20, 1, 8), fraction_of(7, 1, 8), fraction_of(32, 3, 16)
    (2, 1, 6)
    """
    return max(1, maximum * numerator // denominator)


def stat(pokemon: Json, name: str) -> int:
    """The stat a roll uses now: after PK-8 changes, burn halving Force, paralysis Dextérité ÷ 4."""
    value = int(pokemon["stats"][name])
    if name == "strength" and pokemon["condition"] == "burn":
        value = max(1, value // 2)
    if name == "dexterity" and pokemon["condition"] == "paralysis":
        value = max(1, value // 4)
    return value


def has_skill(pokemon: Json, skill: str) -> bool:
    """A skill at level ≥ 1, its name matched without case, accents or spaces."""
    return int(pokemon["skills"].get(fold_name(skill), 0)) >= 1


def find_move(pokemon: Json, name: str) -> Json | None:
    """The move `name` (case- and accent-insensitive) the Pokémon knows, else None.

    A sheet's moves never fold alike (`sheets.Pokemon`), so a move spelt as its sheet spells it
    is the one: looked for first, before folding names."""
    moves: list[Json] = pokemon["moves"]
    for move in moves:
        if move["name"] == name:
            return move
    key = fold_name(name)
    return next((m for m in moves if fold_name(m["name"]) == key), None)


def find_pokemon(state: Json, name: Any) -> str | None:
    """The Pokémon's name as the fight knows it (named as people type it, `jdr.names`), else
    None."""
    if not isinstance(name, str):
        return None
    if name in state["pokemon"]:  # spelt as the fight spells it (`find` would say the same)
        return name
    return find(name, list(state["pokemon"]), _("Pokémon"))


def standing(state: Json, name: str) -> bool:
    """In the fight and not KO."""
    pokemon = state["pokemon"].get(name)
    return bool(pokemon and pokemon["in_fight"] and not pokemon["ko"])


def opponents(state: Json, name: str) -> list[str]:
    """Standing Pokémon of the other sides, in initiative order."""
    side = state["pokemon"][name]["side"]
    return [
        other
        for other in in_order(state)
        if standing(state, other) and state["pokemon"][other]["side"] != side
    ]


def in_order(state: Json) -> list[str]:
    """Every Pokémon in the fight, by initiative slot, then by entry order inside a slot."""
    return [name for slot in state["order"] for name in slot["members"]]


def pending(state: Json, name: str, kind: str) -> list[Json]:
    """Held `kind` events about `name` (a shared slot's effects, not applied yet)."""
    return [e for e in state["held"] if e["type"] == kind and e["pokemon"] == name]


def entry(sheet: Pokemon, side: str, item: str | None) -> Json:
    """The JSON a `fight_started` or `joined` event carries for one Pokémon: its validated sheet,
    side, held item (free text) and the stats its rolls start from (EVs added)."""
    return {
        "sheet": sheet.model_dump(mode="json"),
        "side": side,
        "item": item,
        "stats": effective_stats(sheet).model_dump(),
    }


def _pokemon(data: Json) -> Json:
    sheet = data["sheet"]
    return {
        "name": sheet["name"],
        "side": data["side"],
        "item": data.get("item"),
        "types": list(sheet["types"]),
        "skills": {fold_name(k): v for k, v in sheet["skills"].items()},
        "moves": json_keys.copy(sheet["moves"]),
        "stats": dict(data["stats"]),
        "accuracy_stage": 0,
        "vitality": sheet["vitality"]["current"],
        "vitality_max": sheet["vitality"]["max"],
        "energy": sheet["energy"]["current"],
        "energy_max": sheet["energy"]["max"],
        "condition": None,
        "condition_turns": 0,
        "volatile": {},
        "initiative": None,
        "waiting": False,
        "ko": False,
        "in_fight": True,
    }


def _start(event: Json) -> Json:
    return {
        "settings": _settings(event["settings"]),
        "round": 0,
        "phase": "actions",
        "pokemon": {p["name"]: p for p in map(_pokemon, event["pokemon"])},
        "order": [],
        "slot": -1,
        "to_play": [],
        "acted": [],
        "holding": False,
        "held": [],
        "over": False,
        "winner": None,
        "reaction": None,
    }


def _settings(given: Json) -> Json:
    """A fight's settings: those `fight_started` gives, the defaults for the others; `reactions`
    left out is a fight from before defenders were asked (`LEGACY`), `sleep_min_turns` left out
    one from before a sleeper slept through its first turn (`LEGACY_SLEEP_MIN_TURNS`). Worked
    out once per distinct settings (a simulation starts the same fight thousands of times), then
    copied."""
    frozen = json_keys.key(given)
    if frozen is None:
        return _validated_settings(given)
    return dict(_known_settings(frozen))


@lru_cache(maxsize=64)
def _known_settings(frozen: bytes) -> Json:
    return _validated_settings(json_keys.data(frozen))


def _validated_settings(given: Json) -> Json:
    settings = FightSettings.model_validate(given).model_dump()
    if "reactions" not in given:
        settings["reactions"] = LEGACY
    if "sleep_min_turns" not in given:
        settings["sleep_min_turns"] = LEGACY_SLEEP_MIN_TURNS
    return settings


def evolve(state: Json, event: Json) -> Json:
    """The state after `event`; `state` itself is not changed, and the new state shares with it
    every part the event leaves alone (`Draft`: a fold copies the Pokémon and the parts of the
    turn an event touches, not the whole fight: issue 21). Records (`attack_rolled`,
    `damage_rolled` …) change nothing."""
    kind = event["type"]
    if kind == "fight_started":
        return _start(event)
    if event.get("held"):
        return state | {"held": [*state["held"], {k: v for k, v in event.items() if k != "held"}]}
    if kind not in _FOLDED:
        return dict(state)
    draft = Draft(state)
    _apply(draft, event)
    return draft.state


class Draft:
    """The next state while an event is applied: a new top-level dict, and a copy of its own of
    each part the event changes, made the first time it is asked for (`pokemon`, `stats`,
    `volatile`); the turn's lists and the order are replaced whole when they change. Every other
    part is the previous state's (`before`), shared, never changed: a part is the draft's own
    when it is not the very object `before` holds."""

    __slots__ = ("before", "state")

    def __init__(self, state: Json) -> None:
        self.before = state
        self.state: Json = dict(state)

    def pokemon(self, name: str) -> Json:
        """`name`'s Pokémon, a copy of its own (its `stats` and `volatile` still shared: ask
        `stats` or `volatile` to change them)."""
        before: Json = self.before["pokemon"]
        team: Json = self.state["pokemon"]
        if team is before:
            team = self.state["pokemon"] = dict(before)
        pokemon: Json = team[name]
        if pokemon is before.get(name):
            pokemon = team[name] = dict(pokemon)
        return pokemon

    def stats(self, name: str) -> Json:
        """`name`'s stats, a copy of its own."""
        pokemon = self.pokemon(name)
        stats: Json = pokemon["stats"]
        if stats is self._before(name, "stats"):
            stats = pokemon["stats"] = dict(stats)
        return stats

    def volatile(self, name: str) -> Json:
        """`name`'s volatile conditions, a copy of its own with a copy of each condition's
        details (`turns_left`, `towards`)."""
        pokemon = self.pokemon(name)
        volatile: Json = pokemon["volatile"]
        if volatile is self._before(name, "volatile"):
            volatile = pokemon["volatile"] = {k: dict(v) for k, v in volatile.items()}
        return volatile

    def _before(self, name: str, part: str) -> Any:
        """`name`'s `part` in the previous state (None for a Pokémon that was not in it)."""
        previous = self.before["pokemon"].get(name)
        return None if previous is None else previous[part]


def _apply(draft: Draft, event: Json) -> None:
    """One event on the draft: the fight's clock here, a Pokémon's changes in `_CHANGES`."""
    kind = event["type"]
    if kind in _ACTS:
        _act(draft, event["pokemon"])
    handler = _HANDLERS.get(kind)
    if handler is not None:
        handler(draft, event)
    elif kind in _CHANGES and event.get("pokemon") in draft.state["pokemon"]:
        _CHANGES[kind](draft, event["pokemon"], event)


def _act(draft: Draft, name: str) -> None:
    state = draft.state
    if name in state["to_play"]:
        to_play = list(state["to_play"])
        to_play.remove(name)
        state["to_play"] = to_play
    if name not in state["acted"]:
        state["acted"] = [*state["acted"], name]
    if state["pokemon"][name]["waiting"]:
        draft.pokemon(name)["waiting"] = False


def _joined(draft: Draft, event: Json) -> None:
    new = _pokemon(event["entry"])
    draft.state["pokemon"] = {**draft.state["pokemon"], new["name"]: new}


def _initiative_rolled(draft: Draft, event: Json) -> None:
    """PK-5: slot a Pokémon by its total; an equal total shares the slot."""
    name, total = event["pokemon"], event["total"]
    draft.pokemon(name)["initiative"] = total
    state = draft.state
    order: list[Json] = list(state["order"])
    state["order"] = order
    for index, slot in enumerate(order):
        if slot["total"] == total:
            order[index] = {**slot, "members": [*slot["members"], name]}
            return
        if slot["total"] < total:
            order.insert(index, {"total": total, "members": [name]})
            if index <= state["slot"]:
                state["slot"] += 1
            return
    order.append({"total": total, "members": [name]})


def _round_started(draft: Draft, event: Json) -> None:
    draft.state.update(round=event["round"], phase="actions", slot=-1, to_play=[], acted=[])
    draft.state.update(holding=False, held=[])


def _slot_opened(draft: Draft, event: Json) -> None:
    draft.state.update(slot=event["slot"], to_play=list(event["to_play"]), held=[])
    draft.state["holding"] = len(event["to_play"]) > 1


def _slot_resolved(draft: Draft, event: Json) -> None:
    held = draft.state["held"]
    draft.state.update(held=[], holding=False)
    for effect in held:
        _apply(draft, effect)


def _knocked_out(draft: Draft, event: Json) -> None:
    name = event["pokemon"]
    draft.pokemon(name)["ko"] = True
    if name in draft.state["to_play"]:
        to_play = list(draft.state["to_play"])
        to_play.remove(name)
        draft.state["to_play"] = to_play


def _phase_started(draft: Draft, event: Json) -> None:
    draft.state["phase"] = event["phase"]
    if event["phase"] == "end":
        pokemon = draft.state["pokemon"]
        for name in [name for name in pokemon if "flinch" in pokemon[name]["volatile"]]:
            del draft.volatile(name)["flinch"]


def _removed(draft: Draft, event: Json) -> None:
    name = event["pokemon"]
    draft.pokemon(name)["in_fight"] = False
    order = []
    for slot in draft.state["order"]:
        members = slot["members"]
        if name in members:
            members = list(members)
            members.remove(name)
        if members:
            order.append(slot if members is slot["members"] else {**slot, "members": members})
    draft.state["order"] = order


def _fight_over(draft: Draft, event: Json) -> None:
    draft.state.update(over=True, winner=event["winner"], phase="over", to_play=[])


def _reaction_asked(draft: Draft, event: Json) -> None:
    draft.state["reaction"] = {k: v for k, v in event.items() if k != "type"}


def _reaction_given(draft: Draft, event: Json) -> None:
    draft.state["reaction"] = None


_HANDLERS: dict[str, Callable[[Draft, Json], None]] = {
    "joined": _joined,
    "initiative_rolled": _initiative_rolled,
    "round_started": _round_started,
    "slot_opened": _slot_opened,
    "slot_resolved": _slot_resolved,
    "knocked_out": _knocked_out,
    "phase_started": _phase_started,
    "removed": _removed,
    "fight_over": _fight_over,
    "reaction_asked": _reaction_asked,
    "reaction_given": _reaction_given,
}
"""The events that move the fight's clock (a `pokemon` they name is not changed by `_CHANGES`)."""


# --- what an event does to the one Pokémon it names (records such as `attack_rolled`: nothing) --


def _energy_spent(draft: Draft, name: str, event: Json) -> None:
    pokemon = draft.pokemon(name)
    pokemon["energy"] -= event["energy"]


def _waited(draft: Draft, name: str, event: Json) -> None:
    draft.pokemon(name)["waiting"] = True


def _damage(draft: Draft, name: str, event: Json) -> None:
    pokemon = draft.pokemon(name)
    pokemon["vitality"] = max(0, pokemon["vitality"] - event["amount"])
    if event["type"] == "condition_damage" and event["condition"] == "bad_poison":
        pokemon["condition_turns"] = event["fraction"][0]


def _stat_changed(draft: Draft, name: str, event: Json) -> None:
    if event["stat"] == "accuracy":
        pokemon = draft.pokemon(name)
        stage = pokemon["accuracy_stage"] + event["stages"]
        pokemon["accuracy_stage"] = max(-6, min(6, stage))
    else:
        stats = draft.stats(name)
        stats[event["stat"]] = max(1, stats[event["stat"]] + event["stages"])


def _inflicted(draft: Draft, name: str, event: Json) -> None:
    condition = event["condition"]
    if condition in MAJOR_CONDITIONS:
        pokemon = draft.state["pokemon"][name]
        if pokemon["condition"] is None:
            draft.pokemon(name).update(condition=condition, condition_turns=0)
        return
    if condition in draft.state["pokemon"][name]["volatile"]:
        return
    details: dict[str, Any] = {}
    if condition == "confusion":
        details["turns_left"] = event["turns"]
    if condition == "infatuation":
        details["towards"] = event.get("by")
    draft.volatile(name)[condition] = details


def _cured(draft: Draft, name: str, event: Json) -> None:
    condition = event["condition"]
    pokemon = draft.state["pokemon"][name]
    if pokemon["condition"] == condition:
        draft.pokemon(name).update(condition=None, condition_turns=0)
    if condition in pokemon["volatile"]:
        del draft.volatile(name)[condition]


def _wake_checked(draft: Draft, name: str, event: Json) -> None:
    draft.pokemon(name)["condition_turns"] = event["turns_asleep"]


def _confusion_checked(draft: Draft, name: str, event: Json) -> None:
    draft.volatile(name)["confusion"]["turns_left"] = event["turns_left"]


_CHANGES: dict[str, Callable[[Draft, str, Json], None]] = {
    "move_used": _energy_spent,
    "counter_started": _energy_spent,
    "waited": _waited,
    "damage_taken": _damage,
    "condition_damage": _damage,
    "stat_changed": _stat_changed,
    "condition_inflicted": _inflicted,
    "condition_cured": _cured,
    "wake_checked": _wake_checked,
    "confusion_checked": _confusion_checked,
}
"""What an event does to the Pokémon it names, when the fight knows it."""
_FOLDED = _ACTS | frozenset(_HANDLERS) | frozenset(_CHANGES)
"""The events that change the state: any other is a record."""
