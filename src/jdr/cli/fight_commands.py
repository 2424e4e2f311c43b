"""`jdr fight new|act|commands|show|log|undo|redo|recap|end|odds`: play a stored fight, one command
per process, told in sentences.

Every command takes `--db URL`, `--json` (one JSON object on stdout) and `--lang`. The fight's
state is never kept between commands: each one folds the stored events again. What is printed
comes from the core (`jdr.fights.service`, `story`, `view`, `recap`, the systems' narration and
command models): this module only reads the line and prints.

No `from __future__ import annotations` here: Typer reads these functions' annotations.
"""

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any

import typer

from jdr.cli import complete
from jdr.cli.click_words import Words
from jdr.cli.fight_output import (
    command_help,
    print_commands,
    print_events,
    print_legal,
    print_log,
    print_state,
)
from jdr.cli.render import console, emit_json
from jdr.cli.stored import CLIENT_SEED_HELP, DB_HELP, JSON_HELP, LANG_HELP, opened
from jdr.i18n import N_, _

if TYPE_CHECKING:  # the store (SQLAlchemy) and the systems load only when a command runs
    from jdr.dice.source import RandomSource
    from jdr.fights.commands import Seat
    from jdr.journal.entries import Entry
    from jdr.store import Campaign, Store
    from jdr.systems.protocol import RuleSystem

__all__ = ["build_fight"]

Json = dict[str, Any]

FIGHT_HELP = N_("The fight's number.")
FACES_HELP = N_("Faces already rolled, in roll order.")
SEED_HELP = N_("Seed for a reproducible roll.")
ENDED = "ended"
COMMAND_HELP = "jdr.command_help"
"""`ctx.meta` key: `--help` was given after a fight command's name (its keys are shown)."""


