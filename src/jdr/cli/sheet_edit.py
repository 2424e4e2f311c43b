"""`jdr sheet edit NAME --campaign C`: the sheet in `$VISUAL` or `$EDITOR`, checked when the
editor exits, and kept in its file when refused, so nothing typed is lost.

The file lives in the user's private data folder, beside the embedded database
(`edits/CAMPAIGN-NAME.toml`, the folder readable by its owner only); its first line names the
revision the edit started from, so an edit made while another revision landed is moved onto it
(`jdr.characters.service.replace`). Whatever the editor leaves there is read with care: never
through a symbolic link, a regular file only, at most a sheet's size (`MAX_SHEET_BYTES`), UTF-8
text without NUL; anything else is a clear message, and `--discard` removes whatever is there
(a folder too, never following a link) to start again.

No `from __future__ import annotations` here, like the other command modules.
"""

import contextlib
import errno
import os
import re
import shlex
import stat
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from jdr.cli.render import console, emit_json
from jdr.cli.sheet_render import show_revised
from jdr.cli.stored import kind_of, opened
from jdr.errors import InputError, JdrError
from jdr.i18n import _

if TYPE_CHECKING:
    from jdr.store import Campaign

__all__ = ["EditKeptError", "edit", "edit_file"]

EDIT_HEADER = re.compile(r"^# jdr sheet edit: .* revision (\d+)\b", re.MULTILINE)


def edit_file(campaign: str, name: str) -> Path:
    """Where `jdr sheet edit` keeps a sheet being edited: the user's private data folder (the
    embedded database's), one file per campaign and character."""
    from jdr.store.engine import default_file

    folder = default_file().parent / "edits"
    safe = re.sub(r"[^\w.-]+", "_", f"{campaign}-{name}", flags=re.UNICODE).strip("_")
    return folder / f"{safe}.toml"


class EditKeptError(JdrError):
    """An edit refused: its problem (naming the file by its name), and where the edited file is
    kept (its whole path); `blocked` when what is there cannot be edited again (a folder, a
    link): then `--discard` is the way on."""

    def __init__(self, error: JdrError, path: Path, command: str, blocked: bool = False) -> None:
        super().__init__(str(error))
        self.error = error
        self.code = error.code
        self.path = path
        self.command = command
        self.blocked = blocked
        self.extra = {"kept": str(path)}
        self.problems = getattr(error, "problems", None)

    def message(self) -> str:
        if self.blocked:  # nothing there can be opened again: only starting again helps
            hint = _("`{command} --discard` removes {path} and starts again").format(
                command=self.command, path=self.path
            )
        else:
            hint = _("your edit is kept in {path}: `{command}` opens it again").format(
                path=self.path, command=self.command
            )
        return "\n".join([self.error.message(), hint])


def edit(
    name: str, campaign: str, discard: bool, actor: str | None, db: str | None, json: bool
) -> None:
    from jdr.characters import service
    from jdr.cli.render import command_line
    from jdr.sheets import read_toml
    from jdr.toml_write import to_toml

    with opened(db) as store:
        found = store.campaign(campaign)
        view = service.show(store, found, name)
    path = edit_file(found.name, view.character.name)
    again = command_line("jdr", "sheet", "edit", view.character.name, "--campaign", found.name)
    _private_folder(path.parent)
    written = None
    if discard:
        _remove(path)
    if discard or not os.path.lexists(path):
        header = _header(found, view.character.name, view.revision)
        written = header + to_toml(view.sheet)
        _create(path, written)
    else:
        _opened(path, again).close()  # anything but a kept edit is refused before the editor
        if not json:
            console().print(
                _("continuing the edit kept in {path} (--discard: start again)").format(path=path),
                markup=False,
            )
    _run_editor(path, again)
    text = _read(path, again)
    if text == written:
        path.unlink()
        if json:
            emit_json({"campaign": found.name, "character": view.character.name, "changed": False})
        else:
            console().print(_("no change"), markup=False)
        return
    match = EDIT_HEADER.search(text)
    base = int(match.group(1)) if match else None
    try:
        # with a line break, always read as text (`read_toml` takes a bare word for a file name)
        data, _label = read_toml(text if "\n" in text else text + "\n", "sheet")
        with opened(db) as store:
            revised = service.replace(
                store, found, view.character.name, data, base, actor, str(path)
            )
    except JdrError as error:
        raise EditKeptError(error, path, again) from None
    path.unlink()
    show_revised(found, revised.character.name if revised.character else name, revised, json)


