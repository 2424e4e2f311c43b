"""`jdr fight …`: a fight of each system played from stored sheets, one command at a time."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cli_run import answer as run_json
from cli_run import run

SYSTEMS = Path(__file__).parent.parent / "src" / "jdr" / "systems"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.db"


def campaign(capsys: pytest.CaptureFixture[str], db: str, system: str, *sheets: str) -> None:
    """Campaign `C` of `system` holding `sheets`: "file.toml" or "file.toml:Name"."""
    assert run(capsys, "campaign", "new", "C", "--system", system, "--db", db)[0] == 0
    folder = SYSTEMS / system.replace("-", "_") / "examples"
    for sheet in sheets:
        file, _colon, name = sheet.partition(":")
        extra = ["--name", name] if name else []
        code, _out, err = run(
            capsys, "sheet", "add", str(folder / file), "--campaign", "C", *extra, "--db", db
        )
        assert code == 0, err


def act(capsys: pytest.CaptureFixture[str], db: str, *args: str) -> dict[str, Any]:
    return run_json(capsys, "fight", "act", "1", *args, "--db", db)


def undo_redo_show(capsys: pytest.CaptureFixture[str], db: str) -> dict[str, Any]:
    """Undo then redo the last action: `show --json` is as before."""
    before = run_json(capsys, "fight", "show", "1", "--db", db)
    undone = run_json(capsys, "fight", "undo", "1", "--db", db)
    assert undone["events"][0]["type"] == "undone"
    assert run_json(capsys, "fight", "show", "1", "--db", db)["state"] != before["state"]
    redone = run_json(capsys, "fight", "redo", "1", "--db", db)
    assert redone["events"][0] == {"type": "redone", "seq": undone["events"][0]["seq"]}
    after = run_json(capsys, "fight", "show", "1", "--db", db)
    assert after["state"] == before["state"]
    assert after["legal_commands"] == before["legal_commands"]
    log = run_json(capsys, "fight", "log", "1", "--db", db)["events"]
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    assert [e["event"]["type"] for e in log[-2:]] == ["undone", "redone"]
    return after


def test_plus_ultra(capsys: pytest.CaptureFixture[str], db: str) -> None:
    campaign(capsys, db, "plus-ultra", "hero.toml:Kaito", "villain.toml:Corbeau")
    new = run_json(capsys, "fight", "new", "--campaign", "C", "--with", "Kaito,Corbeau", "--db", db)
    assert new["fight"] == 1
    assert new["participants"] == ["Kaito", "Corbeau"]
    assert new["events"][0]["type"] == "fight_started"
    hit = act(capsys, db, "Kaito", "attack", "target=Corbeau", "--faces", "15")
    rolled = next(e for e in hit["events"] if e["type"] == "attack_rolled")
    assert (rolled["face"], rolled["outcome"], rolled["damage"]) == (15, "hit", 2)
    act(capsys, db, "Corbeau", "defend")
    shown = undo_redo_show(capsys, db)
    assert shown["state"]["turn"] == "Kaito"
    assert shown["state"]["round"] == 2
    assert shown["state"]["characters"]["Corbeau"]["energy"] == 10
    assert shown["legal_commands"] == ["attack", "defend", "technique", "flee"]


def test_pu_6_protecting_across_a_turn_is_refused_with_the_rule(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    """« si ces derniers se suivent »: with the order Corbeau, Kaito, Sbire, Aiko, Aiko may not
    protect Kaito (Sbire plays between them)."""
    campaign(
        capsys, db, "plus-ultra", "hero.toml:Kaito", "villain.toml:Corbeau", "hero.toml:Aiko",
        "villain.toml:Sbire",
    )  # fmt: skip
    run_json(
        capsys, "fight", "new", "--campaign", "C", "--with", "Kaito,Corbeau,Aiko,Sbire",
        "--side", "Kaito=a,Aiko=a,Corbeau=b,Sbire=b", "--order", "Corbeau,Kaito,Sbire,Aiko",
        "--db", db,
    )  # fmt: skip
    far = ("fight", "act", "1", "Corbeau", "attack", "target=Kaito", "protector=Aiko")
    code, out, err = run(capsys, *far, "--faces", "5", "--db", db, "--lang", "fr")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "leurs tours ne se suivent pas (Sbire entre les deux)" in err and "(PU-6)" in err
    code, out, err = run(capsys, *far, "--faces", "5", "--db", db, "--json")
    assert code == 2
    assert json.loads(out)["error"]["message"].startswith(
        "Aiko plays after Kaito and cannot swap turns with it: their turns do not follow each"
        " other (Sbire in between)"
    )


def test_pokemon(capsys: pytest.CaptureFixture[str], db: str) -> None:
    campaign(capsys, db, "pokemon", "pokemon.toml:Pika", "pokemon.toml:Chu", "trainer.toml")
    code, _out, err = run(
        capsys, "fight", "new", "--campaign", "C", "--with", "Pika,Léa", "--db", db
    )
    assert code == 2
    assert "a trainer does not fight" in err
    new = run_json(
        capsys, "fight", "new", "--campaign", "C", "--with", "Pika,Chu", "--faces", "9,2",
        "--db", db,
    )  # fmt: skip
    assert [e["total"] for e in new["events"] if e["type"] == "initiative_rolled"] == [14, 7]
    asked = act(capsys, db, "Pika", "move", "move=Éclair", "target=Chu")
    assert asked["events"][-1]["type"] == "reaction_asked"
    assert asked["legal_commands"] == ["respond", "join"]
    hit = act(capsys, db, "Chu", "respond", "response=none", "--seed", "3")
    assert {"type": "damage_taken", "pokemon": "Chu"}.items() <= hit["events"][-2].items()
    act(capsys, db, "Chu", "wait")
    shown = undo_redo_show(capsys, db)
    assert shown["state"]["round"] == 2
    assert shown["state"]["to_play"] == ["Pika"]
    chu = shown["state"]["pokemon"]["Chu"]
    assert chu["vitality"] == chu["vitality_max"] - 2


def test_passion(capsys: pytest.CaptureFixture[str], db: str) -> None:
    campaign(capsys, db, "passion", "romuald.toml", "cyber-ninja.toml")
    new = run_json(
        capsys, "fight", "new", "--campaign", "C", "--with", "Romuald,Cyber-ninja",
        "--side", "Romuald=heroes,Cyber-ninja=ninjas", "--db", db,
    )  # fmt: skip
    assert new["legal_commands"] == ["choose_marker", "deus_ex_machina"]
    act(capsys, db, "Romuald", "choose_marker", "marker=2")
    revealed = act(capsys, db, "Cyber-ninja", "choose_marker", "marker=0")
    assert "markers_revealed" in [e["type"] for e in revealed["events"]]
    shown = undo_redo_show(capsys, db)
    fighters = shown["state"]["fighters"]
    assert (fighters["Romuald"]["side"], fighters["Cyber-ninja"]["side"]) == ("heroes", "ninjas")
    assert "attack" in shown["legal_commands"]


def test_ilvermorny(capsys: pytest.CaptureFixture[str], db: str) -> None:
    campaign(capsys, db, "ilvermorny", "wizard.toml:Ann", "wizard.toml:Bob")
    new = run_json(capsys, "fight", "new", "--campaign", "C", "--with", "Ann,Bob", "--db", db)
    assert new["events"][0]["type"] == "duel_started"
    act(capsys, db, "Ann", "cast", "spell=Lumos")
    cast = act(capsys, db, "Bob", "cast", "spell=Expelliarmus", "--faces", "2,3,6,5")
    assert [e["natural"] for e in cast["events"] if e["type"] == "spell_cast"] == [2, 3]
    shown = undo_redo_show(capsys, db)
    assert shown["state"]["round"] == 2
    assert shown["state"]["wizards"] == ["Ann", "Bob"]


def test_poledemos(capsys: pytest.CaptureFixture[str], db: str) -> None:
    campaign(capsys, db, "poledemos", "warband.toml:Alice", "warband.toml:Bob")
    new = run_json(
        capsys, "fight", "new", "--campaign", "C", "--with", "Alice,Bob", "--faces", "6,1",
        "--db", db,
    )  # fmt: skip
    assert new["legal_commands"] == ["activate"]
    rolled = act(
        capsys, db, "Alice", "activate", "figure=Sergent Perry", "dice=2", "--faces", "5,6"
    )
    assert rolled["command"]["player"] == "Alice"
    assert rolled["events"][0]["action_points"] == 2
    act(capsys, db, "Alice", "action", "kind=move")
    shown = undo_redo_show(capsys, db)
    assert shown["state"]["hand"] == "Alice"
    assert shown["state"]["activation"]["figure"] == "Sergent Perry"
    assert shown["legal_commands"] == ["action", "end_activation"]


def test_a_fight_command_refuses_faces_it_never_used(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    """Issue 29: `--faces` a command does not use are refused as `jdr roll` refuses them (the
    same message), exit 2, and nothing is written: neither the fight nor the journal."""
    campaign(capsys, db, "plus-ultra", "hero.toml:Kaito", "villain.toml:Corbeau")
    run_json(capsys, "fight", "new", "--campaign", "C", "--with", "Kaito,Corbeau", "--db", db)
    act(capsys, db, "Kaito", "attack", "target=Corbeau", "--faces", "15")

    def written() -> tuple[int, int]:
        log = run_json(capsys, "fight", "log", "1", "--db", db)["events"]
        journal = json.loads(run(capsys, "journal", "export", "C", "--db", db)[1])["entries"]
        return len(log), len(journal)

    before = written()
    code, out, err = run(capsys, "fight", "act", "1", "Corbeau", "defend", "--faces", "5,5,5",
                         "--db", db)  # fmt: skip
    assert (code, out) == (2, "")
    assert "faces: 5,5,5 — 3 faces given, the roll used only 0 (allowed: 0 faces)" in err
    rolled = run(capsys, "roll", "pokemon", "check", "--dice", "1", "--faces", "5,5,5")[2]
    assert "3 faces given, the roll used only 1" in rolled  # the same words as `jdr roll`
    code, _out, err = run(capsys, "fight", "act", "1", "Corbeau", "defend", "--faces", "5",
                          "--db", db, "--lang", "fr")  # fmt: skip
    assert code == 2 and "1 face donnée, le jet n'en a utilisé que 0" in err
    assert written() == before
    act(capsys, db, "Corbeau", "defend")  # the command itself was fine
    events, entries = written()
    assert events > before[0] and entries == before[1] + 1


def test_a_fight_command_using_two_of_three_faces_is_refused(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    campaign(capsys, db, "poledemos", "warband.toml:Alice", "warband.toml:Bob")
    run_json(
        capsys, "fight", "new", "--campaign", "C", "--with", "Alice,Bob", "--faces", "6,1",
        "--db", db,
    )  # fmt: skip
    activate = ("fight", "act", "1", "Alice", "activate", "figure=Sergent Perry", "dice=2")
    code, out, err = run(capsys, *activate, "--faces", "5,6,4", "--db", db)
    assert (code, out) == (2, "")
    assert "faces: 5,6,4 — 3 faces given, the roll used only 2 (allowed: 2 faces)" in err
    assert run_json(capsys, "fight", "show", "1", "--db", db)["legal_commands"] == ["activate"]
    code, _out, err = run(capsys, "fight", "new", "--campaign", "C", "--with", "Alice,Bob",
                          "--faces", "6,1,3", "--db", db)  # fmt: skip
    assert code == 2 and "3 faces given, the roll used only 2" in err
    rolled = act(capsys, db, *activate[3:], "--faces", "5,6")
    assert rolled["events"][0]["action_points"] == 2


def test_pk_2_a_d10s_0_typed_in_a_fight_counts_10(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    """« parfois, un 0 remplace le 10, mais il compte toujours pour 10 » (PK-2): the fight
    commands' `--faces` read it too, and the journal keeps 10."""
    campaign(capsys, db, "pokemon", "pokemon.toml:Pika", "pokemon.toml:Chu")
    new = run_json(
        capsys, "fight", "new", "--campaign", "C", "--with", "Pika,Chu", "--faces", "0,2",
        "--db", db,
    )  # fmt: skip
    rolled = [e for e in new["events"] if e["type"] == "initiative_rolled"]
    assert [(e["face"], e["total"]) for e in rolled] == [(10, 15), (2, 7)]
    exported = json.loads(run(capsys, "journal", "export", "C", "--db", db)[1])
    assert exported["entries"][-1]["dice"] == {
        "source": "given",
        "rolls": [[10, 10], [10, 2]],
        "by": ["Pika", "Chu"],  # each one's initiative die is theirs
    }


