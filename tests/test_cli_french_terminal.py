"""Issue 30, the terminal's own words: a bad die, a missing option, the placeholders of a help,
what `jdr systems` says an action offers — each in the reader's language, with no identifier
(the JSON answers keep theirs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_run import answer, run, run_json
from leaks import find_leaks


@pytest.mark.parametrize(
    ("expression", "field", "french", "english"),
    [
        (
            "1d0",
            "size",
            "faces de 1d0\u00a0: 0 — un dé a au moins une face",
            "faces of 1d0: 0 — a die",
        ),
        (
            "0d4",
            "dice",
            "dés de 0d4\u00a0: 0 — un terme a au moins un dé",
            "dice of 0d4: 0 — a term",
        ),
        (
            "4d6kh5",
            "keep",
            "dés gardés ou écartés de 4d6kh5\u00a0: 5",
            "dice kept or dropped in 4d6kh5",
        ),
        ("1d1!", "explode", "dé explosif\u00a0: 1d1! — un d1", "exploding die: 1d1! — a d1"),
    ],
)
def test_a_refused_die_names_its_term_in_words(
    expression: str, field: str, french: str, english: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = run(capsys, "dice", expression, "--lang", "fr")
    assert code == 2 and french in err
    assert find_leaks(err, "fr") == [], err  # not `size : 0` nor `dice : 0`
    code, _out, err = run(capsys, "dice", expression, "--lang", "en")
    assert code == 2 and english in err
    code, payload = run_json(capsys, "dice", expression, "--lang", "fr")
    assert code == 2 and payload["error"]["field"] == field  # the JSON keeps its identifier


def test_a_missing_option_or_argument_says_what_it_wants(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _out, err = run(capsys, "sheet", "show", "Pika", "--lang", "fr")
    assert code == 2
    assert (
        err == "jdr\u00a0: erreur\u00a0: --campaign\u00a0: obligatoire"
        " (permis\u00a0: le nom de la campagne)\n"
    )
    code, _out, err = run(capsys, "sheet", "show", "Pika", "--lang", "en")
    assert err == "jdr: error: --campaign: required (allowed: the campaign's name)\n"
    code, _out, err = run(capsys, "fight", "act", "--lang", "fr")
    assert (
        err == "jdr\u00a0: erreur\u00a0: COMBAT\u00a0: obligatoire"
        " (permis\u00a0: un nombre entier)\n"
    )
    assert find_leaks(err, "fr") == []  # not "permis : une valeur", not FIGHT
    code, _out, err = run(capsys, "fight", "act", "--lang", "en")
    assert err == "jdr: error: FIGHT: required (allowed: a whole number)\n"
    code, payload = run_json(capsys, "fight", "act", "--lang", "fr")
    assert payload["error"]["field"] == "FIGHT"


def test_placeholders_are_in_the_readers_language(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "fight", "act", "--help", "--lang", "fr")
    assert code == 0
    assert "{COMBAT} {ACTEUR} [[COMMANDE]]" in out and "[[CLÉ=VALEUR]…]" in out
    assert "COMBAT ACTEUR COMMANDE [clé=valeur …]" in out  # the help's text says them alike
    assert "FIGHT" not in out and "ACTOR" not in out
    code, out, _err = run(capsys, "sheet", "show", "--help", "--lang", "fr")
    assert "{NOM}" in out and "--campaign NOM" in out and "NAME" not in out
    code, out, _err = run(capsys, "fight", "act", "--help", "--lang", "en")
    assert "{FIGHT} {ACTOR} [[COMMAND]]" in out and "--campaign" not in out


def test_systems_says_what_each_action_offers_in_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _err = run(capsys, "systems", "--lang", "fr")
    assert code == 0
    assert "  action  (jet, chances, conseils)" in out.splitlines()  # passion's action
    assert "(roll" not in out
    code, out, _err = run(capsys, "systems", "--lang", "en")
    assert "  action  (roll, odds, advice)" in out.splitlines()


def test_validate_help_quotes_the_sheet_keys_it_reads(capsys: pytest.CaptureFixture[str]) -> None:
    """Not "son kind": `system` and `kind` are keys a sheet file spells, quoted as such."""
    code, out, _err = run(capsys, "sheet", "validate", "--help", "--lang", "fr")
    assert code == 0
    text = " ".join(out.split())
    assert "la clé `system` de la fiche, sa clé `kind`, ou le système qui l'accepte" in text
    assert find_leaks(text, "fr") == [], text


def test_ps_11_a_dodge_awaited_names_its_commands_as_the_reader_reads_them() -> None:
    """PS-11: Passion's wait for a dodge names the commands to play as the commands layer shows
    them in the reader's language, not as the code spells them (`dodge ou no_dodge`)."""
    from jdr.i18n import language
    from jdr.systems.passion.fight_models import COMMANDS
    from jdr.systems.passion.fight_view import WAITS, _shown

    assert "{dodge}" in WAITS["dodge"] and "{no_dodge}" in WAITS["dodge"]
    for lang in ("fr", "en"):
        with language(lang):
            assert [_shown(name) for name in ("dodge", "no_dodge")] == [
                COMMANDS.shown(name) for name in ("dodge", "no_dodge")
            ]
    with language("fr"):
        assert (_shown("dodge"), _shown("no_dodge")) == ("esquive", "pas d'esquive")


