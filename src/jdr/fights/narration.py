"""A fight's events as sentences, in the reader's language: each system declares, in one place,
how each of its event types reads (`Narration`), and every front end tells the story with it —
`jdr fight act`, `fight log`, `journal show`, the recaps, the demo, a web table.

A sentence is built by a `Line`: a function of the event and the `Words` of its medium (names
escaped for it, game words translated, numbers with the reader's decimal mark), with the state
after the event at hand (a winning side named by its fighters). `says` makes the common one from
a message with the event's fields:

>>> NARRATION = Narration({
...     "waited": Line(says("{pokemon} waits.")),
...     "hit": Line(says("{name} loses {amount} Vitalité.")),
... })
>>> NARRATION.sentence({"type": "hit", "name": "[b]Pika[/b]", "amount": 2}, Words("bbcode"))
'[\\u200bb]Pika[\\u200b/b] loses 2 Vitalité.'
>>> NARRATION.sentence({"type": "kicked", "actor": "Pika", "damage": 2}, Words())
'kicked: Pika, 2'

An event type a system does not declare (a plug-in's, say) still reads as words: its type and its
values; the five built-in systems declare every one of theirs (a test proves it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from jdr.i18n import N_, _, elide, ngettext
from jdr.markup import escape

Json = dict[str, Any]

SHORT = 10
"""Hex digits of a commitment a sentence shows (as the journal shows a hash)."""

__all__ = [
    "GENERIC",
    "Line",
    "Narration",
    "Told",
    "Words",
    "generic_sentence",
    "gm_end_sentence",
    "over",
    "says",
    "tell",
]


@dataclass(frozen=True)
class Words:
    """How a sentence writes what it holds, for one `medium` (`text`, `terminal`, `bbcode`,
    `markdown`, `html`), with the `state` after the event (empty when unknown) and the action's
    `earlier` events."""

    medium: str = "text"
    state: Mapping[str, Any] = field(default_factory=dict)
    earlier: Sequence[Json] = ()
    """The events of the same action before this one (a formula may need them: the damage an
    endure roll subtracts from)."""

    def name(self, text: Any) -> str:
        """A name or free text a player typed: escaped for the medium, never markup."""
        return escape(str(text), self.medium)

    def names(self, items: Iterable[Any]) -> str:
        """`A, B and C` (`A, B et C`), each escaped.

        >>> Words().names(["Ann", "Bob", "Cy"]), Words().names(["Ann"]), Words().names([])
        ('Ann, Bob and Cy', 'Ann', '-')
        """
        shown = [self.name(item) for item in items]
        if not shown:
            return "-"
        if len(shown) == 1:
            return shown[0]
        return _("{items} and {last}").format(items=", ".join(shown[:-1]), last=shown[-1])

    def series(self, items: Iterable[str]) -> str:
        """Parts of a sentence, one after the other: `a; b` (`a ; b` in French)."""
        return _("; ").join(items)

    def word(self, identifier: Any) -> str:
        """A game word the catalogs translate (`sleep` → `Sommeil`), never escaped."""
        return _(str(identifier))

    def number(self, value: Any) -> str:
        """A number as the reader writes it: `1.5`, `1,5` in French; whole numbers as they are.

        >>> Words().number(1.5), Words().number(3), Words().number(2.0)
        ('1.5', '3', '2')
        """
        from jdr.numbers import significant

        if isinstance(value, bool) or not isinstance(value, int | float):
            return str(value)
        if isinstance(value, int) or float(value).is_integer():
            return str(int(value))
        return significant(value)

    def signed(self, value: int) -> str:
        """A change or a margin with its sign: `+3`, `−2`, `0`.

        >>> Words().signed(3), Words().signed(-2), Words().signed(0)
        ('+3', '−2', '0')
        """
        return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"

    def faces(self, faces: Iterable[Any]) -> str:
        """Faces as a roll shows them: `7, 1, 2, 6`."""
        return ", ".join(str(face) for face in faces) or "—"

    def sides(self, members: Mapping[str, Sequence[str]]) -> str:
        """The fighters by side: `Kaito (a) against Corbeau and Sbire (b)`.

        >>> Words().sides({"a": ["Kaito"], "b": ["Corbeau", "Sbire"]})
        'Kaito (a) against Corbeau and Sbire (b)'
        """
        parts = [
            _("{names} ({side})").format(names=self.names(names), side=self.name(side))
            for side, names in members.items()
        ]
        return _(" against ").join(parts)

    def winners(self, names: Sequence[str]) -> str:
        """The end of a fight: `Kaito wins.`, `Ann and Bob win.`, or nobody does.

        >>> Words().winners(["Ann", "Bob"]), Words().winners([])
        ('The fight is over: Ann and Bob win.', 'The fight is over: nobody wins.')
        """
        if not names:
            return _("The fight is over: nobody wins.")
        return ngettext(
            "The fight is over: {names} wins.", "The fight is over: {names} win.", len(names)
        ).format(names=self.names(names))

    def sealed(self, event: Json, sealed: str, plain: str, **fields: Any) -> str:
        """A choice's sentence: `sealed` while the event carries only its commitment (shown by
        its first digits, as a journal shows a hash), `plain` for one made in the clear (a
        fight from before choices were sealed).

        >>> Words().sealed({"sealed": "8a080291e1f0"}, "{name} has chosen ({sealed}).",
        ...                "{name} chooses.", name="Ann")
        'Ann has chosen (8a080291e1).'
        """
        if "sealed" in event:
            return self.say(sealed, sealed=event["sealed"][:SHORT], **fields)
        return self.say(plain, **fields)

    def say(self, message: str, **fields: Any) -> str:
        """`message` in the reader's language, its `{fields}` filled as given (elided in
        French: `de {name}` with Aiko reads `d'Aiko`)."""
        return elide(_(message).format(**fields))


Say = Callable[[Json, Words], str]


@dataclass(frozen=True)
class Line:
    """How one event type reads.

    `say(event, words)` gives the sentence. `quiet` marks bookkeeping (a slot opening, a turn
    starting): told in a fight's log and after a command, left out of recaps and of the journal's
    one-line summaries. `odds(event, state)`, when given, is the chance the roller had of the
    outcome it wanted, named (`jdr.fights.odds.Chance`: "chance to thaw 20 %"), from the event
    and the state after it, shown beside the roll in recaps (a bare probability still reads
    "chance 20 %", naming nothing: give a `Chance`).
    """

    say: Say
    quiet: bool = False
    odds: Callable[[Json, Mapping[str, Any]], Any] | None = None


CommandChance = Callable[[Sequence[Json], Json], "tuple[int, Callable[[], Any]] | None"]
"""`chance(events, before)`: where one action's chance goes and what it is, from the action's
events and the state before them: `(index of the event it goes beside, a function giving the
`Chance`)`, or None. A system reads the command back from its events and asks the command's
odds (`jdr.fights.odds`), the one function the decider resolves with."""


class Narration:
    """A system's sentences: event type → `Line`. `System(narration=…)` declares it.

    `command_chance` (see `CommandChance`), when given, puts each action's chance, as its
    command's odds say, beside the sentence it names (the recaps show it there, in place of that
    event's own `Line.odds`)."""

    def __init__(
        self, lines: Mapping[str, Line], command_chance: CommandChance | None = None
    ) -> None:
        self.lines = dict(lines)
        self.command_chance = command_chance

    def __contains__(self, kind: object) -> bool:
        return kind in self.lines

    def types(self) -> list[str]:
        """The event types it declares."""
        return list(self.lines)

    def sentence(self, event: Json, words: Words | None = None) -> str:
        """The sentence of `event` (a generic one for a type it does not declare)."""
        words = words or Words()
        line = self.lines.get(str(event.get("type")))
        if line is None:
            line = GENERIC.get(str(event.get("type")))
        if line is None:
            return generic_sentence(event, words)
        return line.say(event, words)

    def quiet(self, event: Json) -> bool:
        line = self.lines.get(str(event.get("type"))) or GENERIC.get(str(event.get("type")))
        return bool(line and line.quiet)

    def odds(self, event: Json, state: Mapping[str, Any] | None = None) -> Any | None:
        line = self.lines.get(str(event.get("type")))
        return line.odds(event, state or {}) if line and line.odds else None


