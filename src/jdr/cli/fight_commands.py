"""`jdr fight new|act|show|log|undo|redo|recap|end`: play a stored fight, one command per process.

Every command takes `--db URL`, `--json` (one JSON object on stdout) and `--lang`. The fight's
state is never kept between commands: each one folds the stored events again.

No `from __future__ import annotations` here: Typer reads these functions' annotations.
"""

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from jdr.cli import complete
from jdr.cli.render import console, emit_json
from jdr.cli.stored import CLIENT_SEED_HELP, DB_HELP, JSON_HELP, LANG_HELP, opened
from jdr.i18n import N_, _

if TYPE_CHECKING:  # the store (SQLAlchemy) and the systems load only when a command runs
    from jdr.dice.source import RandomSource
    from jdr.journal.entries import Entry
    from jdr.store import Campaign, Store
    from jdr.systems.protocol import RuleSystem

__all__ = ["build_fight"]

Json = dict[str, Any]

FIGHT_HELP = N_("The fight's number.")
FACES_HELP = N_("Faces already rolled, in roll order.")
SEED_HELP = N_("Seed for a reproducible roll.")
ENDED = "ended"


def build_fight() -> typer.Typer:
    """`jdr fight new|act|show|log|undo|redo|recap|end`."""
    db_option = Annotated[
        str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
    ]
    json_option = Annotated[bool, typer.Option("--json", help=_(JSON_HELP))]
    lang_option = Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=_(LANG_HELP))]
    faces_option = Annotated[
        str | None, typer.Option("--faces", metavar="F,F,…", help=_(FACES_HELP))
    ]
    seed_option = Annotated[str | None, typer.Option("--seed", metavar="N", help=_(SEED_HELP))]
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
        seed: seed_option = None,
        faces: faces_option = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        _new(campaign, with_, side, order, seed, faces, db, json)

    @app.command("act", help=_("Play a command in a fight: FIGHT ACTOR COMMAND [key=value …]."))
    def act_command(
        fight: fight_argument,
        actor: Annotated[
            str,
            typer.Argument(metavar="ACTOR", help=_("Who acts."), autocompletion=complete.fighters),
        ],
        command: Annotated[
            str | None,
            typer.Argument(metavar="[COMMAND]", help=_("The command, e.g. attack.")),
        ] = None,
        pairs: Annotated[
            list[str] | None,
            typer.Argument(metavar="[KEY=VALUE]…", help=_("The command's options.")),
        ] = None,
        help_commands: Annotated[
            bool,
            typer.Option(
                "--help-commands", help=_("List the legal commands now, and play nothing.")
            ),
        ] = False,
        client_seed: Annotated[
            str | None,
            typer.Option("--client-seed", metavar="TEXT", help=_(CLIENT_SEED_HELP)),
        ] = None,
        seed: seed_option = None,
        faces: faces_option = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        if help_commands:
            _help_commands(fight, actor, db, json)
            return
        _act(fight, actor, command, pairs, seed, faces, db, json, client_seed)

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
        ("show", N_("Show a fight: its fighters, whose turn, the legal commands."), _show),
        ("log", N_("List every stored event of a fight."), _log),
        ("undo", N_("Take back the last action of a fight."), partial(_undo_redo, redo=False)),
        ("redo", N_("Put back the action undone last."), partial(_undo_redo, redo=True)),
    ):
        app.command(name, help=_(help_text))(on_fight(handler))

    @app.command(
        "recap",
        help=_(
            "Recap a fight's last action (or round N): a Plus Ultra character's turn with "
            "--actor, else its events."
        ),
    )
    def recap_command(
        fight: fight_argument,
        fmt: Annotated[
            str,
            typer.Option("--format", metavar="bbcode|markdown|text", help=_("The recap's format.")),
        ] = "text",
        round_: Annotated[
            int | None,
            typer.Option("--round", metavar="N", help=_("Recap round N, not the last action.")),
        ] = None,
        actor: Annotated[
            str | None,
            typer.Option(
                "--actor",
                metavar="NAME",
                help=_("Recap this fighter's part only."),
                autocompletion=complete.fighters,
            ),
        ] = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        _recap(fight, fmt, round_, actor, db, json)

    from jdr.cli.fight_outcome import add_outcome_commands

    add_outcome_commands(app)  # `outcome`, and `end` with --apply/--no-apply (sheets, issue 16)
    return app


# --- the commands ----------------------------------------------------------------------------
def _new(
    campaign: str,
    with_: str,
    side: list[str] | None,
    order: str | None,
    seed: str | None,
    faces: str | None,
    db: str | None,
    json: bool,
) -> None:
    from jdr.cli.fight_outcome import record_fighters
    from jdr.cli.journal_commands import journal_json
    from jdr.fights.service import open_fight
    from jdr.fights.setup import build_setup, fighters_named, parse_pairs, participants

    given = parse_pairs([p for value in side or [] for p in value.split(",") if p.strip()])
    sides = {name: str(value) for name, value in given.items()}
    rng = _dice(faces, seed)
    with opened(db) as store:
        found = store.campaign(campaign)
        system = _system(found.system)
        # fighters go by their stored names, however they were typed
        typed = _names("--with", with_)
        stored = {c.name: c for c in (store.character_named(found.id, n) for n in typed)}
        names = list(stored)
        options: Json = {}
        if order:
            given_order = _names("--order", order)
            options["order"] = fighters_named("--order", given_order, names, keep_unknown=True)
        fighters = [
            {"name": name, "sheet": stored[name].sheet, "side": s}
            for name, s in participants(names, sides)
        ]
        setup = build_setup(system, fighters, options)
        assert system.fight is not None  # build_setup refuses a system without fights
        started = open_fight(store, found.id, system.fight, setup, names, rng)
        fight_id, events = started.fight_id, started.events
        record_fighters(store, fight_id, list(stored.values()))  # their revisions (issue 16)
        legal = system.fight.legal_commands(_state(store, fight_id, system))
    if json:
        emit_json(
            {
                "fight": fight_id,
                "campaign": found.name,
                "system": system.id,
                "participants": names,
                "events": events,
                "legal_commands": legal,
                "journal": journal_json(found.name, started.entry),
            }
        )
        return
    out = console()
    out.print(
        _("fight {fight} started in campaign {campaign}").format(
            fight=fight_id, campaign=found.name
        ),
        markup=False,
    )
    _print_events(events, legal, started.entry)


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
) -> None:
    from jdr.errors import InputError, RulesError
    from jdr.fights import service
    from jdr.fights.setup import make_command, parse_pairs, setup_hook

    rng = _dice(faces, seed)
    with opened(db) as store:
        system = _fight_system(store, fight)
        rules = system.fight
        assert rules is not None
        _refuse_ended(store, fight)
        if command is None:
            legal = rules.legal_commands(service.state(store, fight, rules))
            raise InputError("COMMAND", None, ", ".join(legal) or "-", _("no command given"))
        joiner = setup_hook(system, "join_command")
        if command == "join" and joiner is not None:  # a stored character enters the fight
            character = store.character_named(store.fight(fight).campaign_id, actor)
            decided = joiner(character.name, character.sheet, parse_pairs(pairs or []))
        else:
            decided = make_command(system, actor, command, parse_pairs(pairs or []))
        try:
            acted = service.act(store, fight, rules, decided, rng, client_seed=client_seed)
        except RulesError as refused:
            legal = rules.legal_commands(service.state(store, fight, rules))
            raise RulesError(_legal_message(refused.reason, legal), refused.rule) from None
        if command == "join" and joiner is not None:  # its sheet's revision (issue 16)
            from jdr.cli.fight_outcome import record_fighters

            record_fighters(store, fight, [character])
        legal = rules.legal_commands(_state(store, fight, system))
        campaign = store.campaign_by_id(store.fight(fight).campaign_id).name
    if json:
        emit_json(
            {
                "fight": fight,
                "command": decided,
                "events": acted.events,
                "version": acted.version,
                "legal_commands": legal,
                "journal": _journal_json(campaign, acted.entry),
            }
        )
        return
    _print_events(acted.events, legal, acted.entry)


