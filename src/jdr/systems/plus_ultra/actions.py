"""The Plus Ultra actions: `attack` (PU-4), `protect` (PU-6), `rank` (PU-2, PU-3) and `duel`.

`ACTIONS` is the system's actions; every `example` is a roll the meta-tests run.

Where the rules or the issue are silent, these actions read them so:

- `attack --rank` defaults to E (1 Énergie per hit, PU-3): the rank only sets the damage.
- `attack --defending --fleeing` together is refused: defending lasts until the start of the
  target's next turn, and fleeing is the action of that next turn (one action per turn).
- `protect` compares an attack already rolled (`--attack`), or rolls it (`--willpower`, plus
  `--bonus`): exactly one of the two. With `--attack` it rolls no die: the record has no faces, and
  its odds are certain (probability 1 for the outcome, 0 for the other).
- `rank` rolls no die and has no odds: its outcome is `rank`, or `valid` / `invalid` when maxima
  are given.

>>> sorted(ACTIONS)
['attack', 'duel', 'protect', 'rank']
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from jdr.dice.source import RandomSource
from jdr.i18n import N_, _
from jdr.labels import Choices, named
from jdr.prob.distribution import Probability
from jdr.systems.plus_ultra import duel, rules
from jdr.systems.plus_ultra.rules import (
    BASE_DEFENSE,
    DEFENDING_BONUS,
    FLEEING_BONUS,
    AttackRoll,
    Protection,
)
from jdr.systems.plus_ultra.sheets import MAX_VALUE, RANK_NAMES, Rank
from jdr.systems.protocol import Action, Odds, Record
from jdr.validation import fail

MAX_GAUGE = MAX_VALUE
OUTCOMES = (N_("hit"), N_("miss"), N_("takes_hit"), N_("blocks"), N_("valid"), N_("invalid"))
KEYS = (N_("energy_lost"), N_("rounds"))


RECAP_FORMATS: Choices = {
    "bbcode": ("BBCode", "BBCode"),
    "markdown": ("Markdown", "Markdown"),
    "text": ("text", "texte"),
}
"""A recap's formats (English, French)."""


def _number(exact: bool) -> type[Fraction] | type[float]:
    return Fraction if exact else float


# --- attack (PU-4, PU-5, PU-9) --------------------------------------------------------------


class AttackParams(BaseModel):
    """`attack --willpower V --target-energy E [--rank R] [--defending] [--fleeing] [--bonus B]`."""

    willpower: int = Field(
        ge=0,
        le=MAX_GAUGE,
        description=N_("the attacker's current Volonté"),
        json_schema_extra=named("Volonté", "Volonté"),
    )
    target_energy: int = Field(
        ge=1,
        le=MAX_GAUGE,
        description=N_("the target's current Énergie"),
        json_schema_extra=named("target's Énergie", "Énergie de la cible"),
    )
    rank: Rank = Field(
        default="E",
        description=N_("the attacker's rank: the damage (PU-3)"),
        json_schema_extra=named("rank", "rang", RANK_NAMES),
    )
    defending: bool = Field(
        default=False,
        description=N_("the target defends: +5 defense (PU-5)"),
        json_schema_extra=named("target defending", "cible en défense"),
    )
    fleeing: bool = Field(
        default=False,
        description=N_("the target flees: +3 defense (PU-9)"),
        json_schema_extra=named("target fleeing", "cible en fuite"),
    )
    bonus: int = Field(
        default=0,
        ge=-MAX_GAUGE,
        le=MAX_GAUGE,
        description=N_("a bonus to the attack roll"),
        json_schema_extra=named("bonus", "bonus"),
    )
    recap: Literal["bbcode", "markdown", "text"] | None = Field(
        default=None,
        description=N_("print the post-ready recap in this format (PU-11)"),
        json_schema_extra=named("recap", "récap", RECAP_FORMATS, display=True),
    )
    attacker: str | None = Field(
        default=None,
        description=N_("the attacker's name, for the recap"),
        json_schema_extra=named("attacker", "attaquant"),
    )
    target: str | None = Field(
        default=None,
        description=N_("the target's name, for the recap"),
        json_schema_extra=named("target", "cible"),
    )

    @model_validator(mode="after")
    def _one_stance(self) -> AttackParams:
        if self.defending and self.fleeing:
            raise fail(
                "defending_and_fleeing",
                N_("a character defends or flees, not both: one action per turn"),
                N_("--defending or --fleeing"),
                value="--defending --fleeing",
                at="fleeing",
            )
        return self

    def defense(self) -> int:
        return rules.defense(self.target_energy, self.defending, self.fleeing)


