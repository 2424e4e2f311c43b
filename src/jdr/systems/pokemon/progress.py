"""Progression steps on a stored Pokémon or trainer (PK-21 … PK-24): `jdr sheet buy|award`.

- `buy NAME skill SKILL`, `buy NAME ev STAT`, `buy NAME level` (PK-21, PK-22): the cost shown,
  refused when the XP is short; XP are spent, not accumulated.
- `award NAME xp=N [REASON]`: the GM's XP (training, a scenario); `award NAME scenario=vital,
  roleplay,heroic,failure` for a human at the end of a scenario (PK-23: 1 plus one per thing
  that happened; `scenario=automatic` alone gives the automatic 1; the words in French too:
  `automatique`, `informations`, `roleplay`, `héroïque`, `échec`); `award NAME defeated=LEVEL
  [won=no]` for a Pokémon after a fight (PK-24: half the defeated Pokémon's level, a loser a
  quarter).

>>> import tomllib
>>> from jdr.sheet_check import systems_example
>>> pikachu = tomllib.loads(systems_example("pokemon", "pokemon")) | {"xp": 12}
>>> done = buy(pikachu, BuyParams(what="ev", which="Dextérité"))
>>> done.sheet["evs"], done.sheet["xp"], done.cost
({'dexterity': 2}, 1, {'xp': 11})
>>> done.summary()
'Pikachu buys 1 EV in Dextérité for 11 XP: Dextérité 5 → 6, XP 12 → 1'
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from jdr.i18n import N_, _
from jdr.labels import Choices, named
from jdr.names import fold
from jdr.systems.pokemon.sheet_files import sheet_of
from jdr.systems.pokemon.sheets import STAT_LABELS, Pokemon, effective_stats, stat_id
from jdr.systems.pokemon.xp import add_xp, fight_award, price, scenario_award
from jdr.systems.pokemon.xp import buy as buy_point
from jdr.systems.protocol import Json, Progressed, Progression
from jdr.validation import fail

__all__ = ["PROGRESSION", "AwardParams", "BuyParams", "award", "buy"]

Happening = Literal["automatic", "vital", "roleplay", "heroic", "failure"]
"""PK-23's end of scenario: `automatic` (the 1 XP every human gets, nothing more: the award
given alone), then one XP for each of the four things that happened."""
HAPPENINGS: Choices = {
    "automatic": ("automatic", "automatique", "auto"),
    "vital": (
        "vital information",
        "informations capitales",
        "vital",
        "informations",
        "information",
        "info",
        "infos",
        "vitale",
    ),
    "roleplay": ("roleplay", "jeu de rôle", "role-play"),
    "heroic": ("heroic act", "acte héroïque", "heroic", "héroïque", "héroïsme"),
    "failure": ("failure", "échec", "échecs"),
}
"""A scenario's happenings (PK-23), as a player names them (English, French, other spellings,
compared folded: no case, no accents)."""
_HAPPENINGS = {
    fold(word): happening for happening, words in HAPPENINGS.items() for word in (happening, *words)
}


class BuyParams(BaseModel):
    """`buy NAME skill|ev|level [SKILL|STAT]` (PK-21, PK-22)."""

    what: Literal["skill", "ev", "level"] = Field(
        description=N_("what to buy"),
        json_schema_extra=named(
            "what to buy",
            "achat",
            {
                "skill": ("skill point", "point de compétence", "skill", "compétence"),
                "ev": ("EV", "EV"),
                "level": ("level", "niveau"),
            },
        ),
    )
    which: str = Field(
        default="",
        description=N_("the skill, or the stat an EV raises"),
        json_schema_extra=named("which one", "lequel"),
    )


def buy(sheet: Json, params: BuyParams) -> Progressed:
    """PK-21, PK-22: one skill point, EV or level, paid in XP (`RulesError` when short)."""
    before: Any = sheet_of(dict(sheet))  # a Pokémon or a trainer
    cost = price(before, params.what, params.which)
    after = buy_point(before, params.what, params.which)
    if params.what == "skill":
        key = next(k for k in after.skills if after.skills[k] != before.skills.get(k))
        change = (key, before.skills.get(key, 0), after.skills[key])
        text = N_(
            "{name} buys 1 point in {what} for {cost} XP: {what} {before} → {after},"
            " XP {xp} → {left}"
        )
        rules: tuple[str, ...] = ("PK-21",)
    elif params.what == "ev":
        stat = stat_id(params.which)
        shown = STAT_LABELS[stat]  # a game term: French in both languages
        change = (
            shown,
            getattr(effective_stats(before), stat),
            getattr(effective_stats(after), stat),
        )
        text = N_(
            "{name} buys 1 EV in {what} for {cost} XP: {what} {before} → {after}, XP {xp} → {left}"
        )
        rules = ("PK-21", "PK-22")
    else:
        assert isinstance(before, Pokemon) and isinstance(after, Pokemon)
        change = ("", before.level, after.level)
        text = N_("{name} buys 1 level for {cost} XP: level {before} → {after}, XP {xp} → {left}")
        rules = ("PK-21",)
    what, old, new = change
    return Progressed(
        after.model_dump(mode="json"),
        lambda: _(text).format(
            name=before.name,
            what=what,
            cost=cost,
            before=old,
            after=new,
            xp=before.xp,
            left=after.xp,
        ),
        rules,
        {"xp": cost},
    )


class AwardParams(BaseModel):
    """`award NAME xp=N | scenario=… | defeated=LEVEL [won=no] [REASON]` (PK-23, PK-24)."""

    xp: int | None = Field(
        default=None,
        ge=0,
        le=100_000,
        description=N_("XP the GM gives"),
        json_schema_extra=named("XP", "PX"),
    )
    scenario: list[Happening] | None = Field(
        default=None,
        description=N_(
            "a human's end of scenario: automatic (the 1 XP alone), or any of vital, roleplay,"
            " heroic, failure (PK-23)"
        ),
        json_schema_extra=named("end of scenario", "fin de scénario", HAPPENINGS),
    )
    defeated: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description=N_("the defeated Pokémon's level (PK-24)"),
        json_schema_extra=named("defeated Pokémon's level", "niveau du Pokémon vaincu"),
    )
    won: bool = Field(
        default=True,
        description=N_("the Pokémon won the fight (PK-24)"),
        json_schema_extra=named("won", "victoire"),
    )
    reason: str | None = Field(
        default=None,
        description=N_("why, for the history"),
        json_schema_extra=named("reason", "raison"),
    )

    @field_validator("scenario", mode="before")
    @classmethod
    def _words(cls, value: Any) -> Any:
        """`scenario=Héroïque,échec`: each word read in French or English, folded."""
        if not isinstance(value, list | tuple):
            return value
        return [_HAPPENINGS.get(fold(v), v) if isinstance(v, str) else v for v in value]

    @model_validator(mode="after")
    def _one_kind(self) -> AwardParams:
        given = [name for name in ("xp", "scenario", "defeated") if getattr(self, name) is not None]
        if len(given) != 1:
            raise fail(
                "award",
                N_("an award is one of xp=N, scenario=… or defeated=LEVEL"),
                "xp=N, scenario=vital,heroic, defeated=LEVEL",
                value=", ".join(given) or None,
            )
        return self


def award(sheet: Json, params: AwardParams) -> Progressed:
    """PK-23, PK-24 or the GM's own amount: XP added to the sheet."""
    from jdr.errors import InputError

    before: Any = sheet_of(dict(sheet))  # a Pokémon or a trainer
    if params.scenario is not None:
        if isinstance(before, Pokemon):
            raise InputError(
                "scenario",
                ",".join(params.scenario),
                "xp=N, defeated=LEVEL",
                _("the end-of-scenario award is a human's (PK-23)"),
            )
        amount = scenario_award(
            *(kind in params.scenario for kind in ("vital", "roleplay", "heroic", "failure"))
        )
        rules: tuple[str, ...] = ("PK-23",)
    elif params.defeated is not None:
        if not isinstance(before, Pokemon):
            raise InputError(
                "defeated",
                params.defeated,
                "xp=N, scenario=…",
                _("the award after a fight is a Pokémon's (PK-24)"),
            )
        amount = fight_award(params.defeated, params.won)
        rules = ("PK-24",)
    else:
        amount = params.xp or 0
        rules = ("PK-24",) if isinstance(before, Pokemon) else ("PK-23",)
    after = add_xp(before, amount)
    return Progressed(
        after.model_dump(mode="json"),
        lambda: _award_sentence(before.name, amount, params),
        rules,
        {"xp": -amount},
    )


