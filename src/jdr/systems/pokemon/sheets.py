"""Sheets: a move, a Pokémon and a trainer (pydantic models, loadable from TOML).

Field names are the glossary's (`strength`, `willpower`, `vitality` …); what a player reads uses
the French words through the catalog. Names of types, conditions, categories and stats are accepted
in French or English, any case, with or without accents, and stored as ids (`electrik`, `burn`,
`speciale`, `willpower`).

Where the rules are silent, these sheets read them so:

- `stats` holds the values **before EVs**; `evs` records the EVs spent per stat, and
  `effective_stats` adds them (PK-22: each EV raises its stat by 1). Buying an EV changes `evs`
  only, and the PK-22 limits are checked on that record.
- A Pokémon knows at most `MAX_MOVES` = 4 moves (the video games' rule; the source only says "known
  moves"); the loaders take `max_moves=None` for a table that plays without a limit.
- `condition` holds the one major condition (PK-16), `volatile` the volatile ones (PK-17).
- Trainers buy EVs too (the seed: "pour un humain, ils doivent être achetés"): same limits.
- In error messages a field is a dotted path and a list position counts from 1: `moves[2].type`.

Reading them from TOML is `sheet_files.py`.

>>> stats = Stats(strength=2, concentration=3, constitution=2, willpower=2, dexterity=4)
>>> effective_stats(Trainer(name="Léa", stats=stats, vitality={"current": 9, "max": 9},
...                         energy={"current": 5, "max": 5}, evs={"dexterity": 1})).dexterity
5
"""

from __future__ import annotations

import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from jdr.errors import UnknownNameError
from jdr.i18n import N_, _, current_language
from jdr.names import closest, fold
from jdr.params import PERCENT
from jdr.systems.pokemon.types import default_chart
from jdr.validation import fail

Category = Literal["physique", "speciale", "statut"]
StatName = Literal["strength", "concentration", "constitution", "willpower", "dexterity"]
STAT_NAMES: tuple[StatName, ...] = (
    "strength",
    "concentration",
    "constitution",
    "willpower",
    "dexterity",
)
MAJOR_CONDITIONS = ("burn", "poison", "bad_poison", "paralysis", "freeze", "sleep")
VOLATILE_CONDITIONS = ("confusion", "infatuation", "curse", "flinch")
CONDITION_WORDS = (
    N_("burn"),
    N_("poison"),
    N_("bad_poison"),
    N_("paralysis"),
    N_("freeze"),
    N_("sleep"),
    N_("confusion"),
    N_("infatuation"),
    N_("curse"),
    N_("flinch"),
)
"""The conditions as a reader sees them: `_("burn")` is `Brûlure` in French."""
STAT_WORDS = (
    N_("strength"),
    N_("concentration"),
    N_("constitution"),
    N_("willpower"),
    N_("dexterity"),
)
"""The stats as a reader sees them: `_("willpower")` is `Volonté` in French."""
STAT_LABELS: dict[str, str] = {
    "strength": "Force",
    "concentration": "Concentration",
    "constitution": "Constitution",
    "willpower": "Volonté",
    "dexterity": "Dextérité",
}
CONDITION_LABELS: dict[str, str] = {
    "burn": "Brûlure",
    "poison": "Empoisonnement",
    "bad_poison": "Empoisonnement grave",
    "paralysis": "Paralysie",
    "freeze": "Gel",
    "sleep": "Sommeil",
    "confusion": "Confusion",
    "infatuation": "Attirance",
    "curse": "Malédiction",
    "flinch": "Peur",
}
MAX_EVS_PER_STAT = 6  # PK-22
MAX_EVS_TOTAL = 18  # PK-22
MAX_MOVES = 4
EXAMPLES = ("pokemon", "trainer")
KINDS = ("pokemon", "trainer")

_CATEGORIES = {"physique": "physique", "physical": "physique", "speciale": "speciale"}
_CATEGORIES |= {"special": "speciale", "statut": "statut", "status": "statut"}
_STAT_KEYS = {fold(k): k for k in STAT_LABELS} | {fold(v): k for k, v in STAT_LABELS.items()}
_CONDITION_KEYS = {fold(k): k for k in CONDITION_LABELS}
_CONDITION_KEYS |= {fold(v): k for k, v in CONDITION_LABELS.items()}

