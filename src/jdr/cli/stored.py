"""What every command on stored data shares: the help of `--db`, `--json`, `--lang`, and opening
the store (imported only when a command runs, so `jdr --help` stays light)."""

import contextlib
import os
import stat
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
    from jdr.i18n import _
    from jdr.store import open_store

    store = open_store(db)
    for warning in store.warnings:
        sys.stderr.write(_("jdr: warning: {text}").format(text=warning) + "\n")
    try:
        yield store
    finally:
        store.close()


def campaign_system(campaign: str, db: str | None) -> str:
    """The id of the rule system `campaign` plays, read from the store at `db`: what a command
    given `--campaign` and no SYSTEM plays (`jdr simulate --campaign Duel …`)."""
    from jdr.campaigns import system_played

    with opened(db) as store:
        return system_played(store, campaign)


def one_output(positional: str | None, output: str | None, field: str = "FILE") -> str | None:
    """Where a command writes: its FILE argument or `--output`/`-o` (the grammar every export
    shares), None when neither is given. Both given and different is an `InputError`.

    >>> one_output("out.json", None), one_output(None, "out.json"), one_output("a", "a")
    ('out.json', 'out.json', 'a')
    """
    if positional is not None and output is not None and positional != output:
        from jdr.errors import InputError
        from jdr.i18n import _

        raise InputError(
            field,
            positional,
            _("{field} or --output {field}, not both").format(field=field),
            _("--output names another file: {output}").format(output=output),
        )
    return output if output is not None else positional


def output_file(path: Path | None) -> Path | None:
    """`--output`'s file, or None for standard output (no option, or `-`)."""
    return None if path is None or str(path) == "-" else path


def write_output(path: Path, data: str | bytes, field: str = "--output") -> None:
    """Write `--output` safely: into a temporary file of the same folder, flushed to disk, then
    renamed over `path` — a crash or a full disk never leaves half a file. Only a regular file
    is replaced: a symbolic link, a device, a pipe, a socket or a folder at `path` is refused
    (`check_target`), never written through nor replaced. A new file is readable by its owner
    only; a file replaced keeps its permissions. A file that cannot be written is an
    `InputError` saying why, and nothing is left behind."""
    import os
    import stat

    with _beside(path, data, field) as (temporary, existing):
        if existing is not None:
            os.chmod(temporary, stat.S_IMODE(existing.st_mode))
        os.replace(temporary, path)


def write_private(path: Path, text: str, replace: bool, field: str = "FILE") -> None:
    """Write a secret file (a campaign's backup): readable and writable by its owner only
    (0600, whatever the umask and whatever a file replaced had), written to a temporary file of
    the same folder, flushed, then put in place — linked at `path`, which fails if anything is
    there (no check-then-write race), or, with `replace`, renamed over it (a symbolic link at
    `path` is replaced, its target never written). Refused (`InputError`) when `path` exists
    and `replace` is not given, or when it cannot be written; nothing is left behind."""
    import errno

    from jdr.errors import InputError
    from jdr.i18n import _

    exists = InputError(
        field, str(path), _("a new file, or --force to replace it"), _("the file exists")
    )
    with _beside(path, text, field) as (temporary, existing):
        if existing is not None and not replace:
            raise exists
        if replace:
            os.replace(temporary, path)
            return
        try:
            os.link(temporary, path)  # atomic: refused if a file appeared meanwhile
        except FileExistsError:
            raise exists from None
        except OSError as error:  # a file system without hard links: check, then rename
            if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EXDEV, errno.EMLINK):
                raise
            if os.path.lexists(path):
                raise exists from None
            os.replace(temporary, path)


_KINDS = (
    (stat.S_ISDIR, N_("a folder")),
    (stat.S_ISLNK, N_("a symbolic link")),
    (stat.S_ISFIFO, N_("a named pipe")),
    (stat.S_ISCHR, N_("a device")),
    (stat.S_ISBLK, N_("a device")),
    (stat.S_ISSOCK, N_("a socket")),
)


def check_target(path: Path, field: str) -> "os.stat_result | None":
    """What `path` is now (`os.lstat`, None when nothing is there), refused (`InputError` on
    `field`) unless it is a regular file: jdr writes a file beside a target and renames it over,
    so it never writes through a symbolic link, and never replaces a device such as `/dev/null`,
    a named pipe, a socket or a folder with a regular file."""
    from jdr.errors import InputError
    from jdr.i18n import _

    try:
        existing = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        reason = error.strerror or str(error)
        raise InputError(field, str(path), _("a writable file"), reason) from None
    if stat.S_ISREG(existing.st_mode):
        return existing
    raise InputError(
        field,
        str(path),
        _("a new file, or a regular file to replace"),
        _("{kind}, not a regular file").format(kind=kind_of(existing.st_mode)),
    )


def kind_of(mode: int) -> str:
    """What a file of `mode` (`st_mode`) is, in words: a folder, a symbolic link, a device …"""
    from jdr.i18n import _

    return next((_(name) for test, name in _KINDS if test(mode)), _("a regular file"))


@contextmanager
def _beside(path: Path, data: str | bytes, field: str) -> "Iterator[tuple[str, Any]]":
    """`(temporary, existing)`: a new file of `path`'s folder holding `data` (text as UTF-8),
    flushed to disk and readable by its owner only, for the caller to put in place, and what
    `path` is now (`check_target`, looked at again once the temporary file is written, just
    before it is put in place). The temporary file is removed if it is still there afterwards;
    an `OSError` is an `InputError` on `field` saying why."""
    import tempfile

    from jdr.errors import InputError
    from jdr.i18n import _

    folder = path.parent if str(path.parent) else Path(".")
    temporary: str | None = None
    try:
        check_target(path, field)  # before anything is written beside it
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        os.fchmod(handle, 0o600)
        with os.fdopen(handle, "wb") as file:
            file.write(data.encode("utf-8") if isinstance(data, str) else data)
            file.flush()
            os.fsync(file.fileno())
        yield temporary, check_target(path, field)
    except OSError as error:
        reason = error.strerror or str(error)
        raise InputError(field, str(path), _("a writable file"), reason) from None
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)  # gone once renamed into place


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