def _show(fight: int, db: str | None, json: bool) -> None:
    with opened(db) as store:
        record = store.fight(fight)
        campaign = _campaign(store, record.campaign_id)
        system = _fight_system(store, fight)
        state = _state(store, fight, system)
    assert system.fight is not None
    legal = system.fight.legal_commands(state)
    if json:
        emit_json(
            {
                "fight": fight,
                "campaign": campaign.name,
                "system": system.id,
                "participants": record.participants,
                "version": record.version,
                "status": record.status,
                "state": state,
                "legal_commands": legal,
            }
        )
        return
    _print_state(fight, campaign, state, legal)
    if record.status == ENDED:
        console().print(_("this fight has ended"), markup=False)


def _log(fight: int, db: str | None, json: bool) -> None:
    with opened(db) as store:
        store.fight(fight)
        stored = store.events(fight)
    if json:
        emit_json(
            {
                "fight": fight,
                "events": [{"seq": e.seq, "action": e.action, "event": e.event} for e in stored],
            }
        )
        return
    for item in stored:
        console().print(f"{item.seq:>4}  {_event_line(item.event)}", markup=False)


def _help_commands(fight: int, actor: str, db: str | None, json: bool) -> None:
    with opened(db) as store:
        system = _fight_system(store, fight)
        state = _state(store, fight, system)
    assert system.fight is not None
    legal = system.fight.legal_commands(state)
    if json:
        emit_json({"fight": fight, "actor": actor, "legal_commands": legal})
        return
    _print_legal(legal)


