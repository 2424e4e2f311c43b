"""How a stored fight ended, or that it can no longer end (issue 29): what `jdr fight show`, the
recaps, the web table, the feed and the webhook say in place of whose turn it is.

A fight ends three ways:

- **by its rules** (its state is `"over"`, with the winning side or fighter in `"winner"`, or
  the winners' names in `"winners"`): by **KO** when every fighter of the other sides is down
  (`ko`, `down`), by **rout** when one of them left the fight (`escaped`, `fled`); otherwise
  (an Ilvermorny duel the GM's `end` command closed, IL-11; a plug-in's own flags) it says who
  won, as the system's `fight_over` sentence does (`rules`);
- **by the GM** (`jdr fight end`, `jdr.fights.service.end`: the `fight_ended` event), naming
  the winners, a **draw**, or nobody;
- a fight whose status is `ended` with neither (ended before the GM's end was journaled) reads
  as the GM's end, no winner named.

A fight that is not over may be **stuck**: it can no longer end by its rules (the system's
`Simulation.stalled`: a Pokémon fight where no standing Pokémon can pay for a move and nothing
hurts, PK-10, PK-16, PK-17); it says so and the GM may end it.

>>> state = {"over": True, "winner": "a", "pokemon": {
...     "Pika": {"name": "Pika", "side": "a", "ko": False},
...     "Chu": {"name": "Chu", "side": "b", "ko": True}}}
>>> ending = ending_of(state)
>>> ending.how, ending.winners
('ko', ('Pika',))
>>> ending.sentence()
'The fight is over: Pika wins by KO.'
>>> ending_of({"over": False, "fight_ended": {"by": "gm", "winners": [], "draw": True}}).sentence()
'The GM ended the fight: a draw.'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jdr.fights.fighters import fighters_of
from jdr.fights.fold import ENDED
from jdr.fights.narration import Words, gm_end_sentence
from jdr.i18n import _, ngettext

Json = dict[str, Any]

KO = "ko"
ROUT = "rout"
GM = "gm"
DRAW = "draw"
RULES = "rules"
HOWS = (KO, ROUT, GM, DRAW, RULES)
ENDED_STATUS = "ended"
"""A fight's status (`FightRecord.status`) once it has ended."""

DOWN = ("ko", "down")
"""A fighter's flags that say it is down (PK-13's KO, Passion's down …)."""
LEFT = ("escaped", "fled")
"""A fighter's flags that say it left the fight (Plus Ultra's flight, PU-9)."""


@dataclass(frozen=True)
class Ending:
    """How a fight ended: `how` (`ko`, `rout`, `gm`, `draw`, or `rules` when the rules ended
    it neither way) and the winners by name (none: nobody won, or the GM named nobody)."""

    how: str
    winners: tuple[str, ...] = ()

    def sentence(self, words: Words | None = None) -> str:
        """The ending in one sentence of the reader's language (names escaped for `words`)."""
        words = words or Words()
        if self.how in (DRAW, GM):
            return gm_end_sentence(self.winners, self.how == DRAW, words)
        names = words.names(list(self.winners))
        count = len(self.winners)
        if self.how == RULES:
            return words.winners(list(self.winners))
        if not count:
            return _("The fight is over: nobody is left standing.")
        if self.how == ROUT:
            return ngettext(
                "The fight is over: {names} wins, the other side fled.",
                "The fight is over: {names} win, the other side fled.",
                count,
            ).format(names=names)
        return ngettext(
            "The fight is over: {names} wins by KO.",
            "The fight is over: {names} win by KO.",
            count,
        ).format(names=names)

    def json(self) -> Json:
        """`{"how": …, "winners": […]}`, as `--json` and the web API show it."""
        return {"how": self.how, "winners": list(self.winners)}


def ending_of(state: Json, status: str | None = None) -> Ending | None:
    """How the fight of `state` ended (None while it goes on); `status` is its stored status
    (`ended`: the GM ended it, even with nothing in its log to say so)."""
    given = state.get(ENDED)
    if isinstance(given, dict):
        if given.get("draw"):
            return Ending(DRAW)
        return Ending(GM, tuple(str(n) for n in given.get("winners") or []))
    if state.get("over"):
        return _by_rules(state)
    if status == ENDED_STATUS:
        return Ending(GM)
    return None


def _by_rules(state: Json) -> Ending:
    from jdr.fights.setup import per_participant

    winner = state.get("winner")
    fighters = per_participant(state) or {}
    named = state.get("winners")
    if winner is None and isinstance(named, list):  # the winners by name (a plug-in's state)
        losers = [f for n, f in fighters.items() if n not in named]
        return Ending(_how(state, losers) if named else RULES, tuple(str(n) for n in named))
    if winner is not None and winner in fighters:
        return Ending(_how(state, [f for n, f in fighters.items() if n != winner]), (winner,))
    losers = [f for f in fighters.values() if winner is None or f.get("side") != winner]
    winners = [
        str(name)
        for name, f in fighters.items()
        if winner is not None and f.get("side") == winner and not _flagged(f, DOWN + LEFT)
    ]
    if winner is not None and not fighters:  # a state without fighters' fields: the side
        winners = [str(winner)]
    return Ending(_how(state, losers), tuple(winners))


def _how(state: Json, losers: Sequence[Json]) -> str:
    if any(_flagged(f, LEFT) for f in losers):
        return ROUT
    if losers and all(_flagged(f, DOWN) for f in losers):
        return KO
    return RULES  # ended with nobody down or gone, as far as jdr can tell


def _flagged(fighter: Json, flags: Sequence[str]) -> bool:
    return any(fighter.get(flag) is True for flag in flags)


def stuck(system: Any, state: Json, status: str | None = None) -> bool:
    """Whether a fight that goes on can no longer end by its rules (the system's
    `Simulation.stalled`; a system without one is never stuck)."""
    if ending_of(state, status) is not None:
        return False
    simulation = getattr(system, "simulation", None)
    stalled = getattr(simulation, "stalled", None)
    if stalled is None:
        return False
    try:
        return bool(stalled(state))
    except (KeyError, TypeError):  # a state its function cannot read: not known to be stuck
        return False


def stuck_sentence() -> str:
    """What a stuck fight says."""
    return _("the fight can no longer end by its rules: nobody can hurt anybody any more")


def end_hint(fight: int) -> str:
    """What the GM may do with a stuck fight, as a command line.

    >>> end_hint(3)
    'The GM may end it: jdr fight end 3 --draw (or --winner NAME).'
    """
    return _("The GM may end it: jdr fight end {fight} --draw (or --winner NAME).").format(
        fight=fight
    )


def standing(
    system: Any, state: Json, status: str | None = None, words: Words | None = None
) -> str | None:
    """Where the fight stands when it cannot go on as usual: its ending's sentence, or that
    it is stuck; None while it goes on."""
    ending = ending_of(state, status)
    if ending is not None:
        return ending.sentence(words)
    if stuck(system, state, status):
        return stuck_sentence().capitalize() + "."
    return None


def named_winners(given: Sequence[str], state: Json, participants: Sequence[str]) -> list[str]:
    """The winners the GM names (`--winner`), as the fight spells them: a fighter, a side or a
    player (`InputError` for another name, with did-you-mean)."""
    from jdr.fights.setup import fighters_named

    fighters = fighters_of(state)
    known = [str(n) for n in participants] + [str(n) for n in fighters if n not in participants]
    for data in fighters.values():
        side = data.get("side")
        if isinstance(side, str) and side not in known:
            known.append(side)
    return fighters_named("--winner", list(given), known)
