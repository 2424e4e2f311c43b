"""Passion sheets: potentials, talents, pools, markers, weapons, protections and powers (TOML).

- Potentials (Corps, Esprit, a Mobilité one …) and talents (Crochetage, Combat, Blast …): free
  names, each a whole number ≥ 0.
- Pools: `passion` and `energy` (Énergie), each `{ current, max }`.
- Initiative markers 0 … 10 (PS-9): `ticked_markers` lists those ticked off (PS-12).
- Weapons (PS-14): `name`, `score`, `type` (`physique` | `mental` | `énergétique`, French or
  English, accents optional), `potential` (melee: the potential the score adds to, e.g. "Corps";
  none for a ranged weapon), `violence`, `energy` (`{ current, max }`, or none: no pool).
- Protections (PS-15): `name`, `score`, `type`, `robustness`, `energy`.
- Powers: free (`name`, `text`).
- Experience (PS-17, PS-18): `xp`, per talent or potential; `scenario_points` to spend (PS-19).
- `npc = true` for a non-player character (PS-7, PS-8).
- `uses`: which score plays which part in a fight: `mobility` (a potential, PS-9), `body` and
  `mind` (potentials, PS-16), `combat` and `dodge` (talents or potentials, PS-11). Defaults:
  Mobilité, Corps, Esprit, Combat, Esquive.

Where the rules are silent, these sheets read them so:

- Names are matched without case or accents (`crochetage` finds `Crochetage`), so a talent and a
  potential may not share a name, nor two weapons, nor two protections.
- A role of `uses` other than its default must name one of the sheet's scores; a default one may
  be missing (a missing body or mind counts 0; a fight refuses a fighter without its mobility
  potential, an attack a target without its dodge score).
- A score's XP lies within the band that does not already mean a level change (PS-18): a talent
  at level n holds −n < xp ≤ n (a potential: −2n < xp ≤ 2n; at level 0, xp ≥ 0 up to the bound).
- In error messages a field is a dotted path; list positions count from 1: `weapons[2].type`.

>>> sheet = Sheet.model_validate({"name": "Kai", "potentials": {"Corps": 2, "Mobilité": 3},
...     "talents": {"Combat": 4}, "passion": {"current": 3, "max": 3},
...     "energy": {"current": 5, "max": 5}, "ticked_markers": [7]})
>>> sheet.score("combat"), sheet.role("mobility"), sheet.available_markers()[-3:]
(4, 3, [8, 9, 10])
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from jdr.errors import UnknownNameError
from jdr.i18n import N_, _
from jdr.names import fold
from jdr.systems.passion.damage import Type
from jdr.systems.passion.initiative import MARKERS
from jdr.validation import fail

__all__ = [
    "EXAMPLES",
    "MAX_SCORE",
    "ROLES",
    "Gauge",
    "Power",
    "Protection",
    "Role",
    "Sheet",
    "Uses",
    "Weapon",
    "fold",
]

EXAMPLES = ("romuald", "cyber-ninja")
MAX_SCORE = 99
MAX_POOL = 999
Role = Literal["mobility", "body", "mind", "combat", "dodge"]
ROLES: tuple[Role, ...] = ("mobility", "body", "mind", "combat", "dodge")

# Each error a validator raises: (reason, allowed) in English, formatted with the error's context.
_MESSAGES: dict[str, tuple[str, str]] = {
    "blank": (N_("empty"), N_("a name")),
    "over_max": (N_("more than the maximum {max}"), "0..{max}"),
    "same_name": (
        N_("{name} is both a talent and a potential"),
        N_("different names (case and accents ignored)"),
    ),
    "same_item": (N_("the same name twice"), N_("different names")),
    "marker": (N_("not an initiative marker (PS-9)"), "0..10"),
    "marker_twice": (N_("marker {marker} ticked off twice"), "0..10"),
    "all_ticked": (
        N_("every marker ticked off: the last one never is (PS-12)"),
        N_("at most 10 markers"),
    ),
    "unknown_score": (N_("no talent or potential {name} on the sheet"), "{known}"),
    "unknown_potential": (N_("no potential {name} on the sheet"), "{known}"),
    "xp_band": (
        N_("{name} at level {level} would already have changed level (PS-18)"),
        "{low}..{high}",
    ),
}


def _fail(kind: str, **context: Any) -> PydanticCustomError:
    return fail(kind, *_MESSAGES[kind], **context)


def _name(value: str) -> str:
    if not value.strip():
        raise _fail("blank", value=value)
    return value.strip()


Name = Annotated[str, AfterValidator(_name)]
Score = Annotated[int, Field(ge=0, le=MAX_SCORE)]


class Gauge(BaseModel):
    """A pool (Passion, Énergie) or an item's Énergie: 0 ≤ current ≤ max."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    current: int = Field(ge=0, le=MAX_POOL, description=N_("what is left now"))
    max: int = Field(ge=0, le=MAX_POOL, description=N_("the maximum"))

    @model_validator(mode="after")
    def _within(self) -> Gauge:
        if self.current > self.max:
            raise _fail("over_max", value=self.current, max=self.max, at="current")
        return self


