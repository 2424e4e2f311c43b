"""PU-11: the recap that ends a Plus Ultra post, as forum BBCode, Markdown or plain text.

After a turn, the recap lists what the character did (actions, targets, every roll) and its state:
Énergie x/max, Volonté y/max, and each technique's cooldown as `n/X` or "ready". The source's own
template was cut off: this layout is the project's. Every word goes through the catalog, so the
recap is in the current language.

>>> print(render_attack_recap(12, 17, 16, True, 2, "text", name="Izuku", target="Katsuki",
...                           energy=5, energy_max=5))
Izuku
Actions:
- Attack on Katsuki: d20 12 + 5 = 17 against defense 16 → hit: −2 Énergie
State:
- Énergie: 5/5

Layout (BBCode shown; Markdown uses `**bold**` and `- ` items, separated by blank lines; text uses
plain lines, headings ending with a colon and `- ` items):

    [b]Izuku — round 2[/b]
    [b]Actions[/b]
    [list]
    [*]Attack on Katsuki: d20 12 + 5 = 17 against defense 16 → [color=green]hit[/color]: −2 Énergie
    [/list]
    [b]State[/b]
    [list]
    [*]Énergie: 3/5
    [*]Volonté: 5/5
    [*]Smash: 0/2
    [*]Shoot Style: [color=green]ready[/color]
    [/list]

An outcome is green when it favours the character of the recap and red when it does not (BBCode),
bold in Markdown. Names, techniques and the GM's text are escaped for the format
(`jdr.markup.escape`): a name is never read as markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from jdr.errors import UnknownNameError
from jdr.i18n import _, ngettext
from jdr.markup import escape, in_format
from jdr.systems.plus_ultra.fight_state import cooldown_left, find
from jdr.systems.plus_ultra.rules import DEFENDING_BONUS, FLEEING_BONUS
from jdr.systems.protocol import Json

__all__ = ["FORMATS", "render_attack_recap", "render_recap"]

FORMATS = ("bbcode", "markdown", "text")

_STARTS = ("attacked", "technique_used", "defended", "fled", "interrupted", "not_interrupted")
"""Events that open a block of the recap: one action and what followed from it."""
_ENDS = ("turn_started", "round_started")


@dataclass(frozen=True)
class _Markup:
    """Bold, favourable and unfavourable words, and the whole document, in one format."""

    fmt: str

    def name(self, text: object) -> str:
        """A name or the GM's text, escaped for the format."""
        return escape(str(text), self.fmt)

    def bold(self, text: str) -> str:
        if self.fmt == "bbcode":
            return f"[b]{text}[/b]"
        return f"**{text}**" if self.fmt == "markdown" else text

    def outcome(self, text: str, good: bool) -> str:
        if self.fmt == "bbcode":
            return f"[color={'green' if good else 'red'}]{text}[/color]"
        return self.bold(text)

    def document(self, title: str, sections: Sequence[tuple[str, Sequence[str]]]) -> str:
        sections = [(head, [in_format(i, self.fmt) for i in items]) for head, items in sections]
        if self.fmt == "bbcode":
            lines = [self.bold(title)]
            for heading, items in sections:
                lines += [self.bold(heading), "[list]", *[f"[*]{i}" for i in items], "[/list]"]
            return "\n".join(lines)
        if self.fmt == "markdown":
            parts = [self.bold(title)]
            parts += [
                "\n".join([self.bold(h), *[f"- {i}" for i in items]]) for h, items in sections
            ]
            return "\n\n".join(parts)
        lines = [title]
        for heading, items in sections:
            lines += [_("{heading}:").format(heading=heading), *[f"- {i}" for i in items]]
        return "\n".join(lines)


def _markup(fmt: str) -> _Markup:
    if fmt not in FORMATS:
        raise UnknownNameError(_("format"), fmt, list(FORMATS))
    return _Markup(fmt)


def render_recap(state: Json, name: str, events: Sequence[Json], fmt: str = "text") -> str:
    """The recap of `name` after a turn: its part in `events` (the events of the turn, as `decide`
    returned them) and its state in `state` (the state after them).

    The round shown is the one `name` acted in (a technique used then shows `0/X`).
    """
    markup = _markup(fmt)
    who = find(state, name) if state else None
    if who is None:
        raise UnknownNameError(_("character"), name, list(state.get("characters", {})))
    blocks = [b for b in _blocks(events) if who in b.members]
    actions: list[str] = []
    for block in blocks:
        actions += block.lines(who, markup)
    played = [b.events[0]["round"] for b in blocks if "round" in b.events[0]]
    number = played[0] if played else state["round"]
    title = _("{name} — round {round}").format(name=markup.name(who), round=number)
    character = state["characters"][who]
    return markup.document(
        title,
        [
            (_("Actions"), actions or [_("No action")]),
            (_("State"), _state_lines(character, number, markup)),
        ],
    )