def _joined(event: Json, words: Words) -> str:
    if event.get("side") is not None:
        return words.say(
            N_("{name} joins the fight on side {side}."),
            name=words.name(event.get("name", "?")),
            side=words.name(event["side"]),
        )
    return words.say(N_("{name} joins the fight."), name=words.name(event.get("name", "?")))


def _ended(event: Json, words: Words) -> str:
    winners = event.get("winners")
    if not isinstance(winners, list):
        winners = [event["winner"]] if event.get("winner") is not None else []
    return words.winners(winners)


def _gm_ended(event: Json, words: Words) -> str:
    """The GM's end (`jdr fight end`), told as every front end tells an ended fight."""
    winners = tuple(str(n) for n in event.get("winners") or [])
    return gm_end_sentence(winners, bool(event.get("draw")), words)


def gm_end_sentence(winners: Sequence[str], draw: bool, words: Words) -> str:
    """The GM's end of a fight (`jdr fight end`, `jdr.fights.ending.Ending`) in one sentence:
    a draw, the winners (escaped for `words`), or no winner named.

    >>> gm_end_sentence(["Ann"], False, Words()), gm_end_sentence([], True, Words())
    ('The GM ended the fight: Ann wins.', 'The GM ended the fight: a draw.')
    """
    if draw:
        return _("The GM ended the fight: a draw.")
    if not winners:
        return _("The GM ended the fight: no winner named.")
    return ngettext(
        "The GM ended the fight: {names} wins.",
        "The GM ended the fight: {names} win.",
        len(winners),
    ).format(names=words.names(list(winners)))


