"""Plus Ultra sheets (fiche technique): a character's rank, gauge maxima and techniques, from TOML.

`energy` and `willpower` on a sheet are the **maxima** (PU-1: every fight starts there); they must
add up for the rank (PU-2). A technique (PU-7) has a Volonté `cost`, a `cooldown` in turns and
`effects` drawn from the vocabulary the tool understands; anything else is `text` the GM resolves.

Where the rules are silent, this module reads them so:

- `effects` is one table per technique, each effect at most once (`{ extra_attacks = 1,
  extra_damage = 1 }`); every number is ≥ 0 (`lower_energy = 2` lowers the *target's* Énergie).
- A technique costs at least 1 Volonté unless it is marked `equipment = true` (PU-7: only an
  equipment technique may cost 0), and never more than the Volonté maximum (it could never be used).
- Technique names are unique on a sheet (case and accents ignored).
- In error messages a field is a dotted path and a list position counts from 1:
  `techniques[2].cost`.

A `Duelist` is a character as a duel meets it: its rank and **current** gauges, written
`rank=C,energy=7,willpower=5` on the command line (`rang`, `énergie`, `volonté` work too). Each
gauge is at most the rank's base + free points, and both together fit one split of the free points
(PU-2: `energy=10,willpower=10` is refused at rank C, whose 4 free points can't raise both to 10);
Énergie is at least 1 (at 0 the character is KO, PU-1).

>>> hero = load_example("hero")
>>> hero.rank, hero.energy, hero.willpower, [t.cooldown for t in hero.techniques]
('C', 8, 8, [2, 1, 3])
>>> text = example_path("hero").read_text("utf-8")
>>> load_character(text.replace("willpower = 8", "willpower = 9"))
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
jdr.sheets.SheetError: willpower: 9 (5 points placed, rank C gives 4 ...)
"""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    model_validator,
)
from pydantic_core import PydanticCustomError

from jdr.errors import UnknownNameError
from jdr.i18n import N_, _
from jdr.labels import Choices, named
from jdr.names import fold
from jdr.sheets import SheetError, load_model
from jdr.systems.plus_ultra.rules import (
    RANKS,
    base_maximum,
    free_points,
    maxima_problems,
    normalize_rank,
)
from jdr.validation import fail

__all__ = [
    "EXAMPLES",
    "MAX_VALUE",
    "Character",
    "Duelist",
    "Effects",
    "Rank",
    "RankName",
    "SheetError",
    "Spec",
    "Technique",
    "example_path",
    "fold",
    "load_character",
    "load_example",
    "parse_spec",
]

RankName = Literal["E", "E+", "D", "D+", "C", "C+", "B", "B+", "A", "A+", "S", "S+"]
RANK_NAMES: Choices = {rank: (rank, rank) for rank in get_args(RankName)}
"""A rank reads the same in both languages."""
EXAMPLES = ("hero", "villain")
MAX_EXTRA_ATTACKS = 9
"""A technique makes at most 1 + 9 attack rolls."""
MAX_VALUE = 99
_KEYS = {"rank": "rank", "rang": "rank", "energy": "energy", "energie": "energy"}
_KEYS |= {"willpower": "willpower", "volonte": "willpower"}
_SPEC = N_("rank=R,energy=E,willpower=W, e.g. rank=C,energy=7,willpower=5")


# Each error a validator raises: (reason, allowed) in English, formatted with the error's context.
_MESSAGES: dict[str, tuple[str, str]] = {
    "unknown_rank": (N_("unknown rank"), "{known}"),
    "blank": (N_("empty"), N_("a name")),
    "maxima": (N_("{problem} (PU-2)"), N_("Énergie + Volonté = {total}, each at least {base}")),
    "free_technique": (
        N_("only an equipment technique may cost 0 Volonté (PU-7)"),
        N_("a cost of 1 or more, or equipment = true"),
    ),
    "technique_too_costly": (
        N_("more than the Volonté maximum {willpower}: it could never be used (PU-7)"),
        "0..{willpower}",
    ),
    "same_technique_twice": (N_("the same technique twice"), N_("different technique names")),
    "spec_syntax": (N_("{part} is not key=value"), _SPEC),
    "spec_key": (N_("unknown key {key}"), N_("rank, energy, willpower")),
    "spec_twice": (N_("{key} given twice"), _SPEC),
    "over_rank": (
        N_("more than rank {rank} allows: {base} + {free} free points = {ceiling} (PU-2)"),
        "{low}..{ceiling}",
    ),
    "over_split": (
        N_(
            "Énergie {energy} and Volonté {willpower} need {needed} free points, rank {rank} gives"
            " {free} (PU-2)"
        ),
        N_("current gauges within one split of the rank's points"),
    ),
}


