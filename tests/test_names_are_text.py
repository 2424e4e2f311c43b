"""Names are text, never markup or terminal control (issue 14, item 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_run import run
from jdr.errors import InputError
from jdr.names import MAX_NAME
from jdr.store import Store


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite:///{tmp_path / 'jdr.db'}"
    monkeypatch.setenv("JDR_DATABASE_URL", url)
    return url


@pytest.mark.parametrize(
    "name", ["[/bold]", "[red]Kai", "<b>x</b>", "**Ana**", "[b]Bo[/b]", ":thumbs_up: Eve"]
)
def test_markup_in_names_is_shown_as_typed_everywhere(
    capsys: pytest.CaptureFixture[str], db: str, name: str
) -> None:
    assert run(capsys, "campaign", "new", name, "--system", "passion")[0] == 0
    code, out, err = run(capsys, "dice", "2d6", "--campaign", name, "--actor", name)
    assert code == 0, err
    for command in (["campaign", "list"], ["journal", "show", name], ["journal", "luck", name]):
        code, out, err = run(capsys, *command)
        assert code == 0, err
        assert name in out and "Traceback" not in err
    code, out, err = run(capsys, "campaign", "show", name)
    assert code == 0 and out.startswith(f"{name} — passion"), err


@pytest.mark.parametrize(
    "name", ["x\x1b[31mred", "a\x1b]8;;http://evil\x07b", "two\nlines", "tab\there", "r\u202eev"]
)
def test_control_characters_are_refused_in_every_name(
    capsys: pytest.CaptureFixture[str], db: str, name: str
) -> None:
    code, _out, err = run(capsys, "campaign", "new", name, "--system", "passion")
    assert code == 2 and "campaign: " in err and "control character" in err
    assert "\x1b" not in err and "\u202e" not in err  # shown escaped, never sent raw
    run(capsys, "campaign", "new", "Table", "--system", "passion")
    code, _out, err = run(capsys, "dice", "2d6", "--campaign", "Table", "--actor", name)
    assert code == 2 and "--actor: " in err and "\x1b" not in err
    code, out, _err = run(capsys, "journal", "show", "Table")
    assert "The journal is empty." in out  # nothing was rolled


@pytest.mark.parametrize("name", ["", "   ", "\u3000"])
def test_empty_and_blank_names_are_refused(
    capsys: pytest.CaptureFixture[str], db: str, name: str
) -> None:
    code, _out, err = run(capsys, "campaign", "new", name, "--system", "passion")
    assert code == 2 and "empty or blank" in err


def test_one_length_limit_on_every_backend_with_the_field_named(store: Store) -> None:
    """SQLite accepted 10,000 characters and PostgreSQL refused past 200 without naming the
    field: both now refuse past `MAX_NAME`, saying which name."""
    store.create_campaign("passion", "a" * MAX_NAME)
    with pytest.raises(InputError) as refused:
        store.create_campaign("passion", "b" * (MAX_NAME + 1))
    assert refused.value.field == "campaign" and "101 characters" in refused.value.message()
    with pytest.raises(InputError) as refused:
        store.create_campaign("passion", "c" * 10_000)
    campaign = store.campaign("a" * MAX_NAME)
    with pytest.raises(InputError) as refused:
        store.add_character(campaign.id, "k" * (MAX_NAME + 1), {})
    assert refused.value.field == "character"
    with pytest.raises(InputError) as refused:
        store.create_fight(campaign.id, ["Ana", "f" * (MAX_NAME + 1)])
    assert refused.value.field == "fighter"
    assert [c.name for c in store.campaigns()] == ["a" * MAX_NAME]