def render_attack_recap(
    face: int,
    attack: int,
    defense: int,
    hit: bool,
    damage: int,
    fmt: str = "text",
    *,
    name: str | None = None,
    target: str | None = None,
    energy: int | None = None,
    energy_max: int | None = None,
    willpower: int | None = None,
    willpower_max: int | None = None,
) -> str:
    """The recap of one attack outside a fight (`jdr roll plus-ultra attack … --recap`): the roll
    (`face`, `attack` = face + modifiers, `defense`, `hit`, `damage`) and the gauges known."""
    markup = _markup(fmt)
    result = _roll_text(face, [attack - face], attack, _defense_text(defense, []))
    outcome = _outcome(markup, "hit" if hit else "miss", None, damage, good=hit)
    result = _("{roll} → {outcome}").format(roll=result, outcome=outcome)
    header = _("Attack on {target}").format(target=target) if target else _("Attack")
    gauges = []
    if energy is not None:
        gauges.append(_gauge("Énergie", energy, energy_max))
    if willpower is not None:
        gauges.append(_gauge("Volonté", willpower, willpower_max))
    sections: list[tuple[str, Sequence[str]]] = [(_("Actions"), [_labelled(header, result)])]
    if gauges:
        sections.append((_("State"), gauges))
    return markup.document(name or _("Plus Ultra attack"), sections)


@dataclass
class _Block:
    """One action and the events that followed it, and who took part (actor, protector …)."""

    events: list[Json]
    members: set[str] = field(default_factory=set)

    def lines(self, who: str, markup: _Markup) -> list[str]:
        head, *rest = self.events
        rolls = [e for e in rest if e["type"] == "attack_rolled"]
        header = _header(head, who, markup)
        lines = [header]
        for event in rest:
            if event["type"] == "attack_rolled":
                result = _roll_result(event, who, markup)
                if len(rolls) == 1 and len(lines) == 1:  # one roll: on the action's own line
                    lines[0] = _labelled(header, result)
                else:
                    label = _("Roll {n}/{count}").format(n=event["roll"], count=event["rolls"])
                    lines.append(_labelled(label, result))
            else:
                lines += _consequence(event, markup)
        if head["type"] == "technique_used" and head.get("text"):
            lines.append(_labelled(_("For the GM"), markup.name(head["text"])))
        return lines


def _blocks(events: Sequence[Json]) -> list[_Block]:
    blocks: list[_Block] = []
    current: _Block | None = None
    for event in events:
        kind = event["type"]
        if kind in _ENDS:
            current = None
        elif kind in _STARTS:
            current = _Block([event], {m for m in _members(event) if m})
            blocks.append(current)
        elif current is not None:
            current.events.append(event)
    return blocks


def _members(event: Json) -> list[str | None]:
    if event["type"] in ("attacked", "technique_used"):
        return [event["actor"], event.get("protector")]
    if event["type"] in ("interrupted", "not_interrupted"):
        return [event.get("actor"), event["target"]]
    return [event["actor"]]


def _header(head: Json, who: str, markup: _Markup) -> str:
    """What `who` did in this block, seen from its side (attacker, protector, fleeing …)."""
    kind = head["type"]
    n = markup.name
    if kind in ("attacked", "technique_used") and head.get("protector") == who:
        return _("Protects {target} from {attacker}").format(
            target=n(head["target"]), attacker=n(head["actor"])
        )
    if kind == "attacked":
        if head.get("protector"):
            return _("Attack on {target} (protector: {protector})").format(
                target=n(head["target"]), protector=n(head["protector"])
            )
        return _("Attack on {target}").format(target=n(head["target"]))
    if kind == "technique_used":
        if head.get("target") is None:
            return _("Technique {technique}").format(technique=n(head["technique"]))
        if head.get("protector"):
            return _("Technique {technique} on {target} (protector: {protector})").format(
                technique=n(head["technique"]),
                target=n(head["target"]),
                protector=n(head["protector"]),
            )
        return _("Technique {technique} on {target}").format(
            technique=n(head["technique"]), target=n(head["target"])
        )
    if kind == "defended":
        return _("Defends: +{bonus} defense until the next turn").format(bonus=DEFENDING_BONUS)
    if kind == "fled":
        return _("Flees: +{bonus} defense").format(bonus=FLEEING_BONUS)
    if kind == "interrupted":
        if who == head["actor"]:
            return _("Interrupts {name}'s flight").format(name=n(head["target"]))
        return _("Interrupted by {name}").format(name=n(head["actor"]))
    if who == head["target"]:
        return _("Nobody interrupts the flight")
    return _("Lets {name} flee").format(name=n(head["target"]))


