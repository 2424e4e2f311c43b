"""A fight of each system played from the README's commands, told and recapped: the whole fight's
recap in BBCode, Markdown and text (and in French), compared with golden files; a BBCode recap
rendered as a forum would has no Markdown left; `fight show` names who the fight waits for.

Golden files are `tests/golden/recap-SYSTEM.FORMAT[.fr].txt`, the journal's footer left out (its
hashes depend on the campaign's secret seed). `JDR_UPDATE_GOLDEN=1` rewrites them: read the diff.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import pytest

from cli_run import answer, run
from test_cli_fight import campaign

GOLDEN = Path(__file__).parent / "golden"
FOOTER = re.compile(
    r"\n+(\[i\]|_)?journal ((#|n°)\d+ [0-9a-f]{10}(, | … )?)+ · [^\n]* [0-9a-f]{16}…(\[/i\]|_)?\n$"
)

SEALED = re.compile(r"((?:sealed|scellé)\s?:)\s?[0-9a-f]{10}")

Script = list[tuple[str, ...]]
FIGHTS: dict[str, tuple[list[str], list[str], Script]] = {
    "plus-ultra": (
        ["hero.toml:Kaito", "villain.toml:Corbeau"],
        ["--with", "Kaito,Corbeau"],
        [
            ("Kaito", "attack", "target=Corbeau", "--faces", "15"),
            ("Corbeau", "defend"),
            ("Kaito", "technique", "technique=Poing Tempête", "target=Corbeau", "--faces", "4"),
            ("Corbeau", "flee"),
            ("Kaito", "interrupt", "--faces", "20"),
        ],
    ),
    "pokemon": (
        ["pokemon.toml:Pika", "pokemon.toml:Chu"],
        ["--with", "Pika,Chu", "--faces", "9,2"],
        [
            ("Pika", "move", "move=Éclair", "target=Chu"),
            ("Chu", "respond", "response=dodge", "--faces", "4,10,9,3,6,10,8,10,2,10,1,8"),
            ("Chu", "move", "move=Mimi-Queue"),
            ("Pika", "move", "move=Tranche"),
            ("Chu", "respond", "response=counter", "counter_move=Tranche", "--faces", "6,6,3,5"),
        ],
    ),
    "passion": (
        ["romuald.toml", "cyber-ninja.toml"],
        ["--with", "Romuald,Cyber-ninja", "--side", "Romuald=heroes,Cyber-ninja=ninjas"],
        [
            ("Romuald", "choose_marker", "marker=2"),
            ("Cyber-ninja", "choose_marker", "marker=0"),
            ("Romuald", "attack", "target=Cyber-ninja", "dice=2d6", "weapon=Pied",
             "--faces", "4,6"),
            ("Romuald", "settle"),
            ("Romuald", "violence", "dice=1d6", "--faces", "2"),
            ("Romuald", "settle"),
            ("Cyber-ninja", "attack", "target=Romuald"),
            ("Romuald", "dodge", "dice=3d6", "--faces", "6,2,3"),
            ("Romuald", "settle", "passion=1"),
        ],
    ),
    "ilvermorny": (
        ["wizard.toml:Ann", "wizard.toml:Bob"],
        ["--with", "Ann,Bob"],
        [
            ("Ann", "cast", "spell=Lumos"),
            ("Bob", "cast", "spell=Expelliarmus", "--faces", "2,3,6,5"),
            ("Bob", "cast", "spell=Protego"),
            ("Ann", "cast", "spell=Expelliarmus", "--faces", "12,4"),
        ],
    ),
    "poledemos": (
        ["warband.toml:Alice", "warband.toml:Bob"],
        ["--with", "Alice,Bob", "--faces", "6,1"],
        [
            ("Alice", "activate", "figure=Sergent Perry", "dice=3", "group=Caporal",
             "--faces", "6,4,3"),
            ("Alice", "action", "kind=shoot", "pa=2", "note=Smith est touché"),
            ("Alice", "action", "kind=move"),
            ("Alice", "activate", "figure=Adjudant Harper", "dice=2", "--faces", "1,1"),
        ],
    ),
}  # fmt: skip


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.db"


def play(capsys: pytest.CaptureFixture[str], db: str, system: str) -> None:
    """Campaign `C` of `system`, its sheets, fight 1 and the script, every command accepted."""
    sheets, new, script = FIGHTS[system]
    campaign(capsys, db, system, *sheets)
    answer(capsys, "fight", "new", "--campaign", "C", *new, "--db", db)
    for command in script:
        answer(capsys, "fight", "act", "1", *command, "--db", db)


def recap(capsys: pytest.CaptureFixture[str], db: str, *args: str) -> str:
    code, out, err = run(capsys, "fight", "recap", "1", *args, "--db", db)
    assert code == 0, err
    found = FOOTER.search(out)
    assert found is not None, out
    # a sealed choice's commitment is salted at random: the same choice never shows the same
    return SEALED.sub(r"\1 …", out[: found.start()] + "\n")


def golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("JDR_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), name


@pytest.mark.parametrize("system", list(FIGHTS))
def test_a_whole_fight_recap_in_each_format_and_in_french(
    capsys: pytest.CaptureFixture[str], db: str, system: str
) -> None:
    play(capsys, db, system)
    for fmt in ("bbcode", "markdown", "text"):
        golden(f"recap-{system}.{fmt}.txt", recap(capsys, db, "--all", "--format", fmt))
    french = recap(capsys, db, "--all", "--format", "bbcode", "--lang", "fr")
    golden(f"recap-{system}.bbcode.fr.txt", french)
    posted = forum(french)
    assert "**" not in posted and "~~" not in posted and "\n- " not in posted
    assert "[" not in posted, posted  # every tag is one a forum knows, and closed


def forum(bbcode: str) -> str:
    """A recap as a phpBB or Forumactif board renders it: its tags become HTML (an unknown or
    unclosed tag stays as typed, as a board leaves it)."""
    text = html.escape(bbcode)
    for tag, (start, end) in {
        "b": ("<strong>", "</strong>"),
        "i": ("<em>", "</em>"),
        "s": ("<del>", "</del>"),
        "list": ("<ul>", "</ul>"),
    }.items():
        text = re.sub(rf"\[{tag}\](.*?)\[/{tag}\]", rf"{start}\1{end}", text, flags=re.S)
    text = re.sub(r"\[color=(green|red)\](.*?)\[/color\]", r'<span class="\1">\2</span>', text)
    return text.replace("[*]", "<li>").replace("\u200b", "")


def test_a_round_and_a_fighters_last_action(capsys: pytest.CaptureFixture[str], db: str) -> None:
    play(capsys, db, "pokemon")
    round_one = recap(capsys, db, "--round", "1")
    assert round_one.startswith(
        "Fight 1 — round 1\n- Pika uses Éclair on Chu (−1 Énergie) (chance to hit 74.00 %)."
    )
    assert "Chu tries to dodge (chance to dodge 16.36 %)." in round_one
    assert "Mimi-Queue" in round_one
    assert "Tranche" not in round_one
    last = recap(capsys, db, "--actor", "chu")
    assert (
        last.startswith("Fight 1 — action ")
        and "Chu chooses to counter (chance to win the counter 62.67 %)." in last
    )
    assert "Pika uses Tranche" not in last
    payload = answer(capsys, "fight", "recap", "1", "--actor", "Pika", "--db", db)
    assert [e["type"] for e in payload["events"]][:2] == ["move_used", "reaction_asked"]
    code, _out, err = run(capsys, "fight", "recap", "1", "--round", "9", "--db", db)
    assert code == 2 and "allowed: 1, 2" in err
    code, _out, err = run(capsys, "fight", "recap", "1", "--actor", "Nobody", "--db", db)
    assert code == 2 and "Nobody" in err


def test_a_plus_ultra_post_keeps_its_pu_11_recap(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    play(capsys, db, "plus-ultra")
    post = recap(capsys, db, "--actor", "Kaito", "--format", "bbcode")
    assert post.startswith("[b]Kaito — round 2[/b]\n[b]Actions[/b]\n[list]\n")
    assert "[*]Interrupts Corbeau's flight: d20 20 + 5 = 25 against defense 21 (+3 fleeing)" in post
    assert "[*]Poing Tempête: 0/2\n" in post


WAITING = {
    "pokemon": "Round 1 — waiting: Chu's answer to Pika's Éclair (none, endure, dodge, counter)",
    "passion": "Round 1 — waiting: Romuald's dodge against Cyber-ninja (dodge or no dodge)",
    "plus-ultra": (
        "Round 2 — waiting: an opponent's answer to Corbeau's flight (interrupt or let go)"
    ),
}


@pytest.mark.parametrize(
    ("system", "steps", "status"),
    [
        ("pokemon", 1, WAITING["pokemon"]),
        ("passion", 1, "Round 1 — markers: Romuald has chosen; waiting for Cyber-ninja"),
        ("passion", 7, WAITING["passion"]),
        ("plus-ultra", 4, WAITING["plus-ultra"]),
        ("ilvermorny", 3, "Round 2 — waiting: the spell of Ann"),
        ("poledemos", 1, "Hand 1 — Alice plays: Sergent Perry has 3 PA left (done: -)"),
    ],
)
def test_show_says_what_the_fight_waits_for_and_from_whom(
    capsys: pytest.CaptureFixture[str], db: str, system: str, steps: int, status: str
) -> None:
    sheets, new, script = FIGHTS[system]
    FIGHTS[system] = (sheets, new, script[:steps])
    try:
        play(capsys, db, system)
    finally:
        FIGHTS[system] = (sheets, new, script)
    code, out, _err = run(capsys, "fight", "show", "1", "--db", db)
    lines = out.splitlines()
    assert code == 0 and lines[1] == status
    shown = "\n".join(lines)
    for internal in ("hand_number", "False", "True", "None", "{", "': ", "over", "secret"):
        assert internal not in shown, internal
    view = answer(capsys, "fight", "show", "1", "--db", db)["view"]
    assert view["status"] == status and len(view["fighters"]) == 2
    code, out, _err = run(capsys, "fight", "show", "1", "--db", db, "--lang", "fr")
    assert out.splitlines()[1].startswith(("Manche", "Main"))


def test_the_log_tells_the_story_and_marks_what_was_undone(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    play(capsys, db, "plus-ultra")
    code, out, _err = run(capsys, "fight", "undo", "1", "--db", db)
    assert code == 0
    # issue 29: numbered within the fight (the opening 0, undo unnumbered), not by event seq
    assert out.startswith("Undone: action 5 (Kaito interrupts Corbeau's flight. d20 20 + 5 = 25")
    code, out, _err = run(capsys, "fight", "log", "1", "--db", db)
    lines = out.splitlines()
    assert lines[0].startswith("#0    Plus Ultra fight: Kaito (a) against Corbeau (b)")
    assert any(line.startswith("#5    (undone) Kaito interrupts") for line in lines)
    assert lines[-1].startswith("#-    Undone: action 5 (")
    logged = answer(capsys, "fight", "log", "1", "--db", db)
    assert logged["events"][0]["text"].startswith("Plus Ultra fight: ")
    assert [a["undone"] for a in logged["actions"]][-2:] == [True, False]
    code, out, _err = run(capsys, "fight", "redo", "1", "--db", db, "--lang", "fr")
    assert out.startswith("Rétablie\u00a0: action 5 (Kaito interrompt la fuite de Corbeau.")
