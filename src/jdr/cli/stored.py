"""What every command on stored data shares: the help of `--db`, `--json`, `--lang`, and opening
the store (imported only when a command runs, so `jdr --help` stays light)."""

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jdr.i18n import N_

if TYPE_CHECKING:
    from jdr.store import Store

DB_HELP = N_("Database URL (else JDR_DATABASE_URL, else the embedded SQLite file).")
JSON_HELP = N_("Print one JSON object on stdout.")
LANG_HELP = N_("Language of the output.")
CAMPAIGN_ROLL_HELP = N_("Roll through this campaign's journal: verifiable dice.")
ACTOR_HELP = N_("Who rolls (for the journal and its luck audit).")
ACTION_ID_HELP = N_("The action's id (e.g. the forum post): asking again gives the same roll.")
CLIENT_SEED_HELP = N_(
    "A player's own text mixed into the dice, so nobody could know them in advance."
)
HIDDEN_HELP = N_("A GM's secret roll: only its hash is public until disclosed.")
OUTPUT_HELP = N_("Write to this file (- or none: standard output).")


@contextmanager
def opened(db: str | None) -> "Iterator[Store]":
    """The store at `db` (else `JDR_DATABASE_URL`, else the embedded file), closed after use."""
    from jdr.store import open_store

    store = open_store(db)
    try:
        yield store
    finally:
        store.close()


def output_file(path: Path | None) -> Path | None:
    """`--output`'s file, or None for standard output (no option, or `-`)."""
    return None if path is None or str(path) == "-" else path


def write_output(path: Path, text: str) -> None:
    """Write `--output`; a file that cannot be written is an `InputError` saying why."""
    from jdr.errors import InputError
    from jdr.i18n import _

    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        reason = error.strerror or str(error)
        raise InputError("--output", str(path), _("a writable file"), reason) from None


def deliver(
    text: str,
    output: Path | None,
    as_json: bool,
    payload: dict[str, Any],
    written: Callable[[Path], str],
) -> None:
    """A file's text for `--output` (standard output without it or with `-`); with `--json`, the
    `payload` plus `output` and `toml` instead; `written(file)` says where it went."""
    from jdr.cli.render import console, emit_json

    target = output_file(output)
    if target is not None:
        write_output(target, text)
    if as_json:
        emit_json({**payload, "output": None if target is None else str(target), "toml": text})
        return
    if target is None:
        sys.stdout.write(text)
        return
    console().print(written(target), markup=False)