def _fail(kind: str, **context: Any) -> PydanticCustomError:
    return fail(kind, *_MESSAGES[kind], **context)


def _rank(value: Any) -> Any:
    """A rank in any case (`c+` → `C+`); an unknown one is refused with the list of ranks."""
    if not isinstance(value, str):
        return value
    try:
        return normalize_rank(value)
    except UnknownNameError:
        raise _fail("unknown_rank", value=value, known=", ".join(RANKS)) from None


def _name(value: str) -> str:
    if not value.strip():
        raise _fail("blank", value=value)
    return value.strip()


Rank = Annotated[RankName, BeforeValidator(_rank)]
"""A rank of PU-2, given in any case; the field type of every `rank` parameter and sheet key."""
Name = Annotated[str, AfterValidator(_name)]


class Effects(BaseModel):
    """PU-7: what a technique does that the tool understands; `text` is for the GM.

    >>> Effects(extra_attacks=1, text="stuns a bystander").extra_attacks
    1
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    extra_attacks: int = Field(
        default=0, ge=0, le=MAX_EXTRA_ATTACKS, description=N_("extra attack rolls (PU-8)")
    )
    """Extra attack rolls in the same action (multi-hit; PU-8 stops them at a KO)."""
    attack_bonus: int = Field(
        default=0, ge=0, le=MAX_VALUE, description=N_("added to the attack roll")
    )
    """Added to the attack roll."""
    extra_damage: int = Field(
        default=0, ge=0, le=MAX_VALUE, description=N_("Énergie removed on a hit, more (PU-3)")
    )
    """Énergie removed on a hit, on top of the rank's damage (PU-3)."""
    defense_bonus: int = Field(
        default=0, ge=0, le=MAX_VALUE, description=N_("added to the defense until the next turn")
    )
    """Added to the user's defense until the start of its next turn."""
    lower_willpower: int = Field(
        default=0, ge=0, le=MAX_VALUE, description=N_("Volonté the target loses")
    )
    """Volonté the target loses."""
    lower_energy: int = Field(
        default=0, ge=0, le=MAX_VALUE, description=N_("Énergie the target loses")
    )
    """Énergie the target loses."""
    text: str = Field(default="", description=N_("anything else, resolved by the GM"))
    """Anything else, resolved by the GM."""


class Technique(BaseModel):
    """PU-7: a technique from the sheet: its Volonté cost, cooldown in turns and effects."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Name = Field(description=N_("the technique's name"))
    cost: int = Field(ge=0, le=MAX_VALUE, description=N_("its Volonté cost, paid after use (PU-7)"))
    cooldown: int = Field(default=0, ge=0, le=MAX_VALUE, description=N_("its cooldown in turns"))
    equipment: bool = Field(default=False, description=N_("equipment: may cost 0 (PU-7)"))
    effects: Effects = Field(default_factory=Effects, description=N_("what it does"))

    @model_validator(mode="after")
    def _costs_willpower(self) -> Technique:
        if self.cost == 0 and not self.equipment:
            raise _fail("free_technique", value=0, at="cost")
        return self


class Character(BaseModel):
    """A Plus Ultra character sheet: `energy` and `willpower` are the gauges' maxima (PU-1, PU-2).

    >>> Character(name="Kai", rank="d", energy=5, willpower=5).rank
    'D'
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Name = Field(description=N_("the character's name"))
    rank: Rank = Field(description=N_("E, E+, D … S+ (PU-2)"))
    energy: int = Field(ge=1, le=MAX_VALUE, description=N_("Énergie maximum (PU-1, PU-2)"))
    willpower: int = Field(ge=0, le=MAX_VALUE, description=N_("Volonté maximum (PU-1, PU-2)"))
    techniques: list[Technique] = Field(default_factory=list, description=N_("techniques (PU-7)"))

    @model_validator(mode="after")
    def _adds_up(self) -> Character:
        problems = maxima_problems(self.rank, self.energy, self.willpower)
        if problems:
            base = base_maximum(self.rank)
            # Blame the gauge below its base, else Volonté (the sum is off: see `allowed`).
            at = "energy" if self.energy < base else "willpower"
            value = self.energy if at == "energy" else self.willpower
            total = 2 * base + free_points(self.rank)
            raise _fail("maxima", problem=problems[0], value=value, at=at, total=total, base=base)
        seen: list[str] = []
        for index, technique in enumerate(self.techniques, start=1):
            if technique.cost > self.willpower:
                at = f"techniques[{index}].cost"
                raise _fail(
                    "technique_too_costly", value=technique.cost, at=at, willpower=self.willpower
                )
            if fold(technique.name) in seen:
                at = f"techniques[{index}].name"
                raise _fail("same_technique_twice", value=technique.name, at=at)
            seen.append(fold(technique.name))
        return self

    def technique(self, name: str) -> Technique:
        """The technique called `name` (case and accents ignored).

        >>> load_example("hero").technique("gantelets LESTÉS").cost
        0
        """
        for technique in self.techniques:
            if fold(technique.name) == fold(name):
                return technique
        raise UnknownNameError(_("technique"), name, [t.name for t in self.techniques])


