"""`jdr verify FILE`: a journal file checked offline (`jdr.journal.queries.verify_journal_file`),
and what it found, told.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jdr.cli.render import console, emit_json
from jdr.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from jdr.journal.verify import Report

__all__ = ["pins_of", "verify_file"]

Json = dict[str, Any]


def verify_file(
    file: str, pins: list[str] | None, json: bool, witness_files: list[str] | None = None
) -> int:
    """`jdr verify FILE`: 0 when everything checks, 1 at the first discrepancy. The file is
    read piece by piece (`jdr.journal.reading`): a journal of any length, in bounded memory."""
    from jdr.journal.queries import verify_journal_file
    from jdr.journal.verify import witnesses_in

    pinned = pins_of(pins or [])
    witnesses = [w for name in witness_files or [] for w in witnesses_in(_read_text(name), name)]
    header, report = verify_journal_file(file, pinned, witnesses)
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


def pins_of(pins: list[str]) -> dict[int, str]:
    """`--pin SEQ:HASH …` (or `SEQ:HASH,SEQ:HASH`): the hash each entry must start with."""
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


def _print_report(data: Json, report: Report) -> None:
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