class _ActCommand(typer.core.TyperCommand):
    """`jdr fight act`: `--help` after a command's name shows that command's keys, not the
    options of `act` itself."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if "--help" in args:
            rest = [arg for arg in args if arg != "--help"]
            try:
                parsed = super().parse_args(ctx, rest)
            except typer._click.ClickException:  # too few words for a command's help: act's
                parsed = None
            if parsed is not None and ctx.params.get("command"):
                ctx.meta[COMMAND_HELP] = True
                return parsed
        return super().parse_args(ctx, args)


def build_fight() -> typer.Typer:
    """`jdr fight new|act|commands|show|log|undo|redo|recap|end`."""
    db_option = Annotated[
        str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
    ]
    json_option = Annotated[bool, typer.Option("--json", help=_(JSON_HELP))]
    lang_option = Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=_(LANG_HELP))]
    faces_option = Annotated[
        str | None, typer.Option("--faces", metavar="F,F,…", help=_(FACES_HELP))
    ]
    seed_option = Annotated[str | None, typer.Option("--seed", metavar="N", help=_(SEED_HELP))]
    deadline_option = Annotated[
        str | None,
        typer.Option(
            "--deadline",
            metavar="48h",
            help=_("A turn's deadline, for play by post: 48h, 2d, 30m, or none."),
        ),
    ]
    on_late_option = Annotated[
        str | None,
        typer.Option(
            "--on-late",
            metavar=ON_LATE.metavar(),
            parser=ON_LATE,
            help=_(
                "When a turn passes its deadline: the system's safe default (defend, wait,"
                " pass …) or the GM decides."
            ),
        ),
    ]
    fight_argument = Annotated[int, typer.Argument(metavar="FIGHT", help=_(FIGHT_HELP))]
    app = typer.Typer(
        help=_("Fights: start one from stored sheets, act, show, undo and redo."),
        no_args_is_help=True,
        rich_markup_mode=None,
    )

    @app.command("new", help=_("Start a fight between stored characters of a campaign."))
    def new_command(
        campaign: Annotated[
            str,
            typer.Option(
                "--campaign",
                metavar="NAME",
                help=_("The campaign's name."),
                autocompletion=complete.campaigns,
            ),
        ],
        with_: Annotated[
            str,
            typer.Option(
                "--with",
                metavar="A,B,…",
                help=_("The fighters: stored character names."),
                autocompletion=complete.character_lists,
            ),
        ],
        side: Annotated[
            list[str] | None,
            typer.Option(
                "--side",
                metavar="NAME=SIDE",
                help=_('A fighter\'s side (default: "a" for the first, "b" for the others).'),
            ),
        ] = None,
        order: Annotated[
            str | None, typer.Option("--order", metavar="A,B,…", help=_("The order of play."))
        ] = None,
        setting: Annotated[
            list[str] | None,
            typer.Option(
                "--setting",
                metavar="KEY=VALUE",
                help=_(
                    "A table's setting for this fight, e.g. reactions=dodge (Pokémon: the"
                    " defender's answer given at once)."
                ),
            ),
        ] = None,
        deadline: deadline_option = None,
        on_late: on_late_option = None,
        seed: seed_option = None,
        faces: faces_option = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        _new(campaign, with_, side, order, setting, seed, faces, db, json, deadline, on_late)

    @app.command(
        "act",
        cls=_ActCommand,
        help=_(
            "Play a command in a fight: FIGHT ACTOR COMMAND [key=value …]; "
            "FIGHT ACTOR COMMAND --help shows the command's keys."
        ),
    )
    def act_command(
        ctx: typer.Context,
        fight: fight_argument,
        actor: Annotated[
            str,
            typer.Argument(metavar="ACTOR", help=_("Who acts."), autocompletion=complete.fighters),
        ],
        command: Annotated[
            str | None,
            typer.Argument(
                metavar="[COMMAND]",
                help=_("The command, e.g. attack."),
                autocompletion=complete.fight_commands,
            ),
        ] = None,
        pairs: Annotated[
            list[str] | None,
            typer.Argument(
                metavar="[KEY=VALUE]…",
                help=_("The command's keys."),
                autocompletion=complete.fight_keys,
            ),
        ] = None,
        help_commands: Annotated[
            bool,
            typer.Option(
                "--help-commands", help=_("List what ACTOR may play now, and play nothing.")
            ),
        ] = False,
        client_seed: Annotated[
            str | None,
            typer.Option("--client-seed", metavar="TEXT", help=_(CLIENT_SEED_HELP)),
        ] = None,
        as_: Annotated[
            str,
            typer.Option(
                "--as",
                metavar=SEATS.metavar(),
                parser=SEATS,
                help=_(
                    "Who gives the command: the GM (every decision), or ACTOR's player, refused"
                    " any key that is someone else's choice (a hot-seat table)."
                ),
            ),
        ] = SEATS.name("gm"),  # shown in the reader's language, read as `gm`
        seed: seed_option = None,
        faces: faces_option = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        if ctx.meta.get(COMMAND_HELP) and command is not None:
            _command_help(fight, actor, command, db, json)
            return
        if help_commands:
            _commands(fight, actor, None, db, json)
            return
        seat = _seat(as_, actor)
        _act(fight, actor, command, pairs, seed, faces, db, json, client_seed, seat)

    @app.command(
        "commands",
        help=_(
            "What may be played now in a fight (by ACTOR), with an example each; without FIGHT,"
            " every command of the systems, and with --json their JSON schema."
        ),
    )
    def commands_command(
        fight: Annotated[
            int | None, typer.Argument(metavar="[FIGHT]", help=_(FIGHT_HELP), show_default=False)
        ] = None,
        actor: Annotated[
            str | None,
            typer.Argument(
                metavar="[ACTOR]",
                help=_("Who would act."),
                autocompletion=complete.fighters,
                show_default=False,
            ),
        ] = None,
        system: Annotated[
            str | None,
            typer.Option(
                "--system",
                metavar="SYSTEM",
                help=_("Without FIGHT: this system's commands only."),
                autocompletion=complete.system_ids,
            ),
        ] = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        _commands(fight, actor, system, db, json)

    def on_fight(handler: Callable[[int, str | None, bool], None]) -> Callable[..., None]:
        """A command taking only FIGHT and the common options, calling `handler`."""

        def command(
            fight: fight_argument,
            db: db_option = None,
            json: json_option = False,
            lang: lang_option = None,
        ) -> None:
            handler(fight, db, json)

        return command

    for name, help_text, handler in (
        ("show", N_("Show a fight: where it stands, each fighter, the legal commands."), _show),
        ("log", N_("Tell the story of a fight: every action, in sentences."), _log),
        ("undo", N_("Take back the last action of a fight."), partial(_undo_redo, redo=False)),
        ("redo", N_("Put back the action undone last."), partial(_undo_redo, redo=True)),
    ):
        app.command(name, help=_(help_text))(on_fight(handler))

    @app.command(
        "recap",
        help=_(
            "Recap a fight, ready to post: its last action, round N, a fighter's last action "
            "(--actor) or the whole fight (--all)."
        ),
    )
    def recap_command(
        fight: fight_argument,
        fmt: Annotated[
            str,
            typer.Option(
                "--format",
                metavar=FORMATS.metavar(),
                parser=FORMATS,
                help=_("The recap's format."),
            ),
        ] = FORMATS.name("text"),  # shown in the reader's language, read as `text`
        round_: Annotated[
            int | None,
            typer.Option("--round", metavar="N", help=_("Recap round N, not the last action.")),
        ] = None,
        actor: Annotated[
            str | None,
            typer.Option(
                "--actor",
                metavar="NAME",
                help=_("Recap this fighter's last action (Plus Ultra: its post, PU-11)."),
                autocompletion=complete.fighters,
            ),
        ] = None,
        whole: Annotated[bool, typer.Option("--all", help=_("Recap the whole fight."))] = False,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        _recap(fight, fmt, round_, actor, whole, db, json)

    from jdr.cli.fight_outcome import add_outcome_commands

    add_outcome_commands(app)  # `outcome`, and `end` with --apply/--no-apply (sheets, issue 16)

    from jdr.cli.fight_odds import add_odds_command

    add_odds_command(app)  # `odds`: a command's odds before it is played (issue 29)

    @app.command(
        "pace",
        help=_(
            "Set a fight's turn deadline (play by post) and what happens when it passes; the"
            " clock starts again now."
        ),
    )
    def pace_command(
        fight: fight_argument,
        deadline: deadline_option = None,
        on_late: on_late_option = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        _pace(fight, deadline, on_late, db, json)

    @app.command(
        "late",
        help=_(
            "Play every turn gone past its deadline now, as each fight's pace says (what the"
            " web table's clock does; for a cron job)."
        ),
    )
    def late_command(
        campaign: Annotated[
            str | None,
            typer.Option(
                "--campaign",
                metavar="NAME",
                help=_("Only this campaign's fights."),
                autocompletion=complete.campaigns,
            ),
        ] = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        _late(campaign, db, json)

    return app


# --- the commands ----------------------------------------------------------------------------
def _new(
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
    from jdr.characters.fights import open_stored
    from jdr.cli.journal_commands import journal_json
    from jdr.fights.sealed import public
    from jdr.fights.service import legal_now
    from jdr.fights.setup import parse_pairs

    given = parse_pairs([p for value in side or [] for p in value.split(",") if p.strip()])
    sides = {name: str(value) for name, value in given.items()}
    settings = parse_pairs([p for v in setting or [] for p in v.split(",") if p])
    rng = _dice(faces, seed)
    with opened(db) as store:
        found = store.campaign(campaign)
        system = _system(found.system)
        typed = _names("--with", with_)  # fighters go by their stored names, however typed
        ordered = _names("--order", order) if order else None
        made = open_stored(
            store, found, typed, sides, ordered, settings, rng, deadline=deadline, on_late=on_late
        )
        started, names = made.started, made.names
        fight_id, events = started.fight_id, started.events
        state = _state(store, fight_id, system)
    legal = legal_now(system, state)
    told = _told(system, events, {})
    if json:
        emit_json(
            {
                "fight": fight_id,
                "campaign": found.name,
                "system": system.id,
                "participants": names,
                "events": public(events),
                "narration": [t.text for t in told],
                "legal_commands": legal,
                "journal": journal_json(found.name, started.entry),
            }
        )
        return
    console().print(
        _("fight {fight} started in campaign {campaign}").format(
            fight=fight_id, campaign=found.name
        ),
        markup=False,
    )
    print_events(told, system, state, legal, started.entry)


def _act(
    fight: int,
    actor: str,
    command: str | None,
    pairs: list[str] | None,
    seed: str | None,
    faces: str | None,
    db: str | None,
    json: bool,
    client_seed: str | None = None,
    seat: "Seat | None" = None,
) -> None:
    from jdr.errors import InputError
    from jdr.fights import service
    from jdr.fights.commands import GM_SEAT
    from jdr.fights.sealed import public

    rng = _dice(faces, seed)
    with opened(db) as store:
        system = _fight_system(store, fight)
        _refuse_ended(store, fight)
        if command is None:
            legal = service.legal_now(system, _state(store, fight, system), actor)
            raise InputError("COMMAND", None, ", ".join(legal) or "-", _("no command given"))
        played = service.play(
            store,
            fight,
            system,
            actor,
            command,
            pairs or [],
            rng,
            client_seed,
            seat=seat or GM_SEAT,
        )
        acted = played.acted
        assert acted.before is not None and acted.after is not None
        before, state = acted.before, acted.after
        campaign = store.campaign_of_fight(fight).name
    legal = service.legal_now(system, state)
    told = _told(system, acted.events, before)
    if json:
        emit_json(
            {
                "fight": fight,
                "command": played.command,
                "events": public(acted.events),
                "narration": [t.text for t in told],
                "version": acted.version,
                "legal_commands": legal,
                "journal": _journal_json(campaign, acted.entry),
            }
        )
        return
    print_events(told, system, state, legal, acted.entry)


SEATS = Words("--as", {"gm": ("gm", "MJ", "meneur"), "player": ("player", "joueur", "joueuse")})
"""`jdr fight act --as`: who gives the command, in English or French."""
ON_LATE = Words("--on-late", {"default": ("default", "défaut"), "gm": ("gm", "MJ", "meneur")})
"""`jdr fight new|pace --on-late`: when a turn passes its deadline, the system's safe default
(`jdr.live.pace.DEFAULT`) or the GM decides (`GM`)."""
FORMATS = Words(
    "--format",
    {
        "text": ("text", "texte"),
        "bbcode": ("BBCode", "BBCode"),
        "markdown": ("Markdown", "Markdown"),
    },
)
"""`jdr fight recap --format`: the recap's format (`jdr.fights.recap`'s)."""


def _seat(text: str, actor: str) -> "Seat":
    """`--as gm` (the default: the GM gives every decision) or `--as player` (ACTOR's player,
    who controls ACTOR only)."""
    from jdr.fights.commands import GM_SEAT, Seat

    found = SEATS(text)
    return GM_SEAT if found == "gm" else Seat(fighters=(actor,))


def _commands(
    fight: int | None, actor: str | None, system_id: str | None, db: str | None, json: bool
) -> None:
    from jdr.errors import InputError
    from jdr.fights.sealed import public
    from jdr.fights.service import legal_now

    if fight is None:
        if actor is not None:
            raise InputError("ACTOR", actor, "FIGHT ACTOR", _("an actor needs a fight"))
        systems = [_system(system_id)] if system_id is not None else _all_systems()
        if json:
            emit_json({"systems": {s.id: _schema(s) for s in systems}})
            return
        print_commands(systems)
        return
    with opened(db) as store:
        system = _fight_system(store, fight)
        state = _state(store, fight, system)
        record = store.fight(fight)
        names = list(record.participants)
        stored = [c.name for c in store.characters(record.campaign_id) if c.name not in names]
    legal = legal_now(system, state, actor)
    commands = getattr(system, "fight_commands", None)
    player = actor or next((n for n in names if legal_now(system, state, n)), None)
    mine = legal_now(system, state, player) if player is not None else legal

    def who(command: str) -> str | None:
        """The example's actor: one who may play `command` now (`join`: a stored character
        not in the fight; none known: ACTOR)."""
        if actor is not None or command in mine:
            return player
        return next((n for n in stored if command in legal_now(system, state, n)), None)

    lines = {n: _example(fight, who(n), commands, n, state) for n in legal}
    if json:
        declared = {c["name"]: c for c in _schema(system)}
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
    print_commands([system], fight, actor, state, legal, lines, names)


def _command_help(fight: int, actor: str, command: str, db: str | None, json: bool) -> None:
    with opened(db) as store:
        system = _fight_system(store, fight)
        state = _state(store, fight, system)
    commands = getattr(system, "fight_commands", None)
    if commands is None:
        from jdr.errors import InputError

        raise InputError("COMMAND", command, "-", _("this rule system declares no commands"))
    declared = commands.get(command)
    example = _example(fight, actor, commands, declared.name, state)
    if json:
        schema = next(c for c in commands.schema() if c["name"] == declared.name)
        emit_json({"fight": fight, "actor": actor, **schema, "example": example})
        return
    command_help(commands, declared.name, example)


def _show(fight: int, db: str | None, json: bool) -> None:
    from jdr.answers import pace_json
    from jdr.fights.ending import end_hint, ending_of, stuck
    from jdr.fights.narration import Words
    from jdr.fights.sealed import public
    from jdr.fights.service import legal_now
    from jdr.fights.view import view_of
    from jdr.live.pace import pace_of

    with opened(db) as store:
        record = store.fight(fight)
        campaign = _campaign(store, record.campaign_id)
        system = _fight_system(store, fight)
        state = _state(store, fight, system)
    ending = ending_of(state, record.status)
    stalled = stuck(system, state, record.status)
    legal = legal_now(system, state) if ending is None else []
    view = view_of(system, state, Words("text", state), record.status)
    pace = pace_of(system, record, state)
    if json:
        emit_json(
            {
                "fight": fight,
                "campaign": campaign.name,
                "system": system.id,
                "participants": record.participants,
                "version": record.version,
                "status": record.status,
                "state": public(state),
                "view": {"status": view.status, "fighters": list(view.fighters)},
                "legal_commands": legal,
                "ending": None if ending is None else ending.json(),
                "stuck": stalled,
                "pace": pace_json(pace),  # the web API's too
            }
        )
        return
    print_state(fight, campaign.name, view, legal if ending is None else None, system)
    if record.status == ENDED:
        console().print(_("this fight has ended"), markup=False)
    elif stalled:  # the GM's way out
        console().print(end_hint(fight), markup=False, highlight=False)
    elif ending is None and record.deadline is not None:  # who is awaited, by when
        console().print(pace.line(), markup=False, highlight=False)


def _pace(
    fight: int, deadline: str | None, on_late: str | None, db: str | None, json: bool
) -> None:
    from jdr.live.pace import deadline_words, set_pace

    with opened(db) as store:
        store.fight(fight)  # an unknown fight says so
        found = set_pace(store, fight, deadline, on_late)
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


def _late(campaign: str | None, db: str | None, json: bool) -> None:
    from jdr.live.pace import resolve_late

    with opened(db) as store:
        only = store.campaign(campaign).id if campaign is not None else None
        done = resolve_late(store, campaign_id=only)
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


def _log(fight: int, db: str | None, json: bool) -> None:
    from jdr.fights.sealed import public
    from jdr.fights.service import fight_events
    from jdr.fights.story import chapters

    with opened(db) as store:
        system = _fight_system(store, fight)
        stored = fight_events(store, fight)
        ended = store.fight(fight).status == ENDED
    story = chapters(system, stored)
    if json:
        texts = {}
        position = 0
        for chapter in story:
            for told in chapter.told:
                texts[position] = told.text
                position += 1
            if chapter.said is not None:
                texts[position] = chapter.said
                position += 1
        emit_json(
            {
                "fight": fight,
                "events": [
                    {"seq": e.seq, "action": e.action, "event": public(e.event), "text": texts[i]}
                    for i, e in enumerate(stored)
                ],
                "actions": [
                    {
                        "action": c.number,
                        "number": c.ordinal,
                        "undone": c.undone,
                        "narration": c.lines(),
                    }
                    for c in story
                ],
            }
        )
        return
    print_log(story)
    if ended:  # `jdr fight end`, told by jdr whatever the system
        console().print(_("this fight has ended"), markup=False)


def _recap(
    fight: int,
    fmt: str,
    round_: int | None,
    actor: str | None,
    whole: bool,
    db: str | None,
    json: bool,
) -> None:
    from jdr.cli.journal_commands import fight_entries, recap_footer
    from jdr.fights.recap import check_format, footnote, recap
    from jdr.fights.service import fight_events

    check_format(fmt)
    with opened(db) as store:
        system = _fight_system(store, fight)
        stored = fight_events(store, fight)
        record = store.fight(fight)
        footer_of = fight_entries(store, record.campaign_id, fight)
    actions = None
    if actor is not None:
        actions = _actions_of(system, stored, footer_of, actor, list(record.participants))
    if actor is not None and system.id == "plus-ultra":
        text, numbers, events = _plus_ultra_post(system, stored, actions or [], actor, fmt)
    else:
        made = recap(system, stored, fmt, fight, round_, actions, whole, record.status)
        text, numbers, events = made.text, made.actions, made.events
    entries = [footer_of[n] for n in numbers if n in footer_of]
    footer = recap_footer(entries)
    if footer is not None:  # Markdown needs a blank line, or the footnote joins the last item
        text += ("\n\n" if fmt == "markdown" else "\n") + footnote(footer, fmt)
    if json:
        emit_json(
            {
                "fight": fight,
                "format": fmt,
                "round": round_,
                "actor": actor,
                "actions": numbers,
                "numbers": _numbers(stored, numbers),
                "events": events,
                "recap": text,
                "journal": [
                    {"seq": e.seq, "hash": e.hash, "commitment": e.commitment} for e in entries
                ],
            }
        )
        return
    typer.echo(text)


# --- helpers ---------------------------------------------------------------------------------


def _numbers(stored: list[Any], actions: list[int]) -> list[int]:
    """The numbers within the fight (1, 2, 3 …) of the actions whose keys are `actions`."""
    from jdr.fights.service import Timeline

    numbers = Timeline.of(stored).numbers
    return [numbers[n] for n in actions if n in numbers]


def _actions_of(
    system: "RuleSystem",
    stored: list[Any],
    entries: "dict[int, Entry]",
    actor: str,
    participants: list[str],
) -> list[int]:
    """The last effective action `actor` played (the journal says who acted), else the last
    one whose events name it; none is an `InputError` listing the fighters."""
    from jdr.errors import InputError
    from jdr.fights.setup import fighters_named
    from jdr.fights.story import chapters

    name = fighters_named("--actor", [actor], participants, keep_unknown=True)[0]
    played = [c for c in chapters(system, stored) if c.said is None and not c.undone]
    mine = [c.number for c in played if c.number in entries and entries[c.number].actor == name]
    if not mine:
        mine = [c.number for c in played if any(_mentions(t.event, name) for t in c.told)]
    if not mine:
        raise InputError("--actor", actor, ", ".join(participants) or "-", _("no action of it"))
    return mine[-1:]


def _plus_ultra_post(
    system: "RuleSystem", stored: list[Any], actions: list[int], actor: str, fmt: str
) -> tuple[str, list[int], list[Json]]:
    """PU-11: the recap a Plus Ultra post ends with, for `actor`'s last action."""
    from jdr.fights.fold import fold
    from jdr.fights.service import Timeline
    from jdr.systems.plus_ultra.recap import render_recap

    timeline = Timeline.of(stored)
    rules = system.fight
    assert rules is not None
    upto: list[Json] = []
    events: list[Json] = []
    for number, group in timeline.actions.items():
        if number in timeline.undone:
            continue
        upto += group
        if number in actions:
            events = list(group)
            break
    return render_recap(fold(rules, upto), actor, events, fmt), actions, events