# Each error a validator raises: (reason, allowed) in English, formatted with the error's context.
_MESSAGES: dict[str, tuple[str, str]] = {
    "stat_below_one": (N_("a stat is never below 1 (PK-8)"), N_("a whole number ≥ 1")),
    "ev_per_stat": (N_("more than {limit} EVs in one stat (PK-22)"), "0..{limit}"),
    "ev_total": (N_("more than {limit} EVs in total (PK-22)"), "0..{limit}"),
    "unknown_stat": (N_("unknown stat"), "{known}"),
    "unknown_type": (N_("unknown type"), "{known}"),
    "same_type_twice": (N_("the same type twice"), N_("one or two types, e.g. eau/vol")),
    "unknown_condition": (N_("unknown condition"), "{known}"),
    "one_major_condition": (N_("at most one major condition at a time (PK-16)"), "{known}"),
    "volatile_not_major": (N_("a volatile condition: list it under volatile (PK-17)"), "{known}"),
    "major_not_volatile": (N_("a major condition: set it as condition (PK-16)"), "{known}"),
    "unknown_category": (N_("unknown move category"), "physique, speciale, statut"),
    "over_max": (N_("more than the maximum {max}"), "0..{max}"),
    "too_many_moves": (N_("more than {limit} known moves"), "0..{limit}"),
    "same_move_twice": (N_("the same move twice"), N_("different move names")),
    "blank": (N_("empty"), N_("a name")),
}


def _fail(kind: str, **context: Any) -> PydanticCustomError:
    return fail(kind, *_MESSAGES[kind], **context)


def _at_least_one(value: int) -> int:
    if value < 1:
        raise _fail("stat_below_one", value=value)
    return value


StatValue = Annotated[int, AfterValidator(_at_least_one)]


def stat_id(name: str) -> StatName:
    """A stat id from its French or English name: `Volonté` → `willpower`.

    >>> stat_id("DEXTÉRITÉ"), stat_id("force")
    ('dexterity', 'strength')
    """
    key = _STAT_KEYS.get(fold(name))
    if key is None:
        raise _unknown(_("stat"), name, STAT_LABELS)
    return typing.cast(StatName, key)


def condition_id(name: str) -> str:
    """A condition id from its French or English name: `Empoisonnement grave` → `bad_poison`.

    >>> condition_id("brûlure"), condition_id("Bad poison")
    ('burn', 'bad_poison')
    """
    key = _CONDITION_KEYS.get(fold(name))
    if key is None:
        raise _unknown(_("condition"), name, CONDITION_LABELS)
    return key


def _unknown(field: str, name: str, labels: Mapping[str, str]) -> UnknownNameError:
    """Listing the names as the reader names them; the closest found among every spelling."""
    shown = dict(zip(labels, shown_names(labels), strict=True))
    spellings = shown | {label: shown[key] for key, label in labels.items()}
    spellings |= {key: shown[key] for key in labels}
    return UnknownNameError(field, name, list(shown.values()), closest(name, spellings))


def shown_names(ids: Iterable[str]) -> list[str]:
    """Stats or conditions as a reader names them: French in French, the ids in English.

    >>> from jdr.i18n import language
    >>> with language("fr"):
    ...     shown_names(["sleep", "bad_poison", "willpower"])
    ['Sommeil', 'Empoisonnement grave', 'Volonté']
    >>> shown_names(["sleep", "bad_poison"])
    ['sleep', 'bad_poison']
    """
    return list(ids) if current_language() == "en" else [_(name) for name in ids]


def _name(value: str) -> str:
    if not value.strip():
        raise _fail("blank", value=value)
    return value.strip()


def _type_id(value: str) -> str:
    try:
        return default_chart().normalize(value)
    except UnknownNameError as error:
        raise _fail("unknown_type", value=value, known=error.allowed) from None


def _stat_key(value: Any) -> Any:
    if isinstance(value, str) and fold(value) not in _STAT_KEYS:
        raise _fail("unknown_stat", value=value, known=", ".join(shown_names(STAT_NAMES)))
    return _STAT_KEYS[fold(value)] if isinstance(value, str) else value


def _changed_stat(value: Any) -> Any:
    extra = {"accuracy", "precision"}
    return "accuracy" if isinstance(value, str) and fold(value) in extra else _stat_key(value)


def _category(value: Any) -> Any:
    if isinstance(value, str) and fold(value) not in _CATEGORIES:
        raise _fail("unknown_category", value=value)
    return _CATEGORIES[fold(value)] if isinstance(value, str) else value


def _condition(value: Any, allowed: Sequence[str]) -> Any:
    if not isinstance(value, str):
        return value
    key = _CONDITION_KEYS.get(fold(value))
    if key is None:
        raise _fail("unknown_condition", value=value, known=", ".join(shown_names(allowed)))
    return key


def _any_condition(value: Any) -> Any:
    return _condition(value, list(CONDITION_LABELS))


