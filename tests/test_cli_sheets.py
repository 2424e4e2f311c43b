"""`jdr sheet validate|add|example`: a sheet's system recognised, its problems one per line, TOML
syntax errors located with their usual fix, and the example sheets every system ships."""

from __future__ import annotations

import tomllib
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field

from cli_run import run, run_json
from jdr.sheet_check import accepting, example_text, installed
from jdr.systems import Registry, System, default_registry, set_default_registry
from jdr.systems.registry import ENTRY_POINT_GROUP
from leaks import find_leaks

SHORT_NAMES = {
    "ilvermorny": "Ilvermorny",
    "passion": "Passion",
    "plus-ultra": "Plus Ultra",
    "pokemon": "Pokémon",
    "poledemos": "Polédémos",
}
"""The systems as a sentence names them (`jdr.cli.sheet_files.shown_system`)."""

SRC = Path(__file__).parent.parent / "src" / "jdr"
SYSTEMS = SRC / "systems"
EXAMPLES = sorted(SYSTEMS.glob("*/examples/*.toml"))
HERO = SYSTEMS / "plus_ultra" / "examples" / "hero.toml"
TRAINER = SYSTEMS / "pokemon" / "examples" / "trainer.toml"
QUOTE_KEY_FR = "une clé avec des accents ou des espaces s'écrit entre guillemets\u00a0: "


def _system_of(example: Path) -> str:
    return example.parent.parent.name.replace("_", "-")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.db"


@pytest.fixture
def mardi(db: str, capsys: pytest.CaptureFixture[str]) -> str:
    """An empty Plus Ultra campaign `Mardi`."""
    assert run(capsys, "campaign", "new", "Mardi", "--system", "plus-ultra", "--db", db)[0] == 0
    return db


