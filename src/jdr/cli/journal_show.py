"""`jdr journal show|luck`: a page of a campaign's journal, one plain line an entry, and each
player's luck, as `jdr.journal.queries` reads them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jdr.cli.render import console, emit_json, fraction_text, percent
from jdr.cli.stored import opened
from jdr.i18n import _

if TYPE_CHECKING:
    from jdr.journal.luck import ActorLuck, Stat

__all__ = ["luck", "show"]


def show(name: str, last: int | None, db: str | None, json: bool, start: int | None = None) -> None:
    """`jdr journal show`: one page of the journal, one plain line an entry."""
    from jdr.journal.queries import journal_page
    from jdr.journal.words import entry_line

    with opened(db) as store:
        page = journal_page(store, name, last, start)
    entries, said, total, size = page.entries, page.said, page.total, page.size
    if json:
        from jdr.answers import journal_show_json

        emit_json(journal_show_json(name, page.commitment, entries, said, total))
        return
    out = console()
    if page.epochs:
        out.print(
            _("seed commitment (epoch {number}): {commitment}").format(
                number=page.epochs[-1].number, commitment=page.commitment
            ),
            markup=False,
        )
    if not entries:
        empty = _("The journal is empty.") if total == 0 else _("No entry from {seq} on.")
        out.print(empty.format(seq=page.first), markup=False)
        return
    lines = [entry_line(entry, entry.seq in page.sealed, said.get(entry.seq)) for entry in entries]
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


def luck(name: str, actor: str | None, exact: bool, db: str | None, json: bool) -> None:
    """`jdr journal luck`."""
    from jdr.cli.render import exact_notice
    from jdr.journal.queries import campaign_luck, luck_json

    with opened(db) as store:
        found = campaign_luck(store, name)
    exact_notice(exact)
    report = found.audit(actor, exact)
    if json:
        emit_json(luck_json(name, found.campaign.system, report, exact))
        return
    _print_luck(report, found.rolls, actor, exact)


def _print_luck(report: list[ActorLuck], rolls: list[Any], actor: str | None, exact: bool) -> None:
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
