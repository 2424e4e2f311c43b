"""The command-line shell: global options anywhere, --version, completion, French help,
exploring."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
import typer

from cli_run import run
from conftest import write_plugin
from jdr.cli import click_words
from jdr.cli.app import build_app, main
from jdr.i18n import set_language
from jdr.systems import default_registry

JDR = Path(sys.executable).with_name("jdr")
EXAMPLES = Path(__file__).parents[1] / "src" / "jdr" / "systems" / "plus_ultra" / "examples"
BUILT_IN = ["ilvermorny", "passion", "plus-ultra", "pokemon", "poledemos"]


# --- global options anywhere -----------------------------------------------------------------


def test_lang_before_the_command_gives_the_french_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--lang", "fr", "--help")
    assert code == 0, err
    assert out.startswith("Utilisation\u00a0: jdr ")
    assert "Affiche ce message et quitte." in out


def test_json_before_the_command_gives_json(capsys: pytest.CaptureFixture[str]) -> None:
    before = run(capsys, "--json", "dice", "2d6", "--seed", "3")
    after = run(capsys, "dice", "2d6", "--seed", "3", "--json")
    assert before == after
    assert json.loads(before[1])["expression"] == "2d6"


@pytest.mark.parametrize(
    "args",
    [
        ("--lang", "fr", "roll", "pokemon", "check", "--dice", "2", "--faces", "7,1"),
        ("roll", "--lang", "fr", "pokemon", "check", "--dice", "2", "--faces", "7,1"),
        ("roll", "pokemon", "--lang=fr", "check", "--dice", "2", "--faces", "7,1"),
        ("roll", "pokemon", "check", "--dice", "2", "--faces", "7,1", "--lang", "fr"),
    ],
    ids=["top", "roll", "system", "action"],
)
def test_lang_means_the_same_at_every_level(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 0, err
    assert "1 succès − 1 échec = 0 → échec" in out


@pytest.mark.parametrize(
    "args",
    [
        ("--json", "roll", "pokemon", "check", "--dice", "2", "--faces", "7,1"),
        ("roll", "--json", "pokemon", "check", "--dice", "2", "--faces", "7,1"),
        ("roll", "pokemon", "--json", "check", "--dice", "2", "--faces", "7,1"),
    ],
)
def test_json_means_the_same_at_every_level(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 0, err
    payload = json.loads(out)
    assert (payload["system"], payload["faces"], payload["outcome"]) == (
        "pokemon",
        [7, 1],
        "failure",
    )


def test_json_before_the_command_gives_a_json_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--json", "roll", "pokemon", "check", "--dice", "x")
    assert code == 2
    assert err.count("\n") == 1
    assert json.loads(out)["error"]["field"] == "--dice"


def test_a_lang_value_placed_early_is_not_taken_for_a_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "--lang", "fr", "dice", "2d6", "--faces", "1,2")
    assert (code, out, err) == (0, "2d6 (1, 2) = 3\n", "")
    code, out, err = run(capsys, "--lang", "de", "dice", "2d6")
    assert code == 2 and "--lang: de" in err


def test_global_options_at_a_store_group(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'jdr.db'}"
    code, out, err = run(capsys, "campaign", "--json", "list", "--db", db)
    assert code == 0, err
    assert json.loads(out) == {"campaigns": []}


def test_json_given_to_a_command_without_json_output_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "--json", "demo")
    assert code == 2
    assert err.count("\n") == 1 and "jdr demo has no JSON output" in err
    assert json.loads(out)["error"]["field"] == "--json"


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "--version")
    assert code == 0
    assert out == f"jdr {version('jdr')}\n"
    assert out == "jdr 0.1.0\n"


# --- click's words and usage errors in French --------------------------------------------------

CLICK_ENGLISH = (
    "Usage:",
    "Show this message",
    "Options:",
    "Commands",
    "Arguments:",
    "default:",
    "[required]",
    "COMMAND [ARGS]",
    "[ARGS]",
    "Install completion",
    "Print the version",
)


@pytest.mark.parametrize(
    "args",
    [
        ("--lang", "fr", "--help"),
        ("roll", "pokemon", "check", "--help", "--lang", "fr"),
        ("fight", "--help", "--lang", "fr"),
        ("fight", "act", "--help", "--lang", "fr"),
        ("sheet", "validate", "--lang", "fr", "--help"),
    ],
)
def test_the_french_help_has_no_english_click_word(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 0, err
    assert "Utilisation\u00a0: jdr" in out and "Affiche ce message et quitte." in out
    for word in CLICK_ENGLISH:
        assert word not in out, word


def test_french_help_translates_click_required_and_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _err = run(capsys, "fight", "recap", "--help", "--lang", "fr")
    assert code == 0
    assert "[obligatoire]" in out
    assert re.search(r"\[par défaut\s:\s+texte\]", out)
    assert "Arguments\u00a0:" in out and "Options\u00a0:" in out


@pytest.mark.parametrize(
    ("args", "english", "french"),
    [
        (
            ("dice", "2d6", "extra"),
            "extra argument: extra — not expected here (allowed: see jdr dice --help)",
            "argument en trop\u00a0: extra — inattendu ici (permis\u00a0: voir jdr dice --help)",
        ),
        (("systems", "--json=3"), "--json: takes no value", "--json\u00a0: ne prend pas de valeur"),
        (
            ("roll", "pokemon", "check", "--dice"),
            "--dice: needs a value",
            "--dice\u00a0: attend une",
        ),
        (
            ("journal", "show", "x", "--last", "0"),
            "--last: 0 is not allowed (allowed: a whole number, at least 1)",
            "--last\u00a0: 0 n'est pas permis (permis\u00a0: un nombre entier, au moins 1)",
        ),
        (
            ("fight", "show", "abc"),
            "FIGHT: not a valid value (allowed: a whole number)",
            "COMBAT\u00a0: valeur invalide (permis\u00a0: un nombre entier)",
        ),
        (("frobnicate",), "unknown command frobnicate", "commande frobnicate\u00a0: introuvable"),
        (
            ("campaign", "nope"),
            "unknown command nope (known: export, feed, import, invite, list, new",
            "commande nope",
        ),
    ],
)
def test_usage_errors_are_one_line_in_both_languages(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], english: str, french: str
) -> None:
    for lang, expected in (("en", english), ("fr", french)):
        code, out, err = run(capsys, "--lang", lang, *args)
        assert code == 2
        assert out == ""
        assert err.count("\n") == 1 and expected in err, err
        assert "Usage" not in err and "Got unexpected" not in err and "Input should" not in err


# --- no Python type in any help, in either language --------------------------------------------


def _command_paths() -> list[tuple[str, ...]]:
    """Every command and group of the tree, the systems' actions and own commands included."""
    set_language("en")
    root = typer.main.get_command(build_app())
    registry = default_registry()
    extras = [i for i in registry.ids() if registry.get(i).commands() is not None]
    paths: list[tuple[str, ...]] = []

    def visit(command: Any, ctx: Any, path: tuple[str, ...]) -> None:
        paths.append(path)
        if not isinstance(command, typer.core.TyperGroup):
            return
        names = list(command.list_commands(ctx)) + (extras if not path else [])
        for name in names:
            sub = command.get_command(ctx, name)
            if sub is not None:
                visit(
                    sub,
                    sub.make_context(name, [], parent=ctx, resilient_parsing=True),
                    (*path, name),
                )

    visit(root, root.make_context("jdr", [], resilient_parsing=True), ())
    return paths