def test_text_output(capsys: pytest.CaptureFixture[str], db: str) -> None:
    campaign(capsys, db, "plus-ultra", "hero.toml:Kaito", "villain.toml:Corbeau")
    code, out, _err = run(
        capsys, "fight", "new", "--campaign", "C", "--with", "Kaito,Corbeau", "--db", db
    )
    assert code == 0
    assert out.splitlines()[:2] == [
        "fight 1 started in campaign C",
        "Plus Ultra fight: Kaito (a) against Corbeau (b); order of play: Kaito and Corbeau.",
    ]
    assert "Round 1 — to play: Kaito\nlegal commands: attack, defend, technique, flee" in out
    code, out, _err = run(capsys, "fight", "act", "1", "Kaito", "defend", "--db", db)
    assert (code, out.splitlines()[0]) == (
        0,
        "Kaito defends: +5 defense until the start of its next turn.",
    )
    code, out, _err = run(capsys, "fight", "show", "1", "--db", db)
    assert code == 0
    assert out.splitlines()[1:] == [
        "Round 1 — to play: Corbeau",
        "Kaito (a) — Énergie 8/8 · Volonté 8/8 · Poing Tempête ready · Rafale ready"
        " · Gantelets lestés ready · defending",
        "Corbeau (b) — Énergie 12/12 · Volonté 10/10 · Nuée noire ready · Bec d'acier ready"
        " · Manteau de plumes ready",
        "legal commands: attack, defend, technique, flee",
    ]
    code, out, _err = run(capsys, "fight", "show", "1", "--db", db, "--lang", "fr")
    assert out.splitlines()[:3] == [
        "combat 1 — C",
        "Manche 1 — à jouer\u00a0: Corbeau",
        "Kaito (a) — Énergie 8/8 · Volonté 8/8 · Poing Tempête disponible · Rafale disponible"
        " · Gantelets lestés disponible · en défense",
    ]
    code, out, _err = run(capsys, "fight", "log", "1", "--db", db)
    # issue 29: actions are numbered within the fight, the opening 0 (they were event seqs)
    assert out.splitlines()[0].startswith("#0    Plus Ultra fight: Kaito (a) against Corbeau")
    # the action undone is told in words, never as a command or an internal event
    assert run(capsys, "fight", "undo", "1", "--db", db)[1].startswith(
        "Undone: action 1 (Kaito defends: +5 defense until the start of its next turn.)\n"
    )
    redone = run(capsys, "fight", "redo", "1", "--db", db, "--lang", "fr")[1]
    assert redone.startswith("Rétablie\u00a0: action 1 (Kaito se défend\u00a0: +5 en défense")


