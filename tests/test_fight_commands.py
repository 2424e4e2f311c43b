"""Fight commands that explain themselves: declared as models, each has help with its keys (in the
reader's language), takes French and English keys and values, says "did you mean" for an
unknown key, completes in the shell, and exports its JSON schema; `jdr fight commands` lists
what may be played now, with a line to copy each.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_run import answer, run
from jdr.errors import InputError, UnknownNameError
from jdr.systems import default_registry
from test_cli_shell import _env, complete

SYSTEMS = Path(__file__).parent.parent / "src" / "jdr" / "systems"
BUILT_IN = ("ilvermorny", "passion", "plus-ultra", "pokemon", "poledemos")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.db"


def pokemon_fight(capsys: pytest.CaptureFixture[str], db: str) -> None:
    """Pika (initiative 14) and Chu (7): Pika to play."""
    folder = SYSTEMS / "pokemon" / "examples"
    assert run(capsys, "campaign", "new", "C", "--system", "pokemon", "--db", db)[0] == 0
    for name in ("Pika", "Chu"):
        args = ["sheet", "add", str(folder / "pokemon.toml"), "--campaign", "C", "--name", name]
        assert run(capsys, *args, "--db", db)[0] == 0
    answer(capsys, "fight", "new", "--campaign", "C", "--with", "Pika,Chu", "--faces", "9,2",
           "--db", db)  # fmt: skip


def test_every_system_declares_its_commands_as_models() -> None:
    registry = default_registry()
    for system_id in BUILT_IN:
        system = registry.get(system_id)
        commands = getattr(system, "fight_commands")  # noqa: B009
        assert commands is not None, system_id
        rules = system.fight
        assert rules is not None
        for command in commands:
            assert command.help and command.fr, (system_id, command.name)
            schema = command.keys.model_json_schema()
            assert schema["type"] == "object" and schema.get("additionalProperties") is False
            for key, info in command.keys.model_fields.items():
                assert info.description, (system_id, command.name, key)
                assert isinstance(info.json_schema_extra, dict) and "fr" in info.json_schema_extra


def test_pk_12_keys_and_values_in_french_or_english(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    pokemon_fight(capsys, db)
    asked = answer(capsys, "fight", "act", "1", "Pika", "capacité", "capacité=Éclair", "cible=chu",
                   "--db", db)  # fmt: skip
    assert asked["command"] == {
        "action": "move",
        "actor": "Pika",
        "move": "Éclair",
        "target": "chu",
    }
    answered = answer(capsys, "fight", "act", "1", "Chu", "répondre", "réponse=esquive",
                      "--seed", "3", "--db", db)  # fmt: skip
    assert answered["command"]["response"] == "dodge"
    assert answered["events"][0]["response"] == "dodge"


def test_an_unknown_key_or_command_says_did_you_mean(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    pokemon_fight(capsys, db)
    code, out, err = run(capsys, "fight", "act", "1", "Pika", "move", "move=Éclair", "tagret=Chu",
                         "--db", db)  # fmt: skip
    assert (code, out) == (2, "")
    assert err == (
        "jdr: error: unknown key tagret — did you mean target? (known: move, target,"
        " range penalty, response, counter move)\n"
    )
    code, _out, err = run(capsys, "fight", "act", "1", "Pika", "mvoe", "--db", db, "--lang", "fr")
    assert (
        code == 2
        and "vouliez-vous dire capacité\u202f?" in err
        and "(au choix\u00a0: capacité, répondre," in err
    )
    assert "move" not in err.replace("mvoe", "")
    code, _out, err = run(capsys, "fight", "act", "1", "Pika", "move", "move=Éclair",
                          "range_penalty=maybe", "--db", db)  # fmt: skip
    assert code == 2 and "range penalty: maybe — not yes or no (allowed: yes/no)" in err
    code, _out, err = run(capsys, "fight", "act", "1", "Pika", "move", "Éclair", "--db", db)
    assert code == 2 and "not a key=value pair" in err
    payload = answer(capsys, "fight", "log", "1", "--db", db)
    assert len({e["action"] for e in payload["events"]}) == 1, "nothing was played"


def test_a_commands_help_lists_its_keys_in_the_readers_language(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    pokemon_fight(capsys, db)
    code, out, _err = run(capsys, "fight", "act", "1", "Pika", "move", "--help", "--db", db)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == (
        "move — Use a move: the attack roll, its damage and effects, the defender's answer. (PK-10)"
    )
    assert "  move: text; required" in lines and "  range penalty: yes/no; default no" in lines
    assert "  response: one of no answer, endure, dodge, counter; default none" in lines
    assert lines[-1] == "Example: jdr fight act 1 Pika move move=Éclair"
    code, out, _err = run(capsys, "fight", "act", "1", "Chu", "respond", "--help", "--db", db,
                          "--lang", "fr")  # fmt: skip
    assert out.splitlines()[0].startswith("répondre — Répondre à l'attaque en attente")
    assert (
        "  réponse\u00a0: au choix\u00a0: aucune, encaisser, esquive, contrer\u202f; obligatoire"
        in out.splitlines()
    )
    assert "  capacité de contre\u00a0: texte\u202f; par défaut aucun" in out.splitlines()
    schema = answer(capsys, "fight", "act", "1", "Pika", "move", "--help", "--db", db)
    assert schema["name"] == "move" and "target" in schema["schema"]["properties"]
    code, out, _err = run(capsys, "fight", "act", "--help")
    assert code == 0 and "COMMAND --help shows the command's keys" in " ".join(out.split())


def test_fight_commands_lists_what_may_be_played_now_with_a_line_each(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    pokemon_fight(capsys, db)
    code, out, _err = run(capsys, "fight", "commands", "1", "--db", db)
    lines = out.splitlines()
    assert code == 0 and lines[0] == "fight 1 — Round 1 — to play: Pika"
    assert "      jdr fight act 1 Pika move move=Éclair" in lines
    assert "      jdr fight act 1 Pika wait" in lines
    assert lines[-1] == "jdr fight act 1 ACTOR COMMAND --help: a command's keys."
    answer(capsys, "fight", "act", "1", "Pika", "move", "move=Éclair", "--db", db)
    code, out, _err = run(capsys, "fight", "commands", "1", "Chu", "--db", db)
    assert "Chu may play: respond" in out
    assert "      jdr fight act 1 Chu respond response=counter" in out
    code, out, _err = run(capsys, "fight", "commands", "1", "Pika", "--db", db)
    assert "Pika may play: -" in out
    listed = answer(capsys, "fight", "commands", "1", "Chu", "--db", db)
    assert listed["legal_commands"] == ["respond"]
    assert listed["commands"][0]["example"] == "jdr fight act 1 Chu respond response=counter"
    assert listed["commands"][0]["schema"]["required"] == ["response"]


def test_the_json_schema_of_every_command_is_exported(capsys: pytest.CaptureFixture[str]) -> None:
    exported = answer(capsys, "fight", "commands")
    assert sorted(exported["systems"]) == list(BUILT_IN)
    passion = {c["name"]: c for c in exported["systems"]["passion"]}
    assert passion["choose_marker"]["sealed"] is True
    marker = passion["choose_marker"]["schema"]["properties"]["marker"]
    assert (marker["minimum"], marker["maximum"], marker["fr"]) == (0, 10, "marqueur")
    assert passion["attack"]["names"] == {"en": "attack", "fr": "attaque"}
    one = answer(capsys, "fight", "commands", "--system", "poledemos")["systems"]["poledemos"]
    assert one[1]["schema"]["properties"]["kind"]["enum"] == ["move", "shoot", "melee"]
    code, out, _err = run(capsys, "fight", "commands", "--system", "plus-ultra", "--lang", "fr")
    assert code == 0 and "  attaque — Attaquer\u00a0: d20 + Volonté" in out
    assert "      jdr fight act COMBAT ACTEUR attaque cible=CIBLE" in out  # placeholders in French
    code, out, _err = run(capsys, "fight", "commands", "--system", "plus-ultra", "--lang", "en")
    assert "      jdr fight act FIGHT ACTOR attack target=TARGET" in out


def test_the_command_models_refuse_what_they_cannot_read() -> None:
    commands = getattr(default_registry().get("passion"), "fight_commands")  # noqa: B009
    assert commands.parse("marqueur", ["marqueur=3", "potentiel=Corps"]) == (
        "choose_marker",
        {"marker": 3, "potential": "Corps"},
    )
    assert commands.parse("blast", ["targets=A,B", "dice=2d6"])[1] == {
        "targets": ["A", "B"],
        "dice": "2d6",
    }
    assert commands.parse("split_attack", ['parts=[{"target": "A", "talent": 1, "marker": 2}]'])[
        1
    ] == {"parts": [{"target": "A", "talent": 1, "marker": 2}]}
    with pytest.raises(InputError, match="marker"):
        commands.parse("choose_marker", ["marker=11"])
    with pytest.raises(InputError, match="JSON"):
        commands.parse("split_attack", ["parts=[oops"])
    with pytest.raises(UnknownNameError) as unknown:
        commands.parse("setle", [])
    assert "did you mean settle?" in unknown.value.message()


def test_completion_offers_commands_keys_and_fighters(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    pokemon_fight(capsys, db)
    env = _env(JDR_DATABASE_URL=db)
    assert complete("jdr fight act 1 Pika ", env) == ["move", "wait", "free\\ order", "pass"]
    assert complete("jdr fight act 1 Chu ", env) == []
    assert complete("jdr fight act 1 Pika move ", env) == [
        "move=",
        "target=",
        "range\\ penalty=",
        "response=",
        "counter\\ move=",
    ]
    assert complete("jdr fight act 1 Pika move target=", env) == ["target=Pika", "target=Chu"]
    assert complete("jdr fight act 1 Pika move response=d", env) == ["response=dodge"]
    assert complete("jdr fight act 1 Pika move move=Éclair t", env) == ["target="]
    assert complete("jdr fight act 9 Pika ", env) == []
    french = _env(JDR_DATABASE_URL=db, JDR_LANG="fr")
    assert complete("jdr fight act 1 Pika ", french) == [
        "capacité",
        "attendre",
        "ordre\\ libre",
        "passer",
    ]
    assert complete("jdr fight act 1 Pika capacite ", french) == [
        "capacité=",
        "cible=",
        "pénalité\\ de\\ portée=",
        "réponse=",
        "capacité\\ de\\ contre=",
    ]
    assert complete("jdr fight act 1 Pika capacité reponse=e", french) == [
        "reponse=encaisser",
        "reponse=esquive",
    ]
    assert complete("jdr fight act 1 Pika move range_penalty=", french) == [
        "range_penalty=oui",
        "range_penalty=non",
    ]


def test_a_tables_setting_is_given_when_the_fight_starts(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    """PK-12 … PK-14: `--setting reactions=endure` keeps the old speed: no defender is asked."""
    folder = SYSTEMS / "pokemon" / "examples"
    assert run(capsys, "campaign", "new", "C", "--system", "pokemon", "--db", db)[0] == 0
    for name in ("Pika", "Chu"):
        args = ["sheet", "add", str(folder / "pokemon.toml"), "--campaign", "C", "--name", name]
        assert run(capsys, *args, "--db", db)[0] == 0
    new = ["fight", "new", "--campaign", "C", "--with", "Pika,Chu", "--faces", "9,2", "--db", db]
    answer(capsys, *new, "--setting", "reactions=endure")
    acted = answer(capsys, "fight", "act", "1", "Pika", "move", "move=Éclair", "--seed", "3",
                   "--db", db)  # fmt: skip
    kinds = [e["type"] for e in acted["events"]]
    assert "reaction_asked" not in kinds and "endure_rolled" in kinds
    code, _out, err = run(capsys, *new, "--setting", "reactions=parry")
    assert code == 2 and "allowed: one of ask, none, endure, dodge" in err
    code, _out, err = run(capsys, *new, "--setting", "colour=red")
    assert code == 2 and "colour" in err
