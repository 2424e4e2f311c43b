"""A fight at a glance, as a table shows it: each fighter as a card (its gauges, its chips, out of
the fight or not), the dice each sentence of the story rolled, the story cut into rounds, and
the fighters a command's fighter key may name. Pure: state and events in, values out.

A system's fight view (`System.fight_view`, `jdr.fights.view`) builds one `Card` per fighter;
its line in `jdr fight show` is the card's parts joined, so the card and the line never say two
different things.

>>> card = Card("Pika", "a", (Part("Vitalité 9/14", GAUGE, 9, 14), Part("paralysis", CONDITION)))
>>> [g.text for g in card.gauges()], [c.text for c in card.chips()], card.gauges()[0].percent()
(['Vitalité 9/14'], ['paralysis'], 64)
>>> [(d.face, d.marks) for d in dice_of({"faces": [7, 1, 3], "difficulty": 6,
...                                       "successes": 1, "failures": 1})]
[(7, ('success',)), (1, ('failure',)), (3, ())]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]

GAUGE = "gauge"
"""A part with a current value and a maximum (`Vitalité 9/14`): drawn as a bar."""
CONDITION = "condition"
"""A condition on the fighter (paralysis, confusion (2 turns), defending …)."""
READY = "ready"
"""A technique or item the fighter may use now."""
COOLING = "cooling"
"""A technique the fighter may not use yet (its cooldown runs)."""
STATE = "state"
"""Anything else the fighter's line says (initiative 7, marker 4, holds Baie …)."""

KINDS = (GAUGE, CONDITION, READY, COOLING, STATE)