GENERIC: dict[str, Line] = {
    "joined": Line(_joined),
    "fight_over": Line(_ended),
    "fight_ended": Line(_gm_ended),
}
"""Events jdr narrates itself when a system does not declare them (docs/plugins.md):
`{"type": "joined", "name": …, "side": …}` (`side` optional) and
`{"type": "fight_over", "winners": [names]}` (or `"winner": name or side`, or none: nobody
wins). jdr writes `{"type": "fight_ended", "by": "gm", "winners": [names], "draw": bool}` when
the GM ends a fight (`jdr fight end`), whatever the system. Undo and redo (`{"type": "undone",
"seq": N}`, `{"type": "redone", "seq": N}`, written by jdr) are told by `jdr.fights.story` as
what they take back or put back.

>>> Narration({}).sentence({"type": "joined", "name": "Zed", "side": "b"})
'Zed joins the fight on side b.'
>>> Narration({}).sentence({"type": "fight_over", "winners": ["Ann"]})
'The fight is over: Ann wins.'
>>> Narration({}).sentence({"type": "fight_ended", "by": "gm", "winners": ["Ann"]})
'The GM ended the fight: Ann wins.'
"""

EMPTY = Narration({})
"""A system that declares no sentence: every event reads as `generic_sentence`."""


def says(message: str, words: Mapping[str, Callable[[Any, Words], str]] | None = None) -> Say:
    """A `Line.say` from one message (an `N_` one) whose `{fields}` are the event's: texts are
    names (escaped), numbers written for the reader; `words` converts a field otherwise (a
    condition's name). A sentence with a plural is a function calling `ngettext` (so the catalog
    extracts both forms).

    >>> say = says("{a} and {b} tie at {total}.")
    >>> say({"a": "Ann", "b": "Bob", "total": 7.5}, Words())
    'Ann and Bob tie at 7.5.'
    """
    convert = dict(words or {})

    def say(event: Json, given: Words) -> str:
        fields = {
            key: convert[key](value, given) if key in convert else _field(value, given)
            for key, value in event.items()
        }
        return _(message).format(**fields)

    return say


def over(winners: Callable[[Json], list[str]]) -> Say:
    """The `fight_over` sentence: the winners by name, `winners(state)` reading them from the
    state after the event (its side's name when no state is at hand)."""

    def say(event: Json, words: Words) -> str:
        names = winners(dict(words.state)) if words.state else []
        side = event.get("winner")
        return words.winners(names or ([side] if side is not None else []))

    return say


def _field(value: Any, words: Words) -> str:
    if isinstance(value, str):
        return words.name(value)
    if isinstance(value, list):
        return words.names(value)
    if value is None:
        return "—"
    return words.number(value)


def generic_sentence(event: Json, words: Words) -> str:
    """An undeclared event as words: its type, then its values (texts escaped).

    >>> generic_sentence({"type": "knocked_out", "name": "Bob", "winner": None}, Words())
    'knocked out: Bob'
    """
    kind = str(event.get("type", "?")).replace("_", " ")
    values = [
        _field(value, words) for key, value in event.items() if key != "type" and _plain(value)
    ]
    return f"{kind}: {', '.join(values)}" if values else kind


def _plain(value: Any) -> bool:
    """A value a sentence can show as it is: a text, a number, a list of those."""
    if isinstance(value, list):
        return all(isinstance(item, str | int | float) for item in value)
    return isinstance(value, str | int | float) and not isinstance(value, bool)


@dataclass(frozen=True)
class Told:
    """One event of a story: the event, its sentence, the state after it, and what the
    narration says of it (`quiet`; `chance()`, the roller's odds, computed when asked: an
    exact distribution may take a while, and only recaps show it)."""

    event: Json
    text: str
    state: Json
    quiet: bool = False
    chance: Callable[[], Any] = field(default=lambda: None, compare=False)


def tell(
    narration: Narration,
    evolve: Callable[[Json, Json], Json],
    events: Sequence[Json],
    state: Json,
    medium: str = "text",
) -> list[Told]:
    """`events` as sentences, each told with the state after it (`state` is the one before the
    first): the story of one action, a round, a fight."""
    told = []
    placed = narration.command_chance(events, state) if narration.command_chance else None
    for index, event in enumerate(events):
        state = evolve(state, event)
        words = Words(medium, state, events[:index])
        chance: Callable[[], Any] = partial(narration.odds, event, state)
        if placed is not None and placed[0] == index:
            chance = placed[1]
        told.append(
            Told(event, narration.sentence(event, words), state, narration.quiet(event), chance)
        )
    return told