def _option_line(out: str, option: str) -> str:
    """The help's line of `option` (`--role …`)."""
    return next(line for line in out.splitlines() if line.strip().startswith(option + " "))


def test_an_invites_role_is_shown_and_read_in_french(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`--role joueur|MJ|spectateur`: the French names in French help, typed in any case or
    accent, the JSON keeping the identifier; a wrong one refused with the French names."""
    db = f"sqlite:///{tmp_path / 'jdr.db'}"
    answer(capsys, "campaign", "new", "Kanto", "--system", "pokemon", "--db", db)
    code, out, _err = run(capsys, "campaign", "invite", "--help", "--lang", "fr")
    line = _option_line(out, "--role")
    assert code == 0 and "--role MJ|joueur|spectateur" in line
    assert find_leaks(out, "fr") == [], out  # not `player|gm|spectator`, nor `--role player`
    code, out, _err = run(capsys, "campaign", "invite", "--help", "--lang", "en")
    assert "--role gm|player|spectator" in _option_line(out, "--role")
    made = answer(
        capsys, "campaign", "invite", "Kanto", "--role", "SPECTATRICE", "--db", db, "--lang", "fr"
    )
    assert made["invite"]["role"] == "spectator"
    made = answer(capsys, "campaign", "invite", "Kanto", "--role", "mj", "--db", db)
    assert made["invite"]["role"] == "gm"
    code, _out, err = run(
        capsys, "campaign", "invite", "Kanto", "--role", "joeur", "--db", db, "--lang", "fr"
    )
    assert code == 2
    assert "joeur" in err and "joueur\u202f?" in err and "MJ, joueur, spectateur" in err
    assert find_leaks(err, "fr") == [], err
    code, refused = run_json(capsys, "campaign", "invite", "Kanto", "--role", "roi", "--db", db)
    assert code == 2 and refused["error"]["field"] == "--role"
    assert refused["error"]["allowed"] == "gm, player, spectator"


def test_fight_options_show_and_read_their_values_in_french(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`fight new|pace --on-late défaut|MJ`, `fight recap --format texte|BBCode|Markdown`,
    `fight act --as MJ|joueur`: French in French help, French typed, identifiers in JSON."""
    for path, option, french, english in (
        (("fight", "new"), "--on-late", "--on-late défaut|MJ", "--on-late default|gm"),
        (("fight", "pace"), "--on-late", "--on-late défaut|MJ", "--on-late default|gm"),
        (("fight", "recap"), "--format", "--format texte|BBCode|Markdown", "text|BBCode|Markdown"),
        (("fight", "act"), "--as", "--as MJ|joueur", "--as gm|player"),
    ):
        code, out, _err = run(capsys, *path, "--help", "--lang", "fr")
        assert code == 0 and french in _option_line(out, option), out
        code, out, _err = run(capsys, *path, "--help", "--lang", "en")
        assert english in _option_line(out, option), out
    code, out, _err = run(capsys, "fight", "recap", "--help", "--lang", "fr")
    assert "[par défaut : texte]" in " ".join(out.split())  # the default by its name too
    code, out, _err = run(capsys, "fight", "new", "--help", "--lang", "fr")
    assert "30m, ou aucun" in " ".join(out.split()) and find_leaks(out, "fr") == []

    db = f"sqlite:///{tmp_path / 'jdr.db'}"
    answer(capsys, "campaign", "new", "Kanto", "--system", "pokemon", "--db", db)
    code, out, _err = run(capsys, "sheet", "example", "pokemon", "pokemon")
    for name in ("Pikachu", "Raichu"):
        sheet = tmp_path / f"{name}.toml"
        sheet.write_text(out.replace('name = "Pikachu"', f'name = "{name}"'), encoding="utf-8")
        answer(capsys, "sheet", "add", str(sheet), "--campaign", "Kanto", "--db", db)
    fight = answer(
        capsys, "fight", "new", "--campaign", "Kanto", "--with", "Pikachu,Raichu",
        "--deadline", "aucun", "--db", db,
    )["fight"]  # fmt: skip
    paced = answer(
        capsys, "fight", "pace", str(fight), "--deadline", "48h", "--on-late", "mj", "--db", db
    )
    assert paced["on_late"] == "gm"
    paced = answer(capsys, "fight", "pace", str(fight), "--on-late", "DEFAUT", "--db", db)
    assert paced["on_late"] == "default"
    code, _out, err = run(
        capsys, "fight", "pace", str(fight), "--on-late", "chef", "--db", db, "--lang", "fr"
    )
    assert code == 2 and "(au choix\u00a0: défaut, MJ)" in err and find_leaks(err, "fr") == []
    recap = answer(capsys, "fight", "recap", str(fight), "--format", "bbcode", "--db", db)
    assert recap["format"] == "bbcode"
    recap = answer(capsys, "fight", "recap", str(fight), "--format", "Texte", "--db", db)
    assert recap["format"] == "text"
    code, out, err = run(
        capsys, "fight", "act", str(fight), "Pikachu", "--help-commands", "--as", "Joueuse",
        "--db", db, "--lang", "fr",
    )  # fmt: skip
    assert code == 0, err
    code, _out, err = run(
        capsys, "fight", "act", str(fight), "Pikachu", "--help-commands", "--as", "roi",
        "--db", db, "--lang", "fr",
    )  # fmt: skip
    assert code == 2 and "MJ, joueur" in err


def test_ps_13_a_split_attacks_parts_are_named_and_read_in_french() -> None:
    """PS-13's parts are JSON tables: their keys shown in the reader's language (the example
    line, the help's "JSON, e.g."), typed in either, the JSON keeping the identifiers."""
    from jdr.i18n import language
    from jdr.systems.passion.fight_models import COMMANDS

    typed = 'parts=[{"Cible": "A", "talent": 1, "MARQUEUR": 2}, {"target": "B", "marker": 1}]'
    _name, keys = COMMANDS.parse("split_attack", [typed])
    assert keys["parts"] == [
        {"target": "A", "talent": 1, "marker": 2},
        {"target": "B", "marker": 1},
    ]
    with language("fr"):
        line = COMMANDS.line("split_attack")
        kind = COMMANDS.keys("split_attack")[0].kind
    assert '{"cible":"Ninja 1","talent":2,"marqueur":3}' in line and '"cible": …' in kind
    assert find_leaks(line, "fr") == [] and find_leaks(kind, "fr") == []
    assert '{"target":"Ninja 1","talent":2,"marker":3}' in COMMANDS.line("split_attack")
