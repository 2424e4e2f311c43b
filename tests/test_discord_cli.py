"""Issue 33 part 2 on the command line: `jdr discord link|commands|register` and
`jdr serve --discord-public-key`.

`register` is played against a fake of Discord's API on 127.0.0.1 that records the request: a
bulk overwrite (PUT) of the application's (or a guild's) commands, with the bot's token in the
Authorization header only; Discord's refusals are shown clearly (exit 2) and never the token.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from cli_run import answer, run
from discord_helpers import APPLICATION_ID, GUILD_ID, caller_of, fake_discord, key_pair
from jdr.discord.commands import BOOLEAN, INTEGER, STRING, definitions, paths
from jdr.discord.identity import link, place

TOKEN = "MTAx.test-bot-token.secret_part"

CONTRACT = {
    ("dice",): [("expression", STRING, True)],
    ("roll",): [
        ("action", STRING, True),
        ("character", STRING, False),
        ("hidden", BOOLEAN, False),
        ("options", STRING, False),
    ],
    ("odds",): [("action", STRING, True), ("character", STRING, False), ("options", STRING, False)],
    ("fight", "act"): [
        ("command", STRING, True),
        ("target", STRING, False),
        ("character", STRING, False),
        ("options", STRING, False),
    ],
    ("fight", "show"): [("fight", INTEGER, False)],
    ("recap",): [("fight", INTEGER, False), ("round", INTEGER, False)],
    ("campaign", "link"): [("code", STRING, True)],
    ("join",): [("code", STRING, True)],
}
"""Every subcommand's options as `jdr.discord.replies` reads them: name, type, required."""
NAME = re.compile(r"^[-_\w]{1,32}$")


def _walk(node: dict[str, Any], above: tuple[str, ...]) -> Any:
    for option in node.get("options", []):
        if option["type"] == 2:
            yield from _walk(option, (*above, option["name"]))
        elif option["type"] == 1:
            yield (*above, option["name"]), option


def _named(node: dict[str, Any]) -> None:
    """A name and a description Discord accepts, each with its French localization."""
    for key in ("name", "description"):
        assert isinstance(node[key], str) and node[key]
    assert NAME.match(node["name"]) and node["name"] == node["name"].lower(), node["name"]
    fr = node["name_localizations"]["fr"]
    assert NAME.match(fr) and fr == fr.lower(), fr
    assert 1 <= len(node["description"]) <= 100
    french = node["description_localizations"]["fr"]
    assert 1 <= len(french) <= 100 and french != node["description"], french


def test_commands_json_prints_one_jdr_command_with_every_subcommand_and_its_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "discord", "commands", "--json")
    assert code == 0, err
    printed = json.loads(out)
    assert printed == definitions()
    [top] = printed
    assert top["name"] == "jdr" and top["type"] == 1
    _named(top)
    found = dict(_walk(top, ()))
    assert list(found) == list(CONTRACT) == paths()
    for path, sub in found.items():
        _named(sub)
        options = [(o["name"], o["type"], o["required"]) for o in sub["options"]]
        assert options == CONTRACT[path], path
        required = [o["required"] for o in sub["options"]]
        assert required == sorted(required, reverse=True)  # Discord: required ones first
        for option in sub["options"]:
            _named(option)
    assert len(json.dumps(printed)) < 8000  # Discord's limit on a command's total size


def test_commands_without_json_lists_what_can_be_typed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "discord", "commands")
    assert code == 0
    assert "/jdr fight act command [target] [character] [options]" in out.splitlines()


def test_register_puts_the_commands_with_the_bot_token_in_its_header_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with fake_discord() as fake:
        code, out, err = run(
            capsys, "discord", "register", "--application-id", APPLICATION_ID,
            "--token", TOKEN, "--api-base", fake.base,
        )  # fmt: skip
        assert code == 0, err
        assert "/jdr" in out and TOKEN not in out + err
        [sent] = fake.requests
        assert sent.method == "PUT"
        assert sent.path == f"/api/v10/applications/{APPLICATION_ID}/commands"
        assert sent.headers["authorization"] == f"Bot {TOKEN}"
        assert sent.headers["user-agent"].startswith("DiscordBot")
        assert sent.body == definitions()