def test_bad_input(capsys: pytest.CaptureFixture[str], db: str) -> None:
    campaign(capsys, db, "plus-ultra", "hero.toml:Kaito", "villain.toml:Corbeau")
    code, _out, err = run(capsys, "fight", "show", "7", "--db", db)
    assert (code, err.strip()) == (2, "jdr: error: no fight 7")
    assert run(capsys, "fight", "act", "7", "Kaito", "defend", "--db", db)[0] == 2
    run_json(capsys, "fight", "new", "--campaign", "C", "--with", "Kaito,Corbeau", "--db", db)
    code, out, err = run(
        capsys, "fight", "act", "1", "Corbeau", "attack", "target=Kaito", "--db", db
    )
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert "legal commands now: attack, defend, technique, flee" in err
    code, _out, err = run(capsys, "fight", "act", "1", "Kaito", "attack", "Corbeau", "--db", db)
    assert code == 2
    assert "not a key=value pair" in err
    code, _out, err = run(capsys, "fight", "undo", "1", "--db", db)
    assert (code, "nothing to undo" in err) == (2, True)
    code, _out, err = run(capsys, "fight", "redo", "1", "--db", db)
    assert (code, "nothing to redo" in err) == (2, True)
    code, _out, err = run(
        capsys, "fight", "new", "--campaign", "C", "--with", "Kaito,Nobody", "--db", db
    )
    assert (code, "Nobody" in err) == (2, True)
    code, _out, err = run(
        capsys, "fight", "new", "--campaign", "C", "--with", "Kaito,Corbeau", "--side", "X=a",
        "--db", db,
    )  # fmt: skip
    assert (code, "not in the fight" in err) == (2, True)
    # a refused command stored nothing
    assert len(run_json(capsys, "fight", "log", "1", "--db", db)["events"]) == 3


