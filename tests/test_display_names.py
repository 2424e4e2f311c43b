"""Actions, their parameters, their choices and the fights' settings read in the reader's
language, and are accepted in French or English (issue 30, parts 1 and 2).

Every action model (`jdr roll|odds|advise` options, the options a roll from a sheet adds) and
every fight settings model of the five systems and of the example plug-in declares a French and
an English display name for each action, field and choice value (`jdr.labels.named`); the CLI's
help, the errors' "allowed" lists and the web's roll page show them, and each one is read back
as its identifier.

Rules touched: PK-12, PK-13 (a defence: `--defence esquive`), PK-14 (the table's reactions
setting: `--setting réactions=encaisser`), PK-19 (a ball), PU-3 (a rank), IL-10 (an element),
PS-14 (a damage type).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from cli_run import answer, run
from jdr.errors import InputError, JdrError
from jdr.i18n import language
from jdr.labels import (
    action_label,
    choice_names,
    declared,
    field_label,
    titled_schema,
)
from jdr.params import choices_of, item_choices, prepared, validate_params
from jdr.systems import default_registry
from jdr.systems.passion.fight_setup import Setup as PassionSetup
from jdr.systems.plus_ultra.fight_setup import Setup as PlusUltraSetup
from jdr.systems.pokemon.fight_state import FightSettings
from jdr.systems.poledemos.play_setup import PlaySettings
from jdr.systems.protocol import RuleSystem

ROOT = Path(__file__).resolve().parents[1]
SYSTEMS = ("pokemon", "plus-ultra", "poledemos", "ilvermorny", "passion")
SETTINGS: tuple[type[BaseModel], ...] = (
    FightSettings,
    PlaySettings,
    PlusUltraSetup,
    PassionSetup,
)
"""The fight settings models (`jdr fight new --setting key=value`)."""


def _ombres() -> RuleSystem:
    """The example plug-in's system, imported from examples/ as its docs build it."""
    sys.path.insert(0, str(ROOT / "examples" / "plugin" / "src"))
    try:
        from jdr_ombres import SYSTEM
    finally:
        sys.path.remove(str(ROOT / "examples" / "plugin" / "src"))
    return SYSTEM


def every_system() -> list[RuleSystem]:
    registry = default_registry()
    return [registry.get(system_id) for system_id in SYSTEMS] + [_ombres()]


def models_of(system: RuleSystem) -> Iterator[tuple[str, type[BaseModel]]]:
    """Each model a player fills in for `system`'s actions: its parameters, its advisor's, what
    a roll from a sheet uses, and its progression steps' (`jdr sheet buy|award|rank`)."""
    for name, action in system.actions.items():
        yield name, action.params
        if action.advise is not None:
            yield f"{name} (advise)", action.advise.params
        binding = (getattr(system, "sheet_rolls", {}) or {}).get(name)
        if binding is not None:
            yield f"{name} (sheet)", binding.uses
    for name, step in (getattr(system, "progression", {}) or {}).items():
        yield f"sheet {name}", step.params  # `jdr sheet rank NAME volonté`


def every_model() -> list[tuple[str, type[BaseModel]]]:
    found = [(f"{s.id} {n}", m) for s in every_system() for n, m in models_of(s)]
    return found + [(model.__name__, model) for model in SETTINGS]


def _no_identifier(shown: str) -> None:
    assert "_" not in shown and shown.strip() == shown and shown, shown


# --- one declaration: every action, field and value named in both languages -------------------


def test_every_action_is_named_in_french_and_english() -> None:
    for system in every_system():
        for name, action in system.actions.items():
            assert set(action.names) >= {"en", "fr"}, f"{system.id} {name}"
            for lang in ("en", "fr"):
                _no_identifier(action_label(action, lang))


