"""The Passion `action` (PS-1 … PS-7, PS-10): the roll, its exact odds, and the dice advisor.

`ACTIONS` is merged into the system's actions; its `example` is a roll the meta-tests run. The
parameters are in `params.py`; the odds (`odds.py`) and the advisor (`advise.py`) import NumPy, so
they are imported when asked for.

>>> from jdr.dice import GivenFaces
>>> params = ActionParams(dice="7d6", difficulty=4, talent=5)
>>> record = roll(params, GivenFaces([2, 5, 4, 2, 3, 4, 4]))
>>> record.outcome, record.totals["positives"], record.totals["negatives"], record.totals["margin"]
('success', 5, 1, 4)
>>> for step in record.explain().split(" · "):
...     print(step)
7d6: 2+ 5− 4+ 2+ 3− 4+ 4+ → 5 positives, 2 negatives
difficulty 4 → 6 negatives
talent 5 cancels 5 → 1 negative
5 − 1 = margin 4: success

Decisions where the rules are silent (see also `params.py`):

- `--passion P` spends up to P points after the roll, each cancelling one negative left (PS-5): no
  more than there are negatives to cancel. `passion_needed` is the number of points *more* that
  would have made the roll a success: 0 when it already is one, `null` when no amount could (no
  positive left: Passion cancels negatives, it adds no positive).
- The explanation lists only the steps that change something (a difficulty of 0 is not shown).
"""

from __future__ import annotations

from typing import Any

from jdr.dice.pool import PoolRoll, roll_pool
from jdr.dice.source import RandomSource
from jdr.i18n import N_, _, ngettext
from jdr.systems.passion.params import ActionParams, AdviseParams, fewest_dice
from jdr.systems.passion.resolve import Resolution
from jdr.systems.protocol import Action, Advice, Advisor, Odds, Record

__all__ = ["ACTIONS", "ActionParams", "AdviseParams", "advise", "explain", "odds", "roll"]

WORDS = (N_("passion_needed"), N_("steps"))
"""JSON keys a reader may see as titles."""


# --- roll ---------------------------------------------------------------------------------------


def roll(params: ActionParams, rng: RandomSource) -> Record:
    """The `action` roll: JSON `positives`, `negatives`, `margin`, `passion_needed`, `steps`."""
    rolled = roll_pool(params.pool(), rng)
    result = params.conditions().resolve(rolled.total)
    return Record(
        outcome=result.outcome,
        totals={
            "positives": result.positives,
            "negatives": result.negatives,
            "margin": result.margin,
            "passion_needed": result.passion_needed,
        },
        faces=rolled.faces,
        explain=lambda: explain(rolled, result, params.marker),
        details={"steps": result.steps()},
    )


def positives_text(n: int) -> str:
    """`1 positive` / `3 positives` in the current language."""
    return ngettext("{n} positive", "{n} positives", n).format(n=n)


def negatives_text(n: int) -> str:
    """`1 negative` / `3 negatives` in the current language."""
    return ngettext("{n} negative", "{n} negatives", n).format(n=n)


def explain(rolled: PoolRoll, result: Resolution, marker: int | None = None) -> str:
    """Every step of the count, in the current language: dice, difficulty, talent, pools."""
    positives, negatives = result.dice_positives, result.dice_negatives
    parts = []
    if marker is not None:
        count = rolled.pool.dice_count
        if count < marker:  # PS-10: the Énergie point stands in for one die
            text = ngettext(
                "marker {marker}: {n} die and the Énergie point",
                "marker {marker}: {n} dice and the Énergie point",
                count,
            )
        else:
            text = ngettext("marker {marker}: {n} die", "marker {marker}: {n} dice", count)
        parts.append(text.format(marker=marker, n=count))
    parts.append(
        f"{rolled.pool.notation()}: {rolled.faces_text()} → "
        f"{positives_text(positives)}, {negatives_text(negatives)}"
    )
    steps: list[tuple[bool, str, int]] = [
        (result.difficulty > 0, _("difficulty {n}"), result.difficulty),
        (result.npc_energy > 0, _("NPC Énergie {n}"), result.npc_energy),
        (result.talent > 0, _("talent {n} cancels {cancelled}"), -result.cancelled_by_talent),
        (result.passion > 0, _("Passion {n} cancels {cancelled}"), -result.cancelled_by_passion),
    ]
    numbers = (result.difficulty, result.npc_energy, result.talent, result.passion)
    for (shown, text, change), n in zip(steps, numbers, strict=True):
        negatives += change
        if shown:
            step = text.format(n=n, cancelled=-change)
            parts.append(f"{step} → {negatives_text(negatives)}")
    if result.npc_passion > 0:
        positives -= result.cancelled_positives
        step = _("NPC Passion {n} cancels {cancelled}").format(
            n=result.npc_passion, cancelled=result.cancelled_positives
        )
        parts.append(f"{step} → {positives_text(positives)}")
    if result.energy:
        parts.append(_("Énergie +1 → {positives}").format(positives=positives_text(positives + 1)))
    parts.append(
        _("{positives} − {negatives} = margin {margin}: {outcome}").format(
            positives=result.positives,
            negatives=result.negatives,
            margin=result.margin,
            outcome=_(result.outcome),
        )
    )
    needed = result.passion_needed
    if needed is None:
        parts.append(_("no Passion can make it a success: no positive left"))
    elif needed > 0:
        parts.append(
            ngettext(
                "{n} more Passion point would make it a success",
                "{n} more Passion points would make it a success",
                needed,
            ).format(n=needed)
        )
    return " · ".join(parts)


# --- odds and advice (NumPy, imported when asked for) -------------------------------------------


def odds(params: ActionParams, exact: bool) -> Odds:
    """The `action` odds: the three outcomes, the margin's distribution and mean, `sure`."""
    from jdr.systems.passion.odds import roll_odds

    return roll_odds(params.pool(), params.conditions(), exact)


def advise(params: AdviseParams, exact: bool) -> Advice:
    """Every pool of one or two sizes, ranked by the goal: JSON `choices`, best first, and the
    recommendation in words (`summary`)."""
    from jdr.systems.passion.advise import rank_pools
    from jdr.systems.passion.advise_summary import summary

    choices = rank_pools(
        params.conditions(),
        params.size_list(),
        max_dice=params.max_dice,
        goal=params.goal,
        min_dice=fewest_dice(params.min_dice, params.energy),
        exact=exact,
    )
    return Advice(
        [choice.as_json() for choice in choices],
        extra={"goal": params.goal},
        summary=lambda: summary(choices, params.goal),
    )


ACTIONS: dict[str, Action[Any]] = {
    "action": Action(
        "action",
        ActionParams,
        roll,
        odds,
        advise=Advisor(
            AdviseParams,
            advise,
            help=N_(
                "Which dice to roll: every pool of one or two sizes, ranked by the goal, with"
                " exact odds; sure successes marked."
            ),
        ),
        help=N_(
            "An action roll: even faces are positives, odd faces negatives; the difficulty adds"
            " negatives, the talent and Passion cancel them, Énergie adds a positive"
            " (PS-1 … PS-7, PS-10)."
        ),
        example={"dice": "4d6", "talent": 3, "difficulty": 2},
        names={"en": "action", "fr": "action"},
    ),
}