def test_a_system_without_fight_setup_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from jdr.errors import InputError
    from jdr.fights.setup import build_setup
    from jdr.systems.protocol import System

    with pytest.raises(InputError, match="cannot start a fight from stored sheets"):
        build_setup(System("coin", {"en": "Coin"}), [], {})


def test_parse_pairs() -> None:
    from jdr.fights.setup import parse_pairs

    assert parse_pairs(["a=-3", "b=TRUE", "c=x,2", "d=[1, 2]", "e=2d6"]) == {
        "a": -3,
        "b": True,
        "c": ["x", 2],
        "d": [1, 2],
        "e": "2d6",
    }
    # issue 28: text that is not JSON is text, for the rules to judge (`[PNJ] Garde` is a name)
    assert parse_pairs(["a={oops", "t=[PNJ] Garde"]) == {"a": "{oops", "t": "[PNJ] Garde"}


def plus_ultra_fight(capsys: pytest.CaptureFixture[str], db: str) -> None:
    """Kaito hits Corbeau (face 15), then Corbeau defends: round 2 starts."""
    campaign(capsys, db, "plus-ultra", "hero.toml:Kaito", "villain.toml:Corbeau")
    run_json(capsys, "fight", "new", "--campaign", "C", "--with", "Kaito,Corbeau", "--db", db)
    act(capsys, db, "Kaito", "attack", "target=Corbeau", "--faces", "15")
    act(capsys, db, "Corbeau", "defend")