@dataclass(frozen=True)
class Part:
    """One thing a fighter's line says, in the reader's language (`text`), and what it is
    (`kind`, one of `KINDS`); a gauge's `now` and `most`."""

    text: str
    kind: str = STATE
    now: int = 0
    most: int = 0

    def percent(self) -> int:
        """How full a gauge is, 0..100 (rounded down; a gauge with no maximum is empty)."""
        if self.most <= 0:
            return 0
        return max(0, min(100, self.now * 100 // self.most))


@dataclass(frozen=True)
class Card:
    """One fighter as a table shows it: its name, its side (None: the system has none), the
    parts of its line in order, and whether it is out of the fight (`ko`: knocked out, down,
    fled). A card with no name (`text` only) is a line a plug-in's view gave without a card."""

    name: str
    side: str | None = None
    parts: tuple[Part, ...] = ()
    ko: bool = False
    text: str = ""

    def texts(self) -> list[str]:
        """The parts' words, in order (the line `jdr fight show` prints joins them)."""
        return [p.text for p in self.parts]

    def gauges(self) -> list[Part]:
        return [p for p in self.parts if p.kind == GAUGE]

    def chips(self) -> list[Part]:
        return [p for p in self.parts if p.kind != GAUGE]


def gauge(text: str, now: Any, most: Any) -> Part:
    """A gauge part (`now`/`most` read as whole numbers; anything else: an empty bar)."""
    return Part(text, GAUGE, _int(now), _int(most))


def _int(value: Any) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


# --- dice ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Die:
    """One die a sentence rolled: its face and its marks (`success`, `failure`, `kept`,
    `dropped`, `exploded`), as the event records them."""

    face: int
    marks: tuple[str, ...] = ()


def dice_of(event: Mapping[str, Any]) -> list[Die]:
    """The dice an event rolled, from the faces it records (`faces`, a list of numbers or of
    `{"face": n}`; or one `face`). Marks come only from what the event itself says: `kept` (the
    kept dice's positions) marks the others dropped; `exploded` (positions) marks explosions;
    a pool counted against a `difficulty` (its `successes` and `failures`) marks each face that
    reached it a success and each 1 a failure, when those marks add up to the event's counts;
    one die of an attack that says whether it `hit` is a success or a failure.

    >>> [(d.face, d.marks) for d in dice_of({"faces": [2, 6, 4], "kept": [1, 2]})]
    [(2, ('dropped',)), (6, ('kept',)), (4, ('kept',))]
    >>> dice_of({"face": 6}), dice_of({"face": 17, "hit": True}), dice_of({"type": "pass"})
    ([Die(face=6, marks=())], [Die(face=17, marks=('success',))], [])
    """
    faces = _faces(event)
    if not faces:
        return []
    marks: list[list[str]] = [[] for _ in faces]
    kept = event.get("kept")
    if isinstance(kept, list) and all(isinstance(i, int) for i in kept):
        for index in range(len(faces)):
            marks[index].append("kept" if index in kept else "dropped")
    exploded = event.get("exploded")
    if isinstance(exploded, list):
        for index in exploded:
            if isinstance(index, int) and 0 <= index < len(faces):
                marks[index].append("exploded")
    for index, mark in _counted(event, faces).items():
        marks[index].append(mark)
    hit = event.get("hit")
    if len(faces) == 1 and isinstance(hit, bool) and not marks[0]:
        marks[0].append("success" if hit else "failure")
    return [Die(face, tuple(m)) for face, m in zip(faces, marks, strict=True)]


def _faces(event: Mapping[str, Any]) -> list[int]:
    found = event.get("faces")
    if isinstance(found, list):
        faces = [f.get("face") if isinstance(f, dict) else f for f in found]
        whole = [f for f in faces if isinstance(f, int) and not isinstance(f, bool)]
        return whole if faces and len(whole) == len(faces) else []
    face = event.get("face")
    if isinstance(face, int) and not isinstance(face, bool):
        return [face]
    return []


def _counted(event: Mapping[str, Any], faces: Sequence[int]) -> dict[int, str]:
    """Success and failure marks of a pool counted against a difficulty, when they agree with
    the event's own counts (else none: a mark must never say what the roll did not)."""
    difficulty, successes = event.get("difficulty"), event.get("successes")
    failures = event.get("failures", 0)
    if not (isinstance(difficulty, int) and isinstance(successes, int)):
        return {}
    if not isinstance(failures, int):
        return {}
    good = [i for i, f in enumerate(faces) if f >= difficulty]
    bad = [i for i, f in enumerate(faces) if f == 1 and f < difficulty]
    if len(good) != successes or len(bad) != failures:
        return {}
    return {**dict.fromkeys(good, "success"), **dict.fromkeys(bad, "failure")}


# --- the story in rounds ---------------------------------------------------------------------

ROUND_EVENTS = {"round_started": "round", "hand_started": "hand"}
"""Events that open a new round of the story (their key holding its number)."""


@dataclass(frozen=True)
class Line:
    """One sentence of the story: its words, the dice its event rolled, whether its action was
    taken back (`undone`), the action's number on its first sentence (`ordinal`), and whether
    it is bookkeeping (`quiet`: whose turn it is …)."""

    text: str
    dice: tuple[Die, ...] = ()
    undone: bool = False
    ordinal: int | None = None
    quiet: bool = False


@dataclass(frozen=True)
class Round:
    """A section of the story: its number (None before the first round starts) and its lines."""

    number: int | None
    lines: list[Line] = field(default_factory=list)


def rounds(chapters: Iterable[Any]) -> list[Round]:
    """The story's chapters (`jdr.fights.story.Chapter`) as sentences with their dice, in
    sections: a new one where an event opens a round (`ROUND_EVENTS`), whose sentence the
    section's title says in its place. An action taken back opens none (its sentences stay
    where it was played)."""
    found = [Round(None)]
    for chapter in chapters:
        first = True
        if chapter.said is not None:
            if chapter.said:
                found[-1].lines.append(Line(chapter.said))
            continue
        for told in chapter.told:
            event = told.event
            opens = ROUND_EVENTS.get(str(event.get("type")))
            number = event.get(opens) if opens else None
            if isinstance(number, int) and not chapter.undone:
                found.append(Round(int(number)))
                continue
            ordinal = chapter.ordinal if first else None
            dice = tuple(dice_of(event))
            line = Line(told.text, dice, chapter.undone, ordinal, bool(told.quiet))
            found[-1].lines.append(line)
            first = False
    return [r for r in found if r.lines]


# --- fighters a key may name -----------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """The fighters a command's fighter key offers, enemies first (`names`), and the one it
    shows chosen (`chosen`: the first enemy for a target, none for another key)."""

    names: tuple[str, ...]
    chosen: str | None


def fighter_choice(
    cards: Sequence[Card], actor: str, target: bool, standing_only: bool = True
) -> Choice:
    """The fighters `actor`'s command may name in a fighter key: those of another side (the
    enemies) first, then the actor's allies (and, for a key that is not a target, such as a
    winner, the actor last); a fighter out of the fight only when the key may name one
    (`standing_only` False). A target key shows the first enemy chosen, never an ally.

    >>> cards = [Card("Ann", "a"), Card("Bob", "a"), Card("Cy", "b"), Card("Dee", "b", ko=True)]
    >>> fighter_choice(cards, "Ann", target=True)
    Choice(names=('Cy', 'Bob'), chosen='Cy')
    >>> fighter_choice(cards, "Ann", target=False, standing_only=False)
    Choice(names=('Cy', 'Dee', 'Bob', 'Ann'), chosen=None)
    """
    sides = {c.name: c.side for c in cards if c.name}
    mine = sides.get(actor)
    others = [c for c in cards if c.name and c.name != actor and not (standing_only and c.ko)]
    enemies = [c.name for c in others if mine is None or c.side != mine]
    allies = [c.name for c in others if c.name not in enemies]
    itself = [actor] if not target and actor in sides else []
    chosen = enemies[0] if target and enemies else None
    return Choice(tuple(enemies + allies + itself), chosen)