def test_register_in_one_guild_with_the_token_from_the_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JDR_DISCORD_TOKEN", TOKEN)
    with fake_discord() as fake:
        found = answer(
            capsys, "discord", "register", "--application-id", APPLICATION_ID,
            "--guild", GUILD_ID, "--api-base", fake.base,
        )  # fmt: skip
        assert found["registered"] == ["jdr"] and found["guild"] == GUILD_ID
        assert fake.requests[0].path == (
            f"/api/v10/applications/{APPLICATION_ID}/guilds/{GUILD_ID}/commands"
        )
        assert fake.requests[0].headers["authorization"] == f"Bot {TOKEN}"


def test_discords_refusal_is_said_clearly_exit_2_without_the_token(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with fake_discord() as fake:
        fake.status = 401
        fake.answer = {"message": "401: Unauthorized", "code": 0}
        code, out, err = run(
            capsys, "discord", "register", "--application-id", APPLICATION_ID,
            "--token", TOKEN, "--api-base", fake.base,
        )  # fmt: skip
    assert code == 2
    assert "401: Unauthorized" in err and "HTTP 401" in err
    assert TOKEN not in out + err


def test_register_refuses_a_missing_token_a_bad_id_and_an_unreachable_api(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("JDR_DISCORD_TOKEN", raising=False)
    code, _out, err = run(capsys, "discord", "register", "--application-id", APPLICATION_ID)
    assert code == 2 and "--token" in err
    code, _out, err = run(
        capsys, "discord", "register", "--application-id", "12/../x", "--token", TOKEN
    )
    assert code == 2 and "--application-id" in err
    code, _out, err = run(
        capsys, "discord", "register", "--application-id", APPLICATION_ID, "--token", TOKEN,
        "--api-base", "http://127.0.0.1:9/api",
    )  # fmt: skip
    assert code == 2 and "did not answer" in err and TOKEN not in err


def test_link_prints_a_code_that_binds_a_channel_once(
    capsys: pytest.CaptureFixture[str], database_url: str
) -> None:
    from jdr.errors import AccessError
    from jdr.store import open_store

    assert (
        run(capsys, "campaign", "new", "Mardi", "--system", "passion", "--db", database_url)[0] == 0
    )
    found = answer(capsys, "discord", "link", "Mardi", "--expires", "2h", "--db", database_url)
    code = found["link"]["code"]
    assert found["link"]["campaign"] == "Mardi"
    store = open_store(database_url)
    try:
        campaign, viewer = link(store, caller_of("600"), code)
        assert campaign.name == "Mardi" and viewer.is_gm
        assert place(store, caller_of("600"))[1] is not None
        with pytest.raises(AccessError):
            link(store, caller_of("600", channel_id="801"), code)
    finally:
        store.close()
    code_, out, _err = run(capsys, "discord", "link", "Mardi", "--db", database_url)
    assert code_ == 0 and "/jdr campaign link code:" in out
    code_, _out, err = run(capsys, "discord", "link", "Nope", "--db", database_url)
    assert code_ == 2 and "Nope" in err


def test_serve_takes_the_public_key_from_its_option_or_the_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    import uvicorn

    served: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.append(app))
    db = f"sqlite:///{tmp_path / 'serve.db'}"
    code, _out, err = run(capsys, "serve", "--db", db, "--discord-public-key", "nothex")
    assert code == 2 and "64 hexadecimal digits" in err and not served
    code, out, err = run(capsys, "serve", "--db", db)
    assert code == 0, err
    assert served[-1].state.discord is None and "/discord/interactions" not in out
    monkeypatch.setenv("JDR_DISCORD_PUBLIC_KEY", key_pair().public_hex)
    code, out, err = run(capsys, "serve", "--db", db)
    assert code == 0, err
    assert served[-1].state.discord is not None and "/discord/interactions" in out
    for app in served:
        app.state.store.close()
