"""Issue 30, parts 1 and 2 for fight commands: every command, key and choice value of the five
systems and of the example plug-in has a French and an English display name, declared beside
its model; `jdr fight commands`, `jdr fight act … --help`, `jdr fight show` and the web fight
page (its buttons, labels, choices and awaited commands) show only those, in the reader's
language; and what is shown is accepted as typed (commands, keys, choices, yes/no, in any case
and without accents) on the command line, in the web form and through the API. The JSON and
the API keep the identifiers.
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cli_run import answer, run
from conftest import write_plugin
from jdr.fights.commands import (
    Commands,
    choice_label,
    choice_names,
    choice_spellings,
    field_label,
    key_label,
    key_spellings,
    parse_keys,
)
from jdr.i18n import language
from jdr.names import fold
from jdr.systems import Registry, default_registry, set_default_registry
from jdr.web.app import button_label
from test_cli_fight import campaign
from test_fight_recaps import FIGHTS
from web_helpers import join

PLUGIN = Path(__file__).resolve().parents[1] / "examples" / "plugin"
BUILT_IN = ("ilvermorny", "passion", "plus-ultra", "pokemon", "poledemos")
LANGS = ("fr", "en")
JSON_VALUE = re.compile(r"\[?\{[^{}]*\}\]?")
"""A table or a list of tables typed as JSON: its keys are the decider's (as the API's are)."""


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.db"


@pytest.fixture
def ombres(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Registry]:
    """The example plug-in installed (its entry point and its sources), with the built-ins."""
    monkeypatch.syspath_prepend(str(PLUGIN / "src"))
    site = write_plugin(tmp_path / "site", "ombres = jdr_ombres:SYSTEM")
    monkeypatch.syspath_prepend(str(site))
    registry = Registry.from_entry_points()
    assert "ombres" in registry.ids()
    set_default_registry(registry)
    yield registry
    for name in [m for m in sys.modules if m.startswith("jdr_ombres")]:
        del sys.modules[name]


def commands_of(system_id: str) -> Commands:
    found: Commands = getattr(default_registry().get(system_id), "fight_commands")  # noqa: B009
    return found


def shown_elsewhere(commands: Commands, lang: str) -> set[str]:
    """The identifiers a reader of `lang` must never read: every command, key and choice value
    whose display name in `lang` is not the identifier itself (in English, a plain English word
    such as `free` may be read in a sentence: only the identifiers that are code, `no_dodge`)."""
    found: set[str] = set()
    for command in commands:
        found |= {command.name} - {command.shown(lang)}
        for name, info in command.keys.model_fields.items():
            found |= {name} - {field_label(name, info, lang)}
            found |= {v for v in choice_names(info) if choice_label(info, v, lang) != v}
    found = {word for word in found if lang == "fr" or "_" in word}
    with language(lang):  # `passion` is shown `Passion`: the same word
        shown = {fold(c.shown()) for c in commands}
        shown |= {fold(key_label(c.keys, k)) for c in commands for k in c.keys.model_fields}
        shown |= {fold(n) for c in commands for i in c.keys.model_fields.values()
                  for n in choice_names(i).values()}  # fmt: skip
    return {word for word in found if fold(word) not in shown or "_" in word}


def leaks(text: str, commands: Commands, lang: str) -> list[str]:
    """The identifiers of `commands` that `text` shows to a reader of `lang`."""
    text = JSON_VALUE.sub("", text)
    return sorted(
        word
        for word in shown_elsewhere(commands, lang)
        if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)
    )


def in_french(commands: Commands, words: tuple[str, ...]) -> list[str]:
    """A scripted command as a French player types it: the command, its keys and its choices by
    their French display names, in capitals and without accents for good measure."""
    import unicodedata

    def bare(text: str) -> str:
        decomposed = unicodedata.normalize("NFKD", text)
        return "".join(c for c in decomposed if not unicodedata.combining(c)).upper()

    actor, name, *rest = words
    command = commands.get(name)
    typed = [actor, bare(command.shown("fr"))]
    for word in rest:
        key, equals, value = word.partition("=")
        if not equals or key.startswith("-"):
            typed.append(word)
            continue
        info = command.keys.model_fields[key]
        if value in choice_names(info):
            value = choice_label(info, value, "fr")
        typed.append(f"{bare(field_label(key, info, 'fr'))}={value}")
    return typed


def unique(where: object, spellings: Iterable[tuple[str, str]]) -> None:
    """No two names typed the same way (in any case, without accents) mean two things."""
    meant: dict[str, str] = {}
    for spelt, name in spellings:
        assert meant.setdefault(fold(spelt), name) == name, (where, spelt)


def test_every_command_key_and_choice_declares_its_names_in_both_languages(
    ombres: Registry,
) -> None:
    for system_id in (*BUILT_IN, "ombres"):
        commands = commands_of(system_id)
        unique(system_id, [(n, c.name) for c in commands for n in c.spellings()])
        for command in commands:
            where = (system_id, command.name)
            unique(where, key_spellings(command.keys).items())
            for info in command.keys.model_fields.values():
                unique(where, choice_spellings(info).items())
            assert command.fr, where
            for lang in LANGS:
                assert "_" not in command.shown(lang), (where, lang)
            for name, info in command.keys.model_fields.items():
                extra = info.json_schema_extra
                assert isinstance(extra, dict) and extra.get("fr"), (where, name)
                for lang in LANGS:
                    assert "_" not in field_label(name, info, lang), (where, name, lang)
                for value in choice_names(info):
                    assert value in (extra.get("choices_fr") or {}), (where, name, value)
                    for lang in LANGS:
                        assert "_" not in choice_label(info, value, lang), (where, value, lang)


@pytest.mark.parametrize("system", BUILT_IN)
@pytest.mark.parametrize("lang", LANGS)
def test_the_terminal_shows_commands_keys_and_choices_by_their_display_names(
    capsys: pytest.CaptureFixture[str], db: str, system: str, lang: str
) -> None:
    """`jdr fight commands`, every command's `--help` and `fight show`, mid-fight."""
    commands = commands_of(system)
    sheets, new, script = FIGHTS[system]
    campaign(capsys, db, system, *sheets)
    answer(capsys, "fight", "new", "--campaign", "C", *new, "--db", db)
    for words in script[:2]:
        answer(capsys, "fight", "act", "1", *words, "--db", db)
    actor = script[2][0]
    texts = []
    for args in (
        ("fight", "commands", "--system", system),
        ("fight", "commands", "1"),
        ("fight", "show", "1"),
        *(("fight", "act", "1", actor, c.name, "--help") for c in commands),
    ):
        code, out, err = run(capsys, *args, "--db", db, "--lang", lang)
        assert code == 0, (args, err)
        assert "PydanticUndefined" not in out, args
        assert leaks(out, commands, lang) == [], (args, out)
        texts.append(out)
    with language(lang):
        shown = {c.shown() for c in commands}
    listed = texts[0]
    assert all(f"  {name} — " in listed for name in shown), listed
    legal = next(line for line in texts[2].splitlines() if ":" in line and "," in line[-40:])
    assert legal, texts[2]