# --- reading sheets -----------------------------------------------------------------------


def load_character(source: str | Path) -> Character:
    """A character from a TOML file (a `Path`, or a `str` without `=`) or TOML text.

    >>> load_character('name = "Kai"\\nrank = "E"\\nenergy = 2\\nwillpower = 2').energy
    2
    >>> load_character('name = "Kai"\\nrank = "E"\\nenergy = 2\\nwillpower = 2\\nhp = 3')
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    jdr.sheets.SheetError: hp: 3 (unknown key; allowed: name, rank, ...)
    """
    return load_model(Character, source)


def example_path(name: str) -> Traversable:
    """The example sheet `name` shipped with the package (`hero` or `villain`).

    >>> example_path("villain").name
    'villain.toml'
    """
    if name not in EXAMPLES:
        raise UnknownNameError(_("example"), name, list(EXAMPLES))
    return resources.files("jdr.systems.plus_ultra").joinpath("examples").joinpath(f"{name}.toml")


def load_example(name: str) -> Character:
    """The example sheet `name`, loaded and validated.

    >>> load_example("villain").rank
    'B'
    """
    return load_character(example_path(name).read_text(encoding="utf-8"))


# --- current gauges: one side of a duel ---------------------------------------------------


def parse_spec(value: Any) -> Any:
    """`"rank=C, energy=7, willpower=5"` → a dict of the keys (French names accepted too).

    >>> parse_spec("rang=c+, Énergie=7,volonte=5")
    {'rank': 'c+', 'energy': '7', 'willpower': '5'}
    """
    if not isinstance(value, str):
        return value
    found: dict[str, str] = {}
    for part in (p.strip() for p in value.split(",")):
        if not part:
            continue
        key, equals, number = part.partition("=")
        if not equals or "=" in number:  # `rank C`, or `rank=C energy=7` (no comma)
            raise _fail("spec_syntax", value=value, part=part)
        name = _KEYS.get(fold(key))
        if name is None:
            raise _fail("spec_key", value=value, key=key.strip())
        if name in found:
            raise _fail("spec_twice", value=value, key=key.strip())
        found[name] = number.strip()
    return found


class Duelist(BaseModel):
    """One side of a duel: its rank and current gauges, each within what the rank allows (PU-2).

    >>> Duelist.model_validate(parse_spec("rank=c,energy=7,willpower=5"))
    Duelist(rank='C', energy=7, willpower=5)
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    rank: Rank = Field(json_schema_extra=named("rank", "rang"))
    energy: int = Field(ge=1, le=MAX_VALUE, json_schema_extra=named("Énergie", "Énergie"))
    willpower: int = Field(ge=0, le=MAX_VALUE, json_schema_extra=named("Volonté", "Volonté"))

    @model_validator(mode="after")
    def _within_rank(self) -> Duelist:
        base, free = base_maximum(self.rank), free_points(self.rank)
        context = {"rank": self.rank, "base": base, "free": free, "ceiling": base + free}
        for at, value, low in (("energy", self.energy, 1), ("willpower", self.willpower, 0)):
            if value > base + free:
                raise _fail("over_rank", value=value, at=at, low=low, **context)
        needed = max(self.energy - base, 0) + max(self.willpower - base, 0)
        if needed > free:
            raise _fail(
                "over_split",
                value=f"energy={self.energy},willpower={self.willpower}",
                needed=needed,
                energy=self.energy,
                willpower=self.willpower,
                **context,
            )
        return self


Spec = Annotated[Duelist, BeforeValidator(parse_spec)]
"""A `Duelist` given as `rank=C,energy=7,willpower=5` (a parameter's type)."""