def _attack_terms(face: int, willpower: int, bonus: int) -> str:
    """`9 + 5`, `9 + 5 + 2`, `9 + 5 − 2`: the d20, Volonté and any bonus."""
    text = f"{face} + {willpower}"
    if bonus:
        text += f" + {bonus}" if bonus > 0 else f" − {-bonus}"
    return text


def _defense_terms(energy: int, defending: bool, fleeing: bool) -> str:
    terms = [str(BASE_DEFENSE), str(energy)]
    if defending:
        terms.append(_("{bonus} (defending)").format(bonus=DEFENDING_BONUS))
    if fleeing:
        terms.append(_("{bonus} (fleeing)").format(bonus=FLEEING_BONUS))
    return " + ".join(terms)


def explain_attack(params: AttackParams, hit: AttackRoll) -> str:
    """`attack: 9 + 5 = 14 · defense: 8 + 6 = 14 · hit: 2 Énergie lost` in the current language."""
    parts = [
        _("attack: {terms} = {total}").format(
            terms=_attack_terms(hit.face, params.willpower, params.bonus), total=hit.attack
        ),
        _("defense: {terms} = {total}").format(
            terms=_defense_terms(params.target_energy, params.defending, params.fleeing),
            total=hit.defense,
        ),
    ]
    if hit.hit:
        parts.append(_("hit: {damage} Énergie lost").format(damage=hit.damage))
    else:
        parts.append(_("miss: nothing happens"))
    return " · ".join(parts)


def attack_recap(params: AttackParams, hit: rules.AttackRoll) -> str:
    """The attack as a post-ready block (`--recap bbcode|markdown|text`, PU-11)."""
    from jdr.systems.plus_ultra.recap import render_attack_recap

    return render_attack_recap(
        hit.face,
        hit.attack,
        hit.defense,
        hit.hit,
        hit.damage,
        params.recap or "text",
        name=params.attacker,
        target=params.target,
        willpower=params.willpower,
    )


def attack_roll(params: AttackParams, rng: RandomSource) -> Record:
    """JSON `roll` (the d20), `attack`, `defense`, `hit`, `damage` (0 when missed).

    >>> from jdr.dice import GivenFaces
    >>> params = AttackParams(willpower=5, target_energy=6, rank="C", defending=True)
    >>> record = attack_roll(params, GivenFaces([13]))
    >>> record.outcome, dict(record.totals)
    ('miss', {'roll': 13, 'attack': 18, 'defense': 19, 'hit': False, 'damage': 0})
    >>> record.explain()
    'attack: 13 + 5 = 18 · defense: 8 + 6 + 5 (defending) = 19 · miss: nothing happens'
    """
    hit = rules.resolve_attack(
        params.willpower,
        params.target_energy,
        params.rank,
        rng,
        defending=params.defending,
        fleeing=params.fleeing,
        bonus=params.bonus,
    )
    return Record(
        outcome="hit" if hit.hit else "miss",
        totals={
            "roll": hit.face,
            "attack": hit.attack,
            "defense": hit.defense,
            "hit": hit.hit,
            "damage": hit.damage,
        },
        faces=[hit.face],
        explain=lambda: attack_recap(params, hit) if params.recap else explain_attack(params, hit),
    )


def attack_odds(params: AttackParams, exact: bool) -> Odds:
    """`hit` / `miss`, and the distribution of the damage (0 or the rank's).

    >>> odds = attack_odds(AttackParams(willpower=5, target_energy=6, rank="C"), exact=True)
    >>> odds.outcomes, odds.mean
    ({'hit': Fraction(3, 5), 'miss': Fraction(2, 5)}, Fraction(6, 5))
    """
    number = _number(exact)
    p = number(rules.hit_chance(params.willpower + params.bonus, params.defense()))
    amount = rules.damage(params.rank)
    rows = [(0, 1 - p), (amount, p)]
    return Odds(
        outcomes={"hit": p, "miss": 1 - p},
        distribution=[(value, q) for value, q in rows if q],
        mean=p * amount,
        label="damage",
    )


# --- protect (PU-6) -------------------------------------------------------------------------