PATHS = _command_paths()
PYTHON = re.compile(
    r"<list|list\[|dict|\{\}|\bNone\b|\(default: \)|\[default: \]|\(par défaut\s: \)|\[\]"
    r"|<(str|int|bool|float|Path)>|<enum|<class|\b[A-Z]\w+\.\w+:|\bTrue\b|\bFalse\b"
)


def test_the_walk_covers_every_level() -> None:
    assert {(), ("roll",), ("odds", "pokemon"), ("advise", "passion", "action")} <= set(PATHS)
    assert {("fight", "act"), ("journal", "luck"), ("db", "upgrade"), ("pokemon", "types")} <= set(
        PATHS
    )
    for system in BUILT_IN:
        actions = default_registry().get(system).actions
        assert {("roll", system, name) for name in actions} <= set(PATHS)
    assert ("advise", "pokemon") not in PATHS  # no advisor: refused, tested below


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_help_text_shows_a_python_type(capsys: pytest.CaptureFixture[str], lang: str) -> None:
    for path in PATHS:
        code, out, err = run(capsys, *path, "--help", "--lang", lang)
        assert code == 0, (path, err)
        for line in out.splitlines():
            assert not PYTHON.search(line), f"jdr {' '.join(path)} --help: {line}"
        if lang == "fr":
            for word in CLICK_ENGLISH:
                assert word not in out, f"jdr {' '.join(path)} --help: {word}"