def _example(fight: int, actor: str | None, commands: Any, name: str, state: Json) -> str | None:
    """`jdr fight act 1 Kaito attack target=Corbeau`: one line to copy."""
    from jdr.cli.render import command_line

    if commands is None or name not in commands.names():
        return None
    line = commands.line(name, state, actor)
    return f"{command_line('jdr', 'fight', 'act', fight, actor or 'ACTOR')} {line}"


def _schema(system: "RuleSystem") -> list[Json]:
    commands = getattr(system, "fight_commands", None)
    return commands.schema() if commands is not None else []


def _all_systems() -> "list[RuleSystem]":
    from jdr.systems import default_registry

    registry = default_registry()
    return [registry.get(i) for i in registry.ids()]


def _told(system: "RuleSystem", events: list[Json], before: Json) -> list[Any]:
    from jdr.fights.story import told

    return told(system, events, before)


def _dice(faces: str | None, seed: str | None) -> "RandomSource | None":
    """`--faces` or `--seed` if given, else None: the dice derive from the campaign's seed."""
    from jdr.dice import make_source

    return make_source(faces=faces, seed=seed) if faces is not None or seed is not None else None


def _names(option: str, text: str) -> list[str]:
    """`A,B,…` → the names; none, or one name twice (as people type it), is refused."""
    from jdr.errors import InputError
    from jdr.names import duplicate

    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise InputError(option, text, "A,B,…", _("no name given"))
    if any(duplicate(name, names[:index]) for index, name in enumerate(names)):
        raise InputError(option, text, "A,B,…", _("a name is given twice"))
    return names


