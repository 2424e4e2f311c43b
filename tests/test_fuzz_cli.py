"""Property-based fuzzing of the command line (issue 14, item 7): whatever is typed, `jdr` ends
with exit 0, 1 or 2 — with an error line for 2 — never an unhandled exception.

Generated: dice notation (rolled, and small expressions' odds), `--faces`, each rule system
action's options, sheet TOML, journal JSON (random and a real journal with one field changed),
names (campaigns, actors), and (issue 28) `sheet set` fields and values, `simulate --vary`, and
what an editor leaves in `sheet edit`'s file (any bytes). Run through the CLI entry point
in-process. The suite runs
`JDR_FUZZ_EXAMPLES` examples per property (default 20); `benchmarks/fuzz_cli.py` runs the
same properties with a thousand or more.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import shlex
import string
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jdr.cli.app import main

EXAMPLES = int(os.environ.get("JDR_FUZZ_EXAMPLES", "20"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    database=None,
)
FOLDER = Path(tempfile.mkdtemp(prefix="jdr-fuzz-"))


@pytest.fixture(autouse=True, scope="module")
def _database() -> Iterator[None]:
    """One database for the module's examples, with a campaign to roll through."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JDR_DATABASE_URL", f"sqlite:///{FOLDER / 'fuzz.db'}")
        patch.setenv("XDG_DATA_HOME", str(FOLDER / "data"))  # `sheet edit`'s kept files
        jdr("campaign", "new", "Fuzz", "--system", "passion")
        yield


