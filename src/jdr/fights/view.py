"""A fight's state in words (`jdr fight show`, the recaps' state, a web table's board): where it
stands — whose turn it is, or what it waits for and from whom — and each fighter on one line.

Each system declares its view (`System(fight_view=…)`: `view(state, words) -> View`); a plug-in
without one gets `fighter_line` for each participant the state holds, and whose turn it is.

>>> fighter_line({"name": "Pika", "side": "a", "vitality": 9, "vitality_max": 14,
...               "energy": 0, "energy_max": 10, "condition": None, "ko": False, "waiting": True,
...               "accuracy_stage": 0, "initiative": 7})
'Pika (a) — Vitalité 9/14 · Énergie 0/10 · initiative 7 · waiting'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from jdr.fights.cards import CONDITION, GAUGE, Card, Part
from jdr.fights.fighters import Fighters, fighters_of
from jdr.fights.narration import Words
from jdr.i18n import N_, _
from jdr.markup import escape

__all__ = [
    "Fighters",
    "View",
    "Viewer",
    "describe",
    "fighter_line",
    "fighter_text",
    "fighters_of",
    "scalar",
    "shown",
    "view_of",
]

Json = dict[str, Any]


@dataclass(frozen=True)
class View:
    """A fight's state in words: `status` says where it stands (the round, whose turn, what it
    waits for and from whom, or who won), then one line per fighter; `cards`, the same
    fighters as a table shows them (`jdr.fights.cards.Card`: gauges, chips, out of the fight),
    and `order`, the fighters' names in their order of play (empty: the cards' order)."""

    status: str
    fighters: Sequence[str]
    cards: Sequence[Card] = ()
    order: Sequence[str] = ()

    def shown_cards(self) -> list[Card]:
        """The fighters' cards: the view's own, else one per line (a plug-in's view that gives
        lines only: each card holds its line as the view says it)."""
        if self.cards:
            return list(self.cards)
        return [Card("", text=line) for line in self.fighters]

    def play_order(self) -> list[str]:
        """The fighters' names in their order of play (`order`, else the cards')."""
        return list(self.order) or [c.name for c in self.cards if c.name]


def card_line(words: Words, card: Card) -> str:
    """A card as `jdr fight show` prints it: `Name (side) — part · part`."""
    return fighter_text(words, card.name, card.side, card.texts())


Viewer = Callable[[Json, Words], View]
"""`System.fight_view`: a state and the words of a medium → its `View`."""


def fighter_text(words: Words, name: str, side: str | None, parts: Sequence[str]) -> str:
    """One fighter's line: `Name (side) — part · part` (no side: `Name — part · part`).

    >>> fighter_text(Words(), "Pika", "a", ["Vitalité 9/14", "KO"])
    'Pika (a) — Vitalité 9/14 · KO'
    """
    shown = " · ".join(parts)
    if side is None:
        return _("{name} — {parts}").format(name=words.name(name), parts=shown)
    return _("{name} ({side}) — {parts}").format(
        name=words.name(name), side=words.name(side), parts=shown
    )


def describe(
    viewer: Viewer | None,
    state: Json,
    words: Words | None = None,
    fighters: Fighters | None = None,
) -> View:
    """The `View` of `state`: the system's own, else the generic one (one `fighter_line` per
    fighter of `fighters_of(state, fighters)`, and whose turn it is)."""
    words = words or Words()
    if viewer is not None:
        return viewer(state, words)
    from jdr.fights.setup import to_play

    cards = [fighter_card(data, words.medium) for data in fighters_of(state, fighters).values()]
    lines = [_joined(card, words.medium) for card in cards]
    turn = to_play(state)
    if state.get("over"):
        status = _("The fight is over.")
    elif turn is None:
        status = "-"
    else:
        names = turn if isinstance(turn, list) else [turn]
        status = _("To play: {names}").format(names=words.names(names))
    order = state.get("order")
    shown = [str(n) for n in order] if isinstance(order, list) else []
    return View(status, lines, cards, shown)


def view_of(
    system: Any, state: Json, words: Words | None = None, status: str | None = None
) -> View:
    """The `View` a system gives of `state`: its `fight_view`, else the generic one fed by its
    `fight_fighters` hook (if it declares one). A fight that ended says who won and how in
    place of its status, and a stuck one says so after it (`jdr.fights.ending`); `status` is
    the fight's stored status (`ended` once the GM ended it)."""
    from jdr.fights.ending import ending_of, stuck, stuck_sentence

    shown = describe(
        getattr(system, "fight_view", None),
        state,
        words,
        getattr(system, "fight_fighters", None),
    )
    ending = ending_of(state, status)
    if ending is not None:
        return View(ending.sentence(words), shown.fighters, shown.cards, shown.order)
    if stuck(system, state, status):
        return View(
            f"{shown.status} — {stuck_sentence()}", shown.fighters, shown.cards, shown.order
        )
    return shown


def scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def shown(value: Any) -> str:
    """A value as one short word: `-` for none, a list of scalars joined."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list) and all(scalar(v) for v in value):
        return ", ".join(shown(v) for v in value)
    return str(value)


MAXIMUM = "_max"
"""A field `x` with a field `x_max` beside it is a gauge: shown `x/x_max`."""

LABELS = {
    "vitality": N_("Vitalité"),
    "energy": N_("Énergie"),
    "willpower": N_("Volonté"),
    "passion": N_("Passion"),
    "wounds": N_("wounds"),
    "initiative": N_("initiative"),
    "condition": N_("condition"),
    "condition_turns": N_("turns"),
    "item": N_("held item"),
    "rank": N_("rank"),
    "marker": N_("marker"),
    "potential": N_("potential"),
    "mobility": N_("mobility"),
    "accuracy_stage": N_("accuracy stage"),
    "defense_bonus": N_("defense bonus"),
}
"""The words for the fields the five systems keep per fighter; a plug-in's own fields show as
their names."""

FLAGS = {
    "ko": N_("KO"),
    "waiting": N_("waiting"),
    "defending": N_("defending"),
    "fleeing": N_("fleeing"),
    "escaped": N_("escaped"),
    "down": N_("down"),
    "npc": N_("NPC"),
    "failed": N_("failed"),
}
"""Yes/no fields, shown by their word when on."""

TRANSLATED_VALUES = frozenset({"condition"})
"""Fields whose values are identifiers with a word in the catalogs (`paralysis` …)."""

QUIET = frozenset({"name", "side", "in_fight"})


OUT = frozenset({"ko", "down", "escaped", "broken", "fled", "out"})
"""Yes/no fields that, on, put a fighter out of the fight (its card greyed)."""


def fighter_line(data: Json, medium: str = "text") -> str:
    """`Name (side) — gauge cur/max · label value · flag …` (see the module's docstring): the
    generic line of a plug-in's fighter; names escaped for `medium`. Nested values are never
    dropped: a mapping reads as its parts (`stress.body 2`), anything else as compact JSON.

    >>> fighter_line({"name": "Ann", "stress": {"body": 2, "mind": 1}, "tags": [{"a": 1}]})
    'Ann — stress.body 2 · stress.mind 1 · tags [{"a":1}]'
    """
    return _joined(fighter_card(data, medium), medium)


def _joined(card: Card, medium: str) -> str:
    head = card.name
    if card.side is not None:
        head += f" ({card.side})"
    return f"{head} — {' · '.join(card.texts())}" if card.parts else head


def fighter_card(data: Json, medium: str = "text") -> Card:
    """The generic card of a plug-in's fighter: its fields as `fighter_line` reads them, a
    field `x` with `x_max` as a gauge, a yes/no field that is on as a condition, and out of
    the fight when one of `OUT` is on.

    >>> card = fighter_card({"name": "Ann", "side": "a", "stress": 2, "stress_max": 9,
    ...                      "broken": True})
    >>> [(p.text, p.kind) for p in card.parts], card.ko
    ([('stress 2/9', 'gauge'), ('broken', 'condition')], True)
    """
    name = escape(str(data.get("name", "?")), medium)
    side = escape(str(data["side"]), medium) if data.get("side") is not None else None
    parts, flags = [], []
    for key, value in data.items():
        if key in QUIET or key.endswith(MAXIMUM):
            continue
        if not scalar(value) and not _scalars(value):
            parts += [Part(text) for text in _nested(_label(key), value, medium)]
            continue
        gauge = key + MAXIMUM in data
        if isinstance(value, bool):
            if value:
                flags.append(Part(_(FLAGS[key]) if key in FLAGS else _(key), CONDITION))
            continue
        if value is None or value == "" or (value == 0 and not gauge):
            continue
        text = _(value) if key in TRANSLATED_VALUES and isinstance(value, str) else shown(value)
        text = escape(text, medium)
        label = _label(key)
        if gauge:
            most = data[key + MAXIMUM]
            parts.append(
                Part(
                    f"{label} {text}/{most}",
                    GAUGE,
                    value if isinstance(value, int) else 0,
                    most if isinstance(most, int) else 0,
                )
            )
        else:
            parts.append(Part(f"{label} {text}"))
    out = any(data.get(key) is True for key in OUT)
    return Card(name, side, tuple(parts + flags), out)  # the flags that are on, after the values


def _label(key: str) -> str:
    """A field's word: jdr's for the five systems' fields, else the plug-in's catalog's."""
    return _(LABELS[key]) if key in LABELS else _(key)


def _scalars(value: Any) -> bool:
    return isinstance(value, list) and all(scalar(v) for v in value)


def _nested(label: str, value: Any, medium: str) -> list[str]:
    """A nested value's parts: a mapping by its keys (`label.key value`), recursively."""
    if isinstance(value, dict) and value:
        parts = []
        for key, item in value.items():
            inner = f"{label}.{escape(str(key), medium)}"
            if scalar(item) or _scalars(item):
                parts.append(f"{inner} {escape(shown(item), medium)}")
            else:
                parts += _nested(inner, item, medium)
        return parts
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    return [f"{label} {escape(text, medium)}"]