def _recap(
    fight: int, fmt: str, round_: int | None, actor: str | None, db: str | None, json: bool
) -> None:
    from jdr.cli.journal_commands import fight_entries, recap_footer
    from jdr.errors import InputError
    from jdr.fights import fold
    from jdr.fights.recap import check_format, footnote, render_events
    from jdr.fights.service import Timeline

    check_format(fmt)
    with opened(db) as store:
        system = _fight_system(store, fight)
        timeline = Timeline.of(store.events(fight))
        campaign_id = store.fight(fight).campaign_id
        footer_of = fight_entries(store, campaign_id, fight)
    rules = system.fight
    assert rules is not None
    # every effective event with its action and the round the state is in once it is applied
    tagged: list[tuple[int, Json, Any]] = []
    state: Json = {}
    for action, events in timeline.actions.items():
        if action in timeline.undone:
            continue
        for event in events:
            state = rules.evolve(state, event)
            tagged.append((action, event, state.get("round")))
    if round_ is not None:
        chosen = [i for i, (_a, _e, number) in enumerate(tagged) if number == round_]
        if not chosen:
            rounds = sorted({n for _a, _e, n in tagged if isinstance(n, int)})
            raise InputError("--round", round_, ", ".join(map(str, rounds)) or "-")
        title = _("Fight {fight} — round {round}").format(fight=fight, round=round_)
    else:
        acted = [a for a, _e, _n in tagged]
        if actor is not None:  # the last action `actor` played, else the last naming it
            acted = [a for a, e, _n in tagged if _same(e.get("actor"), actor)] or [
                a for a, e, _n in tagged if _mentions(e, actor)
            ]
        chosen = [i for i, (a, _e, _n) in enumerate(tagged) if acted and a == acted[-1]]
        number = acted[-1] if acted else "-"
        title = _("Fight {fight} — action {action}").format(fight=fight, action=number)
    events = [tagged[i][1] for i in chosen]
    if actor is not None and system.id == "plus-ultra":
        from jdr.systems.plus_ultra.recap import render_recap

        upto = chosen[-1] + 1 if chosen else len(tagged)
        text = render_recap(fold(rules, [t[1] for t in tagged[:upto]]), actor, events, fmt)
    else:
        if actor is not None:
            events = [event for event in events if _mentions(event, actor)]
        text = render_events(events, fmt, title)
    actions = sorted({tagged[i][0] for i in chosen})
    entries = [footer_of[a] for a in actions if a in footer_of]
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
    return any(
        _same(v, name) or (isinstance(v, list) and any(_same(each, name) for each in v))
        for v in event.values()
    )


def _same(value: Any, name: str) -> bool:
    from jdr.names import same

    return isinstance(value, str) and same(value, name)