def _major_condition(value: Any) -> Any:
    """PK-16: one major condition or none; a volatile one belongs in `volatile`."""
    if isinstance(value, list):
        if len(value) > 1:
            raise _fail(
                "one_major_condition", value=value, known=", ".join(shown_names(MAJOR_CONDITIONS))
            )
        value = value[0] if value else None
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    key = _condition(value, MAJOR_CONDITIONS)
    if key in VOLATILE_CONDITIONS:
        raise _fail(
            "volatile_not_major", value=value, known=", ".join(shown_names(MAJOR_CONDITIONS))
        )
    return key


def _volatile_condition(value: Any) -> Any:
    key = _condition(value, VOLATILE_CONDITIONS)
    if key in MAJOR_CONDITIONS:
        raise _fail(
            "major_not_volatile", value=value, known=", ".join(shown_names(VOLATILE_CONDITIONS))
        )
    return key


def _ev_in_one_stat(value: int) -> int:
    if value > MAX_EVS_PER_STAT:
        raise _fail("ev_per_stat", value=value, limit=MAX_EVS_PER_STAT)
    return value


def _ev_total(evs: dict[StatName, int]) -> dict[StatName, int]:
    total = sum(evs.values())
    if total > MAX_EVS_TOTAL:
        raise _fail("ev_total", value=total, limit=MAX_EVS_TOTAL)
    return evs


Name = Annotated[str, AfterValidator(_name)]
TypeId = Annotated[str, AfterValidator(_type_id)]
EVs = Annotated[
    dict[
        Annotated[StatName, BeforeValidator(_stat_key)],
        Annotated[int, Field(ge=0), AfterValidator(_ev_in_one_stat)],
    ],
    AfterValidator(_ev_total),
]
Skills = dict[Annotated[str, AfterValidator(_name)], Annotated[int, Field(ge=0)]]


class Stats(BaseModel):
    """The five stats (PK sheet): each a whole number ≥ 1 (PK-8)."""

    model_config = ConfigDict(extra="forbid")

    strength: StatValue = Field(description="Force")
    concentration: StatValue = Field(description="Concentration")
    constitution: StatValue = Field(description="Constitution")
    willpower: StatValue = Field(description="Volonté")
    dexterity: StatValue = Field(description="Dextérité")


class Gauge(BaseModel):
    """A gauge with its maximum (Vitalité, Énergie): 0 ≤ current ≤ max."""

    model_config = ConfigDict(extra="forbid")

    current: int = Field(ge=0, description=N_("what is left now"))
    max: int = Field(ge=1, description=N_("the maximum"))

    @model_validator(mode="after")
    def _current_within_max(self) -> Gauge:
        if self.current > self.max:
            raise _fail("over_max", value=self.current, max=self.max, at="current")
        return self


class Inflict(BaseModel):
    """A condition a move may inflict, with its chance in percent."""

    model_config = ConfigDict(extra="forbid")

    condition: Annotated[str, BeforeValidator(_any_condition)] = Field(
        description=N_("the condition inflicted, French or English (Paralysie, paralysis)")
    )
    chance: Annotated[int, PERCENT] = Field(
        default=100, ge=0, le=100, description=N_("its chance, in %")
    )


class StatChange(BaseModel):
    """A stat change a move causes (PK-8): `stages` ±1 (raise/lower) or ±2 (sharply)."""

    model_config = ConfigDict(extra="forbid")

    target: Literal["self", "target"] = Field(
        default="target", description=N_("whose stat changes: the user or its target")
    )
    stat: Annotated[
        Literal["strength", "concentration", "constitution", "willpower", "dexterity", "accuracy"],
        BeforeValidator(_changed_stat),
    ] = Field(description=N_("the stat, French or English, or accuracy (PK-9)"))
    stages: int = Field(ge=-2, le=2, description=N_("±1 raise or lower, ±2 sharply (PK-8)"))


class Move(BaseModel):
    """A move (capacité): type, category, energy cost, damage dice, accuracy and effects."""

    model_config = ConfigDict(extra="forbid")

    name: Name = Field(description=N_("the move's name"))
    type: TypeId = Field(description=N_("its type, French or English (Électrik, electric)"))
    category: Annotated[Category, BeforeValidator(_category)] = Field(
        description=N_("physique, spéciale or statut (PK-10)")
    )
    energy: int = Field(default=0, ge=0, description=N_("the Énergie it costs (PK-10)"))
    damage_dice: int = Field(default=0, ge=0, description=N_("its damage dice, d10 (PK-10)"))
    accuracy: int = Field(default=100, ge=1, le=100, description=N_("its accuracy in % (PK-9)"))
    high_crit: bool = Field(default=False, description=N_("damage roll at DD5 (PK-10)"))
    inflicts: Inflict | None = Field(default=None, description=N_("a condition it may inflict"))
    stat_change: StatChange | None = Field(default=None, description=N_("a stat it changes"))


