"""Damage and wounds (PS-14 … PS-16), and the `damage` and `initiative` actions.

- **PS-14** a weapon's score is its damage (melee: `+x` on a potential, usually Corps); its
  **Violence** is how many extra damage dice may be rolled; 1 point of its Énergie gives +1 damage.
- **PS-15** a protection's score adds to the resistance against its type; its **Robustesse** is
  how many dice the wearer may roll to reduce the damage further; 1 point of its Énergie gives +1
  to soak.
- **PS-16** wounds = max(0, damage − resistance + the margin of the Violence dice when rolled
  (scored by PS-2)) − the margin of the Robustesse dice when rolled and positive, never below 0.
  Damage − resistance may be negative before the Violence dice are added: « La violence d'une
  arme permet de rajouter des dés de dégats en plus du résultat positif ou négatif des dégats ».
  A Robustesse roll only reduces (« pour réduire encore plus les dégats »): a negative margin
  takes nothing off, and adds nothing either.

>>> r = resistance("energetique", body=3, mind=0, protections={"physique": 3, "energetique": 1})
>>> r.total, r.terms()
(3, 'Corps 3 ÷ 2 = 1 + energy protections 1 + physical 3 ÷ 2 = 1')
>>> from jdr.systems.passion.resolve import resolve
>>> w = wounds(3, 5, violence=resolve((4, 1)), robustness=resolve((1, 2)))
>>> (w.base, w.violence_margin, w.robustness_margin, w.soak, w.total)
(-2, 3, -1, 0, 1)

Where the rules are silent, this module reads them so:

- Energy damage with both kinds of protection: the energy protections **and** half the physical
  ones (floor) both count: energy protections + ⌊physical / 2⌋ + ⌊body / 2⌋ ("et/ou" read as
  "and"; half of the *sum* of the physical protections).
- The Violence margin is signed (a bad Violence roll takes wounds away); only the Robustesse
  margin is floored at 0 before it is subtracted: `max(0, D − R + V − max(0, Rb))`.
- The weapon's Énergie point (+1 damage) adds to the damage and the protection's (+1 to soak) to the
  resistance, before the subtraction.
- Passion (PS-5: each point cancels one negative left) may be spent on the Violence dice (the
  source says so) and on the Robustesse dice (the same pool rule); Énergie adds no positive to them.
- An object breaks (PS-16) when the damage passed its resistance (D − R > 0) and its wounds reach
  its Énergie.

Faces, in the order they are consumed: the Violence dice, then the Robustesse dice, each pool in
the order its notation lists the sizes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, Field, model_validator
from pydantic_core import PydanticCustomError

from jdr.dice.pool import roll_pool
from jdr.dice.source import RandomSource
from jdr.errors import InputError
from jdr.i18n import N_, _
from jdr.labels import Choices, named
from jdr.names import fold, hint
from jdr.prob import Distribution, convolve, pool_distribution, unit
from jdr.prob.cost import pool_ns, refuse
from jdr.systems.passion.initiative import InitiativeParams, initiative_roll
from jdr.systems.passion.pool import parse_dice
from jdr.systems.passion.resolve import Resolution, resolve
from jdr.systems.protocol import Action, Odds, Record
from jdr.validation import fail

__all__ = [
    "DAMAGE_ACTIONS",
    "DAMAGE_TYPES",
    "DamageParams",
    "DamageType",
    "Resistance",
    "Wounds",
    "cut_violence",
    "damage_odds",
    "damage_roll",
    "damage_type",
    "object_breaks",
    "parse_protections",
    "resistance",
    "wound_count",
    "wounds",
]

DamageType = Literal["physique", "mental", "energetique"]
DAMAGE_TYPES: tuple[DamageType, ...] = ("physique", "mental", "energetique")
"""PS-14: the damage types; ids are the French words without accents (the rules' own)."""
TYPE_WORDS: dict[str, str] = {
    "physique": N_("physical"),
    "mental": N_("mental"),
    "energetique": N_("energetic"),
}
"""How a reader sees each type (`_()` of the word: `physique` in French)."""
DAMAGE_TYPE_NAMES: Choices = {
    "physique": ("physical", "physique"),
    "mental": ("mental", "mental"),
    "energetique": ("energetic", "énergétique"),
}
"""The damage types' display names (English, French)."""
_TYPE_NAMES: dict[str, DamageType] = {
    "physique": "physique",
    "physical": "physique",
    "mental": "mental",
    "mentale": "mental",
    "energetique": "energetique",
    "energy": "energetique",
    "energetic": "energetique",
}
OUTCOMES = (N_("wounded"), N_("unharmed"), N_("initiative"))
MAX_DAMAGE = 999


def damage_type(value: str) -> DamageType:
    """A damage type in French or English, any case, accents optional; an unknown one is
    refused listing the types in the reader's language, with the closest.

    >>> damage_type("Énergétique"), damage_type("physical")
    ('energetique', 'physique')
    >>> try:
    ...     damage_type("physicl")
    ... except InputError as error:
    ...     print(error.reason, "|", error.allowed)
    unknown damage type (PS-14) — did you mean physical? | physical, mental, energetic
    """
    found = _TYPE_NAMES.get(fold(value))
    if found is None:
        shown = {kind: type_word(kind) for kind in DAMAGE_TYPES}
        spellings = {word: shown[kind] for word, kind in _TYPE_NAMES.items()} | {
            word: word for word in shown.values()
        }
        reason = _("unknown damage type (PS-14)") + hint(value, spellings)
        raise InputError("type", value, ", ".join(shown.values()), reason)
    return found


def type_word(kind: str) -> str:
    """The type as a reader sees it, in the current language."""
    return _(TYPE_WORDS[kind])


KIND_WORDS: dict[str, str] = {
    "physique": N_("physical damage"),
    "mental": N_("mental damage"),
    "energetique": N_("energetic damage"),
}


def kind_words(kind: str) -> str:
    """`physical damage` / `dégâts physiques`: the damage with its type, so a sentence need not
    make an adjective agree (the French catalog's sentences say `{kind}` where English says
    `damage … {type}`)."""
    return _(KIND_WORDS[kind])


def _type_field(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return damage_type(value)
    except InputError as error:
        raise fail("damage_type", error.reason or "", error.allowed, value=value) from None


Type = Annotated[DamageType, BeforeValidator(_type_field)]
"""A damage type field: French or English, accents optional."""


def parse_protections(text: str) -> dict[DamageType, int]:
    """`"physique:3,énergétique:2"` → the total protection score per type (a type given twice
    adds up).

    >>> parse_protections("physique:3, energy:2, physical:1")
    {'physique': 4, 'energetique': 2}
    """
    totals: dict[DamageType, int] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, colon, number = part.partition(":")
        if not colon or not number.strip().isdigit():
            raise InputError(
                "protections",
                text,
                _("type:score joined with commas, e.g. physique:3,énergétique:2"),
                _("{part} is not type:score").format(part=part),
            )
        kind = damage_type(name)
        totals[kind] = totals.get(kind, 0) + int(number)
    return totals


# --- resistance and wounds (PS-15, PS-16) -----------------------------------------------------


@dataclass(frozen=True)
class Resistance:
    """PS-16: the resistance against one damage type, and where each point comes from."""

    type: DamageType
    potential: int
    """The potential's part: the body (physical), half the body (energy), the mind (mental)."""
    protections: int
    """The protections' part: same type, plus half the physical ones against energy damage."""
    body: int = 0
    mind: int = 0
    own: int = 0
    """Protections of the damage's own type."""
    physical: int = 0
    """Physical protections (counted for half against energy damage)."""

    @property
    def total(self) -> int:
        return self.potential + self.protections

    def terms(self) -> str:
        """`Corps 3 + protections physiques 2`, in the current language."""
        if self.type == "physique":
            parts = [_("Corps {value}").format(value=self.body)]
            if self.own:
                parts.append(_("physical protections {value}").format(value=self.own))
        elif self.type == "mental":
            parts = [_("Esprit {value}").format(value=self.mind)]
            if self.own:
                parts.append(_("mental protections {value}").format(value=self.own))
        else:
            parts = [_("Corps {value} ÷ 2 = {half}").format(value=self.body, half=self.body // 2)]
            if self.own:
                parts.append(_("energy protections {value}").format(value=self.own))
            if self.physical:
                parts.append(
                    _("physical {value} ÷ 2 = {half}").format(
                        value=self.physical, half=self.physical // 2
                    )
                )
        return " + ".join(parts)


def resistance(
    kind: DamageType,
    body: int,
    mind: int,
    protections: Mapping[DamageType, int] | Mapping[str, int],
) -> Resistance:
    """PS-16: physical — physical protections + body; energy — energy protections + half the
    physical ones (floor) + half the body (floor); mental — mental protections + mind.

    >>> resistance("physique", body=3, mind=1, protections={"physique": 2}).total
    5
    >>> resistance("mental", body=3, mind=1, protections={"physique": 2}).total
    1
    """
    own = protections.get(kind, 0)
    physical = protections.get("physique", 0)
    if kind == "physique":
        return Resistance(kind, body, own, body, mind, own, physical)
    if kind == "mental":
        return Resistance(kind, mind, own, body, mind, own, physical)
    return Resistance(kind, body // 2, own + physical // 2, body, mind, own, physical)


def wound_count(base: int, violence_margin: int = 0, robustness_margin: int = 0) -> int:
    """PS-16: max(0, damage − resistance + Violence margin) − the Robustesse margin when positive,
    never below 0. `base` is damage − resistance, negative when the resistance is higher.

    >>> wound_count(-2, 3), wound_count(6, robustness_margin=-2), wound_count(4, 1, 2)
    (1, 6, 3)
    """
    return max(0, base + violence_margin - max(0, robustness_margin))


@dataclass(frozen=True)
class Wounds:
    """PS-16, every step: the damage against the resistance, then the dice."""

    damage: int
    resistance: int
    violence: Resolution | None = None
    robustness: Resolution | None = None
    weapon_energy: bool = False
    """PS-14: one point of the weapon's Énergie: +1 damage."""
    protection_energy: bool = False
    """PS-15: one point of the protection's Énergie: +1 to soak (the resistance)."""

    @property
    def base(self) -> int:
        """Damage − resistance, each Énergie point counted; negative when the resistance is higher
        (the Violence dice add to it as it is)."""
        damage = self.damage + int(self.weapon_energy)
        return damage - self.resistance - int(self.protection_energy)

    @property
    def violence_margin(self) -> int:
        return 0 if self.violence is None else self.violence.margin

    @property
    def robustness_margin(self) -> int:
        return 0 if self.robustness is None else self.robustness.margin

    @property
    def soak(self) -> int:
        """What the Robustesse roll takes off: its margin when positive, else nothing."""
        return max(0, self.robustness_margin)

    @property
    def total(self) -> int:
        """The wounds (`wound_count`)."""
        return wound_count(self.base, self.violence_margin, self.robustness_margin)

    def steps(self) -> dict[str, Any]:
        return {
            "damage": self.damage,
            "weapon_energy": self.weapon_energy,
            "resistance": self.resistance,
            "protection_energy": self.protection_energy,
            "base": self.base,
            "violence_margin": self.violence_margin if self.violence else None,
            "robustness_margin": self.robustness_margin if self.robustness else None,
            "wounds": self.total,
        }


def wounds(
    damage: int,
    resistance: int,
    violence: Resolution | None = None,
    robustness: Resolution | None = None,
    weapon_energy: bool = False,
    protection_energy: bool = False,
) -> Wounds:
    """PS-16: the wounds of one hit (`violence`, `robustness`: the dice counted by `resolve`).

    >>> wounds(2, 5).total, wounds(2, 5, violence=resolve((4, 0))).total
    (0, 1)
    """
    return Wounds(damage, resistance, violence, robustness, weapon_energy, protection_energy)


def cut_violence(violence: int, robustness: int) -> int:
    """PS-16: when the GM defends it never rolls: it may cut the attacker's Violence dice by the
    protection's Robustesse instead.

    >>> cut_violence(3, 1), cut_violence(1, 2)
    (2, 0)
    """
    return max(0, violence - robustness)


def object_breaks(hit: Wounds, energy: int) -> bool:
    """PS-16: an object breaks when the damage passed its resistance and its wounds reach its
    Énergie.

    >>> object_breaks(wounds(6, 4), energy=2), object_breaks(wounds(4, 4, resolve((3, 0))), 2)
    (True, False)
    """
    return hit.base > 0 and hit.total >= energy


# --- the `damage` action ----------------------------------------------------------------------


def _dice_field(value: Any) -> Any:
    """Passion dice (`2d6`, `1d4+1d8`), normalised; a bad one refused with PS-1's message."""
    if value is None or not isinstance(value, str):
        return value
    try:
        return parse_dice(value).notation()
    except InputError as error:
        raise fail("dice", error.reason or "", error.allowed, value=value) from None


def _protections_field(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return parse_protections(value)
    except InputError as error:
        raise fail("protections", error.reason or "", error.allowed, value=value) from None


Dice = Annotated[str, BeforeValidator(_dice_field)]


class DamageParams(BaseModel):
    """`damage --damage D (--resistance R | [--type T] [--body B] [--mind S] [--protections P])
    [--violence-dice 2d6] [--robustness-dice 1d6] [--passion N] [--weapon-energy]
    [--protection-energy]`."""

    damage: int = Field(
        ge=0,
        le=MAX_DAMAGE,
        description=N_("the damage of the hit (PS-14)"),
        json_schema_extra=named("damage", "dégâts"),
    )
    resistance: int | None = Field(
        default=None,
        ge=0,
        le=MAX_DAMAGE,
        description=N_("the target's resistance; or give --type, --body, --mind, --protections"),
        json_schema_extra=named("resistance", "résistance"),
    )
    violence_dice: Dice | None = Field(
        default=None,
        description=N_("the Violence dice rolled, e.g. 2d6 (PS-14)"),
        json_schema_extra=named("Violence dice", "dés de Violence"),
    )
    robustness_dice: Dice | None = Field(
        default=None,
        description=N_("the Robustesse dice the wearer rolls, e.g. 1d6 (PS-15)"),
        json_schema_extra=named("Robustesse dice", "dés de Robustesse"),
    )
    type: Type = Field(
        default="physique",
        description=N_("the damage type"),
        json_schema_extra=named("damage type", "type de dégâts", DAMAGE_TYPE_NAMES),
    )
    body: int = Field(
        default=0,
        ge=0,
        le=MAX_DAMAGE,
        description=N_("the body potential"),
        json_schema_extra=named("body potential", "potentiel du corps"),
    )
    mind: int = Field(
        default=0,
        ge=0,
        le=MAX_DAMAGE,
        description=N_("the mind potential"),
        json_schema_extra=named("mind potential", "potentiel de l'esprit"),
    )
    protections: Annotated[dict[DamageType, int], BeforeValidator(_protections_field)] = Field(
        default_factory=dict,
        description=N_("protection scores by type, e.g. physique:3,énergétique:2"),
        json_schema_extra=named("protections", "protections"),
    )
    passion: int = Field(
        default=0,
        ge=0,
        le=MAX_DAMAGE,
        description=N_("Passion spent on the Violence dice"),
        json_schema_extra=named("Passion points", "points de Passion"),
    )
    weapon_energy: bool = Field(
        default=False,
        description=N_("spend 1 Énergie of the weapon: +1 damage (PS-14)"),
        json_schema_extra=named("weapon's Énergie", "Énergie de l'arme"),
    )
    protection_energy: bool = Field(
        default=False,
        description=N_("spend 1 Énergie of the protection: +1 to soak (PS-15)"),
        json_schema_extra=named("protection's Énergie", "Énergie de la protection"),
    )

    @model_validator(mode="after")
    def _consistent(self) -> DamageParams:
        given = self.model_fields_set
        if self.resistance is not None and given & {"type", "body", "mind", "protections"}:
            raise _fail(
                "resistance_twice",
                N_("give the resistance, or the type, potentials and protections to compute it"),
                N_("--resistance, or --type/--body/--mind/--protections"),
                self.resistance,
                "resistance",
            )
        if self.passion and self.violence_dice is None:
            raise _fail(
                "passion_without_violence",
                N_("Passion cancels negatives of the Violence dice: roll some"),
                N_("--violence-dice with --passion"),
                self.passion,
                "passion",
            )
        return self

    def resistance_of(self) -> Resistance | None:
        """The resistance computed from the type, potentials and protections (None if given)."""
        if self.resistance is not None:
            return None
        return resistance(self.type, self.body, self.mind, self.protections)

    def resistance_total(self) -> int:
        computed = self.resistance_of()
        return computed.total if computed else int(self.resistance or 0)


def _fail(kind: str, reason: str, allowed: str, value: Any, at: str) -> PydanticCustomError:
    return fail(kind, reason, allowed, value=value, at=at)


def damage_roll(params: DamageParams, rng: RandomSource) -> Record:
    """JSON `damage`, `resistance`, `base` (damage − resistance: negative when the resistance is
    higher), `violence_margin`, `robustness_margin` (null when not rolled), `wounds`; outcome
    `wounded` or `unharmed`.

    >>> from jdr.dice import GivenFaces
    >>> params = DamageParams(damage=5, type="physique", body=2, protections="physique:1",
    ...                       violence_dice="2d6", robustness_dice="1d6")
    >>> record = damage_roll(params, GivenFaces([4, 1, 6]))
    >>> record.outcome, record.totals["wounds"], record.faces
    ('unharmed', 0, [4, 1, 6])
    >>> print(record.explain())  # doctest: +NORMALIZE_WHITESPACE
    damage 5 − resistance 3 (Corps 2 + physical protections 1) = 2
    · Violence 2d6: 4+ 1−− → margin −1 · Robustesse 1d6: 6++ → margin 2 · wounds: 2 − 1 − 2 → 0
    >>> record = damage_roll(DamageParams(damage=10, resistance=4, robustness_dice="1d6"),
    ...                      GivenFaces([1]))
    >>> print(record.explain())  # doctest: +NORMALIZE_WHITESPACE
    damage 10 − resistance 4 = 6 · Robustesse 1d6: 1−− → margin −2: a negative margin reduces
    nothing · wounds: 6 − 0 → 6
    """
    violence = robustness = None
    faces: list[int] = []
    texts: list[str] = []
    if params.violence_dice:
        rolled = roll_pool(parse_dice(params.violence_dice), rng)
        violence = resolve(_pair(rolled.total), passion=params.passion)
        faces += rolled.faces
        texts.append(rolled.faces_text())
    if params.robustness_dice:
        rolled = roll_pool(parse_dice(params.robustness_dice), rng)
        robustness = resolve(_pair(rolled.total))
        faces += rolled.faces
        texts.append(rolled.faces_text())
    hit = wounds(
        params.damage,
        params.resistance_total(),
        violence,
        robustness,
        params.weapon_energy,
        params.protection_energy,
    )
    totals = hit.steps()
    outcome = "wounded" if hit.total > 0 else "unharmed"
    return Record(outcome, totals, faces, lambda: explain_wounds(params, hit, texts))


def _pair(total: tuple[int, ...]) -> tuple[int, int]:
    return (total[0], total[1])


def _number(value: int) -> str:
    """A whole number with a real minus sign: `−1`."""
    return f"−{-value}" if value < 0 else str(value)


def explain_wounds(params: DamageParams, hit: Wounds, faces: list[str]) -> str:
    """`damage 5 − resistance 3 (Corps 2 + …) = 2 · Violence 2d6: … → margin −1 · … · wounds: …`."""
    damage = str(params.damage) + (" + 1" if hit.weapon_energy else "")
    resisted = str(hit.resistance) + (" + 1" if hit.protection_energy else "")
    computed = params.resistance_of()
    if computed is not None:
        resisted += f" ({computed.terms()})"
    parts = [
        _("damage {damage} − resistance {resistance} = {base}").format(
            damage=damage, resistance=resisted, base=_number(hit.base)
        )
    ]
    remaining = iter(faces)
    if hit.violence is not None:
        passion = ""
        if hit.violence.cancelled_by_passion:
            passion = ", " + _("Passion −{count}").format(count=hit.violence.cancelled_by_passion)
        parts.append(
            _("Violence {dice}: {faces}{passion} → margin {margin}").format(
                dice=params.violence_dice,
                faces=next(remaining),
                passion=passion,
                margin=_number(hit.violence.margin),
            )
        )
    if hit.robustness is not None:
        robustness = (
            _("Robustesse {dice}: {faces} → margin {margin}: a negative margin reduces nothing")
            if hit.robustness.margin < 0
            else _("Robustesse {dice}: {faces} → margin {margin}")
        )
        parts.append(
            robustness.format(
                dice=params.robustness_dice,
                faces=next(remaining),
                margin=_number(hit.robustness.margin),
            )
        )
    terms = [_number(hit.base)]
    if hit.violence is not None:
        terms.append(_plus_minus(hit.violence_margin))
    if hit.robustness is not None:
        terms.append(f"− {hit.soak}")
    parts.append(_("wounds: {terms} → {wounds}").format(terms=" ".join(terms), wounds=hit.total))
    return " · ".join(parts)


def _plus_minus(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"− {-value}"


def _margins(dice: str | None, passion: int, exact: bool) -> Distribution:
    """The distribution of a damage pool's margin (PS-2, Passion cancelling negatives)."""
    if not dice:
        return unit(1, exact)
    joint = pool_distribution(parse_dice(dice), exact)
    return joint.map(lambda cell: resolve(cell, passion=passion).margin)


def damage_odds(params: DamageParams, exact: bool) -> Odds:
    """`wounded` / `unharmed`, and the exact distribution of the wounds.

    >>> odds = damage_odds(DamageParams(damage=3, resistance=3, violence_dice="1d4"), exact=True)
    >>> odds.outcomes
    {'wounded': Fraction(1, 2), 'unharmed': Fraction(1, 2)}
    >>> odds.distribution
    [(0, Fraction(1, 2)), (1, Fraction(1, 4)), (2, Fraction(1, 4))]
    """
    base = wounds(
        params.damage,
        params.resistance_total(),
        weapon_energy=params.weapon_energy,
        protection_energy=params.protection_energy,
    ).base
    if exact:  # both pools priced before either is computed
        pools = [parse_dice(d) for d in (params.violence_dice, params.robustness_dice) if d]
        dice = " ".join(d for d in (params.violence_dice, params.robustness_dice) if d)
        refuse(sum(pool_ns(pool) for pool in pools), "dice", dice, _("fewer or smaller dice"))
    # PS-16: max(0, base + Violence margin − max(0, Robustesse margin)), the two rolls independent
    violence = _margins(params.violence_dice, params.passion, exact)
    soaked = _margins(params.robustness_dice, 0, exact).map(lambda margin: max(0, margin[0]))
    total = convolve(violence, soaked.negate()).shift(base)
    counted = total.map(lambda value: wound_count(value[0]))
    unharmed = counted.probability(0)
    return Odds(
        outcomes={"wounded": 1 - unharmed, "unharmed": unharmed},
        distribution=counted.to_list(),
        mean=counted.mean(),
        label="wounds",
    )


DAMAGE_ACTIONS: dict[str, Action[Any]] = {
    "damage": Action(
        "damage",
        DamageParams,
        damage_roll,
        damage_odds,
        help=N_(
            "Wounds: damage − resistance, + the Violence dice's margin, − the Robustesse dice's"
            " when positive (PS-14 … PS-16)."
        ),
        example={
            "damage": 5,
            "type": "physique",
            "body": 2,
            "protections": "physique:1",
            "violence_dice": "2d6",
            "robustness_dice": "1d6",
        },
        names={"en": "damage", "fr": "dégâts"},
    ),
    "initiative": Action(
        "initiative",
        InitiativeParams,
        initiative_roll,
        None,
        help=N_(
            "Initiative: marker + mobility potential, highest first; the minimum dice and the"
            " markers ticked off (PS-9, PS-10, PS-12)."
        ),
        example={"markers": "2,5", "mobility": "3"},
        names={"en": "initiative", "fr": "initiative"},
    ),
}