def _legal_message(reason: str, legal: list[str]) -> str:
    return _("{reason}; legal commands now: {commands}").format(
        reason=reason, commands=", ".join(legal) or "-"
    )


def _undo_redo(fight: int, db: str | None, json: bool, redo: bool) -> None:
    from jdr.cli.journal_commands import fight_entries
    from jdr.fights import service

    with opened(db) as store:
        system = _fight_system(store, fight)
        _refuse_ended(store, fight)
        acted = service.redo(store, fight) if redo else service.undo(store, fight)
        state = _state(store, fight, system)
        found = store.campaign_by_id(store.fight(fight).campaign_id)
        campaign = found.name
        seq = acted.events[0]["seq"]
        original = fight_entries(store, found.id, fight).get(seq)
    assert system.fight is not None
    legal = system.fight.legal_commands(state)
    if json:
        emit_json(
            {
                "fight": fight,
                "events": acted.events,
                "version": acted.version,
                "legal_commands": legal,
                "journal": _journal_json(campaign, acted.entry),
            }
        )
        return
    text = _("redone: {action}") if redo else _("undone: {action}")
    console().print(text.format(action=_command_text(original, seq)), markup=False)
    _print_journal(acted.entry)
    _print_legal(legal)


def _command_text(entry: "Entry | None", seq: int) -> str:
    """A fight action as its player typed it, `Kaito: attack target=Corbeau`, from its journal
    entry (an action without one, from before the journal, is named by its place in the log)."""
    context = (entry.context or {}) if entry is not None else {}
    if not context.get("action"):
        return _("the action at line {seq} of the log").format(seq=seq)
    params = context.get("params") or {}
    pairs = (f"{k}={_shown(v)}" for k, v in params.items() if k not in ("action", "actor"))
    words = [str(context["action"]), *pairs]
    actor = context.get("actor")
    command = " ".join(words)
    if actor is None:
        return command
    return _("{actor}: {command}").format(actor=actor, command=command)


def _scalar(value: Any) -> bool:
    from jdr.fights.recap import scalar

    return scalar(value)


def _shown(value: Any) -> str:
    from jdr.fights.recap import shown

    return shown(value)


def _event_line(event: Json) -> str:
    from jdr.fights.recap import event_line

    return event_line(event)


def _print_legal(legal: list[str]) -> None:
    console().print(
        _("legal commands: {commands}").format(commands=", ".join(legal) or "-"), markup=False
    )


def _print_events(events: list[Json], legal: list[str], entry: "Entry | None" = None) -> None:
    out = console()
    for event in events:
        out.print(_event_line(event), markup=False)
    _print_journal(entry)
    _print_legal(legal)


def _print_journal(entry: "Entry | None") -> None:
    from jdr.cli.journal_commands import journal_lines

    if entry is not None:
        for line in journal_lines(entry):
            console().print(line, markup=False, style="dim")


def _journal_json(campaign: str, entry: "Entry | None") -> Json | None:
    from jdr.cli.journal_commands import journal_json

    return None if entry is None else journal_json(campaign, entry)


def _print_state(fight: int, campaign: "Campaign", state: Json, legal: list[str]) -> None:
    from rich.markup import escape

    from jdr.fights.setup import per_participant, to_play
    from jdr.fights.view import fighter_line

    out = console()
    title = _("fight {fight}").format(fight=fight)
    out.print(f"[bold]{escape(title)}[/bold] — {escape(campaign.name)}")
    fighters = per_participant(state)
    if fighters is not None:  # one line per fighter: the gauges, the flags that are on
        for data in fighters.values():
            out.print(fighter_line(data), markup=False)
    else:
        table = Table(show_header=True, header_style="bold")
        table.add_column(_("field"))
        table.add_column(_("value"))
        for key, value in state.items():
            if _scalar(value) or (isinstance(value, list) and all(_scalar(v) for v in value)):
                table.add_row(key, _shown(value))
        out.print(table)
    turn = to_play(state)
    if turn is not None:
        out.print(_("to play: {who}").format(who=_shown(turn)), markup=False)
    _print_legal(legal)
