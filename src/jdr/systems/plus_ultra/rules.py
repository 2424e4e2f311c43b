"""The core rules of Plus Ultra (seed 001): ranks (PU-2), damage (PU-3), attack and defense (PU-4,
PU-5, PU-9) and protecting another (PU-6). Pure functions; dice come from an injected source.

>>> base_maximum("C"), free_points("C"), damage("C")
(6, 4, 2)
>>> from jdr.dice import GivenFaces
>>> hit = resolve_attack(willpower=5, target_energy=6, rank="C", rng=GivenFaces([9]))
>>> (hit.face, hit.attack, hit.defense, hit.hit, hit.damage)
(9, 14, 14, True, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from jdr.dice.source import RandomSource
from jdr.errors import UnknownNameError
from jdr.i18n import _

RANKS = ("E", "E+", "D", "D+", "C", "C+", "B", "B+", "A", "A+", "S", "S+")
"""PU-2: the ranks in order; a rank's index k is 0..11."""
BASE_DEFENSE = 8
DEFENDING_BONUS = 5  # PU-5
FLEEING_BONUS = 3  # PU-9
DIE = 20


def rank_index(rank: str) -> int:
    """The index k of a rank (`c+` → 5); an unknown rank is refused with the list of ranks."""
    key = rank.strip().upper()
    if key not in RANKS:
        raise UnknownNameError(_("rank"), rank, list(RANKS))
    return RANKS.index(key)


def normalize_rank(rank: str) -> str:
    return RANKS[rank_index(rank)]


def base_maximum(rank: str) -> int:
    """PU-2: the base maximum of both Énergie and Volonté at this rank: 2 + k."""
    return 2 + rank_index(rank)


def free_points(rank: str) -> int:
    """PU-2: the points a player splits between Énergie and Volonté at this rank: k."""
    return rank_index(rank)


def damage(rank: str) -> int:
    """PU-3: Énergie a hit removes: E, E+, D → 1; D+, C, C+ → 2; B, B+, A → 3; A+, S, S+ → 4."""
    return rank_index(rank) // 3 + 1


def maxima_problems(rank: str, energy: int, willpower: int) -> list[str]:
    """PU-2: why Énergie and Volonté maxima don't add up for `rank` (empty when they do)."""
    base, free = base_maximum(rank), free_points(rank)
    problems = []
    for label, value in (("Énergie", energy), ("Volonté", willpower)):
        if value < base:
            problems.append(
                _("{gauge} {value} is below the base {base} of rank {rank}").format(
                    gauge=label, value=value, base=base, rank=normalize_rank(rank)
                )
            )
    spent = energy + willpower - 2 * base
    if not problems and spent != free:
        problems.append(
            _("{spent} points placed, rank {rank} gives {free} to split").format(
                spent=spent, rank=normalize_rank(rank), free=free
            )
        )
    return problems


def defense(energy: int, defending: bool = False, fleeing: bool = False, bonus: int = 0) -> int:
    """PU-4/PU-5/PU-9: 8 + current Énergie, +5 defending, +3 fleeing (+ a technique's bonus)."""
    return BASE_DEFENSE + energy + DEFENDING_BONUS * defending + FLEEING_BONUS * fleeing + bonus


@dataclass(frozen=True)
class AttackRoll:
    """One attack (PU-4): the d20, attack = d20 + Volonté (+ bonus), the defense, hit, damage."""

    face: int
    attack: int
    defense: int
    damage_on_hit: int

    @property
    def hit(self) -> bool:
        return self.attack >= self.defense

    @property
    def damage(self) -> int:
        return self.damage_on_hit if self.hit else 0


def resolve_attack(
    willpower: int,
    target_energy: int,
    rank: str,
    rng: RandomSource,
    *,
    defending: bool = False,
    fleeing: bool = False,
    bonus: int = 0,
    defense_bonus: int = 0,
) -> AttackRoll:
    """Roll an attack: hit when d20 + Volonté + bonus ≥ 8 + Énergie (+5/+3) (PU-4)."""
    (face,) = rng.faces(DIE, 1)
    return AttackRoll(
        face,
        face + willpower + bonus,
        defense(target_energy, defending, fleeing, defense_bonus),
        damage(rank),
    )


def hit_chance(attack_modifier: int, target_defense: int) -> Fraction:
    """P(d20 + modifier ≥ defense), exactly.

    >>> hit_chance(5, 14), hit_chance(0, 25), hit_chance(30, 10)
    (Fraction(3, 5), Fraction(0, 1), Fraction(1, 1))
    """
    needed = target_defense - attack_modifier
    faces = sum(1 for face in range(1, DIE + 1) if face >= needed)
    return Fraction(faces, DIE)


@dataclass(frozen=True)
class Protection:
    """PU-6: the protector's raw defense (8 + Énergie) against the attack."""

    protector_defense: int
    attack: int
    damage_on_hit: int

    @property
    def outcome(self) -> str:
        """`takes_hit` (defense lower: the full hit, side effects included) or `blocks`."""
        return "takes_hit" if self.protector_defense < self.attack else "blocks"

    @property
    def energy_lost(self) -> int:
        """The full damage when hit, else 1 Énergie for the effort (PU-6)."""
        return self.damage_on_hit if self.outcome == "takes_hit" else 1


def protect(protector_energy: int, attack: int, attacker_rank: str) -> Protection:
    """PU-6: a protector's raw defense, no +5, no technique, against an attack already rolled."""
    return Protection(defense(protector_energy), attack, damage(attacker_rank))