def _system(system_id: str) -> "RuleSystem":
    from jdr.systems import default_registry

    return default_registry().get(system_id)


def _campaign(store: "Store", campaign_id: int) -> "Campaign":
    from jdr.store import StoreError

    for campaign in store.campaigns():
        if campaign.id == campaign_id:
            return campaign
    raise StoreError("no_campaign", campaign=campaign_id)


def _fight_system(store: "Store", fight_id: int) -> "RuleSystem":
    """The system of the fight's campaign (`StoreError` for an unknown fight)."""
    from jdr.errors import InputError

    system = _system(_campaign(store, store.fight(fight_id).campaign_id).system)
    if system.fight is None:
        raise InputError(_("fight"), str(fight_id), "-", _("this rule system has no fight rules"))
    return system


def _state(store: "Store", fight_id: int, system: "RuleSystem") -> Json:
    from jdr.fights import service

    assert system.fight is not None
    return service.state(store, fight_id, system.fight)


def _refuse_ended(store: "Store", fight_id: int) -> None:
    """A `RulesError` if the fight has ended."""
    from jdr.errors import RulesError

    if store.fight(fight_id).status == ENDED:
        raise RulesError(
            _("fight {fight} has ended: no command can be played").format(fight=fight_id)
        )


def _mentions(event: Json, name: str) -> bool:
    """Whether `name` (as people type it, `jdr.names`) is one of the event's values (or in one
    of its lists)."""
    from jdr.names import same

    def named(value: Any) -> bool:
        return isinstance(value, str) and same(value, name)

    return any(
        named(v) or (isinstance(v, list) and any(named(each) for each in v)) for v in event.values()
    )