@pytest.mark.parametrize(("where", "model"), every_model(), ids=str)
def test_every_field_and_choice_is_named_in_french_and_english(
    where: str, model: type[BaseModel]
) -> None:
    for name, info in model.model_fields.items():
        assert declared(info), f"{where}: {name} has no French and English names"
        for lang in ("en", "fr"):
            _no_identifier(field_label(name, info, lang))
            extra = info.json_schema_extra
            assert isinstance(extra, dict)
            declared_choices: Any = extra.get(f"choices_{lang}") or {}
            for value in choices_of(info.annotation) or item_choices(info):
                names = declared_choices.get(value)
                assert names, f"{where}: {name}={value} has no {lang} name"
                _no_identifier(str(names[0]))


@pytest.mark.parametrize(("where", "model"), every_model(), ids=str)
def test_every_shown_word_is_accepted_and_read_as_its_identifier(
    where: str, model: type[BaseModel]
) -> None:
    """PK-12, PK-13, PK-14, PK-19, PU-3, IL-10, PS-14: each value of each choice, typed as
    either language shows it (and in capitals, and without its accents), is read as its
    identifier; each field, typed by its display name, is read as its field."""
    for name, info in model.model_fields.items():
        for lang in ("en", "fr"):
            shown = field_label(name, info, lang)
            for typed in (shown, shown.upper(), _unaccented(shown)):
                assert name in prepared(model, {typed: 1}, keys=True), f"{where}: {typed!r}"
            with language(lang):
                names = choice_names(info)
            for value, word in names.items():
                for typed in (word, word.upper(), _unaccented(word)):
                    read = prepared(model, {name: typed})[name]
                    assert read in (value, [value]), f"{where}: {name}={typed!r} read as {read!r}"


def _unaccented(text: str) -> str:
    import unicodedata

    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def test_pk_14_the_settings_read_french_keys_values_and_booleans() -> None:
    settings = validate_params(
        FightSettings, {"Réactions": "encaisser", "chance de dégel": "5 %"}, keys=True
    )
    assert (settings.reactions, settings.thaw_chance) == ("endure", 5)
    for typed, value in (("oui", True), ("NON", False), ("vrai", True), ("faux", False)):
        assert (
            validate_params(PlaySettings, {"passe volontaire": typed}, keys=True).voluntary_pass
            is value
        )
    with language("fr"), pytest.raises(InputError) as refused:
        validate_params(FightSettings, {"reactions": "encaiser"})
    text = refused.value.message()
    assert "vouliez-vous dire encaisser\u202f?" in text
    assert "au choix\u00a0: demander, aucune, encaisser, esquiver" in text
    with language("fr"), pytest.raises(InputError) as unknown:
        validate_params(FightSettings, {"reaktions": "dodge"}, keys=True)
    assert "vouliez-vous dire réactions\u202f?" in unknown.value.message()
    assert "chance de paralysie" in unknown.value.allowed


def test_pu_10_ps_12_ps_16_the_setups_read_french_settings() -> None:
    """`--setting "ordre tiré au sort=oui"` (PU-10), `--setting "le statu quo coche le
    marqueur=vrai"` (PS-12), `"le PNJ réduit la Violence=non"` (PS-16)."""
    from jdr.systems.passion.fight_from_sheets import fight_setup as passion_setup
    from jdr.systems.plus_ultra.fight_from_sheets import fight_setup as plus_ultra_setup

    drawn = plus_ultra_setup([], {"settings": {"Ordre tire au sort": "oui"}})
    assert drawn["draw_order"] is True
    settings = {"le statu quo coche le marqueur": "vrai", "le PNJ réduit la Violence": "non"}
    passion = passion_setup([], {"settings": settings})
    assert (passion["status_quo_ticks"], passion["npc_cuts_violence"]) == (True, False)


def test_the_json_schema_titles_are_the_display_names() -> None:
    from jdr.systems.plus_ultra.actions import AttackParams

    with language("fr"):
        schema = titled_schema(AttackParams)
    assert schema["properties"]["target_energy"]["title"] == "Énergie de la cible"
    assert schema["properties"]["recap"]["x-choice-names"]["text"] == "texte"
    assert titled_schema(AttackParams)["properties"]["target_energy"]["title"] == (
        "target's Énergie"
    )