def jdr(*args: str) -> tuple[int, str, str]:
    """`jdr ARGS` in-process; fails the test on any exception that escapes `main`."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def check(*args: str) -> None:
    code, _out, err = jdr(*args)
    assert code in (0, 1, 2), (args, code, err)
    if code == 2:
        assert err.startswith("jdr: error: "), (args, err)
    assert "Traceback" not in err


NOTATION = st.text(alphabet="0123456789dDkKhHlL!<>=+-*/(),fF% xX.", max_size=24)
SMALL_NOTATION = st.builds(
    lambda n, s, extra: f"{n}d{s}{extra}",
    st.integers(-2, 12),
    st.integers(-1, 30),
    st.sampled_from(["", "+3", "kh2", "kl1", "!", ">=4", "f1", "-1d4", "*2", "d", "!!", ">"]),
)
FACES = st.one_of(
    st.text(alphabet="0123456789,; -+", max_size=30),
    st.lists(st.integers(-10, 10**40), max_size=8).map(lambda xs: ",".join(map(str, xs))),
    st.just("9" * 5000),
)
NAME = st.text(max_size=120)
WORD = st.one_of(
    st.text(max_size=12),
    st.integers(-(10**25), 10**25).map(str),
    st.sampled_from(["yes", "true", "1d6", "2d4+1d12", "C+", "feu", "-", "nan", "inf", "1e309"]),
)


@FUZZ
@given(expression=NOTATION, seed=st.integers(0, 2**70))
def test_fuzz_dice_notation_rolled(expression: str, seed: int) -> None:
    check("dice", expression, "--seed", str(seed))
    check("dice", expression, "--seed", str(seed), "--json")


@FUZZ
@given(expression=SMALL_NOTATION, exact=st.booleans())
def test_fuzz_dice_notation_odds(expression: str, exact: bool) -> None:
    check("dice", expression, "--odds", *(["--exact"] if exact else []))


@FUZZ
@given(expression=st.sampled_from(["3d6", "1d20", "4d6kh3", "2d10!"]), faces=FACES)
def test_fuzz_faces(expression: str, faces: str) -> None:
    check("dice", expression, "--faces", faces)


def _actions() -> list[tuple[str, str, list[str]]]:
    from jdr.cli.actions import system_group
    from jdr.systems import default_registry

    found = []
    registry = default_registry()
    common = {"--faces", "--seed", "--campaign", "--actor", "--action-id", "--client-seed"}
    common |= {"--db", "--hidden", "--json", "--lang", "--sheet", "--recap", "--help"}
    for system in registry.ids():
        group = system_group(registry.get(system), "roll")
        for name in group.list_commands(None):
            command = group.get_command(None, name)
            options = [p.opts[0] for p in command.params if p.opts and p.opts[0][:2] == "--"]
            found.append((system, name, [o for o in options if o not in common]))
    return found


ACTIONS = _actions()


@FUZZ
@given(data=st.data())
def test_fuzz_each_actions_options(data: Any) -> None:
    system, action, options = data.draw(st.sampled_from(ACTIONS))
    chosen = data.draw(st.lists(st.sampled_from(options), max_size=4, unique=True))
    args = ["roll", system, action, "--seed", "1"]
    for option in chosen:
        args += [option, data.draw(WORD)]
    check(*args)
    if data.draw(st.booleans()):
        check("odds", system, action, *args[5:])


TOML_VALUE = st.recursive(
    st.one_of(
        st.integers(-(10**40), 10**40).map(str),
        st.text(max_size=10).map(json.dumps),
        st.sampled_from(["true", "false", "1.5", "inf", "nan", "1979-05-27", '""']),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.lists(st.tuples(st.from_regex(r"[a-z_]{1,6}", fullmatch=True), inner), max_size=3).map(
            lambda kv: "{" + ", ".join(f"{k} = {v}" for k, v in kv) + "}"
        ),
    ),
    max_leaves=12,
)
TOML = st.one_of(
    st.lists(
        st.tuples(st.from_regex(r"[a-zA-Z_.\"é ]{1,12}", fullmatch=True), TOML_VALUE), max_size=8
    ).map(lambda kv: "".join(f"{k} = {v}\n" for k, v in kv)),
    st.text(alphabet=string.printable + "éà[]{}", max_size=200),
)


@FUZZ
@given(text=TOML, system=st.sampled_from(["", 'system = "passion"\n', 'system = "pokemon"\n']))
def test_fuzz_sheet_toml(text: str, system: str) -> None:
    sheet = FOLDER / "sheet.toml"
    sheet.write_text(system + text, encoding="utf-8")
    check("sheet", "validate", str(sheet))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)


@functools.cache
def _real_journal_text() -> str:
    """A journal of two rolls, exported once (every example changes a copy of it)."""
    code, out, err = jdr("campaign", "new", "Exported", "--system", "passion")
    for actor in ("Ana", "Bo"):
        code, out, err = jdr("dice", "2d6", "--campaign", "Exported", "--actor", actor)
        assert code == 0, err
    code, out, err = jdr("journal", "export", "Exported")
    assert code == 0, err
    return out


def _real_journal() -> dict[str, Any]:
    exported: dict[str, Any] = json.loads(_real_journal_text())
    return exported


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _paths(inner, (*path, index))


@FUZZ
@given(data=st.data())
def test_fuzz_journal_json(data: Any) -> None:
    journal = FOLDER / "journal.json"
    if data.draw(st.booleans()):
        journal.write_text(json.dumps(data.draw(JSON)), encoding="utf-8")
    else:  # a real journal with one field changed
        exported = _real_journal()
        path = data.draw(st.sampled_from([p for p in _paths(exported) if p]))
        target = exported
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = data.draw(JSON)
        journal.write_text(json.dumps(exported), encoding="utf-8")
    check("verify", str(journal))
    check("verify", str(journal), "--json")


@FUZZ
@given(name=NAME, actor=NAME)
def test_fuzz_names(name: str, actor: str) -> None:
    if "\x00" in name + actor:  # a NUL cannot be an argument of a real process
        return
    check("campaign", "new", name, "--system", "passion")
    check("dice", "1d6", "--campaign", "Fuzz", "--actor", actor)
    check("campaign", "list")
    check("journal", "show", "Fuzz")
    check("journal", "luck", "Fuzz")


EXAMPLES_FOLDER = Path(__file__).parent.parent / "src" / "jdr" / "systems"
WIZARD = "Seraphina Quill"


@functools.cache
def _wizard() -> str:
    """Campaign `Sheets` (Ilvermorny) holding the example wizard, stored once."""
    sheet = EXAMPLES_FOLDER / "ilvermorny" / "examples" / "wizard.toml"
    code, _out, err = jdr("campaign", "new", "Sheets", "--system", "ilvermorny")
    assert code == 0, err
    code, _out, err = jdr("sheet", "add", str(sheet), "--campaign", "Sheets")
    assert code == 0, err
    return "Sheets"


FIELD_PATH = st.one_of(
    st.sampled_from(["stats.magic", "year", "spells[1].xp", "spells[Lumos].level", "name"]),
    st.text(alphabet='abcstx.[]"019 é', max_size=30),
    st.integers(1, 20_000).map(lambda n: ".".join(["stats"] * n)),
    st.integers(1, 5_000).map(lambda n: "spells" + "[1]" * n),
)
SET_VALUE = st.one_of(
    TOML_VALUE,
    WORD,
    st.integers(1, 6_000).map(lambda n: "9" * n),
    st.integers(1, 6_000).map(lambda n: "[" * n + "]" * n),
    st.integers(1, 3_000).map(lambda n: "{" + "a." * n + "b = 1}"),
    st.text(alphabet="[]{}=,.\"'019aé ", max_size=40),
)


@FUZZ
@given(field=FIELD_PATH, value=SET_VALUE)
def test_fuzz_sheet_set_fields_and_values(field: str, value: str) -> None:
    if "\x00" in field + value:  # a NUL cannot be an argument of a real process
        return
    check("sheet", "set", WIZARD, f"{field}={value}", "--campaign", _wizard())


VARY = st.one_of(
    st.builds(
        lambda who, field, value: f"{who}.{field}={value}",
        st.sampled_from(["Kaito Arashi", "kaito", "Maître Corbeau", "Nobody", ""]),
        st.sampled_from(["willpower", "energy", "rank", "stats.x", "techniques", "a.b.c"]),
        st.one_of(SET_VALUE, st.integers(-(10**40), 10**40).map(lambda n: f"{n:+d}")),
    ),
    st.text(max_size=40),
)


@FUZZ
@given(vary=st.lists(VARY, min_size=1, max_size=2))
def test_fuzz_simulate_vary(vary: list[str]) -> None:
    if any("\x00" in change for change in vary):
        return
    examples = EXAMPLES_FOLDER / "plus_ultra" / "examples"
    args = ["simulate", "plus-ultra", "--with", str(examples / "hero.toml")]
    args += ["--against", str(examples / "villain.toml"), "--runs", "4", "--workers", "1"]
    for change in vary:
        args += ["--vary", change]
    check(*args)


EDITED = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=300).map(lambda text: text.encode("utf-8", "surrogatepass")),
    TOML.map(lambda text: ("[stats]\n" + text).encode("utf-8", "surrogatepass")),
    st.sampled_from([b"", b"\x00", b"name = 'x'\x00\n", b"\xff\xfe", b"year = 3\n"]),
)


@FUZZ
@given(content=EDITED, discard=st.booleans(), json_output=st.booleans())
def test_fuzz_sheet_edit_contents(content: bytes, discard: bool, json_output: bool) -> None:
    saved = FOLDER / "edited.bin"
    saved.write_bytes(content)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("EDITOR", shlex.join(["cp", str(saved)]))  # the editor saves `content`
        patch.delenv("VISUAL", raising=False)
        flags = ["--discard"] * discard + ["--json"] * json_output
        check("sheet", "edit", WIZARD, "--campaign", _wizard(), *flags)