FOOTER = re.compile(
    r"(\n|\[i\]|_)journal (#\d+ [0-9a-f]{10}(, | … )?)+ · seed commitment [0-9a-f]{16}…"
    r"(\[/i\]|_)?\n$"
)


def recap(capsys: pytest.CaptureFixture[str], db: str, *args: str) -> str:
    """The recap without its journal footer (checked: entry numbers, short hashes, commitment)."""
    code, out, err = run(capsys, "fight", "recap", "1", *args, "--lang", "en", "--db", db)
    assert code == 0, err
    found = FOOTER.search(out)
    if "No event" in out:
        assert found is None
        return out
    assert found is not None, out
    cut = found.start() - (found.group(1) == "_")  # Markdown: a blank line before the footer
    return out[:cut] + ("\n" if found.group(1) == "\n" else "")


KAITO_TEXT = """\
Kaito — round 1
Actions:
- Attack on Corbeau: d20 15 + 8 = 23 against defense 20 → hit: −2 Énergie
State:
- Énergie: 8/8
- Volonté: 8/8
- Poing Tempête: ready
- Rafale: ready
- Gantelets lestés: ready
"""

CORBEAU_BBCODE = """\
[b]Corbeau — round 1[/b]
[b]Actions[/b]
[list]
[*]Defends: +5 defense until the next turn
[/list]
[b]State[/b]
[list]
[*]Énergie: 10/12
[*]Volonté: 10/10
[*]Nuée noire: [color=green]ready[/color]
[*]Bec d'acier: [color=green]ready[/color]
[*]Manteau de plumes: [color=green]ready[/color]
[/list]
"""

CORBEAU_MARKDOWN = """\
**Corbeau — round 1**

**Actions**
- Defends: +5 defense until the next turn

**State**
- Énergie: 10/12
- Volonté: 10/10
- Nuée noire: **ready**
- Bec d'acier: **ready**
- Manteau de plumes: **ready**
"""