# --- the command line -------------------------------------------------------------------------


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_roll_help_lists_display_names_only(
    capsys: pytest.CaptureFixture[str], system_id: str, lang: str
) -> None:
    system = default_registry().get(system_id)
    code, listing, _err = run(capsys, "roll", system_id, "--lang", lang)
    assert code == 0
    for name, action in system.actions.items():
        shown = action_label(action, lang)
        assert re.search(rf"^  {re.escape(shown)} ", listing, re.M), listing
        if shown != name:
            assert not re.search(rf"^  {re.escape(name)} ", listing, re.M), listing
        code, out, err = run(capsys, "roll", system_id, shown, "--help", "--lang", lang)
        assert code == 0, err
        text = _flat(out)
        words: set[str] = set()
        for model in (action.params, _uses(system, name)):
            if model is None:
                continue
            with language(lang):
                for field, info in model.model_fields.items():
                    names = choice_names(info)
                    if names:
                        allowed = ", ".join(names.values())
                        assert allowed in text, f"{system_id} {name} --{field}: {allowed}"
                        words |= set(names.values())
        one_of = "au choix\u00a0:" if lang == "fr" else "one of"
        for listed in re.findall(rf"\[{one_of} ([^\]]*)\]", text):
            assert set(listed.split(", ")) <= words, f"{system_id} {name}: {listed}"
        for metavar in re.findall(r"--[a-z-]+ (\S+\|\S+)", text):
            if metavar != "fr|en":
                assert set(metavar.split("|")) <= words, f"{system_id} {name}: {metavar}"


def _uses(system: RuleSystem, action: str) -> Any:
    binding = (getattr(system, "sheet_rolls", {}) or {}).get(action)
    return binding.uses if binding is not None else None


@pytest.mark.parametrize(
    ("args", "read"),
    [
        (("roll", "pokemon", "capture", "--ball", "SUPER BALL", "--difficulty", "8"), "super"),
        (("roll", "plus-ultra", "rang", "--rank", "c+"), "C+"),
        (
            ("odds", "ilvermorny", "duel", "--magic-a", "6", "--element-a", "Fire",
             "--magic-b", "5", "--element-b", "vigne", "--cast-a", "Échec critique"),
            "feu",
        ),
        (("odds", "passion", "dégâts", "--damage", "4", "--type", "Energetique"), "energetique"),
        (
            ("advise", "passion", "action", "--talent", "2", "--difficulty", "3",
             "--goal", "pas d'echec", "--max-dice", "3"),
            "no-failure",
        ),
        (("odds", "plus-ultra", "duel", "--a", "rank=C,energy=8,willpower=5",
          "--b", "rank=C,energy=8,willpower=5", "--first", "camp b"), "b"),
    ],
)  # fmt: skip
def test_pk_19_pu_3_il_10_ps_14_french_values_are_accepted_on_the_command_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], read: str
) -> None:
    found = answer(capsys, *args)
    assert read in found["params"].values(), found["params"]