def test_fr_help_names_keys_choices_and_defaults_in_french(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    campaign(capsys, db, "passion", *FIGHTS["passion"][0])
    answer(capsys, "fight", "new", "--campaign", "C", *FIGHTS["passion"][1], "--db", db)
    code, out, _err = run(capsys, "fight", "act", "1", "Cyber-ninja", "attaque", "--help",
                          "--db", db, "--lang", "fr")  # fmt: skip
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("attaque — ")
    assert (
        "  Énergie de l'arme\u00a0: au choix\u00a0: au jet, aux dégâts\u202f; par défaut aucun"
        in lines
    )
    assert (
        "  Énergie des PNJ\u00a0: liste\u00a0: A,B ou l'option répétée\u202f; par défaut aucun"
        in lines
    )
    assert "  dé d'Énergie\u00a0: oui/non\u202f; par défaut non" in lines
    assert '  protections des PNJ\u00a0: du JSON, par ex. {"A": 1}\u202f; par défaut aucun' in lines
    code, out, _err = run(capsys, "fight", "act", "1", "Romuald", "no_dodge", "--help",
                          "--db", db)  # fmt: skip
    assert out.splitlines()[0].startswith("no dodge — Take the NPC's attack")
    code, out, _err = run(capsys, "fight", "show", "1", "--db", db, "--lang", "fr")
    assert "commandes permises\u00a0: marqueur" in out
    code, out, _err = run(capsys, "fight", "show", "1", "--db", db)
    assert "legal commands: marker" in out


@pytest.mark.parametrize("system", BUILT_IN)
def test_a_french_player_types_commands_keys_and_choices_in_french(
    capsys: pytest.CaptureFixture[str], db: str, system: str
) -> None:
    """The whole scripted fight of each system typed in French (capitals, no accents): every
    command is read as its English twin is, and the JSON keeps the identifiers."""
    commands = commands_of(system)
    sheets, new, script = FIGHTS[system]
    campaign(capsys, db, system, *sheets)
    answer(capsys, "fight", "new", "--campaign", "C", *new, "--db", db)
    for words in script:
        played = answer(capsys, "fight", "act", "1", *in_french(commands, words), "--db", db)
        assert played["command"]["action"] == commands.get(words[1]).name
        for word in words[2:]:
            key, equals, value = word.partition("=")
            if equals and not key.startswith("-") and key in played["command"]:
                given = played["command"][key]
                first = given[0] if isinstance(given, list) else given
                assert str(first).startswith(value.split(",")[0]), word


def test_ps_5_yes_and_no_in_either_language(capsys: pytest.CaptureFixture[str], db: str) -> None:
    """`jdr fight act F Romuald régler énergie=oui`, which once read "oui — not yes or no"."""
    sheets, new, script = FIGHTS["passion"]
    campaign(capsys, db, "passion", *sheets)
    answer(capsys, "fight", "new", "--campaign", "C", *new, "--db", db)
    for words in script[:2]:
        answer(capsys, "fight", "act", "1", *words, "--db", db)
    code, _out, err = run(capsys, "fight", "act", "1", "Romuald", "attaque", "cible=Cyber-ninja",
                          "dés=2d6", "énergie=oui", "--db", db, "--lang", "fr")  # fmt: skip
    assert code == 2 and "après avoir vu les dés\u00a0: régler (Énergie)" in err, err
    answer(capsys, "fight", "act", "1", *script[2], "--db", db)
    played = answer(capsys, "fight", "act", "1", "Romuald", "régler", "énergie=oui", "--db", db)
    assert played["command"]["energy"] is True
    keys = commands_of("passion").get("settle").keys
    said = {"OUI": True, "Non": False, "vrai": True, "FAUX": False}
    said |= {"yes": True, "no": False, "true": True, "false": False}
    for typed, meant in said.items():
        assert parse_keys(keys, [f"energie={typed}"]) == {"energy": meant}
    code, _out, err = run(capsys, "fight", "act", "1", "Romuald", "régler", "énergie=peut-être",
                          "--db", db, "--lang", "fr")  # fmt: skip
    assert (
        code == 2
        and "Énergie\u00a0: peut-être — n'est ni oui ni non (permis\u00a0: oui/non)" in err
    )


def test_did_you_mean_names_keys_and_choices_in_the_readers_language(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    sheets, new, script = FIGHTS["pokemon"]
    campaign(capsys, db, "pokemon", *sheets)
    answer(capsys, "fight", "new", "--campaign", "C", *new, "--db", db)
    answer(capsys, "fight", "act", "1", *script[0], "--db", db)
    code, _out, err = run(capsys, "fight", "act", "1", "Chu", "répondre", "réponse=esquiv",
                          "--db", db, "--lang", "fr")  # fmt: skip
    assert code == 2 and "vouliez-vous dire esquive\u202f?" in err
    assert "aucune, encaisser, esquive, contrer" in err and "dodge" not in err
    code, _out, err = run(capsys, "fight", "act", "1", "Chu", "respond", "response=dodgy",
                          "--db", db)  # fmt: skip
    assert code == 2 and "did you mean dodge?" in err and "no answer, endure" in err
    code, _out, err = run(capsys, "fight", "act", "1", "Chu", "répondre", "répons=esquive",
                          "--db", db, "--lang", "fr")  # fmt: skip
    assert code == 2 and "vouliez-vous dire réponse\u202f?" in err and "capacité de contre" in err


# --- the web table ----------------------------------------------------------------------------

WEB_STEPS = {"plus-ultra": 0, "pokemon": 1, "passion": 6, "ilvermorny": 0, "poledemos": 1}
"""How far each system's scripted fight is played before its page is read: a form with a
choice where the system has one (a Pokémon's answer, an NPC's weapon Énergie, an action's
kind)."""


def web_fight(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, system: str, steps: int
) -> tuple[Any, Any, str, int]:
    """The scripted fight of `system` played `steps` commands in, and the web application on
    its database with a GM's browser: the app, the GM, the fight's page, the campaign's id."""
    from jdr.web.app import create_app

    db = f"sqlite:///{tmp_path}/web.db"
    sheets, new, script = FIGHTS[system]
    campaign(capsys, db, system, *sheets)
    answer(capsys, "fight", "new", "--campaign", "C", *new, "--db", db)
    for words in script[:steps]:
        answer(capsys, "fight", "act", "1", *words, "--db", db)
    app = create_app(db, host_token="h" * 43, invite_attempts=1000)
    store = app.state.store
    campaign_id = store.campaign("C").id
    gm = join(app, store, campaign_id, "gm")
    return app, gm, f"/c/{campaign_id}/fights/1", campaign_id


def visible(page: str, start: str, end: str) -> str:
    """The text a reader sees between two marks of a page: tags and attributes left out."""
    page = re.sub(r'<div class="odds"[^>]*></div>', "", page)  # filled in later, by htmx
    part = page[page.index(start) : page.index(end, page.index(start))]
    return html.unescape(re.sub(r"<[^>]+>", " ", part))


@pytest.mark.parametrize("system", BUILT_IN)
def test_the_web_fight_page_shows_display_names_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, system: str
) -> None:
    commands = commands_of(system)
    _app, gm, path, _campaign = web_fight(capsys, tmp_path, system, WEB_STEPS[system])
    for lang in LANGS:
        page = gm.client.get(path, headers={"accept-language": lang}).text
        forms = visible(page, 'id="fight-forms"', 'id="fight-live"')
        awaited = visible(page, 'class="awaited"', "</ul>")
        assert leaks(forms + awaited, commands, lang) == [], (lang, forms, awaited)
        buttons = re.findall(r'data-command="([^"]+)".*?<button[^>]*>([^<]*)</button>', page, re.S)
        offered = [name for name, _button in buttons]
        assert offered, page
        with language(lang):
            labels = [button_label(commands.shown(n)) for n in offered]  # a capital, as buttons
            assert [html.unescape(b) for _n, b in buttons] == labels
            for name in dict.fromkeys(offered):
                for key, info in commands.get(name).keys.model_fields.items():
                    if key in forms or f'name="{key}"' not in page:
                        continue
                    assert field_label(key, info) in forms, (name, key)
                    for shown in choice_names(info).values():
                        assert f">{html.escape(shown)}</option>" in page, (name, key, shown)


def test_pk_12_a_french_answer_is_accepted_by_the_web_form_and_the_api(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _app, gm, path, campaign_id = web_fight(capsys, tmp_path, "pokemon", 1)
    page = gm.client.get(path, headers={"accept-language": "fr"}).text
    assert '<option value="dodge">esquive</option>' in page and ">Répondre</button>" in page
    version = re.search(r'name="version" value="(\d+)"', page)
    assert version is not None
    done = gm.post(path, data={"actor": "Chu", "command": "RÉPONDRE", "response": "Esquive",
                               "version": version.group(1)})  # fmt: skip
    assert done.status_code == 303, done.text
    played = gm.api(
        f"/api/c/{campaign_id}/fights/1",
        {"actor": "Chu", "command": "capacité", "keys": {"capacite": "Mimi-Queue"}},
    )
    assert played.status_code == 200, played.text
    assert played.json()["command"] == {"action": "move", "actor": "Chu", "move": "Mimi-Queue"}


def test_ps_5_yes_or_no_in_french_on_the_web_form_and_the_api(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _app, gm, path, campaign_id = web_fight(capsys, tmp_path, "passion", 3)
    page = gm.client.get(path, headers={"accept-language": "fr"}).text
    forms = visible(page, "fight-forms", 'id="fight-live"')
    assert ">Régler</button>" in page and "Énergie" in forms
    refused = gm.post(path, data={"actor": "Romuald", "command": "régler", "energy": "non",
                                  "passion": "-1"}, headers={"accept-language": "fr"})  # fmt: skip
    assert refused.status_code == 422 and "energy" not in visible(refused.text, "<main", "</main>")
    played = gm.api(
        f"/api/c/{campaign_id}/fights/1",
        {"actor": "Romuald", "command": "régler", "keys": {"énergie": "oui", "Passion": 0}},
    )
    assert played.status_code == 200, played.text
    assert played.json()["command"]["energy"] is True


# --- the example plug-in ----------------------------------------------------------------------


def test_the_plugins_declared_names_are_shown_and_read_everywhere(
    ombres: Registry, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from jdr.characters import service
    from jdr.web.app import create_app

    db = f"sqlite:///{tmp_path}/o.db"
    assert run(capsys, "campaign", "new", "nuit", "--system", "ombres", "--db", db)[0] == 0
    app = create_app(db, host_token="h" * 43, invite_attempts=1000)
    store = app.state.store
    night = store.campaign("nuit")
    for sheet in ({"name": "Corvo"}, {"name": "Lys"}):
        service.add(store, night, sheet)
    answer(capsys, "fight", "new", "--campaign", "nuit", "--with", "Corvo,Lys", "--db", db)
    commands = commands_of("ombres")
    code, out, _err = run(capsys, "fight", "commands", "--system", "ombres", "--lang", "fr")
    assert code == 0 and "  attaque — " in out and "  souffle — " in out and "  rejoindre — " in out
    assert leaks(out, commands, "fr") == []
    code, out, _err = run(capsys, "fight", "show", "1", "--db", db, "--lang", "fr")
    assert "commandes permises\u00a0: attaque, souffle" in out
    code, out, _err = run(capsys, "fight", "act", "1", "Corvo", "attaque", "--help", "--db", db,
                          "--lang", "fr")  # fmt: skip
    assert "  cible\u00a0: texte\u202f; obligatoire" in out.splitlines() and "target" not in out
    gm = join(app, store, night.id, "gm")
    page = gm.client.get(f"/c/{night.id}/fights/1", headers={"accept-language": "fr"}).text
    forms = visible(page, 'id="fight-forms"', 'id="fight-live"')
    assert ">Attaque</button>" in page and ">Souffle</button>" in page
    assert "cible" in forms and leaks(forms, commands, "fr") == []
    awaited = visible(page, 'class="awaited"', "</ul>")
    assert "attaque, souffle" in awaited
    schema = answer(capsys, "fight", "commands", "--system", "ombres", "--lang", "fr")
    attack = next(c for c in schema["systems"]["ombres"] if c["name"] == "attack")
    assert attack["title"] == "attaque" and attack["names"] == {"en": "attack", "fr": "attaque"}
    target = attack["schema"]["properties"]["target"]
    assert target["title"] == "cible" and target["x-names"] == {"en": "target", "fr": "cible"}
    with language("fr"):
        assert key_label(commands.get("join").keys, "side") == "camp"
    played = answer(capsys, "fight", "act", "1", "Corvo", "ATTAQUE", "Cible=Lys", "--faces", "6",
                    "--db", db)  # fmt: skip
    assert played["command"] == {"action": "attack", "actor": "Corvo", "target": "Lys"}
