"""The worked example plug-in (`examples/plugin/`, docs/plugins.md) kept green by the main suite:
installed with one pip command into a folder of its own, then used through the real `jdr`
command line in subprocesses (its French words, its own command with --lang, a stored fight
with undo, join and end), its own tests run, and the docs' excerpts checked against its code."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "examples" / "plugin"
DOCS = ROOT / "docs" / "plugins.md"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """`pip install examples/plugin` into a folder (no network: the build backend and jdr are
    already installed here)."""
    target = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--target", str(target), str(PLUGIN)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (target / "jdr_ombres" / "__init__.py").exists()
    yield target


def jdr(site: Path, *args: str, db: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`jdr ARGS` in a subprocess that sees the installed plug-in."""
    env = {**os.environ, "PYTHONPATH": str(site), "JDR_LANG": "en"}
    env.pop("JDR_DATABASE_URL", None)
    if db is not None:
        env["JDR_DATABASE_URL"] = f"sqlite:///{db}"
    return subprocess.run(
        [sys.executable, "-c", "import sys; from jdr.cli.app import main; sys.exit(main())", *args],
        capture_output=True, text=True, timeout=120, env=env, check=False,
    )  # fmt: skip


def ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_om_2_odds_in_french_show_the_plugins_own_words(site: Path) -> None:
    out = ok(jdr(site, "odds", "ombres", "check", "--dice", "2", "--lang", "fr"))
    assert "Ombres · test" in out
    for word in ("réussite critique", "réussite partielle", "échec", "dé gardé"):
        assert word in out
    assert "partial_success" not in out and "critical success" not in out
    english = ok(jdr(site, "odds", "ombres", "check", "--dice", "2"))
    assert "partial success" in english and "critical success" in english


def test_om_2_exact_odds_as_json(site: Path) -> None:
    answer = json.loads(
        ok(jdr(site, "odds", "ombres", "check", "--dice", "2", "--exact", "--json"))
    )
    assert answer["outcomes"]["critical_success"] == "1/36"
    assert answer["outcomes"]["partial_success"] == "4/9"


def test_om_1_roll_explained_in_french_and_option_help_translated(site: Path) -> None:
    out = ok(
        jdr(site, "roll", "ombres", "check", "--dice", "3", "--faces", "6,2,6", "--lang", "fr")
    )
    assert "3d6, garder le meilleur\u00a0: [6] 2 6 → 6\u00a0: réussite critique" in out
    helped = ok(jdr(site, "roll", "ombres", "check", "--help", "--lang", "fr"))
    assert "la cote\u00a0: combien de d6 lancer" in helped


def test_om_1_bad_input_is_refused_in_french_without_a_traceback(site: Path) -> None:
    done = jdr(site, "roll", "ombres", "check", "--dice", "11", "--lang", "fr")
    assert done.returncode == 2
    assert "--dice" in done.stderr and "0..10" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_systems_own_command_takes_lang_without_declaring_it(site: Path) -> None:
    out = ok(jdr(site, "ombres", "outcomes", "--lang", "fr"))
    assert "réussite partielle" in out
    assert "partial success" in ok(jdr(site, "ombres", "outcomes", "--lang", "en"))
    assert "--lang" in ok(jdr(site, "ombres", "outcomes", "--help"))


def test_om_4_a_stored_fight_told_shown_undone_joined_and_ended(site: Path, tmp_path: Path) -> None:
    db = tmp_path / "ombres.db"
    ok(jdr(site, "campaign", "new", "nuit", "--system", "ombres", db=db))
    corvo = tmp_path / "corvo.toml"
    corvo.write_text(ok(jdr(site, "sheet", "example", "ombres", db=db)), encoding="utf-8")
    lys = tmp_path / "lys.toml"
    lys.write_text('name = "Lys"\ncombat = 3\nstress_max = 6\n', encoding="utf-8")
    bram = tmp_path / "bram.toml"
    bram.write_text('name = "Bram"\n', encoding="utf-8")
    for sheet in (corvo, lys, bram):
        ok(jdr(site, "sheet", "add", str(sheet), "--campaign", "nuit", db=db))
    started = ok(jdr(site, "fight", "new", "--campaign", "nuit", "--with", "Corvo,Lys",
                     "--lang", "fr", db=db))  # fmt: skip
    assert "Les ombres tombent\u00a0: Corvo (a) contre Lys (b)." in started
    hit = ok(jdr(site, "fight", "act", "1", "Corvo", "attaque", "cible=Lys", "--faces", "6,6",
                 "--lang", "fr", db=db))  # fmt: skip
    assert "Corvo attaque Lys (6, 6)\u00a0: réussite critique\u202f; Lys prend 4 de stress." in hit
    ok(jdr(site, "fight", "act", "1", "Lys", "attack", "target=Corvo", "--faces", "5,1,2", db=db))
    undone = ok(jdr(site, "fight", "undo", "1", "--lang", "fr", db=db))
    assert (
        "Annulée\u00a0: action 2 (Lys attaque Corvo" in undone
    )  # issue 29: its number in the fight
    joined = ok(jdr(site, "fight", "act", "1", "Bram", "rejoindre", "camp=b", "--lang", "fr",
                    db=db))  # fmt: skip
    assert "Bram rejoint le combat dans le camp b." in joined
    shown = ok(jdr(site, "fight", "show", "1", "--lang", "fr", db=db)).splitlines()
    assert "Lys (b) — stress 4/6" in shown
    assert "Bram (b) — stress 0/9" in shown
    ok(jdr(site, "fight", "end", "1", "--no-apply", db=db))
    log = ok(jdr(site, "fight", "log", "1", "--lang", "fr", db=db))
    assert "(annulé) Lys attaque Corvo" in log
    assert log.rstrip().endswith("ce combat est terminé")
    exported = tmp_path / "nuit.json"
    ok(jdr(site, "journal", "export", "nuit", "--output", str(exported), db=db))
    verified = jdr(site, "verify", str(exported))  # every roll re-decided by the plug-in's rules
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_om_5_the_fight_ends_when_one_side_stands_told_by_jdr(site: Path, tmp_path: Path) -> None:
    db = tmp_path / "ombres.db"
    ok(jdr(site, "campaign", "new", "fin", "--system", "ombres", db=db))
    for name, extra in (("Ann", "combat = 2\n"), ("Bob", "stress_max = 2\n")):
        sheet = tmp_path / f"{name}.toml"
        sheet.write_text(f'name = "{name}"\n{extra}', encoding="utf-8")
        ok(jdr(site, "sheet", "add", str(sheet), "--campaign", "fin", db=db))
    ok(jdr(site, "fight", "new", "--campaign", "fin", "--with", "Ann,Bob", db=db))
    out = ok(jdr(site, "fight", "act", "1", "Ann", "attack", "target=Bob", "--faces", "6,1",
                 "--lang", "fr", db=db))  # fmt: skip
    assert "Bob craque et quitte le combat." in out
    assert "Le combat est terminé\u00a0: Ann l'emporte." in out
    # issue 29: a fight its rules ended says so and offers no command
    shown = ok(jdr(site, "fight", "show", "1", db=db)).splitlines()
    assert shown[1] == "The fight is over: Ann wins."
    assert not any(line.startswith("legal commands") for line in shown)