class ProtectParams(BaseModel):
    """`protect --protector-energy E (--attack A | --willpower V [--bonus B]) --rank R`."""

    protector_energy: int = Field(
        ge=1,
        le=MAX_GAUGE,
        description=N_("the protector's current Énergie"),
        json_schema_extra=named("protector's Énergie", "Énergie du protecteur"),
    )
    rank: Rank = Field(
        description=N_("the attacker's rank: the damage of a hit (PU-3)"),
        json_schema_extra=named("attacker's rank", "rang de l'attaquant", RANK_NAMES),
    )
    attack: int | None = Field(
        default=None,
        ge=-MAX_GAUGE,
        le=rules.DIE + 2 * MAX_GAUGE,
        description=N_("the attack, already rolled"),
        json_schema_extra=named("attack roll", "jet d'attaque"),
    )
    willpower: int | None = Field(
        default=None,
        ge=0,
        le=MAX_GAUGE,
        description=N_("or roll the attack now: the attacker's current Volonté"),
        json_schema_extra=named("attacker's Volonté", "Volonté de l'attaquant"),
    )
    bonus: int = Field(
        default=0,
        ge=-MAX_GAUGE,
        le=MAX_GAUGE,
        description=N_("a bonus to the rolled attack"),
        json_schema_extra=named("bonus", "bonus"),
    )

    @model_validator(mode="after")
    def _attack_or_willpower(self) -> ProtectParams:
        if (self.attack is None) == (self.willpower is None):
            raise fail(
                "attack_or_willpower",
                N_("give the attack already rolled, or the Volonté to roll it: one of them"),
                N_("--attack A, or --willpower V"),
                value=None,
                at="attack",
            )
        return self


def explain_protect(protection: Protection, rolled: str) -> str:
    """The protector's raw defense against the attack, and what it costs (PU-6)."""
    head = f"{rolled} · " if rolled else ""
    compared = _("raw defense {defense} vs attack {attack}").format(
        defense=protection.protector_defense, attack=protection.attack
    )
    if protection.outcome == "takes_hit":
        result = _("takes the hit: {lost} Énergie lost, side effects included")
    else:
        result = _("blocks: {lost} Énergie lost for the effort, no side effects")
    return f"{head}{compared} → {result.format(lost=protection.energy_lost)}"


def protect_roll(params: ProtectParams, rng: RandomSource) -> Record:
    """JSON `roll` (the d20, or null), `attack`, `defense`, `energy_lost`.

    >>> from jdr.dice import GivenFaces
    >>> record = protect_roll(
    ...     ProtectParams(protector_energy=6, attack=14, rank="C"), GivenFaces([])
    ... )
    >>> record.outcome, record.totals["energy_lost"], record.faces
    ('blocks', 1, [])
    >>> record.explain()
    'raw defense 14 vs attack 14 → blocks: 1 Énergie lost for the effort, no side effects'
    """
    face: int | None = None
    if params.willpower is not None:
        (face,) = rng.faces(rules.DIE, 1)
        attack = face + params.willpower + params.bonus
    else:
        assert params.attack is not None  # the model asks for one of the two
        attack = params.attack
    protection = rules.protect(params.protector_energy, attack, params.rank)
    return Record(
        outcome=protection.outcome,
        totals={
            "roll": face,
            "attack": attack,
            "defense": protection.protector_defense,
            "energy_lost": protection.energy_lost,
        },
        faces=[] if face is None else [face],
        explain=lambda: explain_protect(protection, _rolled_text(params, face, attack)),
    )


def _rolled_text(params: ProtectParams, face: int | None, attack: int) -> str:
    """The attack roll, when `protect` rolled it; else nothing."""
    if face is None or params.willpower is None:
        return ""
    terms = _attack_terms(face, params.willpower, params.bonus)
    return _("attack: {terms} = {total}").format(terms=terms, total=attack)


def protect_odds(params: ProtectParams, exact: bool) -> Odds:
    """`takes_hit` / `blocks` (certain when the attack is given), and the Énergie lost.

    >>> protect_odds(ProtectParams(protector_energy=6, willpower=5, rank="C"), True).outcomes
    {'takes_hit': Fraction(11, 20), 'blocks': Fraction(9, 20)}
    """
    number = _number(exact)
    raw = rules.defense(params.protector_energy)
    takes: Probability
    if params.attack is not None:
        given = rules.protect(params.protector_energy, params.attack, params.rank)
        takes = number(1 if given.outcome == "takes_hit" else 0)
    else:
        assert params.willpower is not None
        takes = number(rules.hit_chance(params.willpower + params.bonus, raw + 1))
    lost: dict[int, Probability] = {}
    for amount, p in ((rules.damage(params.rank), takes), (1, 1 - takes)):
        if p:
            lost[amount] = lost.get(amount, 0) + p
    return Odds(
        outcomes={"takes_hit": takes, "blocks": 1 - takes},
        distribution=sorted(lost.items()),
        mean=sum((amount * p for amount, p in lost.items()), number(0)),
        label="energy_lost",
    )


