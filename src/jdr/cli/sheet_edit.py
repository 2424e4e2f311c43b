"""`jdr sheet edit NAME --campaign C`: the sheet in `$VISUAL` or `$EDITOR`, checked when the
editor exits, and kept in its file when refused, so nothing typed is lost.

The file lives in the user's data folder (`edits/CAMPAIGN-NAME.toml`); its first line names the
revision the edit started from, so an edit made while another revision landed is moved onto it
(`jdr.characters.service.replace`).

No `from __future__ import annotations` here, like the other command modules.
"""

import os
import re
import shlex
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from jdr.cli.render import console, emit_json
from jdr.cli.sheet_render import show_revised
from jdr.cli.stored import opened
from jdr.errors import InputError, JdrError
from jdr.i18n import _

if TYPE_CHECKING:
    from jdr.store import Campaign

__all__ = ["EditKeptError", "edit", "edit_file"]

EDIT_HEADER = re.compile(r"^# jdr sheet edit: .* revision (\d+)\b", re.MULTILINE)


def edit_file(campaign: str, name: str) -> Path:
    """Where `jdr sheet edit` keeps a sheet being edited: the user's data folder, one file per
    campaign and character."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("jdr", appauthor=False)) / "edits"
    safe = re.sub(r"[^\w.-]+", "_", f"{campaign}-{name}", flags=re.UNICODE).strip("_")
    return folder / f"{safe}.toml"


class EditKeptError(JdrError):
    """An edit refused: its problem, and where the edited file is kept."""

    def __init__(self, error: JdrError, path: Path, command: str) -> None:
        super().__init__(str(error))
        self.error = error
        self.code = error.code
        self.path = path
        self.command = command
        self.extra = {"kept": str(path)}
        self.problems = getattr(error, "problems", None)

    def message(self) -> str:
        return "\n".join(
            [
                self.error.message(),
                _("your edit is kept in {path}: `{command}` opens it again").format(
                    path=self.path, command=self.command
                ),
            ]
        )


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
    written = None
    if discard or not path.exists():
        header = _header(found, view.character.name, view.revision)
        written = header + to_toml(view.sheet)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(written, encoding="utf-8")
    elif not json:
        console().print(
            _("continuing the edit kept in {path} (--discard: start again)").format(path=path),
            markup=False,
        )
    _run_editor(path, again)
    text = path.read_text(encoding="utf-8")
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
        data, _label = read_toml(text if text.strip() else "\n", "sheet")
        with opened(db) as store:
            revised = service.replace(
                store, found, view.character.name, data, base, actor, str(path)
            )
    except JdrError as error:
        raise EditKeptError(error, path, again) from None
    path.unlink()
    show_revised(found, revised.character.name if revised.character else name, revised, json)


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