def test_the_example_plugins_own_tests_pass(site: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests"],
        cwd=PLUGIN, capture_output=True, text=True, timeout=300, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:]
    assert re.search(r"\d+ passed", done.stdout)


def test_every_excerpt_of_the_example_in_the_docs_is_its_code() -> None:
    """A block of docs/plugins.md whose first line is `# examples/plugin/PATH` is copied from
    that file: each of its lines (but the first) is in the file, in order."""
    blocks = re.findall(r"```(?:python|toml)\n# (examples/plugin/\S+)\n(.*?)```", DOCS.read_text(
        encoding="utf-8"), re.S)  # fmt: skip
    assert len(blocks) >= 6, "docs/plugins.md shows the example step by step"
    for path, body in blocks:
        source = (ROOT / path).read_text(encoding="utf-8")
        assert body.strip() in source, f"docs/plugins.md differs from {path}:\n{body}"


def test_the_example_is_lint_clean_as_a_gm_would_copy_it() -> None:
    for command in (["check"], ["format", "--check"]):
        done = subprocess.run(
            [sys.executable, "-m", "ruff", *command, str(PLUGIN)],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr


def test_the_docs_try_it_lines_run_as_written(site: Path, tmp_path: Path) -> None:
    """docs/plugins.md §0: the shell lines after "a test runs these very lines", run by bash
    (stopping at the first failure) with the example installed and a fresh database."""
    text = DOCS.read_text(encoding="utf-8")
    block = re.search(r"a test runs these very lines\):\n\n```sh\n(.*?)```", text, re.S)
    assert block is not None
    env = {
        **os.environ,
        "PYTHONPATH": str(site),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "JDR_DATABASE_URL": f"sqlite:///{tmp_path / 'docs.db'}",
        "JDR_LANG": "en",
    }
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", block.group(1)],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert "réussite partielle" in done.stdout
    assert "Bram joins the fight on side b." in done.stdout
    assert "Lys (b) — stress" in done.stdout


def test_om_3_the_sheet_reads_by_the_plugins_own_words(site: Path, tmp_path: Path) -> None:
    """`System(sheet_words=…)` (docs/plugins.md §5): `sheet show` lays the sheet out in the
    plug-in's sections and names, and `sheet set` reads them in French."""
    db = tmp_path / "ombres.db"
    ok(jdr(site, "campaign", "new", "nuit", "--system", "ombres", db=db))
    corvo = tmp_path / "corvo.toml"
    corvo.write_text(ok(jdr(site, "sheet", "example", "ombres", db=db)), encoding="utf-8")
    ok(jdr(site, "sheet", "add", str(corvo), "--campaign", "nuit", db=db))
    changed = ok(jdr(site, "sheet", "set", "Corvo", "résolution=3", "stress maximum=10",
                     "--campaign", "nuit", "--lang", "fr", db=db))  # fmt: skip
    assert "  Résolution 1 → 3" in changed.splitlines()
    assert "  Stress maximum 9 → 10" in changed.splitlines()
    shown = ok(jdr(site, "sheet", "show", "Corvo", "--campaign", "nuit", "--lang", "fr", db=db))
    lines = [" ".join(line.split()) for line in shown.splitlines()]
    assert lines[0] == "Corvo — nuit (Ombres)"
    assert "Cotes" in lines and "Stress" in lines and "Résolution 3" in lines
    assert "Stress maximum 10" in lines
    assert "resolve" not in shown and "stress_max" not in shown and "{" not in shown
    english = ok(jdr(site, "sheet", "show", "Corvo", "--campaign", "nuit", db=db))
    assert "Ratings" in english.splitlines() and "Resolve" in english