class Weapon(BaseModel):
    """PS-14: damage `score` (+ `potential` for a melee weapon), `type`, `violence`, Énergie."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Name = Field(description=N_("the weapon's name"))
    score: Score = Field(description=N_("its damage (PS-14)"))
    type: Type = Field(default="physique", description=N_("physique, mental or énergétique"))
    potential: str | None = Field(
        default=None, description=N_("melee: the potential the score adds to (Corps)")
    )
    """Melee: the potential the score adds to (usually Corps); none for a ranged weapon."""
    violence: Score = Field(default=0, description=N_("extra damage dice (PS-14)"))
    energy: Gauge | None = Field(default=None, description=N_("its Énergie pool (PS-14)"))


class Protection(BaseModel):
    """PS-15: a `score` against one damage `type`, `robustness` dice, Énergie."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Name = Field(description=N_("the protection's name"))
    score: Score = Field(description=N_("its resistance (PS-15)"))
    type: Type = Field(default="physique", description=N_("physique, mental or énergétique"))
    robustness: Score = Field(default=0, description=N_("dice rolled to soak (PS-15)"))
    energy: Gauge | None = Field(default=None, description=N_("its Énergie pool (PS-15)"))


class Power(BaseModel):
    """A power: free text, the GM's to resolve."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Name = Field(description=N_("the power's name"))
    text: str = Field(default="", description=N_("what it does, for the GM"))


class Uses(BaseModel):
    """Which score plays which part in a fight (see the module's doc)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    mobility: Name = Field(default="Mobilité", description=N_("the mobility potential (PS-9)"))
    body: Name = Field(default="Corps", description=N_("the body potential (PS-16)"))
    mind: Name = Field(default="Esprit", description=N_("the mind potential (PS-16)"))
    combat: Name = Field(default="Combat", description=N_("the attack score (PS-11)"))
    dodge: Name = Field(default="Esquive", description=N_("the dodge score (PS-11)"))


class Sheet(BaseModel):
    """A Passion character sheet (a player's, or an NPC's with `npc = true`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Name = Field(description=N_("the character's name"))
    npc: bool = Field(default=False, description=N_("a non-player character (PS-7)"))
    potentials: dict[str, Score] = Field(description=N_("potentials: Corps, Esprit, Mobilité …"))
    talents: dict[str, Score] = Field(default_factory=dict, description=N_("talents"))
    passion: Gauge = Field(description=N_("Passion, spent for good (PS-5)"))
    energy: Gauge = Field(description=N_("Énergie, back with rest (PS-5)"))
    ticked_markers: list[int] = Field(
        default_factory=list, description=N_("initiative markers ticked off (PS-12)")
    )
    weapons: list[Weapon] = Field(default_factory=list, description=N_("weapons (PS-14)"))
    protections: list[Protection] = Field(
        default_factory=list, description=N_("protections (PS-15)")
    )
    powers: list[Power] = Field(default_factory=list, description=N_("powers"))
    uses: Uses = Field(default_factory=Uses, description=N_("which score plays which part"))
    xp: dict[str, int] = Field(
        default_factory=dict, description=N_("XP per talent or potential (PS-17, PS-18)")
    )
    scenario_points: int = Field(
        default=0, ge=0, le=MAX_POOL, description=N_("end-of-scenario points to spend (PS-19)")
    )

    @model_validator(mode="after")
    def _coherent(self) -> Sheet:
        seen: dict[str, str] = {}
        for name in self.potentials:
            seen[fold(name)] = name
        for name in self.talents:
            if fold(name) in seen:
                raise _fail("same_name", value=name, at=f"talents.{name}", name=name)
        lists: tuple[tuple[str, list[str]], ...] = (
            ("weapons", [w.name for w in self.weapons]),
            ("protections", [p.name for p in self.protections]),
        )
        for field, names in lists:
            for index, name in enumerate(names, start=1):
                if fold(name) in map(fold, names[: index - 1]):
                    raise _fail("same_item", value=name, at=f"{field}[{index}].name")
        for index, marker in enumerate(self.ticked_markers, start=1):
            at = f"ticked_markers[{index}]"
            if marker not in MARKERS:
                raise _fail("marker", value=marker, at=at)
            if marker in self.ticked_markers[: index - 1]:
                raise _fail("marker_twice", value=marker, at=at, marker=marker)
        if not self.available_markers():
            raise _fail("all_ticked", value=len(self.ticked_markers), at="ticked_markers")
        self._check_references()
        self._check_xp()
        return self

    def _check_references(self) -> None:
        potentials = ", ".join(self.potentials) or "-"
        for index, weapon in enumerate(self.weapons, start=1):
            if weapon.potential is not None and self.potential_key(weapon.potential) is None:
                raise _fail(
                    "unknown_potential",
                    value=weapon.potential,
                    at=f"weapons[{index}].potential",
                    name=weapon.potential,
                    known=potentials,
                )
        for role in ROLES:
            name = getattr(self.uses, role)
            if name == Uses.model_fields[role].default:
                continue  # a default may be missing (a dumped sheet reloads as it was)
            key = self.potential_key(name) if role in ("mobility", "body", "mind") else None
            if role in ("combat", "dodge"):
                key = self.key(name)
            if key is None:
                kind = "unknown_score" if role in ("combat", "dodge") else "unknown_potential"
                known = potentials if kind == "unknown_potential" else self._known()
                raise _fail(kind, value=name, at=f"uses.{role}", name=name, known=known)

    def _check_xp(self) -> None:
        for name, xp in self.xp.items():
            key = self.key(name)
            if key is None:
                raise _fail(
                    "unknown_score", value=name, at=f"xp.{name}", name=name, known=self._known()
                )
            level = self.score(key)
            factor = 2 if key in self.potentials else 1
            low, high = -factor * level + 1, factor * level
            if level == 0:
                low = 0
            if not low <= xp <= high:
                raise _fail(
                    "xp_band", value=xp, at=f"xp.{name}", name=key, level=level, low=low, high=high
                )

    def _known(self) -> str:
        return ", ".join([*self.talents, *self.potentials]) or "-"

    # --- reading a sheet ----------------------------------------------------------------------

    def key(self, name: str) -> str | None:
        """The talent's or potential's name as the sheet writes it, else None."""
        wanted = fold(name)
        for key in (*self.talents, *self.potentials):
            if fold(key) == wanted:
                return key
        return None

    def potential_key(self, name: str) -> str | None:
        wanted = fold(name)
        return next((key for key in self.potentials if fold(key) == wanted), None)

    def is_potential(self, name: str) -> bool:
        return self.potential_key(name) is not None

    def score(self, name: str) -> int:
        """A talent's or potential's score (case and accents ignored); `UnknownNameError` if none.

        >>> from jdr.systems.passion.sheet_files import load_example
        >>> load_example("romuald").score("BLAST")
        7
        """
        key = self.key(name)
        if key is None:
            raise UnknownNameError(_("talent"), name, [*self.talents, *self.potentials])
        return self.talents[key] if key in self.talents else self.potentials[key]

    def role(self, role: Role) -> int:
        """The score playing `role` (`uses`); a missing body or mind counts 0."""
        name = getattr(self.uses, role)
        if role in ("body", "mind") and self.potential_key(name) is None:
            return 0
        if role == "mobility" and self.potential_key(name) is None:
            raise UnknownNameError(_("potential"), name, list(self.potentials))
        return self.score(name)

    def available_markers(self) -> list[int]:
        """PS-12: the markers not ticked off, in increasing order."""
        return [marker for marker in MARKERS if marker not in self.ticked_markers]

    def weapon(self, name: str) -> Weapon:
        """The weapon called `name` (case and accents ignored)."""
        for weapon in self.weapons:
            if fold(weapon.name) == fold(name):
                return weapon
        raise UnknownNameError(_("weapon"), name, [w.name for w in self.weapons])

    def protection(self, name: str) -> Protection:
        """The protection called `name` (case and accents ignored)."""
        for protection in self.protections:
            if fold(protection.name) == fold(name):
                return protection
        raise UnknownNameError(_("protection"), name, [p.name for p in self.protections])

    def protection_scores(self) -> dict[str, int]:
        """PS-15: the protections' scores by type; one with an empty Énergie pool is gone."""
        totals: dict[str, int] = {}
        for protection in self.protections:
            if protection.energy is not None and protection.energy.current == 0:
                continue
            totals[protection.type] = totals.get(protection.type, 0) + protection.score
        return totals