def test_an_empty_default_shows_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "roll", "ilvermorny", "create", "--help")
    assert code == 0
    assert "--questionnaire QUESTIONNAIRE" in out
    assert "(default:" not in out.split("--questionnaire")[1].split("--free")[0]


def test_a_list_option_shows_its_metavar(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "odds", "poledemos", "hand", "--help")
    assert code == 0
    assert "--figures A,B,…" in out


# --- exploring ---------------------------------------------------------------------------------


def test_bare_jdr_prints_the_overview(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys)
    assert (code, err) == (0, "")
    assert "Usage" not in out and "--help  " not in out
    for name in ("roll", "odds", "advise", "campaign", "sheet", "fight", "journal", "db"):
        assert re.search(rf"^  {name} +\S", out, re.MULTILINE), name


def test_bare_roll_lists_the_systems_one_line_each(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "roll")
    assert (code, err) == (0, "")
    assert "Usage" not in out
    for system in BUILT_IN:
        name = default_registry().get(system).names["en"]
        assert re.search(rf"^  {system} +{re.escape(name)}$", out, re.MULTILINE), system


def test_bare_roll_shows_a_broken_plugin_beside_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.syspath_prepend(str(write_plugin(tmp_path, "broken = no_such_module:SYSTEM")))
    code, out, err = run(capsys, "roll")
    assert (code, err) == (0, "")
    assert re.search(r"^  broken +rule system broken cannot be used", out, re.MULTILINE)
    assert re.search(r"^  pokemon +Pokémon tabletop RPG$", out, re.MULTILINE)


def test_bare_advise_lists_only_the_systems_with_an_advisor(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _err = run(capsys, "advise", "--json")
    assert code == 0
    assert [c["name"] for c in json.loads(out)["commands"]] == ["passion"]


def test_odds_of_a_system_lists_its_actions_with_odds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "odds", "pokemon")
    assert (code, err) == (0, "")
    assert "Actions:" in out
    assert re.search(r"^  initiative +Initiative: 1d10 \+ Dextérité \(PK-5\)\.$", out, re.MULTILINE)
    code, out, _err = run(capsys, "odds", "passion", "--json")
    assert [c["name"] for c in json.loads(out)["commands"]] == ["action", "damage"]


@pytest.mark.parametrize(
    "args", [("advise", "pokemon"), ("advise", "pokemon", "check"), ("advise", "pokemon", "--help")]
)
def test_advise_for_a_system_without_advisor_names_those_with_one(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, "")
    assert err == "jdr: error: pokemon has no advisor; systems with one: passion\n"
    code, out, err = run(capsys, *args, "--lang", "fr")
    assert err == (
        "jdr\u00a0: erreur\u00a0: pokemon n'a pas de conseiller\u202f; systèmes qui en ont"
        " un\u00a0: passion\n"
    )


def test_odds_for_an_action_without_odds_names_those_with_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "odds", "passion", "initiative", "--dice", "2", "--json")
    assert code == 2
    assert err == (
        "jdr: error: passion initiative has no odds; actions with odds: action, damage\n"
    )
    error = json.loads(out)["error"]
    assert (error["code"], error["value"], error["allowed"]) == (
        "not_offered",
        "passion initiative",
        "action, damage",
    )
    code, out, err = run(capsys, "advise", "passion", "damage", "--lang", "fr")
    assert err == (
        "jdr\u00a0: erreur\u00a0: passion dégâts n'a pas de conseiller\u202f; actions qui en"
        " ont un\u00a0: action\n"
    )