# --- rank (PU-2, PU-3) ------------------------------------------------------------------------


class RankParams(BaseModel):
    """`rank --rank R [--energy E --willpower W]`: a rank's gauges, and whether maxima fit it."""

    rank: Rank = Field(
        description=N_("the rank: E, E+, D … S+"),
        json_schema_extra=named("rank", "rang", RANK_NAMES),
    )
    energy: int | None = Field(
        default=None,
        ge=0,
        le=MAX_GAUGE,
        description=N_("Énergie maximum"),
        json_schema_extra=named("Énergie maximum", "Énergie maximum"),
    )
    willpower: int | None = Field(
        default=None,
        ge=0,
        le=MAX_GAUGE,
        description=N_("Volonté maximum"),
        json_schema_extra=named("Volonté maximum", "Volonté maximum"),
    )

    @model_validator(mode="after")
    def _both_or_neither(self) -> RankParams:
        if (self.energy is None) != (self.willpower is None):
            raise fail(
                "energy_and_willpower",
                N_("give both maxima, or neither"),
                N_("--energy E --willpower W"),
                value=None,
                at="willpower" if self.willpower is None else "energy",
            )
        return self


def rank_roll(params: RankParams, _rng: RandomSource) -> Record:
    """JSON `base_energy`, `base_willpower`, `free_points`, `damage`, `valid`, `problems`.

    >>> from jdr.dice import GivenFaces
    >>> record = rank_roll(RankParams(rank="D", energy=5, willpower=5), GivenFaces([]))
    >>> record.outcome, record.totals["free_points"], record.totals["problems"]
    ('valid', 2, [])
    """
    rank = params.rank
    problems: list[str] = []
    valid: bool | None = None
    if params.energy is not None and params.willpower is not None:
        problems = rules.maxima_problems(rank, params.energy, params.willpower)
        valid = not problems
    outcome = "rank" if valid is None else "valid" if valid else "invalid"
    base = rules.base_maximum(rank)
    totals = {
        "base_energy": base,
        "base_willpower": base,
        "free_points": rules.free_points(rank),
        "damage": rules.damage(rank),
        "valid": valid,
        "problems": problems,
    }
    return Record(outcome, totals, [], lambda: explain_rank(params))


def explain_rank(params: RankParams) -> str:
    """`rank C: Énergie 6, Volonté 6, 4 free points; a hit removes 2 Énergie` (+ the check)."""
    rank = params.rank
    text = _(
        "rank {rank}: Énergie {base}, Volonté {base}, {free} free points;"
        " a hit removes {damage} Énergie"
    ).format(
        rank=rank,
        base=rules.base_maximum(rank),
        free=rules.free_points(rank),
        damage=rules.damage(rank),
    )
    if params.energy is None or params.willpower is None:
        return text
    problems = rules.maxima_problems(rank, params.energy, params.willpower)
    gauges = _("Énergie {energy}, Volonté {willpower}").format(
        energy=params.energy, willpower=params.willpower
    )
    verdict = _("invalid") if problems else _("valid")
    return f"{text} · {gauges}: {verdict}" + "".join(f" · {problem}" for problem in problems)


ACTIONS: dict[str, Action[Any]] = {
    "attack": Action(
        "attack",
        AttackParams,
        attack_roll,
        attack_odds,
        help=N_(
            "Attack: d20 + Volonté against 8 + Énergie; a hit removes the rank's damage (PU-4)."
        ),
        example={"willpower": 5, "target_energy": 6, "rank": "C"},
        names={"en": "attack", "fr": "attaque"},
    ),
    "protect": Action(
        "protect",
        ProtectParams,
        protect_roll,
        protect_odds,
        help=N_("Protect another: the protector's raw defense against the attack (PU-6)."),
        example={"protector_energy": 6, "willpower": 5, "rank": "C"},
        names={"en": "protect", "fr": "protéger"},
    ),
    "rank": Action(
        "rank",
        RankParams,
        rank_roll,
        None,
        help=N_("A rank's gauges, free points and damage; with maxima, whether they fit (PU-2)."),
        example={"rank": "C", "energy": 8, "willpower": 8},
        names={"en": "rank", "fr": "rang"},
    ),
    "duel": Action(
        "duel",
        duel.DuelParams,
        duel.roll,
        duel.odds,
        help=N_("A duel of attacks only: who wins, and in how many rounds (PU-4)."),
        example={"a": "rank=C,energy=7,willpower=5", "b": "rank=D,energy=5,willpower=4"},
        names={"en": "duel", "fr": "duel"},
    ),
}