def _private_folder(folder: Path) -> None:
    """The edits' folder, made if missing, readable by its owner only (0700, whatever the umask,
    as the data folder it is in); a symbolic link or a file there is refused."""
    try:
        if not folder.parent.is_dir():
            folder.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.chmod(folder.parent, 0o700)
        with contextlib.suppress(FileExistsError):
            folder.mkdir(mode=0o700)
        found = os.lstat(folder)
        if not stat.S_ISDIR(found.st_mode):
            reason = _("{kind}, not a folder").format(kind=kind_of(found.st_mode))
            raise NotADirectoryError(errno.ENOTDIR, reason, str(folder))
        if stat.S_IMODE(found.st_mode) & 0o077 and found.st_uid == os.getuid():
            os.chmod(folder, 0o700)
    except OSError as error:
        raise InputError(
            _("edits folder"), str(folder), _("a folder of yours"), error.strerror or str(error)
        ) from None


def _create(path: Path, text: str) -> None:
    """A new edit file at `path` holding `text`, readable by its owner only; made where nothing
    is (`O_EXCL`: never through a link that appeared meanwhile)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
    try:
        handle = os.open(path, flags, 0o600)
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
    except OSError as error:
        raise InputError(
            _("edit file"), str(path), _("a writable file"), error.strerror or str(error)
        ) from None


def _remove(path: Path) -> None:
    """Remove whatever is at `path` (`--discard`): a file or a link itself (never what it
    points to), or a folder an editor left, with all it holds (`shutil.rmtree`, which does not
    follow links)."""
    import shutil

    try:
        if stat.S_ISDIR(os.lstat(path).st_mode):
            shutil.rmtree(path)
        else:
            os.unlink(path)
    except FileNotFoundError:
        return
    except OSError as error:
        raise InputError(
            _("edit file"), str(path), _("a file jdr may remove"), error.strerror or str(error)
        ) from None


def _opened(path: Path, again: str) -> BinaryIO:
    """The edit file at `path`, opened to read: a regular file, never through a symbolic link
    (`O_NOFOLLOW`) nor waiting on a pipe (`O_NONBLOCK`). Anything else there (a folder, a link, a
    pipe) or nothing is refused with `--discard`'s hint."""
    field = _("edit file")
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        handle = os.open(path, flags)
    except OSError as error:
        if error.errno == errno.ENOENT:  # removed by the editor: the next edit starts again
            reason = _("the editor left no file there")
            raise InputError(field, str(path), _("a regular file"), reason) from None
        reason = error.strerror or str(error)
        if error.errno == errno.ELOOP:
            reason = _not_regular(stat.S_IFLNK)
        problem = InputError(field, path.name, _("a regular file"), reason)
        raise EditKeptError(problem, path, again, blocked=True) from None
    mode = os.fstat(handle).st_mode
    if not stat.S_ISREG(mode):
        os.close(handle)
        problem = InputError(field, path.name, _("a regular file"), _not_regular(mode))
        raise EditKeptError(problem, path, again, blocked=True)
    return os.fdopen(handle, "rb")


def _read(path: Path, again: str) -> str:
    """The edit at `path` (`_opened`): at most a sheet's size, UTF-8 text without NUL; a file
    too large or not text is kept for another try (`EditKeptError`)."""
    from jdr.bounded import MAX_SHEET_BYTES, size_text
    from jdr.errors import LimitError

    field = _("edit file")
    with _opened(path, again) as file:
        try:
            data = file.read(MAX_SHEET_BYTES + 1)
        except OSError as error:
            problem = InputError(
                field, path.name, _("a readable file"), error.strerror or str(error)
            )
            raise EditKeptError(problem, path, again) from None
    if len(data) > MAX_SHEET_BYTES:
        size = size_text(MAX_SHEET_BYTES)
        problem = LimitError(
            field,
            path.name,
            _("at most {size}").format(size=size),
            _("larger than {size}").format(size=size),
        )
        raise EditKeptError(problem, path, again)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        problem = InputError(field, path.name, _("UTF-8 text"), _("not UTF-8 text"))
        raise EditKeptError(problem, path, again) from None
    if "\x00" in text:
        problem = InputError(field, path.name, _("UTF-8 text"), _("a NUL character (binary data)"))
        raise EditKeptError(problem, path, again)
    return text


def _not_regular(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    return _("{kind}, not a regular file").format(kind=kind_of(mode))


def _header(campaign: "Campaign", name: str, revision: int) -> str:
    return (
        f"# jdr sheet edit: {name} (campaign {campaign.name}), revision {revision}\n"
        + "# "
        + _("Save and close the editor to store it; a sheet with a problem stays in this file.")
        + "\n\n"
    )


def _run_editor(path: Path, again: str) -> None:
    """`$VISUAL` or `$EDITOR` (else `vi`) on `path`; a missing or failing editor keeps it."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    try:
        done = subprocess.run([*shlex.split(editor), str(path)], check=False)
    except OSError as error:
        raise InputError(
            "EDITOR", editor, _("an editor command"), error.strerror or str(error)
        ) from None
    if done.returncode != 0:
        problem = InputError(
            "EDITOR",
            editor,
            _("an editor that exits with 0"),
            _("it exited with {code}").format(code=done.returncode),
        )
        raise EditKeptError(problem, path, again)