@pytest.mark.parametrize("group", ["campaign", "sheet", "fight", "journal", "db"])
def test_a_bare_store_group_lists_its_subcommands(
    capsys: pytest.CaptureFixture[str], group: str
) -> None:
    code, out, err = run(capsys, group)
    assert (code, err) == (0, "")
    expected = {
        "campaign": [
            "new",
            "list",
            "show",
            "rm",
            "invite",
            "revoke",
            "reveal",
            "export",
            "import",
            "webhook",
            "feed",
        ],
        "sheet": [
            "add",
            "list",
            "show",
            "validate",
            "export",
            "example",
            "history",
            "set",
            "edit",
            "rename",
            "rm",
            "undo",
            "redo",
            "buy",
            "award",
            "year",
            "grant",
            "rank",
            "new",
        ],
        "fight": [
            "new",
            "act",
            "commands",
            "show",
            "log",
            "undo",
            "redo",
            "recap",
            "outcome",
            "end",
            "odds",
            "pace",
            "late",
        ],
        "journal": ["show", "export", "luck", "disclose"],
        "db": ["upgrade"],
    }[group]
    assert re.findall(r"^  (\S+) +\S", out, re.MULTILINE) == expected
    assert f"jdr {group} COMMAND --help" in out
    code, out, _err = run(capsys, "--lang", "fr", group)
    assert "Commandes\u00a0:" in out and f"jdr {group} COMMANDE --help" in out


# --- completion, as the shell asks for it -------------------------------------------------------


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JDR_", "_JDR_"))}
    env.update(LANG="C.UTF-8", **extra)
    return env