class Pokemon(BaseModel):
    """A Pokémon's sheet: `stats` before EVs (see `effective_stats`)."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["pokemon"] = Field(default="pokemon", description=N_("a Pokémon's sheet"))
    name: Name = Field(description=N_("the Pokémon's name"))
    species: str = Field(default="", description=N_("its species"))
    types: list[TypeId] = Field(
        min_length=1, max_length=2, description=N_("one or two types, French or English")
    )
    level: int = Field(default=1, ge=1, description=N_("its level (Niveau)"))
    stats: Stats = Field(description=N_("the five stats, before EVs"))
    evs: EVs = Field(default_factory=dict, description=N_("EVs spent per stat (PK-22)"))
    skills: Skills = Field(default_factory=dict, description=N_("skills and their levels"))
    vitality: Gauge = Field(description=N_("Vitalité: 0 is KO"))
    energy: Gauge = Field(description=N_("Énergie, spent by moves"))
    moves: list[Move] = Field(default_factory=list, description=N_("the moves it knows"))
    condition: Annotated[str | None, BeforeValidator(_major_condition)] = Field(
        default=None, description=N_("its major condition, if any (PK-16)")
    )
    volatile: list[Annotated[str, BeforeValidator(_volatile_condition)]] = Field(
        default_factory=list, description=N_("its volatile conditions (PK-17)")
    )
    xp: int = Field(default=0, ge=0, description=N_("XP left to spend (PK-21)"))

    @field_validator("types")
    @classmethod
    def _different_types(cls, types: list[str]) -> list[str]:
        if len(set(types)) < len(types):
            raise _fail("same_type_twice", value=types)
        return types

    @field_validator("moves")
    @classmethod
    def _known_moves(cls, moves: list[Move], info: ValidationInfo) -> list[Move]:
        context = info.context if isinstance(info.context, dict) else {}
        limit = context.get("max_moves", MAX_MOVES)
        if limit is not None and len(moves) > limit:
            raise _fail("too_many_moves", value=len(moves), limit=limit)
        names = [fold(move.name) for move in moves]
        for index, name in enumerate(names):
            if name in names[:index]:
                raise _fail("same_move_twice", value=moves[index].name, at=index)
        return moves

    @field_validator("volatile")
    @classmethod
    def _once_each(cls, volatile: list[str]) -> list[str]:
        return list(dict.fromkeys(volatile))


class Trainer(BaseModel):
    """A trainer's (human) sheet: the same five stats, skills, XP and the Pokémon they carry."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["trainer"] = Field(default="trainer", description=N_("a trainer's sheet"))
    name: Name = Field(description=N_("the trainer's name"))
    stats: Stats = Field(description=N_("the five stats, before EVs"))
    skills: Skills = Field(default_factory=dict, description=N_("skills and their levels"))
    vitality: Gauge = Field(description=N_("Vitalité"))
    energy: Gauge = Field(description=N_("Énergie"))
    xp: int = Field(default=0, ge=0, description=N_("XP left to spend (PK-21)"))
    pokemon: list[str] = Field(default_factory=list, description=N_("the Pokémon carried"))
    evs: EVs = Field(default_factory=dict, description=N_("EVs spent per stat (PK-22)"))


Sheet = Pokemon | Trainer
M = TypeVar("M", bound=BaseModel)


def total_evs(sheet: Sheet) -> int:
    """EVs spent on stats in all (PK-22: at most 18).

    >>> from jdr.systems.pokemon.sheet_files import load_example
    >>> total_evs(load_example("trainer"))
    1
    """
    return sum(sheet.evs.values())


def effective_stats(sheet: Sheet) -> Stats:
    """The stats a roll uses: `stats` plus one per EV (PK-22).

    >>> from jdr.systems.pokemon.sheet_files import load_example
    >>> effective_stats(load_example("trainer")).willpower
    4
    """
    base = sheet.stats.model_dump()
    return Stats(**{stat: base[stat] + sheet.evs.get(stat, 0) for stat in STAT_NAMES})


def change_stat(stats: Stats, stat: str, stages: int) -> Stats:
    """A raised (+) or lowered (−) stat, never below 1 (PK-8).

    >>> change_stat(Stats(strength=2, concentration=1, constitution=1, willpower=1,
    ...                   dexterity=1), "Force", -2).strength
    1
    """
    key = stat_id(stat)
    return stats.model_copy(update={key: max(1, getattr(stats, key) + stages)})