def test_recap_plus_ultra_with_actor(capsys: pytest.CaptureFixture[str], db: str) -> None:
    plus_ultra_fight(capsys, db)
    assert recap(capsys, db, "--actor", "Kaito") == KAITO_TEXT
    assert recap(capsys, db, "--actor", "Kaito", "--round", "1", "--format", "text") == KAITO_TEXT
    assert recap(capsys, db, "--actor", "Corbeau", "--format", "bbcode") == CORBEAU_BBCODE
    assert recap(capsys, db, "--actor", "Corbeau", "--format", "markdown") == CORBEAU_MARKDOWN


LAST_ACTION = [
    "defended actor=Corbeau round=1",
    "round_started round=2",
    "turn_started name=Kaito round=2",
]


def test_recap_of_the_last_action_and_of_a_round(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    plus_ultra_fight(capsys, db)
    title = "Fight 1 — action 2"  # issue 29: the 2nd action played (it was its event seq, 8)
    said = "Corbeau defends: +5 defense until the start of its next turn."
    state = [
        "Kaito (a) — Énergie 8/8 · Volonté 8/8 · Poing Tempête ready · Rafale ready"
        " · Gantelets lestés ready",
        "Corbeau (b) — Énergie 10/12 · Volonté 10/10 · Nuée noire ready · Bec d'acier ready"
        " · Manteau de plumes ready · defending",
    ]
    status = "Round 2 — to play: Kaito"
    assert recap(capsys, db) == "\n".join(
        [title, f"- {said}", "State:", *[f"- {line}" for line in state], status, ""]
    )
    assert recap(capsys, db, "--format", "bbcode") == "\n".join(
        [f"[b]{title}[/b]", "[list]", f"[*]{said}", "[/list]", "[b]State[/b]", "[list]",
         *[f"[*]{line}" for line in state], "[/list]", f"[b]{status}[/b]", ""]
    )  # fmt: skip
    assert recap(capsys, db, "--format", "markdown") == "\n".join(
        [f"**{title}**", "", f"- {said}", "", "**State**", "",
         *[f"- {line}" for line in state], "", f"**{status}**", ""]
    )  # fmt: skip
    round_one = recap(capsys, db, "--round", "1").splitlines()
    assert round_one[:3] == [
        "Fight 1 — round 1",
        "- Kaito attacks Corbeau. d20 15 + 8 = 23 against 20: hit (chance to hit 45.00 %)."
        " Corbeau loses 2 Énergie.",
        f"- {said}",
    ]
    payload = run_json(capsys, "fight", "recap", "1", "--round", "2", "--db", db)
    assert [e["type"] for e in payload["events"]] == ["round_started", "turn_started"]
    assert payload["recap"].startswith("Fight 1 — round 2\n- Nothing happened.\n")


ILVERMORNY = {
    "text": "Fight 1 — action 3\n- spell_chosen round=1 wizard=Ann spell=Lumos\n",
    "bbcode": """\
[b]Fight 1 — action 3[/b]
[list]
[*]spell_chosen round=1 wizard=Ann spell=Lumos
[/list]
""",
    "markdown": """\
**Fight 1 — action 3**

- spell_chosen round=1 wizard=Ann spell=Lumos
""",
}


def test_recap_of_a_sealed_choice_shows_it_chosen_not_its_value(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    campaign(capsys, db, "ilvermorny", "wizard.toml:Ann", "wizard.toml:Bob")
    run_json(capsys, "fight", "new", "--campaign", "C", "--with", "Ann,Bob", "--db", db)
    chosen = act(capsys, db, "Ann", "cast", "spell=Lumos")
    assert chosen["command"] == {"action": "cast", "wizard": "Ann"}
    assert "Lumos" not in json.dumps(chosen)
    for fmt in ("text", "bbcode", "markdown"):
        text = recap(capsys, db, "--format", fmt)
        assert "Ann has chosen a spell (sealed: " in text
        assert "Ann — Magie 7 · spell chosen (sealed) · Lumos level 3" in text  # its sheet
        assert "Lumos (" not in text and "spell Lumos" not in text
    assert "Lumos" not in run(capsys, "fight", "log", "1", "--db", db)[1]
    logged = run_json(capsys, "fight", "log", "1", "--db", db)["events"]
    assert logged[-1]["event"] == {
        "type": "spell_chosen",
        "round": 1,
        "wizard": "Ann",
        "sealed": logged[-1]["event"]["sealed"],
    }
    shown = run_json(capsys, "fight", "show", "1", "--db", db)
    assert "Lumos" not in json.dumps(shown["state"]["chosen"]) and "secret" not in shown["state"]
    assert "Ann — Magie 7 · spell chosen (sealed)" in shown["view"]["fighters"][0]
    assert recap(capsys, db, "--actor", "Ann").startswith("Fight 1 — action 1\n- Ann has chosen")


def test_recap_refuses_a_bad_format_or_round(capsys: pytest.CaptureFixture[str], db: str) -> None:
    plus_ultra_fight(capsys, db)
    code, _out, err = run(capsys, "fight", "recap", "1", "--format", "html", "--db", db)
    known = "unknown --format html (known: text, BBCode, Markdown, Discord)"
    assert (code, known in err) == (2, True)
    code, _out, err = run(capsys, "fight", "recap", "1", "--round", "9", "--db", db)
    assert (code, "allowed: 1, 2" in err) == (2, True)


def test_end(capsys: pytest.CaptureFixture[str], db: str) -> None:
    plus_ultra_fight(capsys, db)
    code, out, _err = run(capsys, "fight", "end", "1", "--db", db)
    # issue 29: the GM's end is journaled and says how the fight ended
    assert code == 0
    assert out.startswith("fight 1 ended\nThe GM ended the fight: no winner named.\njournal #")
    code, out, err = run(capsys, "fight", "act", "1", "Kaito", "defend", "--db", db)
    assert (code, out, err) == (2, "", "jdr: error: fight 1 has ended: no command can be played\n")
    assert run(capsys, "fight", "undo", "1", "--db", db)[0] == 2
    shown = run_json(capsys, "fight", "show", "1", "--db", db)
    assert shown["status"] == "ended"
    assert "this fight has ended" in run(capsys, "fight", "show", "1", "--db", db)[1]
    assert len(run_json(capsys, "fight", "log", "1", "--db", db)["events"]) == 11  # + the end
    assert recap(capsys, db, "--actor", "Kaito") == KAITO_TEXT
    ended = {
        "fight": 1,
        "status": "ended",
        "ending": {"how": "gm", "winners": []},
        "applied": True,
        "outcome": [],  # PU-1: none kept
        "journal": None,  # ended already: nothing more is journaled
    }
    assert run_json(capsys, "fight", "end", "1", "--db", db) == ended
    code, _out, err = run(capsys, "fight", "end", "7", "--db", db)
    assert (code, err) == (2, "jdr: error: no fight 7\n")


def test_help_commands(capsys: pytest.CaptureFixture[str], db: str) -> None:
    plus_ultra_fight(capsys, db)
    code, out, _err = run(capsys, "fight", "act", "1", "Kaito", "--help-commands", "--db", db)
    assert code == 0
    assert out.splitlines()[:3] == [
        "fight 1 — Round 2 — to play: Kaito",
        "Kaito may play: attack, defend, technique, flee",
        "  attack — Attack: d20 + Volonté against 8 + the target's Énergie (+ its bonuses). (PU-4)",
    ]
    listed = run_json(capsys, "fight", "act", "1", "Kaito", "--help-commands", "--db", db)
    assert listed["legal_commands"] == ["attack", "defend", "technique", "flee"]
    code, out, _err = run(
        capsys, "fight", "act", "1", "Kaito", "defend", "--help-commands", "--db", db
    )
    assert code == 0
    assert len(run_json(capsys, "fight", "log", "1", "--db", db)["events"]) == 10, "nothing played"
    code, out, err = run(capsys, "fight", "act", "1", "Kaito", "--db", db)
    assert (code, out) == (2, "")
    assert "COMMAND: no command given (allowed: attack, defend, technique, flee)" in err


def test_pk_5_a_stored_pokemon_joins_a_running_fight(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    campaign(
        capsys, db, "pokemon", "pokemon.toml:Pika", "pokemon.toml:Sauvage",
        "pokemon.toml:Rattata", "trainer.toml:Sacha",
    )  # fmt: skip
    run_json(capsys, "fight", "new", "--campaign", "C", "--with", "Pika,Sauvage", "--db", db)
    joined = act(capsys, db, "Rattata", "join", "side=wild", "item=Restes", "--faces", "7")
    assert [e["type"] for e in joined["events"]] == ["joined", "initiative_rolled"]
    assert joined["command"]["pokemon"]["side"] == "wild"
    assert joined["command"]["pokemon"]["item"] == "Restes"
    state = run_json(capsys, "fight", "show", "1", "--db", db)["state"]
    assert "Rattata" in state["pokemon"]
    code, _out, err = run(capsys, "fight", "act", "1", "Rattata", "join", "--db", db)
    assert code == 2 and "two Pokémon are named Rattata" in err
    code, _out, err = run(capsys, "fight", "act", "1", "Sacha", "join", "--db", db)
    assert code == 2 and "a trainer does not fight" in err
    code, _out, err = run(capsys, "fight", "act", "1", "Nobody", "join", "--db", db)
    assert code == 2 and "unknown character Nobody" in err
    code, _out, err = run(capsys, "fight", "act", "1", "Pika", "join", "colour=red", "--db", db)
    assert code == 2 and "colour" in err


def test_pd_3_the_scenario_says_who_starts_and_which_way_play_goes(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    campaign(capsys, db, "poledemos", "warband.toml:Alice", "warband.toml:Bob", "warband.toml:Cy")
    new = ["fight", "new", "--campaign", "C", "--with", "Alice,Bob,Cy", "--db", db]
    started = run_json(capsys, *new, "--order", "Bob,Alice,Cy")
    opening = {e["type"]: e for e in started["events"]}
    assert opening["game_started"]["first"] == "Bob"
    assert opening["game_started"]["direction"] == "counterclockwise"
    assert opening["first_player"] == {"type": "first_player", "player": "Bob", "by": "scenario"}
    started = run_json(capsys, *new, "--order", "Cy,Alice,Bob")
    assert started["events"][0]["direction"] == "clockwise"
    for wrong in ("Bob,Cy", "Bob,Alice,Dan"):
        code, _out, err = run(capsys, *new, "--order", wrong)
        assert code == 2 and "play goes around the table (PD-3)" in err
    rolled = run_json(capsys, *new, "--faces", "2,5,3")
    assert [e["type"] for e in rolled["events"]][:3] == ["game_started", "roll_off", "first_player"]
    assert rolled["events"][2]["player"] == "Bob"


def test_show_gives_each_fighter_one_line_in_every_system(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    campaign(capsys, db, "pokemon", "pokemon.toml:Pika", "pokemon.toml:Sauvage")
    run_json(capsys, "fight", "new", "--campaign", "C", "--with", "Pika,Sauvage", "--faces", "3,9",
             "--db", db)  # fmt: skip
    out = run(capsys, "fight", "show", "1", "--db", db)[1].splitlines()
    assert out[1:4] == [
        "Round 1 — to play: Sauvage",
        "Pika (a) — Vitalité 14/14 · Énergie 10/10 · initiative 8",
        "Sauvage (b) — Vitalité 14/14 · Énergie 10/10 · initiative 14",
    ]


def test_a_fighter_line_reads_gauges_values_and_flags() -> None:
    from jdr.fights.view import fighter_line
    from jdr.i18n import set_language

    data = {
        "name": "Pika", "side": "a", "vitality": 0, "vitality_max": 14, "condition": "paralysis",
        "condition_turns": 2, "ko": True, "in_fight": True, "homebrew": 3, "item": None,
    }  # fmt: skip
    assert fighter_line(data) == (
        "Pika (a) — Vitalité 0/14 · condition paralysis · turns 2 · homebrew 3 · KO"
    )
    set_language("fr")
    assert fighter_line(data) == (
        "Pika (a) — Vitalité 0/14 · altération Paralysie · tours 2 · homebrew 3 · KO"
    )
    assert fighter_line({"name": "Solo"}) == "Solo"
