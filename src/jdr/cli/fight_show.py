"""`jdr fight show|log|recap|pace|late`: what each one prints, in sentences or JSON, of what
`jdr.fights.queries`, `jdr.fights.recaps` and `jdr.fights.playing` return.
"""

from __future__ import annotations

import typer

from jdr.cli.fight_output import print_log, print_state
from jdr.cli.render import console, emit_json
from jdr.cli.stored import opened
from jdr.i18n import _

__all__ = ["late", "log", "pace", "recap", "show"]

ENDED = "ended"


def show(fight: int, db: str | None, json: bool) -> None:
    """`jdr fight show`."""
    from jdr.answers import pace_json
    from jdr.fights.ending import end_hint
    from jdr.fights.narration import Words
    from jdr.fights.queries import shown
    from jdr.fights.sealed import public
    from jdr.fights.view import view_of

    with opened(db) as store:
        found = shown(store, fight)
    record, system, ending = found.record, found.system, found.ending
    view = view_of(system, found.state, Words("text", found.state), record.status)
    if json:
        emit_json(
            {
                "fight": fight,
                "campaign": found.campaign.name,
                "system": system.id,
                "participants": record.participants,
                "version": record.version,
                "status": record.status,
                "state": public(found.state),
                "view": {"status": view.status, "fighters": list(view.fighters)},
                "legal_commands": found.legal,
                "ending": None if ending is None else ending.json(),
                "stuck": found.stalled,
                "pace": pace_json(found.pace),  # the web API's too
            }
        )
        return
    print_state(fight, found.campaign.name, view, found.legal if ending is None else None, system)
    if record.status == ENDED:
        console().print(_("this fight has ended"), markup=False)
    elif found.stalled:  # the GM's way out
        console().print(end_hint(fight), markup=False, highlight=False)
    elif ending is None and record.deadline is not None:  # who is awaited, by when
        console().print(found.pace.line(), markup=False, highlight=False)


def pace(fight: int, deadline: str | None, on_late: str | None, db: str | None, json: bool) -> None:
    """`jdr fight pace`."""
    from jdr.fights import playing
    from jdr.live.pace import deadline_words

    with opened(db) as store:
        found = playing.pace(store, fight, deadline, on_late)
    if json:
        emit_json(found)
        return
    if found["deadline"] is None:
        console().print(_("fight {fight}: no deadline").format(fight=fight), markup=False)
        return
    then = _("the system's safe default") if found["on_late"] == "default" else _("the GM decides")
    console().print(
        _("fight {fight}: {deadline} a turn, then {then}").format(
            fight=fight, deadline=deadline_words(found["deadline"]), then=then
        ),
        markup=False,
    )


def late(campaign: str | None, db: str | None, json: bool) -> None:
    """`jdr fight late`."""
    from jdr.fights.playing import late_turns

    with opened(db) as store:
        done = late_turns(store, campaign)
    if json:
        emit_json(
            {
                "late": [
                    {
                        "fight": turn.fight_id,
                        "played": [{"actor": a, "command": c} for a, c in turn.played],
                        "gm_decides": turn.for_gm,
                    }
                    for turn in done
                ]
            }
        )
        return
    out = console()
    if not done:
        out.print(_("No turn is late."), markup=False)
    for turn in done:
        for actor, command in turn.played:
            out.print(
                _("fight {fight}: {actor} was late and plays {command}").format(
                    fight=turn.fight_id, actor=actor, command=command
                ),
                markup=False,
            )
        if turn.for_gm:
            out.print(
                _("fight {fight}: {names} late, the GM decides").format(
                    fight=turn.fight_id, names=", ".join(turn.for_gm)
                ),
                markup=False,
            )


def log(fight: int, db: str | None, json: bool) -> None:
    """`jdr fight log`."""
    from jdr.fights.queries import fight_log

    with opened(db) as store:
        found = fight_log(store, fight)
    if json:
        emit_json(found.json(fight))
        return
    print_log(found.story)
    if found.ended:  # `jdr fight end`, told by jdr whatever the system
        console().print(_("this fight has ended"), markup=False)


def recap(
    fight: int,
    fmt: str,
    round_: int | None,
    actor: str | None,
    whole: bool,
    db: str | None,
    json: bool,
    max_chars: int | None = None,
) -> None:
    """`jdr fight recap`: the recap whole, or in messages (`--format discord`, `--max-chars`)
    each printed under the one before it, a blank line between."""
    from jdr.fights.recap import medium
    from jdr.fights.recaps import posted

    medium(fmt, max_chars)  # an unknown format or a limit too small, before the store opens
    with opened(db) as store:
        made = posted(store, fight, fmt, round_, actor, whole, max_chars)
    if json:
        emit_json(made.json(fight, fmt, round_, actor))
        return
    typer.echo("\n\n".join(made.messages))