def _award_sentence(name: str, amount: int, params: AwardParams) -> str:
    """`Pikachu gains 3 XP: half of the defeated Pokémon's level 6` (PK-23, PK-24), or the
    GM's reason.

    >>> _award_sentence("Pikachu", 3, AwardParams(defeated=6))
    "Pikachu gains 3 XP: half of the defeated Pokémon's level 6"
    >>> _award_sentence("Pikachu", 5, AwardParams(xp=5, reason="the gym's badge"))
    "Pikachu gains 5 XP: the gym's badge"
    """
    if params.defeated is not None:
        text = (
            _("{name} gains {n} XP: half of the defeated Pokémon's level {level}")
            if params.won
            else _("{name} gains {n} XP: a quarter of the winner's level {level}")
        )
        return text.format(name=name, n=amount, level=params.defeated)
    if params.scenario is not None:
        return _("{name} gains {n} XP at the end of the scenario").format(name=name, n=amount)
    if params.reason:
        return _("{name} gains {n} XP: {reason}").format(name=name, n=amount, reason=params.reason)
    return _("{name} gains {n} XP").format(name=name, n=amount)


PROGRESSION: dict[str, Progression[Any]] = {
    "buy": Progression(
        "buy",
        BuyParams,
        buy,
        words=("what", "which"),
        help=N_("Buy a skill point, an EV or a level with XP (PK-21, PK-22)."),
    ),
    "award": Progression(
        "award",
        AwardParams,
        award,
        words=("reason",),
        help=N_(
            "Give XP: xp=N, scenario=vital,roleplay,heroic,failure or scenario=automatic (the"
            " automatic 1 alone) (PK-23), defeated=LEVEL (PK-24)."
        ),
    ),
}
