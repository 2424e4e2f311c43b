"""`jdr journal show|export|luck|disclose`, `jdr verify FILE`, `jdr campaign reveal NAME`, and
the journal line under every roll made through a campaign.

No `from __future__ import annotations` here: Typer reads these functions' annotations.
"""

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from jdr.cli import complete
from jdr.cli.render import command_line, console, emit_json, fraction_text, percent
from jdr.cli.stored import (
    DB_HELP,
    JSON_HELP,
    LANG_HELP,
    OUTPUT_HELP,
    opened,
    output_file,
    write_output,
)
from jdr.i18n import N_, _, ngettext
from jdr.journal.words import (
    entry_line,
    fight_entries,
    fight_sentences,
    journal_lines,
    recap_footer,
)

if TYPE_CHECKING:  # the store (SQLAlchemy) loads only when a command runs
    from jdr.cli.options import Common, Journal
    from jdr.journal.entries import Entry
    from jdr.journal.luck import ActorLuck, Stat
    from jdr.journal.service import Rolled
    from jdr.journal.verify import Report
    from jdr.systems.protocol import Action, RuleSystem

__all__ = [
    "build_journal",
    "fight_entries",
    "journal_json",
    "journal_lines",
    "recap_footer",
    "reveal",
    "roll_in_campaign",
    "showing_original",
    "verify_file",
]

Json = dict[str, Any]

CAMPAIGN_HELP = N_("The campaign's name.")


# --- a roll through a campaign ---------------------------------------------------------------


def roll_in_campaign(
    system: "RuleSystem", action: "Action[Any]", params: Any, common: "Common", journal: "Journal"
) -> "Rolled":
    """Roll through the campaign's journal: derived dice, or `--faces`/`--seed` recorded as such."""
    from jdr.dice.source import make_source
    from jdr.journal import service

    assert journal.campaign is not None
    given = common.faces is not None or common.seed is not None
    rng = make_source(common.faces, common.seed) if given else None
    with opened(journal.db) as store, showing_original(journal.campaign, common.json):
        campaign = store.campaign(journal.campaign)
        return service.roll(
            store,
            campaign,
            system,
            action,
            params,
            actor=journal.actor,
            action_id=journal.action_id,
            client_seed=journal.client_seed,
            hidden=journal.hidden,
            rng=rng,
        )


def roll_dice_in_campaign(
    expression: Any, faces: str | None, seed: str | None, journal: "Journal", as_json: bool = False
) -> "Rolled":
    """`jdr dice EXPR --campaign NAME`: generic dice through the campaign's journal."""
    from jdr.dice.source import make_source
    from jdr.journal import service

    assert journal.campaign is not None
    rng = make_source(faces, seed) if faces is not None or seed is not None else None
    who = service.Who(journal.actor, journal.action_id, journal.client_seed, journal.hidden)
    with opened(journal.db) as store, showing_original(journal.campaign, as_json):
        return service.roll_dice(store, store.campaign(journal.campaign), expression, who, rng)


@contextmanager
def showing_original(campaign: str, as_json: bool) -> "Iterator[None]":
    """A re-ask refused because its action id names another roll shows that roll: printed before
    the error, or under the error's `original` key in JSON."""
    from jdr.journal.replay import stored_roll
    from jdr.journal.service import ActionIdTakenError

    try:
        yield
    except ActionIdTakenError as taken:
        record = stored_roll(taken.entry)
        shown = record.explain() if record is not None else _("hidden roll")
        if as_json:
            taken.extra = {
                "original": {"explanation": shown, "journal": journal_json(campaign, taken.entry)}
            }
        else:
            out = console()
            out.print(_("This action id names this roll:"), markup=False)
            out.print(shown, markup=False)
            for line in journal_lines(taken.entry):
                out.print(line, markup=False, style="dim")
        raise


def journal_json(campaign: str, entry: "Entry", replayed: bool = False) -> Json:
    """The `journal` key of a roll's or a fight action's JSON answer (`jdr.answers`)."""
    from jdr.answers import journal_json as answer

    return answer(campaign, entry, replayed)