def complete(line: str, env: dict[str, str]) -> list[str]:
    """What `jdr` answers bash for the command line `line` (the word after its last space)."""
    words = re.split(r"(?<!\\) ", line)  # as bash splits words: an escaped space is kept
    done = subprocess.run(
        [str(JDR)],
        env={
            **env,
            "_JDR_COMPLETE": "complete_bash",
            "COMP_WORDS": line,
            "COMP_CWORD": str(len(words) - 1),
        },
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    return [line for line in done.stdout.splitlines() if line]  # bash drops a blank answer


@pytest.fixture
def table(database_url: str, capsys: pytest.CaptureFixture[str]) -> Iterator[str]:
    """A campaign with two Plus Ultra characters and a fight between them."""
    for args in (
        ("campaign", "new", "Mardi soir", "--system", "plus-ultra"),
        ("sheet", "add", str(EXAMPLES / "hero.toml"), "--campaign", "Mardi soir"),
        ("sheet", "add", str(EXAMPLES / "villain.toml"), "--campaign", "Mardi soir"),
        ("campaign", "new", "Autre", "--system", "pokemon"),
        ("fight", "new", "--campaign", "Mardi soir", "--with", "Maître Corbeau,Kaito Arashi"),
    ):
        assert main([*args, "--db", database_url]) == 0, capsys.readouterr().err
    capsys.readouterr()
    yield database_url


def test_completion_of_systems_and_actions() -> None:
    env = _env()
    assert complete("jdr roll ", env) == BUILT_IN
    assert complete("jdr odds po", env) == ["pokemon", "poledemos"]
    assert complete("jdr roll pokemon ", env) == [
        "check",
        "attack",
        "capture",
        "initiative",
        "counter",
    ]
    assert complete("jdr odds passion ", env) == ["action", "damage"]
    assert complete("jdr roll pokemon check --di", env) == ["--dice", "--difficulty"]
    assert complete("jdr --lang ", env) == ["fr", "en"]


def test_completion_of_stored_names(table: str) -> None:
    env = _env(JDR_DATABASE_URL=table)
    assert complete("jdr campaign show ", env) == ["Autre", "Mardi\\ soir"]
    assert complete("jdr sheet list --campaign M", env) == ["Mardi\\ soir"]
    assert complete("jdr sheet show ", env) == ["Kaito\\ Arashi", "Maître\\ Corbeau"]
    assert complete("jdr fight act 1 ", env) == ["Maître\\ Corbeau", "Kaito\\ Arashi"]
    assert complete("jdr fight act 2 ", env) == []
    assert complete("jdr journal show A", env) == ["Autre"]
    line = "jdr roll plus-ultra attack --campaign Mardi\\ soir --actor K"
    assert complete(line, env) == ["Kaito\\ Arashi"]
    assert complete("jdr dice 1d6 --campaign Autre --actor ", env) == []
    assert complete("jdr fight new --campaign Mardi\\ soir --with Kaito\\ Arashi,", env) == [
        "Kaito Arashi,Maître Corbeau"
    ]
    assert complete("jdr campaign new X --system plus", env) == ["plus-ultra"]


def test_completion_reads_the_db_option(table: str, tmp_path: Path) -> None:
    env = _env(JDR_DATABASE_URL=f"sqlite:///{tmp_path / 'other.db'}")
    assert complete("jdr campaign show ", env) == []
    assert complete(f"jdr campaign show --db {table} ", env) == ["Autre", "Mardi\\ soir"]


def test_completion_never_creates_a_database(tmp_path: Path) -> None:
    missing = tmp_path / "none" / "jdr.db"
    env = _env(JDR_DATABASE_URL=f"sqlite:///{missing}")
    assert complete("jdr campaign show ", env) == []
    assert complete("jdr sheet show --campaign x ", env) == []
    data = tmp_path / "data"
    env = _env(XDG_DATA_HOME=str(data), HOME=str(tmp_path))
    assert complete("jdr fight act 1 ", env) == []
    assert complete("jdr roll pokemon check --campaign ", env) == []
    assert not missing.parent.exists()
    assert not data.exists()


@pytest.mark.parametrize(
    "line",
    [
        "jdr roll nosuch ",
        "jdr advise pokemon ",
        "jdr odds passion initiative --",
        "jdr fight act notanumber ",
        "jdr --lang de ",
        'jdr sheet show "unclosed ',
    ],
)
def test_completion_never_prints_an_error(line: str, tmp_path: Path) -> None:
    env = _env(JDR_DATABASE_URL=f"sqlite:///{tmp_path / 'jdr.db'}")
    complete(line, env)  # exit 0, nothing on stderr
    assert not (tmp_path / "jdr.db").exists()


def test_completion_through_the_installed_bash_script(table: str, tmp_path: Path) -> None:
    env = _env(
        JDR_DATABASE_URL=table, HOME=str(tmp_path), PATH=f"{JDR.parent}:{os.environ['PATH']}"
    )
    installed = subprocess.run(
        ["bash", "-c", "jdr --install-completion --lang fr"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert installed.returncode == 0, installed.stderr
    script = tmp_path / ".bash_completions" / "jdr.sh"
    assert installed.stdout == (
        f"complétion bash installée dans {script}\u202f; elle marche dans un nouveau terminal.\n"
    )
    assert f"source '{script}'" in (tmp_path / ".bashrc").read_text()
    asked = subprocess.run(
        [
            "bash",
            "-c",
            f"source '{script}'; COMP_WORDS=(jdr sheet show Ka); COMP_CWORD=3; "
            '_jdr_completion jdr; printf "<%s>\\n" "${COMPREPLY[@]}"',
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert asked.stdout == "<Kaito\\ Arashi>\n", asked.stderr


def test_show_completion_prints_the_script(tmp_path: Path) -> None:
    env = _env(HOME=str(tmp_path), PATH=f"{JDR.parent}:{os.environ['PATH']}")
    shown = subprocess.run(
        ["bash", "-c", "jdr --show-completion"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert shown.returncode == 0, shown.stderr
    assert "_JDR_COMPLETE=complete_bash" in shown.stdout
    assert "complete -o default -F _jdr_completion jdr" in shown.stdout


def test_click_words_install_is_idempotent() -> None:
    click_words.install()
    click_words.install()
    assert typer._click.Context.formatter_class is click_words.Formatter