def _undo_redo(fight: int, db: str | None, json: bool, redo: bool) -> None:
    from jdr.fights import service
    from jdr.fights.story import chapters

    with opened(db) as store:
        system = _fight_system(store, fight)
        _refuse_ended(store, fight)
        move = service.redo if redo else service.undo
        acted = move(store, fight, rules=system.fight)
        assert acted.after is not None
        state = acted.after
        campaign = store.campaign_of_fight(fight).name
        stored = store.events(fight)
    legal = service.legal_now(system, state)
    said = chapters(system, stored)[-1].lines()
    if json:
        emit_json(
            {
                "fight": fight,
                "events": acted.events,
                "narration": said,
                "version": acted.version,
                "legal_commands": legal,
                "journal": _journal_json(campaign, acted.entry),
            }
        )
        return
    for line in said:
        console().print(line, markup=False)
    _print_journal(acted.entry)
    print_legal(legal, system)


def _print_journal(entry: "Entry | None") -> None:
    from jdr.cli.journal_commands import journal_lines

    if entry is not None:
        for line in journal_lines(entry):
            console().print(line, markup=False, style="dim")


def _journal_json(campaign: str, entry: "Entry | None") -> Json | None:
    from jdr.cli.journal_commands import journal_json

    return None if entry is None else journal_json(campaign, entry)
