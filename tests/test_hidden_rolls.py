"""A hidden roll comes out only through `journal disclose` (issue 14, item 4): a re-ask of its
action id is refused in the same words whether or not its parameters match."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_run import run


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'jdr.db'}"


def test_a_hidden_roll_is_never_re_shown_through_its_action_id(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "campaign", "new", "Table", "--system", "passion", "--db", db)[0] == 0
    journal = ["--campaign", "Table", "--action-id", "gm-1", "--db", db]
    code, first, _ = run(capsys, "dice", "3d6", *journal, "--hidden", "--json")
    faces = json.loads(first)["faces"]
    answers = []
    for asked in (["3d6", "--hidden"], ["3d6"], ["2d6"], ["3d6", "--hidden", "--json"]):
        code, out, err = run(capsys, "dice", *asked, *journal)
        assert code == 2
        assert out == "" or set(json.loads(out)) == {"error"}
        answers.append(err)
        assert str(faces) not in out + err and "hidden roll (journal entry 1)" in err
    assert len(set(answers)) == 1  # matching parameters or not: the same refusal
    code, out, _err = run(capsys, "journal", "disclose", "Table", "1", "--db", db)
    assert code == 0
    code, out, _err = run(capsys, "dice", "3d6", *journal, "--json")
    assert code == 0 and json.loads(out)["faces"] == faces  # public now: the same roll again