# --- jdr journal -----------------------------------------------------------------------------


def build_journal() -> typer.Typer:
    """`jdr journal show|export|luck|disclose`."""
    db_option = Annotated[
        str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
    ]
    json_option = Annotated[bool, typer.Option("--json", help=_(JSON_HELP))]
    lang_option = Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=_(LANG_HELP))]
    name_argument = Annotated[
        str,
        typer.Argument(metavar="NAME", help=_(CAMPAIGN_HELP), autocompletion=complete.campaigns),
    ]
    app = typer.Typer(
        help=_("A campaign's journal: every roll and fight action, hash-chained and verifiable."),
        no_args_is_help=True,
        rich_markup_mode=None,
    )

    @app.command(
        "show",
        help=_(
            "List a campaign's journal, as everyone may read it, one line an entry: the last"
            " 50 entries, or a page of them."
        ),
    )
    def show_command(
        name: name_argument,
        last: Annotated[
            int | None,
            typer.Option(
                "--last",
                metavar="N",
                help=_("How many entries: the last N, or N from --from (default 50)."),
                min=1,
            ),
        ] = None,
        start: Annotated[
            int | None,
            typer.Option("--from", metavar="SEQ", help=_("Start the page at entry SEQ."), min=1),
        ] = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        _show(name, last, db, json, start)

    @app.command("export", help=_("Write the journal as JSON, with everything `jdr verify` needs."))
    def export_command(
        name: name_argument,
        output: Annotated[
            Path | None,
            typer.Option("--output", metavar="FILE", help=_(OUTPUT_HELP)),
        ] = None,
        db: db_option = None,
        lang: lang_option = None,
    ) -> None:
        from jdr.journal.reading import export_lines
        from jdr.journal.service import export

        with opened(db) as store:
            data = export(store, store.campaign(name))
        output = output_file(output)
        if output is None:
            for line in export_lines(data):  # one entry a line, written as it is made
                sys.stdout.write(line)
            return
        write_output(output, "".join(export_lines(data)))
        console().print(
            _("journal of {name} written to {file}").format(name=name, file=output), markup=False
        )

    @app.command(
        "luck",
        help=_(
            "Each player's luck: the exact percentile of their dice against every result they"
            " could have rolled."
        ),
    )
    def luck_command(
        name: name_argument,
        actor: Annotated[
            str | None,
            typer.Option(
                "--actor",
                metavar="NAME",
                help=_("Only this player."),
                autocompletion=complete.journal_actors,
            ),
        ] = None,
        exact: Annotated[
            bool, typer.Option("--exact", help=_('Exact probabilities, as "a/b" fractions.'))
        ] = False,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        _luck(name, actor, exact, db, json)

    @app.command(
        "disclose",
        help=_("Make hidden rolls public (all of them, or the entries SEQ …)."),
    )
    def disclose_command(
        name: name_argument,
        seqs: Annotated[
            list[int] | None,
            typer.Argument(metavar="[SEQ]…", help=_("The hidden entries to disclose.")),
        ] = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        with opened(db) as store:
            campaign = store.campaign(name)
            done = store.disclose(campaign.id, seqs or None)
        if json:
            emit_json({"campaign": name, "disclosed": done})
            return
        if not done:
            console().print(_("no hidden roll to disclose"), markup=False)
            return
        console().print(
            _("disclosed: entries {seqs}").format(seqs=", ".join(map(str, done))), markup=False
        )

    return app


PAGE = 50
"""How many entries `jdr journal show` lists unless told (`--last N`)."""


def _show(
    name: str, last: int | None, db: str | None, json: bool, start: int | None = None
) -> None:
    """`jdr journal show`: one page of the journal, one plain line an entry (reading only the
    page's rows, and the earlier entries of the fights it shows, which its sentences need)."""
    from jdr.journal.service import entry_of, public_entries

    size = last if last is not None else PAGE
    with opened(db) as store:
        campaign = store.campaign(name)
        total = store.journal_length(campaign.id)
        first = start if start is not None else max(1, total - size + 1)
        page = store.journal(campaign.id, first, first + size - 1)
        epochs = store.epochs(campaign.id)
        fights = [
            int(f)
            for f in {(entry_of(row).context or {}).get("fight") for row in page}
            if isinstance(f, int)
        ]
        earlier = store.fight_journal(campaign.id, fights, page[-1].seq) if page else []
        entries = public_entries(store, campaign, page)
        told = public_entries(store, campaign, earlier)
    sealed = {r.seq for r in page if r.action_id.startswith("#fight")}
    said = fight_sentences(campaign.system, told, {e.seq for e in entries}) if fights else {}
    if json:
        from jdr.answers import journal_show_json

        commitment = epochs[-1].commitment if epochs else None
        emit_json(journal_show_json(name, commitment, entries, said, total))
        return
    out = console()
    if epochs:
        out.print(
            _("seed commitment (epoch {number}): {commitment}").format(
                number=epochs[-1].number, commitment=epochs[-1].commitment
            ),
            markup=False,
        )
    if not entries:
        empty = _("The journal is empty.") if total == 0 else _("No entry from {seq} on.")
        out.print(empty.format(seq=first), markup=False)
        return
    lines = [entry_line(entry, entry.seq in sealed, said.get(entry.seq)) for entry in entries]
    out.print("\n".join(lines), markup=False, highlight=False, soft_wrap=True)
    if entries[0].seq > 1 or entries[-1].seq < total:
        shown = _("entries {first} to {last} of {total}").format(
            first=entries[0].seq, last=entries[-1].seq, total=total
        )
        if entries[0].seq > 1:
            before = max(1, entries[0].seq - size)
            shown += " · " + _("earlier: --from {seq}").format(seq=before)
        if entries[-1].seq < total:
            shown += " · " + _("later: --from {seq}").format(seq=entries[-1].seq + 1)
        out.print(shown, markup=False, style="dim", highlight=False)


def _luck(name: str, actor: str | None, exact: bool, db: str | None, json: bool) -> None:
    from jdr.cli.render import exact_notice, jsonable
    from jdr.journal.luck import audit, face_luck, verifiable_rolls
    from jdr.journal.service import public_entries
    from jdr.systems import default_registry

    with opened(db) as store:
        campaign = store.campaign(name)
        entries = public_entries(store, campaign)
    system = default_registry().get(campaign.system)
    luck = getattr(system, "luck", None) or face_luck
    rolls = verifiable_rolls(entries)
    exact_notice(exact)
    report = audit(rolls, luck, actor, exact)
    if json:
        emit_json(
            {
                "campaign": name,
                "system": campaign.system,
                "actors": [
                    {
                        "actor": a.actor,
                        "rolls": a.rolls,
                        "dice": a.dice,
                        "luck": a.observed,
                        "mean": jsonable(a.mean, exact),
                        "percentile": jsonable(a.percentile, exact),
                        "at_most": jsonable(a.at_most, exact),
                        "at_least": jsonable(a.at_least, exact),
                        "by_size": {
                            str(size): {
                                "dice": s.dice,
                                "luck": s.observed,
                                "mean": jsonable(s.mean, exact),
                                "percentile": jsonable(s.percentile, exact),
                            }
                            for size, s in a.by_size.items()
                        },
                    }
                    for a in report
                ],
            }
        )
        return
    _print_luck(report, rolls, actor, exact)


def _print_luck(
    report: "list[ActorLuck]", rolls: list[Any], actor: str | None, exact: bool
) -> None:
    """The luck table; with `exact`, each percentile's fraction beside its percentage."""
    out = console()
    if not report:
        if actor is not None and rolls:
            out.print(_("No derived dice for {actor}.").format(actor=actor), markup=False)
        else:
            out.print(_("No dice derived from the campaign's seed yet."), markup=False)
        return
    from fractions import Fraction

    from rich.table import Table

    table = Table(show_header=True, header_style="bold")
    columns = [_("who"), _("dice"), _("luck"), _("expected"), _("percentile")]
    for column in [*columns, _("exact")] if exact else columns:
        table.add_column(column)
    floats = False
    for a in report:
        rows: list[tuple[str, Stat]] = [(str(a.actor), a)]
        rows += [(f"  d{size}", s) for size, s in a.by_size.items()]
        for who, s in rows:
            cells = [who, str(s.dice), str(s.observed), _number(s.mean), percent(s.percentile)]
            if exact:
                fraction = s.percentile if isinstance(s.percentile, Fraction) else None
                floats = floats or fraction is None
                cells.append(fraction_text(fraction) if fraction else "-")
            table.add_row(*cells)
    out.print(table)
    out.print(
        _(
            "percentile: how much of the luck they could have had is below theirs"
            " (50 % is average; luck is the sum of each die's score, higher is luckier)"
        ),
        markup=False,
        style="dim",
    )
    if floats:
        out.print(
            _("-: too many dice for exact fractions; floats instead (error below 1e-12)"),
            markup=False,
            style="dim",
        )


def _number(value: Any) -> str:
    """`10.5`, `10,5` in French: the expected luck, to 4 significant digits."""
    from jdr.numbers import significant

    return significant(value)


# --- jdr verify ------------------------------------------------------------------------------


def verify_file(
    file: str, pins: list[str] | None, json: bool, witness_files: list[str] | None = None
) -> int:
    """`jdr verify FILE`: 0 when everything checks, 1 at the first discrepancy. The file is
    read piece by piece (`jdr.journal.reading`): a journal of any length, in bounded memory."""
    from jdr.errors import InputError
    from jdr.journal.reading import open_input, pieces
    from jdr.journal.replay import replayer_for
    from jdr.journal.verify import FORMAT, VERSIONS, verify_pieces, witnesses_in

    pinned = _pins(pins or [])
    witnesses = [w for name in witness_files or [] for w in witnesses_in(_read_text(name), name)]
    header: Json = {}

    def check_header(members: Any) -> None:
        header.update(members)
        found, version = members.get("format"), members.get("v")
        if found != FORMAT or isinstance(version, bool) or version not in VERSIONS:
            raise InputError(
                "FILE",
                file,
                _("the JSON of `jdr journal export`"),
                _("not a jdr journal (format {format}, v {v})").format(format=found, v=version),
            )

    handle = open_input(file, "FILE")
    try:
        report = verify_pieces(
            pieces(handle, "FILE", file), replayer_for, pinned, witnesses, check_header
        )
    finally:
        if handle is not getattr(sys.stdin, "buffer", None):
            handle.close()
    if json:
        emit_json({"file": file, **report.to_json()})
    else:
        _print_report(header, report)
    return 0 if report.ok else 1


def _read_text(file: str) -> str:
    """A witness file's text (a saved recap or forum page; undecodable bytes are skipped),
    within `jdr.bounded.MAX_TEXT_BYTES`."""
    from jdr.bounded import MAX_TEXT_BYTES, read_bytes

    data = read_bytes(file, MAX_TEXT_BYTES, "--witness", _("a readable text file"))
    return data.decode("utf-8", errors="replace")


def _pins(pins: list[str]) -> dict[int, str]:
    import re

    from jdr.errors import InputError
    from jdr.params import split_items

    parsed = {}
    for pin in split_items(pins):  # `--pin 1:ab,2:cd` as well as `--pin 1:ab --pin 2:cd`
        match = re.fullmatch(r"\s*#?(\d+)\s*[:=]\s*([0-9a-fA-F]{4,64})\s*", pin)
        if match is None:
            raise InputError("--pin", pin, "SEQ:HASH, e.g. 12:3fa9c2d1e0")
        parsed[int(match.group(1))] = match.group(2).lower()
    return parsed


def _print_report(data: Json, report: "Report") -> None:
    from jdr.journal.entries import short

    out = console()
    name, system = data.get("campaign", "?"), data.get("system", "?")
    out.print(
        ngettext(
            "journal of {name} ({system}): {count} entry",
            "journal of {name} ({system}): {count} entries",
            report.entries,
        ).format(name=name, system=system, count=report.entries),
        markup=False,
    )
    if report.last is not None:
        out.print(
            _("last entry: #{seq} {hash}").format(seq=report.last[0], hash=short(report.last[1])),
            markup=False,
        )
    out.print(
        _("{dice} dice re-derived from the revealed seeds; {results} results re-computed").format(
            dice=report.dice_checked, results=report.results_checked
        ),
        markup=False,
    )
    for seqs, text in (
        (report.unrevealed, N_("entries awaiting their seed's reveal: {seqs}")),
        (report.sealed, N_("hidden rolls not disclosed yet: {seqs}")),
        (report.not_derived, N_("entries with faces typed in or from a test seed: {seqs}")),
        (
            report.not_replayed,
            N_("results not re-computed (rules not installed or not replayable): {seqs}"),
        ),
    ):
        if seqs:
            out.print(_(text).format(seqs=_ranges(seqs)), markup=False, style="dim")
    if report.not_recomputed:
        out.print(
            _("entries whose result was not re-computed: {seqs}").format(
                seqs=_ranges(report.not_recomputed)
            ),
            markup=False,
        )
    if report.ok:
        out.print(_("OK: the journal verifies"), style="green", markup=False)
        return
    first = report.problems[0]
    out.print(_("FAILED: {problem}").format(problem=first.message()), style="red", markup=False)
    more = len(report.problems) - 1
    if more:
        out.print(
            ngettext(
                "and {count} more problem (--json lists it)",
                "and {count} more problems (--json lists them all)",
                more,
            ).format(count=more),
            markup=False,
        )


def _ranges(seqs: list[int]) -> str:
    """`1-3, 7` for [1, 2, 3, 7]."""
    parts: list[str] = []
    start = previous = None
    for seq in sorted(seqs):
        if previous is not None and seq == previous + 1:
            previous = seq
            continue
        if start is not None:
            parts.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = seq
    if start is not None:
        parts.append(str(start) if start == previous else f"{start}-{previous}")
    return ", ".join(parts)


# --- jdr campaign reveal ---------------------------------------------------------------------


def reveal(name: str, db: str | None, json: bool) -> None:
    """End the campaign's epoch: publish its seed, open a new one."""
    from jdr.store import StoreError

    with opened(db) as store:
        campaign = store.campaign(name)
        try:
            revealed, opened_epoch = store.reveal_epoch(campaign.id)
        except StoreError as error:
            if error.problem == "hidden_rolls":
                error.hint = command_line("jdr", "journal", "disclose", campaign.name)
            raise
    if json:
        emit_json(
            {
                "campaign": name,
                "revealed": {
                    "number": revealed.number,
                    "seed": revealed.seed.hex(),
                    "commitment": revealed.commitment,
                },
                "next": {"number": opened_epoch.number, "commitment": opened_epoch.commitment},
            }
        )
        return
    out = console()
    out.print(
        _("epoch {number} of {name} revealed").format(number=revealed.number, name=name),
        markup=False,
    )
    out.print(_("seed: {seed}").format(seed=revealed.seed.hex()), markup=False)
    out.print(_("commitment: {commitment}").format(commitment=revealed.commitment), markup=False)
    out.print(
        _("new seed committed (epoch {number}): {commitment}").format(
            number=opened_epoch.number, commitment=opened_epoch.commitment
        ),
        markup=False,
    )
    out.print(
        _(
            "anyone can now check every roll: {export} > journal.json; jdr verify journal.json"
        ).format(export=command_line("jdr", "journal", "export", campaign.name)),
        markup=False,
        style="dim",
    )
