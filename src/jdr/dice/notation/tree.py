"""The parsed form of a dice expression: small immutable values, one per piece of notation.

`4d10>=6f1` is one `DiceTerm` (4 dice of 10 faces, a success on a value ≥ 6, a failure on a value
equal to 1); `1d20+5-1d4` is three terms, each with its sign. `DiceTerm.contribution` is the one
scoring rule: what a kept die adds to its term. Rolling and exact odds both call it.

>>> term = DiceTerm(4, 10, success=Comparison(">=", 6), failure=Comparison("=", 1))
>>> term.text, [term.contribution(face) for face in (7, 1, 2, 6)]
('4d10>=6f1', [1, -1, 0, 1])

Comparisons have their mathematical meaning: `>6` is strictly greater than 6, `=6` exactly 6.

`(1d6+2)*2` and `1d20/2` are a `Scaled` term: a sub-expression multiplied or divided by whole
numbers, each division rounded down (towards minus infinity, as Python's `//`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Operator = Literal[">=", ">", "<=", "<", "="]
KeepMode = Literal["kh", "kl", "dh", "dl"]

OPERATORS: tuple[Operator, ...] = (">=", ">", "<=", "<", "=")
KEEP_MODES: tuple[KeepMode, ...] = ("kh", "kl", "dh", "dl")


@dataclass(frozen=True)
class Comparison:
    """`>= 6`: does a die's value pass? Mathematical meaning (`>` is strict, `=` is equality).

    >>> Comparison(">", 5).matches(5), Comparison("<=", 2).matches(2)
    (False, True)
    """

    operator: Operator
    value: int

    def __post_init__(self) -> None:
        if self.operator not in OPERATORS:
            raise ValueError(f"unknown comparison {self.operator!r}")

    def matches(self, value: int) -> bool:
        if self.operator == ">=":
            return value >= self.value
        if self.operator == ">":
            return value > self.value
        if self.operator == "<=":
            return value <= self.value
        if self.operator == "<":
            return value < self.value
        return value == self.value

    @property
    def text(self) -> str:
        return f"{self.operator}{self.value}"


@dataclass(frozen=True)
class KeepDrop:
    """`kh3`: keep the 3 highest; `kl` keeps the lowest, `dh` / `dl` drop the highest / lowest.

    >>> KeepDrop("dl", 1).kept(4), KeepDrop("dl", 1).highest
    (3, True)
    """

    mode: KeepMode
    count: int

    def __post_init__(self) -> None:
        if self.mode not in KEEP_MODES:
            raise ValueError(f"unknown keep/drop mode {self.mode!r}")

    def kept(self, dice: int) -> int:
        """How many of `dice` dice are kept."""
        return self.count if self.mode in ("kh", "kl") else dice - self.count

    @property
    def highest(self) -> bool:
        """Whether the kept dice are the highest ones (`kh`, `dl`) rather than the lowest."""
        return self.mode in ("kh", "dl")

    @property
    def text(self) -> str:
        return f"{self.mode}{self.count}"


@dataclass(frozen=True)
class DiceTerm:
    """`count` dice of `size` faces, with the optional modifiers in notation order.

    `explode`: a die showing its maximum face rolls another die and adds it (chained, capped).
    `keep`: which dice count. `success` / `failure`: count successes instead of summing values;
    a die matching `failure` removes one success (a die may match both). `fate`: a Fate die
    (`dF`: a d3 read as −1, 0, +1). `reroll`: a die matching it is rolled again (until it does
    not, at most `MAX_EXPLOSIONS` times; once with `reroll_once`), only its last face counting.
    `label`: a word kept with the term (`1d6[feu]`).
    """

    count: int
    size: int
    explode: bool = False
    keep: KeepDrop | None = None
    success: Comparison | None = None
    failure: Comparison | None = None
    sign: int = 1
    fate: bool = False
    reroll: Comparison | None = None
    reroll_once: bool = False
    label: str = ""

    def __post_init__(self) -> None:
        _check_sign(self.sign)
        if self.failure is not None and self.success is None:
            raise ValueError("a failure needs a success target")
        if self.fate and self.size != 3:
            raise ValueError("a Fate die is a d3 read as -1, 0, +1")

    @property
    def shift(self) -> int:
        """What a face adds to become a value: −2 for a Fate die (faces 1..3 are −1..+1)."""
        return -2 if self.fate else 0

    @property
    def lowest(self) -> int:
        """The lowest value of one face."""
        return 1 + self.shift

    @property
    def highest(self) -> int:
        """The highest value of one face."""
        return self.size + self.shift

    @property
    def counts_successes(self) -> bool:
        return self.success is not None

    @property
    def kept(self) -> int:
        """How many dice count towards the term."""
        return self.count if self.keep is None else self.keep.kept(self.count)

    def contribution(self, value: int) -> int:
        """What one kept die of this value adds to the term: its value, or successes − failures.

        >>> DiceTerm(1, 6).contribution(4)
        4
        >>> both = DiceTerm(1, 10, success=Comparison("<=", 2), failure=Comparison("<=", 1))
        >>> both.contribution(1), both.mark(1)
        (0, '✓✗')
        """
        if self.success is None:
            return value
        return int(self.success.matches(value)) - int(
            self.failure is not None and self.failure.matches(value)
        )

    def mark(self, value: int) -> str:
        """`✓` for a success, `✗` for a failure, both if both apply, else nothing."""
        if self.success is None:
            return ""
        failed = self.failure is not None and self.failure.matches(value)
        return "✓" * self.success.matches(value) + "✗" * failed

    @property
    def text(self) -> str:
        """The normalised notation, without the sign: `1d100`, `4d6!kh3`, `5d10>=6f1`."""
        text = f"{self.count}d{'F' if self.fate else self.size}" + "!" * self.explode
        if self.reroll is not None:
            text += "ro" if self.reroll_once else "r"
            op = self.reroll.operator
            text += str(self.reroll.value) if op == "=" else self.reroll.text
        if self.keep is not None:
            text += self.keep.text
        if self.success is not None:
            text += self.success.text
        if self.failure is not None:
            op = self.failure.operator
            text += f"f{self.failure.value}" if op == "=" else f"f{self.failure.text}"
        if self.label:
            text += f"[{self.label}]"
        return text


@dataclass(frozen=True)
class Constant:
    """A whole number added (or, with `sign=-1`, taken away)."""

    value: int
    sign: int = 1

    def __post_init__(self) -> None:
        _check_sign(self.sign)

    @property
    def text(self) -> str:
        return str(self.value)


Step = tuple[Literal["*", "/"], int]
"""One scaling step of a `Scaled` term: multiply, or divide rounding down, by a whole number."""


def scale(value: int, steps: tuple[Step, ...]) -> int:
    """`value` through each step in turn; a division rounds down (towards minus infinity).

    >>> scale(7, (("/", 2), ("*", 3))), scale(-7, (("/", 2),))
    (9, -4)
    """
    for operator, number in steps:
        value = value * number if operator == "*" else value // number
    return value


@dataclass(frozen=True)
class Scaled:
    """`(1d6+2)*2`, `1d20/2`: a sub-expression's total through whole-number steps."""

    inner: Expression
    steps: tuple[Step, ...]
    sign: int = 1

    def __post_init__(self) -> None:
        _check_sign(self.sign)

    @property
    def text(self) -> str:
        inner = self.inner
        bare = len(inner.terms) == 1 and inner.terms[0].sign > 0 and not inner.label
        body = inner.text if bare else f"({inner.text})"
        return body + "".join(f"{operator}{number}" for operator, number in self.steps)


