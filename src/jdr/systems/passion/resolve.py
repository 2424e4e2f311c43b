"""Resolving a Passion roll (PS-3 … PS-7): difficulty, talent, Énergie and Passion, NPC pools.

The dice give `(positives, negatives)` (see `pool.py`); everything else is arithmetic on those two
numbers, so the same function serves the roller and the exact odds.

>>> r = resolve((5, 2), difficulty=4, talent=5)
>>> (r.positives, r.negatives, r.margin, r.outcome)
(5, 1, 4, 'success')
>>> resolve((3, 0), difficulty=6, talent=4).margin
1
"""

from __future__ import annotations

from dataclasses import dataclass

from jdr.systems.protocol import Json


@dataclass(frozen=True)
class Resolution:
    """Every step of one roll's count, and its outcome (PS-6)."""

    dice_positives: int
    dice_negatives: int
    difficulty: int
    npc_energy: int
    talent: int
    cancelled_by_talent: int
    energy: bool
    npc_passion: int
    cancelled_positives: int
    passion: int
    cancelled_by_passion: int

    @property
    def positives(self) -> int:
        """Dice positives, +1 for an Énergie point, less what the NPC's Passion cancelled."""
        return self.dice_positives + int(self.energy) - self.cancelled_positives

    @property
    def negatives(self) -> int:
        """Dice negatives + difficulty + NPC Énergie, less what talent and Passion cancelled."""
        before = self.dice_negatives + self.difficulty + self.npc_energy
        return before - self.cancelled_by_talent - self.cancelled_by_passion

    @property
    def margin(self) -> int:
        return self.positives - self.negatives

    @property
    def outcome(self) -> str:
        return outcome(self.margin)

    @property
    def passion_needed(self) -> int | None:
        """The Passion that would have turned this roll into a success (PS-5), None if none could
        (each point cancels one negative left); 0 when it already succeeds."""
        if self.margin > 0:
            return 0
        needed = 1 - self.margin
        return needed if needed <= self.negatives else None

    def steps(self) -> Json:
        return {
            "dice_positives": self.dice_positives,
            "dice_negatives": self.dice_negatives,
            "difficulty": self.difficulty,
            "npc_energy": self.npc_energy,
            "cancelled_by_talent": self.cancelled_by_talent,
            "energy": self.energy,
            "cancelled_positives": self.cancelled_positives,
            "cancelled_by_passion": self.cancelled_by_passion,
        }


def outcome(margin: int) -> str:
    """PS-6: margin > 0 `success`, 0 `status_quo`, < 0 `failure`."""
    if margin > 0:
        return "success"
    return "status_quo" if margin == 0 else "failure"


def resolve(
    dice: tuple[int, ...],
    difficulty: int = 0,
    talent: int = 0,
    energy: bool = False,
    passion: int = 0,
    npc_energy: int = 0,
    npc_passion: int = 0,
) -> Resolution:
    """Count a roll whose dice gave `(positives, negatives)`.

    PS-3 the difficulty and PS-7 the NPC's Énergie add negatives; PS-4 the talent cancels up to its
    score of them; PS-5 one Énergie point adds a positive, Passion points cancel negatives left;
    PS-7 the NPC's Passion cancels positives the player got on the dice.
    """
    positives, negatives = dice
    before = negatives + difficulty + npc_energy
    by_talent = min(talent, before)
    by_passion = min(passion, before - by_talent)
    cancelled = min(npc_passion, positives)
    return Resolution(
        positives,
        negatives,
        difficulty,
        npc_energy,
        talent,
        by_talent,
        energy,
        npc_passion,
        cancelled,
        passion,
        by_passion,
    )
