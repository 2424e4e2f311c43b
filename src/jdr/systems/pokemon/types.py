"""Types and the type chart (PK-11): STAB and the defender's types multiply raw damage.

>>> chart = default_chart()
>>> result = chart.multiplier("combat", ["tenebres", "glace"], user_types=["combat"])
>>> result.value
Fraction(6, 1)
>>> [reason.factor for reason in result.reasons]
[Fraction(3, 2), Fraction(2, 1), Fraction(2, 1)]
>>> chart.normalize("Électrik"), chart.normalize("TENEBR")
('electrik', 'tenebres')

English type names are accepted too, mapped to the chart's French ids:

>>> chart.normalize("electric"), chart.parse("Water/Flying"), chart.normalize("dark")
('electrik', ['eau', 'vol'], 'tenebres')
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from jdr.errors import InputError, UnknownNameError
from jdr.i18n import _, current_language
from jdr.names import closest, find, fold
from jdr.numbers import significant

STAB = Fraction(3, 2)


@dataclass(frozen=True)
class Reason:
    """One factor of a multiplier: `kind` is `stab` or `type`, `against` the defender type."""

    kind: str
    factor: Fraction
    against: str = ""


@dataclass(frozen=True)
class Multiplier:
    """The product of every factor, and each factor with its reason."""

    value: Fraction
    reasons: tuple[Reason, ...]

    def explain(self, chart: TypeChart) -> str:
        """`STAB ×1.5, Ténèbres ×2, Glace ×2 → ×6`."""
        parts = []
        for reason in self.reasons:
            label = "STAB" if reason.kind == "stab" else chart.name(reason.against)
            parts.append(f"{label} ×{significant(reason.factor, 6)}")
        return f"{', '.join(parts)} → ×{significant(self.value, 6)}" if parts else "×1"


@dataclass(frozen=True)
class TypeChart:
    """Type ids with display names, aliases, the attacker → defender factors, and the English
    names (accepted as input too) when the chart gives them."""

    names: Mapping[str, str]
    aliases: Mapping[str, str]
    factors: Mapping[str, Mapping[str, Fraction]]
    english: Mapping[str, str] = field(default_factory=dict)
    _products: dict[tuple[str, tuple[str, ...], bool], Multiplier] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """The multipliers already worked out, by (move type, defender types, STAB): type ids, so at
    most 18 × 18² × 2 of them."""

    @classmethod
    def from_toml(cls, text: str, source: str = "chart") -> TypeChart:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise InputError(source, "", _("a TOML type chart"), str(error)) from None
        names = {str(k): str(v) for k, v in data.get("names", {}).items()}
        if not names:
            raise InputError(source, "", _("a TOML type chart"), _("it has no [names] table"))
        aliases = {fold(str(k)): str(v) for k, v in data.get("aliases", {}).items()}
        english = {str(k): str(v) for k, v in data.get("english", {}).items()}
        for type_id in (*aliases.values(), *english):
            if type_id not in names:
                raise UnknownNameError(_("type"), type_id, sorted(names))
        factors: dict[str, dict[str, Fraction]] = {}
        for attacker, row in data.get("chart", {}).items():
            for defender, factor in row.items():
                for type_id in (attacker, defender):
                    if type_id not in names:
                        raise UnknownNameError(_("type"), type_id, sorted(names))
                factors.setdefault(attacker, {})[defender] = Fraction(str(factor))
        return cls(names, aliases, factors, english)

    @classmethod
    def from_file(cls, path: Path) -> TypeChart:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise InputError(
                "--chart", str(path), _("a readable TOML file"), error.strerror
            ) from None
        return cls.from_toml(text, str(path))

    def normalize(self, name: str) -> str:
        """A type id from a French or English name, an id, or an alias, as people type them
        (`jdr.names`); an unknown one is refused listing the types in the reader's language,
        with the closest."""
        if name in self.names:  # already an id, as a fight's state holds them: no search
            return name
        spellings = {type_id: type_id for type_id in self.names}
        spellings |= {display: type_id for type_id, display in self.names.items()}
        spellings |= {english: type_id for type_id, english in self.english.items()}
        spellings |= dict(self.aliases)
        found = find(name, spellings, _("type"))
        if found is not None:
            return found
        shown = self.shown_names()
        suggestion = closest(name, {spelt: shown[t] for spelt, t in spellings.items()})
        raise UnknownNameError(_("type"), name, sorted(shown.values(), key=fold), suggestion)

    def shown_names(self) -> dict[str, str]:
        """Each type's name in a list for the reader: its display name in French (`Électrik`),
        its id in English (`electrik`, what the JSON and the README use)."""
        if current_language() == "en":
            return {type_id: type_id for type_id in self.names}
        return dict(self.names)

    def parse(self, text: str) -> list[str]:
        """`Eau/Vol` → `['eau', 'vol']` (one or two types)."""
        parts = [p for p in text.replace(",", "/").split("/") if p.strip()]
        if not 1 <= len(parts) <= 2:
            raise InputError("types", text, _("one or two types, e.g. eau/vol"))
        return [self.normalize(p) for p in parts]

    def name(self, type_id: str) -> str:
        return self.names.get(type_id, type_id)

    def factor(self, attacker: str, defender: str) -> Fraction:
        return self.factors.get(attacker, {}).get(defender, Fraction(1))

    def multiplier(
        self,
        move_type: str,
        defender_types: Sequence[str],
        user_types: Iterable[str] = (),
    ) -> Multiplier:
        """PK-11: ×1.5 if the move's type is one of the user's; × the chart per defender type."""
        move = self.normalize(move_type)
        stab = move in {self.normalize(t) for t in user_types}
        key = (move, tuple(self.normalize(defender) for defender in defender_types), stab)
        found = self._products.get(key)
        if found is None:
            found = self._products[key] = self._product(*key)
        return found

    def _product(self, move: str, defenders: tuple[str, ...], stab: bool) -> Multiplier:
        reasons: list[Reason] = []
        if stab:
            reasons.append(Reason("stab", STAB))
        for target in defenders:
            reasons.append(Reason("type", self.factor(move, target), target))
        value = Fraction(1)
        for reason in reasons:
            value *= reason.factor
        return Multiplier(value, tuple(reasons))


def apply(raw: int, multiplier: Fraction) -> int:
    """PK-11: final damage = floor(raw × product).

    In whole numbers (a `Fraction` product is slow), rounded towards 0 as `int(raw × product)`:

    >>> apply(3, Fraction(3, 2)), apply(5, Fraction(1, 4)), apply(2, Fraction(-3, 4)), apply(-1, 2)
    (4, 1, -1, 0)
    """
    if raw < 0:
        return 0
    product = raw * multiplier.numerator
    if product >= 0:
        return product // multiplier.denominator
    return -(-product // multiplier.denominator)


@cache
def default_chart() -> TypeChart:
    """The standard 18-type chart shipped as `chart.toml`."""
    text = resources.files(__package__).joinpath("chart.toml").read_text(encoding="utf-8")
    return TypeChart.from_toml(text)


def chart_json(multiplier: Multiplier, chart: TypeChart) -> dict[str, Any]:
    """The JSON of a multiplier: the value and each factor with its reason, and the
    explanation."""
    return reasons_json(multiplier) | {"explanation": multiplier.explain(chart)}


def reasons_json(multiplier: Multiplier) -> dict[str, Any]:
    """`chart_json` without the explanation (what a fight's `damage_rolled` keeps)."""
    return {
        "multiplier": float(multiplier.value),
        "reasons": [
            {"kind": r.kind, "factor": float(r.factor), "against": r.against or None}
            for r in multiplier.reasons
        ],
    }
