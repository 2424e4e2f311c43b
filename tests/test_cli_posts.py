"""What a player posts: a roll asked again in another form, recaps that pipe clean, BBCode without
Markdown, commands that paste into a shell."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from cli_run import run
from jdr.fights.recap import document, footnote, in_format

ATTACK = [
    "roll", "plus-ultra", "attack", "--willpower", "5", "--target-energy", "6", "--rank", "C",
]  # fmt: skip


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    url = f"sqlite:///{tmp_path}/t.db"
    created = run(capsys, "campaign", "new", "Mardi soir", "--system", "plus-ultra", "--db", url)
    assert created[0] == 0
    return url


def test_display_options_are_not_part_of_an_action_ids_identity(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = ["--campaign", "Mardi soir", "--action-id", "post-9", "--db", db]
    code, bbcode, _ = run(capsys, *ATTACK, *journal, "--recap", "bbcode")
    assert code == 0 and "[b]Actions[/b]" in bbcode
    code, markdown, _ = run(capsys, *ATTACK, *journal, "--recap", "markdown", "--lang", "fr")
    assert code == 0 and "**Actions**" in markdown and "déjà été lancé" in markdown
    code, plain, _ = run(capsys, *ATTACK, *journal, "--json")
    payload = json.loads(plain)
    assert code == 0 and payload["journal"]["replayed"] is True
    face = payload["faces"][0]
    assert f"d20 {face} + 5" in bbcode and f"d20 {face} + 5" in markdown
    assert "recap" not in payload["params"] or payload["params"]["recap"] is None


def test_a_refused_re_ask_shows_the_roll_its_action_id_names(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = ["--campaign", "Mardi soir", "--action-id", "post-9", "--db", db]
    code, first, _ = run(capsys, *ATTACK, *journal)
    original = first.splitlines()[1]
    code, out, err = run(capsys, *ATTACK[:4], "6", *ATTACK[5:], *journal)
    assert code == 2 and "already rolled" in err
    assert "This action id names this roll:" in out and original in out
    code, out, err = run(capsys, *ATTACK[:4], "6", *ATTACK[5:], *journal, "--json")
    error = json.loads(out)["error"]
    assert code == 2 and error["code"] == "rules"
    assert error["original"]["explanation"] == original
    assert error["original"]["journal"]["action_id"] == "post-9"
    code, out, err = run(capsys, "dice", "2d6", "--campaign", "Mardi soir", "--action-id",
                         "post-9", "--db", db)  # fmt: skip
    assert code == 2 and original in out


def test_a_hidden_roll_is_not_shown_to_a_refused_re_ask(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = ["--campaign", "Mardi soir", "--action-id", "gm-1", "--db", db]
    code, first, _ = run(capsys, *ATTACK, *journal, "--hidden")
    code, out, err = run(capsys, "dice", "1d20", *journal)
    assert code == 2 and "hidden roll" in err and out == ""
    assert first.splitlines()[1] not in out + err


def test_a_recap_pipes_clean_the_title_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *ATTACK, "--recap", "bbcode", "--seed", "1")
    assert code == 0 and out.startswith("[b]") and "Plus Ultra" in err
    code, out, err = run(capsys, *ATTACK, "--seed", "1")
    assert code == 0 and out.startswith("Plus Ultra") and err == ""


def test_bbcode_never_carries_markdown() -> None:
    assert in_format("4d6kh3 (5, 3, ~~2~~, 6) = 14", "bbcode") == "4d6kh3 (5, 3, [s]2[/s], 6) = 14"
    assert in_format("(5, ~~2~~)", "markdown") == "(5, ~~2~~)"
    posted = document("Combat", [("", ["4d6kh3 (5, ~~2~~)"])], [], "-", "bbcode")
    assert "[s]2[/s]" in posted and "~~" not in posted
    assert footnote("**a** ~~b~~", "bbcode") == "[i][b]a[/b] [s]b[/s][/i]"


def test_suggested_commands_paste_into_a_shell(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "campaign", "reveal", "Mardi soir", "--db", db)
    assert code == 0
    suggested = next(line for line in out.splitlines() if "jdr journal export" in line)
    command = suggested[suggested.index("jdr journal export") :].split(";")[0]
    words = shlex.split(command)
    assert words[:4] == ["jdr", "journal", "export", "Mardi soir"], command
    assert words[4:] == [">", "journal.json"]


def test_output_dash_is_standard_output(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "journal", "export", "Mardi soir", "--output", "-", "--db", db)
    assert code == 0 and json.loads(out)["campaign"] == "Mardi soir"


def test_an_odds_table_says_what_it_left_out(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "dice", "--odds", "30d6", "--lang", "fr")
    last = out.splitlines()[-1]
    assert code == 0 and last.startswith("… 91 lignes de plus, trop improbables")
    assert last.split(" : ")[1].startswith(  # the 0,12 % left out, tail by tail, in words
        "0,07 % des chances en dessous de 76, 0,05 % au-dessus de 135 (--json"
    )
    code, out, _ = run(capsys, "dice", "--odds", "3d6")
    assert "more row" not in out  # 16 totals: every row shown


def test_verify_says_which_results_were_not_recomputed(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = ["--campaign", "Mardi soir", "--db", db]
    run(capsys, *ATTACK, *journal)
    run(capsys, *ATTACK, *journal, "--faces", "12")
    path = tmp_path / "journal.json"
    run(capsys, "journal", "export", "Mardi soir", "--output", str(path), "--db", db)
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 0 and "entries whose result was not re-computed: 1" in out
    assert "entries awaiting their seed's reveal: 1" in out