def _roll_result(event: Json, who: str, markup: _Markup) -> str:
    """`d20 12 + 5 = 17 against defense 16 (+5 defending) → hit: −2 Énergie`."""
    bonuses = []
    if event["defending"]:
        bonuses.append(_("+{bonus} defending").format(bonus=DEFENDING_BONUS))
    if event["fleeing"]:
        bonuses.append(_("+{bonus} fleeing").format(bonus=FLEEING_BONUS))
    if event["defense_bonus"]:
        bonuses.append(_("+{bonus} technique").format(bonus=event["defense_bonus"]))
    modifiers = [event["willpower"]] + ([event["bonus"]] if event["bonus"] else [])
    outcome = event["outcome"]
    protected = outcome in ("takes_hit", "blocks")
    if protected:
        defense = _("raw defense {defense}").format(defense=event["defense"])
    else:
        defense = _defense_text(event["defense"], bonuses)
    roll = _roll_text(event["face"], modifiers, event["attack"], defense)
    if who == event["defender"]:
        good = not event["hit"]
    else:
        good = event["hit"] if who == event["actor"] else outcome == "blocks"
    defender = markup.name(event["defender"])
    shown = _outcome(markup, outcome, defender, event["damage"], good)
    return _("{roll} → {outcome}").format(roll=roll, outcome=shown)


def _roll_text(face: int, modifiers: list[int], attack: int, defense: str) -> str:
    signed = "".join(f" + {m}" if m >= 0 else f" − {-m}" for m in modifiers)
    return _("d20 {face}{modifiers} = {attack} against {defense}").format(
        face=face, modifiers=signed, attack=attack, defense=defense
    )


def _defense_text(defense: int, bonuses: list[str]) -> str:
    text = _("defense {defense}").format(defense=defense)
    return f"{text} ({', '.join(bonuses)})" if bonuses else text


def _outcome(markup: _Markup, outcome: str, defender: str | None, amount: int, good: bool) -> str:
    if outcome == "takes_hit":
        word = _("{name} takes the hit").format(name=defender)
    elif outcome == "blocks":
        word = _("{name} blocks").format(name=defender)
    else:
        word = _(outcome)
    word = markup.outcome(word, good)
    if amount <= 0:
        return word
    return _labelled(word, _("−{amount} Énergie").format(amount=amount))


def _consequence(event: Json, markup: _Markup) -> list[str]:
    """The lines an event adds under its action (a roll's own Énergie loss is on its line)."""
    kind = event["type"]
    n = markup.name
    if kind == "rolls_ignored":
        faces = ", ".join(map(str, event["faces"]))
        count = len(event["faces"])
        return [
            ngettext(
                "{count} roll ignored (d20 {faces}): {name} is at 0 Énergie",
                "{count} rolls ignored (d20 {faces}): {name} is at 0 Énergie",
                count,
            ).format(count=count, faces=faces, name=n(event["at_zero"]))
        ]
    energy, willpower = _("−{amount} Énergie"), _("−{amount} Volonté")
    if kind == "energy_lost" and event.get("technique"):
        return [_labelled(n(event["name"]), energy.format(amount=event["amount"]))]
    if kind == "willpower_lost":
        return [_labelled(n(event["name"]), willpower.format(amount=event["amount"]))]
    if kind == "defense_raised":
        return [_("Defense +{bonus} until the next turn").format(bonus=event["bonus"])]
    if kind == "willpower_spent":
        return [_labelled(_("Cost"), willpower.format(amount=event["amount"]))]
    if kind == "knocked_out":
        return [_("{name} is KO").format(name=n(event["name"]))]
    if kind == "flight_failed":
        return [_("{name}'s flight fails").format(name=n(event["name"]))]
    if kind == "escaped":
        return [_("{name} leaves the fight").format(name=n(event["name"]))]
    if kind == "fight_over":
        if event["winner"] is None:
            return [_("The fight is over")]
        return [_("The fight is over: side {side} wins").format(side=n(event["winner"]))]
    return []


def _labelled(label: str, value: object) -> str:
    """`label: value`, with the language's spacing (`Énergie : 3/5` in French)."""
    return _("{label}: {value}").format(label=label, value=value)


def _gauge(label: str, current: int, maximum: int | None) -> str:
    """A gauge `Énergie: 3/5` (PU-11); the game's words stay French in every language."""
    return _labelled(label, current if maximum is None else f"{current}/{maximum}")


def _state_lines(character: Json, number: int, markup: _Markup) -> list[str]:
    energy = _gauge("Énergie", character["energy"], character["energy_max"])
    if character["ko"]:
        energy = _("{gauge} (KO)").format(gauge=energy)
    lines = [
        energy,
        _gauge("Volonté", character["willpower"], character["willpower_max"]),
    ]
    if character["escaped"]:
        lines.append(_("Out of the fight: fled"))
    for technique in character["techniques"]:
        left = cooldown_left(character, technique["name"], number)
        status = (
            markup.outcome(_("ready"), True) if left is None else f"{left}/{technique['cooldown']}"
        )
        lines.append(_labelled(markup.name(technique["name"]), status))
    return lines
