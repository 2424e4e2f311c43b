"""Issue 30 part 5, the terminal: every command's `--help`, and an evening of each system (and of
the example plug-in, Ombres) played through the command line, in French and in English, read by
the shared leak detector (tests/leaks.py): no identifier of the code, no word of the other
language, outside proper names and dice notation.

A leak is reported with the command that printed it and the line it sits in, all of them at once
(the test fails on the first command only after running every one)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import typer

from cli_run import run
from conftest import write_plugin
from jdr.cli.app import build_app
from jdr.systems import Registry, default_registry, set_default_registry
from leaks import PLUGIN_SRC, find_leaks

ROOT = Path(__file__).resolve().parents[1]
SYSTEMS = ROOT / "src" / "jdr" / "systems"
LANGS = ("fr", "en")


@dataclass
class Reader:
    """Runs `jdr` commands in one language and keeps every leak found in what they printed."""

    capsys: pytest.CaptureFixture[str]
    lang: str
    names: tuple[str, ...] = ()
    leaks: list[str] = field(default_factory=list)

    def __call__(self, *args: str, ok: bool = True, data: bool = False) -> str:
        """`jdr ARGS --lang LANG`: what it printed, read for leaks (its errors only when it
        prints `data`: a TOML sheet or an exported journal keeps its format's English keys, as
        `--json` does)."""
        code, out, err = run(self.capsys, *args, "--lang", self.lang)
        if ok:
            assert code == 0, f"jdr {' '.join(args)}: {err}"
        self.read(" ".join(args), err if data else out + err)
        return out

    def read(self, command: str, text: str) -> None:
        for line in text.splitlines():
            found = find_leaks(line, self.lang, self.names)
            if found:
                self.leaks.append(f"jdr {command}: {', '.join(found)}  «{line.strip()}»")

    def check(self) -> None:
        assert not self.leaks, f"{len(self.leaks)} leaks ({self.lang}):\n" + "\n".join(self.leaks)


def command_paths() -> Iterator[tuple[str, ...]]:
    """Every command of the tree, as typed: the built-ins, `jdr roll|odds|advise SYSTEM ACTION`
    for each system's actions (lazy groups, each loaded), and each system's own commands."""
    top = typer.main.get_command(build_app())
    yield from _walk(top, ())
    for system_id in default_registry().ids():
        finder: Any = top
        own = finder.find_command(_context(top, ()), system_id)  # `jdr pokemon types`
        if own is not None:
            yield from _walk(own, (system_id,))


def _context(command: Any, path: tuple[str, ...]) -> Any:
    return typer._click.core.Context(command, info_name=" ".join(("jdr", *path)))


def _walk(command: Any, path: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    yield path
    if not hasattr(command, "list_commands"):
        return
    ctx = _context(command, path)
    for name in command.list_commands(ctx):
        try:
            sub = command.get_command(ctx, name)
        except Exception:  # a system that offers no advice: `jdr advise SYSTEM` refuses it
            continue
        if sub is not None and not getattr(sub, "hidden", False):
            yield from _walk(sub, (*path, name))


@pytest.fixture
def ombres(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Registry:
    """The example plug-in (examples/plugin, Ombres) installed beside the five systems, found
    through its entry point as `pip install` would register it."""
    monkeypatch.syspath_prepend(str(PLUGIN_SRC))
    monkeypatch.syspath_prepend(str(write_plugin(tmp_path / "site", "ombres = jdr_ombres:SYSTEM")))
    registry = Registry.from_entry_points()
    assert "ombres" in registry.ids()
    set_default_registry(registry)
    return registry


@pytest.mark.parametrize("lang", LANGS)
def test_every_help_reads_in_the_readers_language(
    lang: str, ombres: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = list(command_paths())
    assert ("fight", "act") in paths and ("roll", "pokemon", "capture") in paths
    assert ("odds", "ombres", "check") in paths and ("pokemon", "types") in paths
    reader = Reader(capsys, lang)
    for path in paths:
        reader(*path, "--help")
    reader.check()


@dataclass(frozen=True)
class Evening:
    """One evening of a system at the table, as the command line plays it."""

    system: str
    sheets: tuple[str, ...]
    """Example sheets added to the campaign: `KIND` or `KIND:Name` (`jdr sheet example`)."""
    fighters: tuple[str, ...]
    actions: tuple[tuple[str, ...], ...]
    """`ACTOR COMMAND key=value … [--faces …]` after the fight has started."""
    new: tuple[str, ...] = ()
    """What `jdr fight new` takes besides `--with`."""
    names: tuple[str, ...] = ()
    """The proper names the evening adds (sides, figures named in commands)."""


EVENINGS = (
    Evening(
        "plus-ultra", ("hero:Kaito", "villain:Corbeau"), ("Kaito", "Corbeau"),
        (("Kaito", "attack", "target=Corbeau", "--faces", "15"), ("Corbeau", "defend"),
         ("Kaito", "technique", "technique=Rafale", "target=Corbeau", "--faces", "12,3")),
    ),
    Evening(
        "pokemon", ("pokemon:Pika", "pokemon:Chu", "trainer"), ("Pika", "Chu"),
        (("Pika", "move", "move=Éclair", "target=Chu"),
         ("Chu", "respond", "response=dodge", "--seed", "3"), ("Chu", "wait")),
        new=("--faces", "9,2"),
    ),
    Evening(
        "passion", ("romuald", "cyber-ninja"), ("Romuald", "Cyber-ninja"),
        (("Romuald", "choose_marker", "marker=2"), ("Cyber-ninja", "choose_marker", "marker=0")),
        new=("--side", "Romuald=Héros,Cyber-ninja=Ninjas"), names=("Héros", "Ninjas"),
    ),
    Evening(
        "ilvermorny", ("wizard:Ann", "wizard:Bob"), ("Ann", "Bob"),
        (("Ann", "cast", "spell=Lumos"),
         ("Bob", "cast", "spell=Expelliarmus", "--faces", "2,3,6,5")),
    ),
    Evening(
        "poledemos", ("warband:Alice", "warband:Bertrand"), ("Alice", "Bertrand"),
        (("Alice", "activate", "figure=Sergent Perry", "dice=2", "--faces", "5,6"),
         ("Alice", "action", "kind=move")),
        new=("--faces", "6,1"),
    ),
    Evening(
        "ombres", ("scoundrel:Corvo", "scoundrel:Lys"), ("Corvo", "Lys"),
        (("Corvo", "attack", "target=Lys", "--faces", "6,6"),
         ("Lys", "attack", "target=Corvo", "--faces", "5,1")),
    ),
)  # fmt: skip


def _options(example: Mapping[str, Any]) -> list[str]:
    """An action's example as the command line's options."""
    words: list[str] = []
    for key, value in example.items():
        option = "--" + key.replace("_", "-")
        if isinstance(value, bool):
            words += [option] if value else []
        elif isinstance(value, list):
            words += [w for item in value for w in (option, str(item))]
        else:
            words += [option, str(value)]
    return words


def play_evening(evening: Evening, jdr: Reader, folder: Path) -> None:
    """A campaign of `evening.system`, its sheets, rolls, odds and advice, a fight started and
    played, shown, told, undone and ended, then the journal, its verification and the sheets."""
    system: Any = default_registry().get(evening.system)
    jdr("systems")
    jdr("campaign", "new", "Soirée", "--system", evening.system)
    jdr("campaign", "list")
    for sheet in evening.sheets:
        kind, _colon, name = sheet.partition(":")
        text = jdr("sheet", "example", evening.system, kind, data=True)
        path = folder / f"{kind}.toml"
        path.write_text(text, encoding="utf-8")
        jdr("sheet", "validate", str(path), "--system", evening.system)
        jdr("sheet", "add", str(path), "--campaign", "Soirée", *(["--name", name] * bool(name)))
    jdr("sheet", "list", "--campaign", "Soirée")
    jdr("dice", "2d6+3", "--campaign", "Soirée")
    jdr("dice", "1d0", ok=False)
    for name, action in system.actions.items():
        options = _options(action.example)
        jdr("roll", evening.system, name, *options, "--campaign", "Soirée", ok=False)
        if action.odds is not None:
            jdr("odds", evening.system, name, *options, ok=False)
        if action.advise is not None:
            jdr("advise", evening.system, name, ok=False)
    fighters = ",".join(evening.fighters)
    jdr("fight", "new", "--campaign", "Soirée", "--with", fighters, *evening.new)
    first = evening.fighters[0]
    jdr("fight", "commands", "--system", evening.system)
    jdr("fight", "commands", "1", first)
    jdr("fight", "act", "1", first, "--help-commands")
    for command in system.fight_commands or ():
        jdr("fight", "act", "1", first, command.name, "--help")
    for actor, *words in evening.actions:
        jdr("fight", "show", "1")
        jdr("fight", "odds", "1", actor, *words, ok=False)
        jdr("fight", "act", "1", actor, *words)
    for step in ("show", "log", "recap", "outcome", "undo", "redo"):
        jdr("fight", step, "1")
    jdr("fight", "recap", "1", "--round", "1", ok=False)
    jdr("fight", "end", "1")
    jdr("fight", "show", "1")
    jdr("fight", "act", "1", first, "wait", ok=False)
    jdr("campaign", "show", "Soirée")
    jdr("journal", "show", "Soirée")
    jdr("journal", "luck", "Soirée")
    exported = jdr("journal", "export", "Soirée", data=True)
    (folder / "journal.json").write_text(exported, encoding="utf-8")
    jdr("verify", str(folder / "journal.json"))
    for name in {s.partition(":")[2] for s in evening.sheets} - {""}:
        jdr("sheet", "show", name, "--campaign", "Soirée")
        jdr("sheet", "history", name, "--campaign", "Soirée")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("evening", EVENINGS, ids=[e.system for e in EVENINGS])
def test_an_evening_reads_in_the_readers_language(
    evening: Evening,
    lang: str,
    ombres: Registry,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("JDR_DATABASE_URL", f"sqlite:///{tmp_path / 'jdr.db'}")
    names = (
        "Soirée", *evening.fighters, *evening.names,
        *(s.partition(":")[2] for s in evening.sheets),
    )  # fmt: skip
    jdr = Reader(capsys, lang, names=names)
    play_evening(evening, jdr, tmp_path)
    jdr.check()