def test_a_french_action_name_runs_the_action_and_json_keeps_the_identifier(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rolled = answer(capsys, "roll", "pokemon", "attaque", "--attack-dice", "2",
                    "--damage-dice", "1", "--seed", "1", "--lang", "fr")  # fmt: skip
    assert rolled["action"] == "attack"
    code, _out, err = run(capsys, "roll", "pokemon", "ataque", "--lang", "fr")
    assert code == 2 and "vouliez-vous dire attaque\u202f?" in err
    assert "attaque, capture, contre, initiative, test" in err
    code, _out, err = run(capsys, "odds", "plus-ultra", "rang", "--rank", "C", "--lang", "fr")
    assert code == 2 and "rang" in err and "attaque, duel, protéger" in err


def test_an_error_lists_the_choices_by_their_display_names(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _out, err = run(capsys, "roll", "plus-ultra", "attack", "--willpower", "3",
                          "--target-energy", "4", "--recap", "html", "--lang", "fr")  # fmt: skip
    assert code == 2 and "(permis\u00a0: au choix\u00a0: BBCode, Markdown, texte)" in err
    code, _out, err = run(capsys, "odds", "passion", "damage", "--damage", "4",
                          "--type", "fisique", "--lang", "en")  # fmt: skip
    assert "did you mean physical?" in err and "physical, mental, energetic)" in err


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.db"


def test_pk_12_pk_13_pk_14_defence_and_reactions_in_french(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    """`--defence esquive` and `--setting réactions=encaisser`, the words the help shows."""
    folder = ROOT / "src" / "jdr" / "systems" / "pokemon" / "examples"
    assert run(capsys, "campaign", "new", "C", "--system", "pokemon", "--db", db)[0] == 0
    for name in ("Pika", "Chu"):
        args = ["sheet", "add", str(folder / "pokemon.toml"), "--campaign", "C", "--name", name]
        assert run(capsys, *args, "--db", db)[0] == 0
    code, out, _err = run(capsys, "roll", "pokemon", "attack", "--help", "--lang", "fr")
    assert "--defence encaisser|esquiver" in out
    rolled = answer(capsys, "roll", "pokemon", "attaque", "--sheet", "Pika", "--move", "Éclair",
                    "--target", "chu", "--defence", "esquive", "--seed", "3",
                    "--campaign", "C", "--db", db)  # fmt: skip
    assert rolled["params"]["dodge_dice"] is not None and rolled["params"]["endure_dice"] is None
    new = ["fight", "new", "--campaign", "C", "--with", "Pika,Chu", "--faces", "9,2", "--db", db]
    started = answer(capsys, *new, "--setting", "réactions=encaisser")
    assert started["events"][0]["settings"]["reactions"] == "endure"
    code, _out, err = run(capsys, *new, "--setting", "reactions=parer", "--lang", "fr")
    assert code == 2 and "au choix\u00a0: demander, aucune, encaisser, esquiver" in err


# --- the web roll page ------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_roll_page_shows_display_names_only(tmp_path: Path, system_id: str, lang: str) -> None:
    from fastapi.testclient import TestClient

    from jdr.web.app import create_app
    from web_helpers import HOST, join

    app = create_app(f"sqlite:///{tmp_path}/w.db", host_token=HOST, invite_attempts=1000)
    try:
        store = app.state.store
        campaign = store.create_campaign(system_id, "Table")
        gm = join(app, store, campaign, "gm")
        client: TestClient = gm.client
        client.cookies.set("jdr_lang", lang)
        system = default_registry().get(system_id)
        for name, action in system.actions.items():
            page = client.get(f"/c/{campaign}/roll", params={"action": name})
            assert page.status_code == 200, page.text
            html = page.text
            picker = re.search(r'<select name="action" id="action-pick">(.*?)</select>', html)
            assert picker is not None
            shown = re.findall(r"<option[^>]*>([^<]*)</option>", picker.group(1))
            assert shown == [_escaped(action_label(a, lang)) for a in system.actions.values()]
            fields = re.findall(r'<label class="field"[^>]*>([^<]*)', html)
            flags = re.findall(r'<label class="field flag"[^>]*><input[^>]*>([^<]*)', html)
            labels = [_flat(t).strip() for t in fields + flags]  # a flag: its box, then its name
            models = [action.params, _uses(system, name)]
            if action.advise is not None:
                models.append(action.advise.params)
            expected = set()
            for model in models:
                if model is None:
                    continue
                for field, info in model.model_fields.items():
                    label = _escaped(field_label(field, info, lang))
                    expected.add(label)
                    if field == "recap":  # the page leaves a post-ready recap to the CLI
                        continue
                    assert any(t.removesuffix(" *") == label for t in labels), (name, label)
                    with language(lang):
                        names = choice_names(info)
                    for value, word in names.items():
                        assert f'<option value="{value}"' in html
                        assert f">{_escaped(word)}</option>" in html
            assert {t.removesuffix(" *") for t in labels} <= expected, (name, labels)
    finally:
        app.state.store.close()


def _escaped(text: str) -> str:
    from markupsafe import escape

    return str(escape(text))


def test_the_web_roll_reads_a_french_choice(tmp_path: Path) -> None:
    """PU-3: the roll page's form posted with a display name is rolled with the identifier."""
    from jdr.web.app import create_app
    from web_helpers import HOST, join

    app = create_app(f"sqlite:///{tmp_path}/w.db", host_token=HOST, invite_attempts=1000)
    try:
        store = app.state.store
        campaign = store.create_campaign("plus-ultra", "Table")
        gm = join(app, store, campaign, "gm")
        rolled = gm.api(
            f"/api/c/{campaign}/roll",
            {"action": "attaque", "params": {"willpower": 3, "target_energy": 4, "rank": "c+"}},
        )
        assert rolled.status_code == 200, rolled.text
        assert rolled.json()["action"] == "attack" and rolled.json()["params"]["rank"] == "C+"
    finally:
        app.state.store.close()


def test_a_plugin_without_display_names_shows_words_not_identifiers() -> None:
    """A plug-in that declares none still never shows `max_dice`: its words, spaced."""
    from pydantic import Field

    class Old(BaseModel):
        max_dice: int = Field(default=1)

    assert field_label("max_dice", Old.model_fields["max_dice"]) == "max dice"
    assert validate_params(Old, {"max dice": "3"}, keys=True).max_dice == 3
    with pytest.raises(JdrError):
        validate_params(Old, {"max_dic": "3", "max_dice": "x"})


def test_a_missing_argument_says_what_it_takes_not_a_value(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Not "permis : une valeur": the argument's own help, or its kind of number."""
    code, _out, err = run(capsys, "sheet", "show", "--lang", "fr")
    assert code == 2 and "(permis\u00a0: le nom du personnage)" in err and "une valeur" not in err
    code, _out, err = run(capsys, "fight", "act", "--lang", "fr")
    assert code == 2 and "(permis\u00a0: un nombre entier)" in err


def test_pu_2_sheet_rank_takes_the_gauge_shown_in_french(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    """`jdr sheet rank Kaito volonté`: the word `permis : au choix : Énergie, Volonté` shows."""
    folder = ROOT / "src" / "jdr" / "systems" / "plus_ultra" / "examples"
    assert run(capsys, "campaign", "new", "C", "--system", "plus-ultra", "--db", db)[0] == 0
    assert run(capsys, "sheet", "add", str(folder / "hero.toml"), "--campaign", "C",
               "--db", db)[0] == 0  # fmt: skip
    rank = ["sheet", "rank", "Kaito Arashi", "--campaign", "C", "--db", db, "--lang", "fr"]
    code, _out, err = run(capsys, *rank[:3], "volo", *rank[3:])
    assert code == 2 and "(au choix\u00a0: Énergie, Volonté)" in err
    assert "vouliez-vous dire Volonté\u202f?" in err
    ranked = answer(capsys, *rank[:3], "Volonte", *rank[3:])
    assert "Volonté 8 → 10" in ranked["summary"]


def test_completion_offers_the_actions_display_names() -> None:
    """`jdr roll pokemon co<TAB>` in French: `counter` and `contre`."""
    import os
    import subprocess

    env = {k: v for k, v in os.environ.items() if not k.startswith(("JDR_", "_JDR_"))}
    env.update(LANG="C.UTF-8", JDR_LANG="fr", _JDR_COMPLETE="complete_bash")
    env.update(COMP_WORDS="jdr roll pokemon co", COMP_CWORD="3")
    jdr = Path(sys.executable).parent / "jdr"
    done = subprocess.run(
        [str(jdr)], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0 and done.stdout.split() == ["counter", "contre"]