def write(tmp_path: Path, text: str, name: str = "sheet.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- problems, one per line -----------------------------------------------------------------


def test_add_lists_every_problem_one_per_line_and_in_json(
    mardi: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(tmp_path, HERO.read_text("utf-8").replace("energy = 8", "energy = -1\nhp = 3"))
    args = ("sheet", "add", str(bad), "--campaign", "Mardi", "--db", mardi)
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    first, *lines = err.splitlines()
    assert first == f"jdr: error: {bad}: 2 problems"
    assert [line.split(":")[0] for line in lines] == ["  energy", "  hp"]
    code, payload = run_json(capsys, *args)
    assert code == 2
    problems = payload["error"]["problems"]
    assert [(p["field"], p["value"]) for p in problems] == [("energy", -1), ("hp", 3)]
    assert all(p["allowed"] and p["message"].startswith(p["field"]) for p in problems)


def test_problems_one_per_line_in_french(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(tmp_path, HERO.read_text("utf-8").replace('rank = "C"', 'rank = "Z"\ncolour = 1'))
    code, _out, err = run(
        capsys, "sheet", "validate", str(bad), "--system", "plus-ultra", "--lang", "fr"
    )
    assert code == 2
    assert err.splitlines() == [
        f"jdr\u00a0: erreur\u00a0: {bad}\u00a0: 2 problèmes",
        "  rank\u00a0: Z — rang inconnu (permis\u00a0: E, E+, D, D+, C, C+, B, B+, A, A+, S, S+)",
        "  colour\u00a0: 1 — clé inconnue (permis\u00a0: name, rank, energy, willpower,"
        " techniques)",
    ]


def test_one_problem_stays_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = write(tmp_path, HERO.read_text("utf-8").replace("willpower = 8", "willpower = 9"))
    code, _out, err = run(capsys, "sheet", "validate", str(bad), "--system", "plus-ultra")
    assert code == 2
    assert err.count("\n") == 1 and err.startswith(f"jdr: error: {bad}: willpower: 9 — ")


# --- a sheet of another system ---------------------------------------------------------------


def test_a_sheet_of_another_system_is_named_for_a_campaign(
    mardi: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("sheet", "add", str(TRAINER), "--campaign", "Mardi", "--db", mardi)
    code, _out, err = run(capsys, *args)
    assert code == 2
    assert (
        err
        == f"jdr: error: {TRAINER}: this sheet is for pokemon; campaign Mardi plays plus-ultra\n"
    )
    code, _out, err = run(capsys, *args, "--lang", "fr")
    assert err == (
        f"jdr\u00a0: erreur\u00a0: {TRAINER}\u00a0: cette fiche est pour pokemon\u202f; la"
        f" campagne Mardi se joue"
        " avec plus-ultra\n"
    )
    code, payload = run_json(capsys, *args)
    assert code == 2
    error = payload["error"]
    assert (error["code"], error["field"], error["value"], error["allowed"]) == (
        "wrong_system",
        "system",
        "pokemon",
        "plus-ultra",
    )
    _code, listed = run_json(capsys, "sheet", "list", "--campaign", "Mardi", "--db", mardi)
    assert listed["characters"] == [], "nothing stored"


def test_validate_with_the_wrong_system_names_the_right_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("sheet", "validate", str(TRAINER), "--system", "plus-ultra")
    code, _out, err = run(capsys, *args)
    assert code == 2
    assert err == f"jdr: error: {TRAINER}: this sheet is for pokemon, not plus-ultra\n"
    code, _out, err = run(capsys, *args, "--lang", "fr")
    assert err == (
        f"jdr\u00a0: erreur\u00a0: {TRAINER}\u00a0: cette fiche est pour pokemon,"
        " pas pour plus-ultra\n"
    )
    code, payload = run_json(capsys, *args)
    assert code == 2 and payload["valid"] is False
    assert payload["recognised"] == ["pokemon"]
    assert [(p["field"], p["value"], p["allowed"]) for p in payload["problems"]] == [
        ("system", "pokemon", "plus-ultra")
    ]


def test_a_system_key_naming_another_system_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = write(tmp_path, 'system = "Pokémon"\n' + HERO.read_text("utf-8"))
    code, _out, err = run(capsys, "sheet", "validate", str(sheet), "--system", "plus-ultra")
    assert code == 2
    assert err == f"jdr: error: {sheet}: this sheet is for pokemon, not plus-ultra\n"
    unknown = write(tmp_path, 'system = "dnd"\n' + HERO.read_text("utf-8"), "unknown.toml")
    code, _out, err = run(capsys, "sheet", "validate", str(unknown))
    assert code == 2
    assert "unknown system dnd (known: ilvermorny, passion, plus-ultra, pokemon, poledemos)" in err


def test_a_system_key_matching_the_campaign_is_accepted_and_not_stored(
    mardi: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = write(tmp_path, 'system = "plus-ultra"\n' + HERO.read_text("utf-8"))
    code, added = run_json(capsys, "sheet", "add", str(sheet), "--campaign", "Mardi", "--db", mardi)
    assert code == 0
    assert "system" not in added["character"]["sheet"]
    assert added["character"]["sheet"]["rank"] == "C"


# --- validate without --system ---------------------------------------------------------------


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.stem)
def test_every_example_is_recognised_without_system(
    example: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, payload = run_json(capsys, "sheet", "validate", str(example))
    assert code == 0, payload
    assert payload["system"] == _system_of(example)
    assert payload["system_from"] == ("kind" if _system_of(example) == "pokemon" else "fields")


def test_validate_says_how_it_knew_the_system(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _err = run(capsys, "sheet", "validate", str(HERO))
    assert code == 0
    assert out == (
        f"{HERO}: OK (Plus Ultra sheet Kaito Arashi, recognised: no --system given, the Plus Ultra"
        " rules accept it)\n"
    )
    code, out, _err = run(capsys, "sheet", "validate", str(TRAINER), "--lang", "fr")
    assert out == f"{TRAINER}\u00a0: OK (fiche Pokémon Léa, reconnue à sa clé `kind`)\n"
    code, out, _err = run(capsys, "sheet", "validate", str(TRAINER))
    assert out == f"{TRAINER}: OK (Pokémon sheet Léa, recognised by its `kind` key)\n"
    keyed = write(tmp_path, 'system = "plus-ultra"\n' + HERO.read_text("utf-8"))
    code, out, _err = run(capsys, "sheet", "validate", str(keyed))
    assert out == f"{keyed}: OK (Plus Ultra sheet Kaito Arashi, as its `system` key says)\n"
    code, out, _err = run(capsys, "sheet", "validate", str(keyed), "--lang", "fr")
    assert (
        out == f"{keyed}\u00a0: OK (fiche Plus Ultra Kaito Arashi, comme le dit sa clé `system`)\n"
    )
    code, payload = run_json(capsys, "sheet", "validate", str(keyed))
    assert payload["system_from"] == "system"
    code, payload = run_json(capsys, "sheet", "validate", str(HERO), "--system", "plus-ultra")
    assert payload["system_from"] == "option"


def test_a_kind_names_its_system_so_its_problems_are_that_systems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(tmp_path, TRAINER.read_text("utf-8").replace("willpower = 3", "willpower = -3"))
    code, payload = run_json(capsys, "sheet", "validate", str(bad))
    assert code == 2
    assert payload["system"] == "pokemon"
    assert [p["field"] for p in payload["problems"]] == ["stats.willpower"]


def test_a_sheet_no_system_accepts_gets_the_closest_systems_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(tmp_path, HERO.read_text("utf-8").replace('rank = "C"', 'rank = "Z"\ncolour = 1'))
    code, _out, err = run(capsys, "sheet", "validate", str(bad))
    assert code == 2
    assert err.splitlines() == [
        f"jdr: error: {bad}: no installed rule system accepts this sheet (give --system ID); the"
        " closest is plus-ultra:",
        "  rank: Z — unknown rank (allowed: E, E+, D, D+, C, C+, B, B+, A, A+, S, S+)",
        "  colour: 1 — unknown key (allowed: name, rank, energy, willpower, techniques)",
    ]
    code, payload = run_json(capsys, "sheet", "validate", str(bad))
    assert code == 2
    assert payload["system"] == "plus-ultra"
    assert payload["error"]["code"] == "unrecognised_sheet"
    assert [p["field"] for p in payload["problems"]] == ["rank", "colour"]
    code, _out, err = run(capsys, "sheet", "validate", str(bad), "--lang", "fr")
    assert err.startswith(
        f"jdr\u00a0: erreur\u00a0: {bad}\u00a0: aucun système de règles installé n'accepte"
        f" cette fiche"
    )


# --- TOML syntax errors ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "where", "english", "french"),
    [
        (
            "Volonté = 3",
            "line 2, column 7: a key must be followed by =",
            'a key with accents or spaces must be quoted: "Volonté" = 3',
            QUOTE_KEY_FR + '"Volonté" = 3',
        ),
        (
            "énergie = 3",
            "line 2, column 1: not a line of TOML",
            'a key with accents or spaces must be quoted: "énergie" = 3',
            QUOTE_KEY_FR + '"énergie" = 3',
        ),
        (
            "coup de pied = 4  # a comment",
            "line 2, column 6: a key must be followed by =",
            'a key with accents or spaces must be quoted: "coup de pied" = 4',
            QUOTE_KEY_FR + '"coup de pied" = 4',
        ),
        (
            "rank = C",
            "line 2, column 8: not a TOML value",
            'a text must be quoted: rank = "C"',
            'un texte s\'écrit entre guillemets\u00a0: rank = "C"',
        ),
        (
            "energy = 3,5",
            "line 2, column 11: something follows the value on the same line",
            "decimals take a point: energy = 3.5",
            "les décimales prennent un point\u00a0: energy = 3.5",
        ),
        (
            'rank = "C',
            "line 2, column 10: a text is not closed by its quote",
            'end the text with the quote it starts with: "…"',
            'terminez le texte par le guillemet qui l\'ouvre\u00a0: "…"',
        ),
        (
            "name = 2",
            "line 2, column 9: a key is given twice",
            "each key once per table",
            "chaque clé une seule fois par table",
        ),
    ],
)
def test_toml_syntax_error_says_where_and_the_usual_fix(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    line: str,
    where: str,
    english: str,
    french: str,
) -> None:
    sheet = write(tmp_path, f'name = "Kai"\n{line}\n')
    code, _out, err = run(capsys, "sheet", "validate", str(sheet), "--system", "plus-ultra")
    assert code == 2
    assert err == f"jdr: error: {sheet}, {where} ({english})\n"
    code, _out, err = run(capsys, "sheet", "validate", str(sheet), "--lang", "fr")
    assert code == 2
    assert err.startswith(f"jdr\u00a0: erreur\u00a0: {sheet}, ligne 2, colonne ")
    assert err.endswith(f" ({french})\n")
    code, payload = run_json(capsys, "sheet", "validate", str(sheet))
    [problem] = payload["problems"]
    assert problem["line"] == 2 and problem["allowed"] == english
    assert payload["error"]["code"] == "invalid_toml"


def test_toml_error_in_sheet_add_is_located_too(
    mardi: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = write(tmp_path, 'name = "Kai"\n\n[techniques\n')
    code, _out, err = run(capsys, "sheet", "add", str(sheet), "--campaign", "Mardi", "--db", mardi)
    assert code == 2
    assert err == f"jdr: error: {sheet}, line 3, column 12: a [table] header is not closed by ]\n"


# --- the example sheets ----------------------------------------------------------------------


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.stem)
def test_every_shipped_example_is_printed_as_it_is(
    example: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    system, kind = _system_of(example), example.stem
    code, out, _err = run(capsys, "sheet", "example", system, kind)
    assert code == 0
    assert out == example.read_text("utf-8"), "the file itself, comments included"
    assert run(capsys, "sheet", "example", system, kind, "--output", "-")[1] == out
    written = tmp_path / "copy.toml"
    code, out, _err = run(capsys, "sheet", "example", system, kind, "--output", str(written))
    assert code == 0
    name = tomllib.loads(example.read_text("utf-8")).get("name", kind)
    shown = SHORT_NAMES[system]
    assert out == f"example sheet of {name} ({shown}) written to {written}\n"
    french = tmp_path / "copie.toml"
    code, out, _err = run(
        capsys, "sheet", "example", system, kind, "--output", str(french), "--lang", "fr"
    )
    assert out == f"fiche d'exemple de {name} ({shown}) écrite dans {french}\n"
    assert find_leaks(out, "fr", [name]) == []  # not `warband`, `wizard`, `trainer` (issue 30)
    assert written.read_text("utf-8") == example.read_text("utf-8")
    code, payload = run_json(capsys, "sheet", "example", system, kind)
    assert (payload["system"], payload["kind"], payload["output"]) == (system, kind, None)
    assert tomllib.loads(payload["toml"]) == tomllib.loads(example.read_text("utf-8"))
    code, payload = run_json(capsys, "sheet", "validate", str(written))
    assert code == 0 and payload["system"] == system


def test_example_kinds_default_and_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    code, payload = run_json(capsys, "sheet", "example", "passion")
    assert code == 0
    assert (payload["kind"], payload["kinds"]) == ("romuald", ["romuald", "cyber-ninja"])
    assert run(capsys, "sheet", "example", "Plus-Ultra", "VILLAIN")[0] == 0
    code, _out, err = run(capsys, "sheet", "example", "pokemon", "dragon")
    assert code == 2
    assert err == "jdr: error: unknown example dragon (known: pokemon, trainer)\n"
    code, _out, err = run(capsys, "sheet", "example", "pokemon", "dragon", "--lang", "fr")
    assert err == (
        "jdr\u00a0: erreur\u00a0: exemple dragon\u00a0: introuvable"
        " (au choix\u00a0: pokemon, trainer)\n"
    )
    code, _out, err = run(capsys, "sheet", "example", "dnd")
    assert code == 2 and "unknown system dnd" in err


def test_example_to_an_unwritable_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "missing-folder" / "hero.toml"
    code, _out, err = run(capsys, "sheet", "example", "plus-ultra", "--output", str(target))
    assert code == 2 and "--output" in err and err.count("\n") == 1


def test_examples_ship_inside_the_package() -> None:
    """The wheel packs `src/jdr`: every declared example is a file there, read as a resource."""
    for system in installed(default_registry()):
        for kind, resource in getattr(system, "examples", {}).items():
            path = Path(str(resource))
            assert path.is_file(), (system.id, kind)
            assert SRC in path.parents, "inside the package, so the wheel carries it"
            assert example_text(system, kind)[1] == path.read_text("utf-8")
    pyproject = tomllib.loads((SRC.parent.parent / "pyproject.toml").read_text("utf-8"))
    assert pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == ["src/jdr"]


def test_export_to_stdout_with_a_dash(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "campaign", "new", "Mardi", "--system", "plus-ultra", "--db", db)
    run(capsys, "sheet", "add", str(HERO), "--campaign", "Mardi", "--db", db)
    args = ("sheet", "export", "Kaito Arashi", "--campaign", "Mardi", "--db", db)
    code, out, _err = run(capsys, *args, "--output", "-")
    assert code == 0 and tomllib.loads(out)["name"] == "Kaito Arashi"
    code, payload = run_json(capsys, *args, "--output", "-")
    assert payload["output"] is None


# --- a plug-in's sheets get the same --------------------------------------------------------


class Knight(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    honour: int = Field(ge=0, le=10)


@pytest.fixture
def homebrew(tmp_path: Path) -> System:
    """A plug-in with a sheet model and one example, installed next to the built-ins."""
    folder = tmp_path / "homebrew"
    folder.mkdir()
    (folder / "knight.toml").write_text('name = "Lancelot"\nhonour = 9\n', encoding="utf-8")
    system = System(
        "homebrew",
        {"fr": "Chevalerie", "en": "Chivalry"},
        sheet=Knight,
        examples={"knight": folder / "knight.toml"},
    )
    points = entry_points(group=ENTRY_POINT_GROUP)
    set_default_registry(Registry({"homebrew": system}, points=points))
    return system


def test_a_plugins_sheet_is_recognised_and_its_example_printed(
    homebrew: System, mardi: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _err = run(capsys, "sheet", "example", "homebrew")
    assert code == 0 and out == 'name = "Lancelot"\nhonour = 9\n'
    knight = write(tmp_path, out, "knight.toml")
    code, payload = run_json(capsys, "sheet", "validate", str(knight))
    assert (code, payload["system"], payload["system_from"]) == (0, "homebrew", "fields")
    code, _out, err = run(capsys, "sheet", "add", str(knight), "--campaign", "Mardi", "--db", mardi)
    assert code == 2
    assert (
        err
        == f"jdr: error: {knight}: this sheet is for homebrew; campaign Mardi plays plus-ultra\n"
    )
    code, _out, err = run(capsys, "sheet", "validate", str(HERO), "--system", "homebrew")
    assert err == f"jdr: error: {HERO}: this sheet is for plus-ultra, not homebrew\n"
    kind = write(tmp_path, 'kind = "knight"\nname = "Kay"\nhonour = 11\n', "kay.toml")
    code, payload = run_json(capsys, "sheet", "validate", str(kind))
    assert payload["system"] == "homebrew"
    assert sorted(p["field"] for p in payload["problems"]) == ["honour", "kind"]


def test_accepting_tries_every_system() -> None:
    systems = installed(default_registry())
    for example in EXAMPLES:
        data = tomllib.loads(example.read_text("utf-8"))
        assert [s.id for s in accepting(data, systems)] == [_system_of(example)], example.name


class CountingRegistry(Registry):
    """The installed systems, remembering which ones were asked for."""

    def __init__(self) -> None:
        super().__init__(points=entry_points(group=ENTRY_POINT_GROUP))
        self.asked: list[str] = []

    def get(self, system_id: str) -> Any:
        self.asked.append(system_id)
        return super().get(system_id)


def test_a_good_sheet_loads_no_other_system(
    mardi: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registry = CountingRegistry()
    set_default_registry(registry)
    assert run(capsys, "sheet", "add", str(HERO), "--campaign", "Mardi", "--db", mardi)[0] == 0
    assert run(capsys, "sheet", "validate", str(HERO), "--system", "plus-ultra")[0] == 0
    assert set(registry.asked) == {"plus-ultra"}
    assert run(capsys, "sheet", "validate", str(TRAINER), "--system", "plus-ultra")[0] == 2
    assert set(registry.asked) == set(registry.ids()), "a refused sheet: every system is tried"