Term = DiceTerm | Constant | Scaled


@dataclass(frozen=True)
class Expression:
    """A whole expression: terms joined with `+` or `-`, and the roll's label if it has one.

    >>> from jdr.dice.notation import parse
    >>> expression = parse("D20 + 5 - d4")
    >>> expression.text, expression.dice_count
    ('1d20+5-1d4', 2)
    """

    terms: tuple[Term, ...]
    label: str = ""
    notes: tuple[str, ...] = field(default=(), compare=False)
    """Comparisons typed as Roll20 writes them but read by jdr strictly (`>7`): see `notes.py`."""

    @property
    def text(self) -> str:
        """The normalised source: lower case, no spaces, every count written, `d%` as `d100`,
        then ` #label` when the roll has one."""
        parts = []
        for index, term in enumerate(self.terms):
            sign = "-" if term.sign < 0 else ("+" if index else "")
            parts.append(sign + term.text)
        return "".join(parts) + (f" #{self.label}" if self.label else "")

    @property
    def dice_count(self) -> int:
        """How many dice the expression rolls before explosions."""
        return sum(term.count for term in dice_terms(self))

    def __str__(self) -> str:
        return self.text


def dice_terms(expression: Expression) -> list[DiceTerm]:
    """Every dice term of the expression, those inside parentheses included, in order."""
    found: list[DiceTerm] = []
    for term in expression.terms:
        if isinstance(term, DiceTerm):
            found.append(term)
        elif isinstance(term, Scaled):
            found.extend(dice_terms(term.inner))
    return found


def _check_sign(sign: int) -> None:
    if sign not in (1, -1):
        raise ValueError(f"a term's sign is 1 or -1, not {sign!r}")
