"""`jdr fight new|act|commands|undo|redo`: what each one prints, in sentences or JSON, of what
`jdr.fights.playing` and `jdr.fights.queries` return.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jdr.cli.fight_output import command_help, print_commands, print_events, print_legal
from jdr.cli.fight_parsing import dice, names
from jdr.cli.render import console, emit_json
from jdr.cli.stored import opened
from jdr.i18n import _

if TYPE_CHECKING:
    from jdr.fights.commands import Seat
    from jdr.journal.entries import Entry

__all__ = ["act", "command_keys", "commands", "new", "undo_redo"]

Json = dict[str, Any]


def new(
    campaign: str,
    with_: str,
    side: list[str] | None,
    order: str | None,
    setting: list[str] | None,
    seed: str | None,
    faces: str | None,
    db: str | None,
    json: bool,
    deadline: str | None = None,
    on_late: str | None = None,
) -> None:
    """`jdr fight new`."""
    from jdr.fights.playing import begin
    from jdr.fights.sealed import public
    from jdr.fights.setup import parse_pairs

    given = parse_pairs([p for value in side or [] for p in value.split(",") if p.strip()])
    sides = {name: str(value) for name, value in given.items()}
    settings = parse_pairs([p for v in setting or [] for p in v.split(",") if p])
    rng = dice(faces, seed)
    with opened(db) as store:
        found = store.campaign(campaign)
        typed = names("--with", with_)  # fighters go by their stored names, however typed
        ordered = names("--order", order) if order else None
        begun = begin(
            store, found, typed, sides, ordered, settings, rng, deadline=deadline, on_late=on_late
        )
    if json:
        emit_json(
            {
                "fight": begun.fight_id,
                "campaign": found.name,
                "system": begun.system.id,
                "participants": begun.names,
                "events": public(begun.events),
                "narration": [t.text for t in begun.told],
                "legal_commands": begun.legal,
                "journal": _journal_json(found.name, begun.entry),
            }
        )
        return
    console().print(
        _("fight {fight} started in campaign {campaign}").format(
            fight=begun.fight_id, campaign=found.name
        ),
        markup=False,
    )
    print_events(begun.told, begun.system, begun.state, begun.legal, begun.entry)


def act(
    fight: int,
    actor: str,
    command: str | None,
    pairs: list[str] | None,
    seed: str | None,
    faces: str | None,
    db: str | None,
    json: bool,
    client_seed: str | None = None,
    seat: Seat | None = None,
) -> None:
    """`jdr fight act`."""
    from jdr.fights.playing import act_in
    from jdr.fights.sealed import public

    rng = dice(faces, seed)
    with opened(db) as store:
        turn = act_in(store, fight, actor, command, pairs or [], rng, client_seed, seat)
    acted = turn.acted
    if json:
        emit_json(
            {
                "fight": fight,
                "command": turn.command,
                "events": public(acted.events),
                "narration": [t.text for t in turn.told],
                "version": acted.version,
                "legal_commands": turn.legal,
                "journal": _journal_json(turn.campaign, acted.entry),
            }
        )
        return
    print_events(turn.told, turn.system, turn.state, turn.legal, acted.entry)


def undo_redo(fight: int, db: str | None, json: bool, redo: bool) -> None:
    """`jdr fight undo|redo`."""
    from jdr.fights.playing import step

    with opened(db) as store:
        done = step(store, fight, redo)
    acted = done.acted
    if json:
        emit_json(
            {
                "fight": fight,
                "events": acted.events,
                "narration": done.said,
                "version": acted.version,
                "legal_commands": done.legal,
                "journal": _journal_json(done.campaign, acted.entry),
            }
        )
        return
    for line in done.said:
        console().print(line, markup=False)
    _print_journal(acted.entry)
    print_legal(done.legal, done.system)


def commands(
    fight: int | None, actor: str | None, system_id: str | None, db: str | None, json: bool
) -> None:
    """`jdr fight commands`, and `jdr fight act FIGHT ACTOR --help-commands`."""
    from jdr.errors import InputError
    from jdr.fights.queries import all_systems, command_schema, playable, system_named
    from jdr.fights.sealed import public

    if fight is None:
        if actor is not None:
            raise InputError("ACTOR", actor, "FIGHT ACTOR", _("an actor needs a fight"))
        systems = [system_named(system_id)] if system_id is not None else all_systems()
        if json:
            emit_json({"systems": {s.id: command_schema(s) for s in systems}})
            return
        print_commands(systems)
        return
    with opened(db) as store:
        found = playable(store, fight, actor)
    system, state, legal = found.system, found.state, found.legal
    models = getattr(system, "fight_commands", None)
    lines = {n: _example(fight, found.players[n], models, n, state) for n in legal}
    if json:
        declared = {c["name"]: c for c in command_schema(system)}
        emit_json(
            {
                "fight": fight,
                "system": system.id,
                "actor": actor,
                "legal_commands": legal,
                "commands": [
                    {**declared.get(name, {"name": name}), "example": lines[name]} for name in legal
                ],
                "state": public(state),
            }
        )
        return
    print_commands([system], fight, actor, state, legal, lines, found.participants)


def command_keys(fight: int, actor: str, command: str, db: str | None, json: bool) -> None:
    """`jdr fight act FIGHT ACTOR COMMAND --help`: the command's keys, with an example."""
    from jdr.fights.queries import fight_now

    with opened(db) as store:
        system, state = fight_now(store, fight)
    models = getattr(system, "fight_commands", None)
    if models is None:
        from jdr.errors import InputError

        raise InputError("COMMAND", command, "-", _("this rule system declares no commands"))
    declared = models.get(command)
    example = _example(fight, actor, models, declared.name, state)
    if json:
        schema = next(c for c in models.schema() if c["name"] == declared.name)
        emit_json({"fight": fight, "actor": actor, **schema, "example": example})
        return
    command_help(models, declared.name, example)


def _example(fight: int, actor: str | None, models: Any, name: str, state: Json) -> str | None:
    """`jdr fight act 1 Kaito attack target=Corbeau`: one line to copy."""
    from jdr.cli.render import command_line

    if models is None or name not in models.names():
        return None
    line = models.line(name, state, actor)
    return f"{command_line('jdr', 'fight', 'act', fight, actor or 'ACTOR')} {line}"


def _print_journal(entry: Entry | None) -> None:
    from jdr.journal.words import journal_lines

    if entry is not None:
        for line in journal_lines(entry):
            console().print(line, markup=False, style="dim")


def _journal_json(campaign: str, entry: Entry | None) -> Json | None:
    from jdr.answers import journal_json

    return None if entry is None else journal_json(campaign, entry)
