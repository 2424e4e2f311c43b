"""Roll an `Expression` against a random source, keeping every die in the record.

Each dice term is rolled in turn. Its dice are drawn in one call; then, if it explodes, every die
showing the maximum face draws one more die, all such dice together in one call, wave after wave
(the way a player rerolls the sixes), until no die shows the maximum or a die has exploded
`MAX_EXPLOSIONS` times. A reroll (`r1`) works the same way before that: every die matching it is
rolled again, all together, wave after wave, until none matches or a die has been rerolled
`MAX_EXPLOSIONS` times (once for `ro`); only its last face counts. A term in parentheses is rolled
where it stands. `DiceRoll.faces` lists the faces in exactly that order.
"""

from __future__ import annotations

from jdr.dice.notation.limits import MAX_EXPLOSIONS, check
from jdr.dice.notation.result import DiceRoll, DieResult, TermRoll
from jdr.dice.notation.tree import Constant, DiceTerm, Expression, Scaled, scale
from jdr.dice.source import RandomSource


def roll(expression: Expression, rng: RandomSource) -> DiceRoll:
    """Roll every term of `expression` from `rng` and add them up.

    >>> from jdr.dice import GivenFaces
    >>> from jdr.dice.notation import parse
    >>> record = roll(parse("1d20+5-1d4"), GivenFaces([12, 3]))
    >>> record.total, record.explain()
    (14, '1d20 (12) + 5 - 1d4 (3) = 14')
    """
    check(expression)
    return _roll(expression, rng, [])


def roll_term(term: DiceTerm, rng: RandomSource) -> TermRoll:
    """Roll one dice term alone (`jdr.dice.notation.pools.roll_pool`), within the limits."""
    check(Expression((term,)))
    return _roll_dice(term, rng, [])


def _roll(expression: Expression, rng: RandomSource, faces: list[int]) -> DiceRoll:
    terms = []
    for term in expression.terms:
        if isinstance(term, Constant):
            terms.append(TermRoll(term, (), term.value))
        elif isinstance(term, Scaled):
            inner = _roll(term.inner, rng, faces)
            terms.append(TermRoll(term, (), scale(inner.total, term.steps), inner))
        else:
            terms.append(_roll_dice(term, rng, faces))
    return DiceRoll(expression, tuple(terms), faces, sum(t.signed for t in terms))


def _roll_dice(term: DiceTerm, rng: RandomSource, drawn: list[int]) -> TermRoll:
    first = _draw(rng, term.size, term.count, drawn)
    rerolled: list[list[int]] = [[] for _face in first]
    if term.reroll is not None:
        reroll = term.reroll
        waiting = [i for i, face in enumerate(first) if reroll.matches(face + term.shift)]
        for _wave in range(1 if term.reroll_once else MAX_EXPLOSIONS):
            if not waiting:
                break
            for i, face in zip(waiting, _draw(rng, term.size, len(waiting), drawn), strict=True):
                rerolled[i].append(first[i])
                first[i] = face
            waiting = [i for i in waiting if reroll.matches(first[i] + term.shift)]
    chains = [[face] for face in first]
    if term.explode:
        exploding = [chain for chain in chains if chain[-1] == term.size]
        for _wave in range(MAX_EXPLOSIONS):
            if not exploding:
                break
            for chain, face in zip(
                exploding, _draw(rng, term.size, len(exploding), drawn), strict=True
            ):
                chain.append(face)
            exploding = [chain for chain in exploding if chain[-1] == term.size]
    values = [sum(chain) + term.shift for chain in chains]
    kept = kept_dice(term, values)
    dice = []
    for index, (chain, value) in enumerate(zip(chains, values, strict=True)):
        before = tuple(rerolled[index])
        if index in kept:
            dice.append(
                DieResult(
                    tuple(chain),
                    True,
                    term.contribution(value),
                    term.mark(value),
                    before,
                    term.shift,
                )
            )
        else:
            dice.append(DieResult(tuple(chain), False, rerolled=before, shift=term.shift))
    return TermRoll(term, tuple(dice), sum(die.counted for die in dice))


def _draw(rng: RandomSource, size: int, count: int, drawn: list[int]) -> list[int]:
    faces = list(rng.faces(size, count))
    drawn.extend(faces)
    return faces


def kept_dice(term: DiceTerm, values: list[int]) -> set[int]:
    """The indices of the dice that count. Among equal values the earlier die is kept.

    >>> from jdr.dice.notation import parse
    >>> sorted(kept_dice(parse("4d6dl1").terms[0], [3, 1, 6, 1]))
    [0, 1, 2]
    """
    if term.keep is None:
        return set(range(len(values)))
    sign = -1 if term.keep.highest else 1
    order = sorted(range(len(values)), key=lambda i: sign * values[i])
    return set(order[: term.keep.kept(len(values))])
