"""Issue 28: every decision of a fight command belongs to someone — the acting fighter's
controller, a targeted fighter's controller, or the GM — as each command model declares, and the
service under every front end refuses a key given by anyone else.

Rules touched: PK-10 … PK-14 (a Pokémon's move and the defender's answer), IL-11 (the GM ends a
duel), PU-6 (the protector's choice), PS-3, PS-7, PS-13 (the GM's difficulty, NPCs' pools, a
combined attack's partners), OM-4 (the example plug-in's fight).
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli_run import run
from jdr.access import AccessError
from jdr.characters import service as characters
from jdr.characters.fights import open_stored
from jdr.dice import GivenFaces
from jdr.fights.commands import GM_SEAT, Commands, Owner, Seat, key_label, refuse_unowned
from jdr.fights.service import state
from jdr.i18n import language
from jdr.sheet_check import systems_example
from jdr.store import Store
from jdr.systems import default_registry
from web_helpers import example_table, join

PLUGIN = Path(__file__).parents[1] / "examples" / "plugin" / "src"
POKEMON = ("Pikachu", "Évoli")
BUILT_IN = ("ilvermorny", "passion", "plus-ultra", "pokemon", "poledemos")
ACTOR, OTHER = "Actor", "Other"
"""The fighter who acts, and another fighter (a target, a partner, a protector)."""

DECLARED = {
    ("ilvermorny", "end", None): "gm",
    ("passion", "action", "difficulty"): "gm",
    ("passion", "action", "npc_energy"): "gm",
    ("passion", "attack", "npc_energy"): "gm",
    ("passion", "attack", "npc_protection"): "gm",
    ("passion", "blast", "npc_energy"): "gm",
    ("passion", "blast", "npc_protection"): "gm",
    ("passion", "combined_attack", "npc_energy"): "gm",
    ("passion", "combined_attack", "npc_protection"): "gm",
    ("passion", "combined_attack", "partners"): "target:partners",
    ("plus-ultra", "attack", "protector"): "target:protector",
    ("plus-ultra", "technique", "protector"): "target:protector",
    ("pokemon", "move", "counter_move"): "target:target",
    ("pokemon", "move", "response"): "target:target",
    ("ombres", "join", "side"): "gm",
}
"""Every decision that is not the acting fighter's controller's (command, key: None for the
whole command): a change here is a change of who decides, written down in the models'
docstrings and docs/plugins.md."""


@pytest.fixture(scope="module")
def ombres() -> Iterator[Any]:
    """The example plug-in (examples/plugin), imported from its sources."""
    sys.path.insert(0, str(PLUGIN))
    try:
        from jdr_ombres import SYSTEM

        yield SYSTEM
    finally:
        sys.path.remove(str(PLUGIN))


def _systems(ombres: Any) -> dict[str, Commands]:
    registry = default_registry()
    found = {s: getattr(registry.get(s), "fight_commands") for s in BUILT_IN}  # noqa: B009
    found["ombres"] = ombres.fight_commands
    return found


def _given(owner: Owner, key: str) -> dict[str, Any]:
    """Keys giving `key` (any value: ownership is judged before the values are) and naming
    `OTHER` where its owner is the fighter a key names."""
    keys: dict[str, Any] = {key: "x"}
    if owner.kind == "target" and owner.key is not None:
        keys[owner.key] = OTHER
    return keys


SEATS = {
    "gm": GM_SEAT,
    "actor's player": Seat(fighters=(ACTOR,)),
    "another player": Seat(fighters=(OTHER,)),
    "spectator": Seat(),
}


@pytest.mark.parametrize("role", list(SEATS))
def test_every_command_of_every_system_and_plugin_refuses_what_is_not_the_seats(
    role: str, ombres: Any
) -> None:
    seat = SEATS[role]
    found: dict[tuple[str, str, str | None], str] = {}
    for system_id, commands in _systems(ombres).items():
        assert commands is not None, system_id
        for command in commands:
            if command.owner != Owner.ACTOR:
                found[(system_id, command.name, None)] = command.owner.text()
            for key in command.keys.model_fields:
                owner = command.owner_of(key)
                if owner != Owner.ACTOR:
                    found[(system_id, command.name, key)] = owner.text()
                keys = _given(owner, key)
                mine = role == "gm" or (
                    role == "actor's player"
                    and command.owner == Owner.ACTOR
                    and owner == Owner.ACTOR
                )
                if mine:
                    refuse_unowned(command, keys, seat, ACTOR)  # not refused
                    continue
                with pytest.raises(AccessError) as refused:
                    refuse_unowned(command, keys, seat, ACTOR)
                where = (system_id, command.name, key, role)
                if role != "actor's player":  # a fighter not theirs: the command is refused
                    assert refused.value.field in ("actor", command.shown()), where
                elif command.owner != Owner.ACTOR:
                    assert refused.value.field == command.shown(), where
                else:  # the key is someone else's: it is named, and whose choice it is
                    assert refused.value.field == key_label(command.keys, key), where
                    whose = "the GM's choice" if owner == Owner.GM else f"{OTHER}'s player's"
                    assert whose in str(refused.value.reason), where
    assert found == DECLARED


def test_a_key_another_decides_is_named_in_the_readers_language() -> None:
    move = default_registry().get("pokemon").fight_commands.get("move")  # type: ignore[attr-defined]
    with language("fr"), pytest.raises(AccessError) as refused:
        refuse_unowned(move, {"response": "none", "target": "Évoli"}, Seat(("Pikachu",)), "Pikachu")
        assert refused.value.message() == (
            "réponse (response) : none — le choix du joueur qui joue Évoli"
            " (permis : omettez-la, ou demandez au joueur qui joue Évoli)"
        )
    with pytest.raises(AccessError) as refused:
        refuse_unowned(move, {"response": "none"}, Seat(("Pikachu",)), "Pikachu")
    assert "the targeted fighter's player's choice" in refused.value.message()


def test_a_key_the_gm_decides_may_be_left_out_by_the_player() -> None:
    action = default_registry().get("passion").fight_commands.get("action")  # type: ignore[attr-defined]
    refuse_unowned(action, {"dice": "3d6", "talent": "Crochetage"}, Seat(("Léa",)), "Léa")
    with pytest.raises(AccessError, match="the GM's choice"):
        refuse_unowned(action, {"talent": "Crochetage", "difficulty": 0}, Seat(("Léa",)), "Léa")


def test_the_owners_are_in_the_schema_and_the_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    commands = default_registry().get("pokemon").fight_commands  # type: ignore[attr-defined]
    move = next(c for c in commands.schema() if c["name"] == "move")
    assert move["owner"] == "actor"
    assert move["schema"]["properties"]["response"]["owner"] == "target:target"
    keys = {k.name: k.owner for k in commands.keys("move")}
    assert keys["move"] == ""
    assert keys["response"] == "the choice of the player of the fighter named by target"
    ended = default_registry().get("ilvermorny").fight_commands  # type: ignore[attr-defined]
    assert next(c for c in ended.schema() if c["name"] == "end")["owner"] == "gm"


# --- through the web table and its API ----------------------------------------------------------


@pytest.fixture
def tables(database_url: str) -> Iterator[Any]:
    """`_table` on the test's database, its store closed after the test."""
    opened: list[Store] = []

    def made(system: str, example: str, names: tuple[str, str]) -> Any:
        found = _table(database_url, system, example, names)
        opened.append(found[1])
        return found

    yield made
    for store in opened:
        store.close()


def _table(database_url: str, system: str, example: str, names: tuple[str, str]) -> Any:
    """A campaign of `system` with two copies of its example sheet, named `names`, and a fight
    between them, the first to play first."""
    app, store, campaign_id = example_table(database_url, "Décisions", system, ())
    campaign = store.campaign_by_id(campaign_id)
    for name in names:
        sheet = tomllib.loads(systems_example(system, example))
        characters.add(store, campaign, sheet | {"name": name})
    faces = GivenFaces([9, 2]) if system == "pokemon" else None
    opened = open_stored(store, campaign, list(names), rng=faces)
    return app, store, campaign_id, int(opened.started.fight_id)


def _unchanged(store: Store, campaign_id: int, fight_id: int, before: tuple[int, int, str]) -> None:
    record = store.fight(fight_id)
    assert (record.version, store.journal_length(campaign_id), record.status) == before


def _now(store: Store, campaign_id: int, fight_id: int) -> tuple[int, int, str]:
    record = store.fight(fight_id)
    return record.version, store.journal_length(campaign_id), record.status


def test_pk_12_a_player_never_answers_for_another_players_pokemon(tables: Any) -> None:
    app, store, campaign_id, fight = tables("pokemon", "pokemon", POKEMON)
    path = f"/c/{campaign_id}/fights/{fight}"
    pikachu = join(app, store, campaign_id, "player", "Pikachu")
    before = _now(store, campaign_id, fight)
    move = {"actor": "Pikachu", "command": "move", "move": "Éclair", "response": "none"}
    refused = pikachu.post(path, data=move)
    assert refused.status_code == 403
    assert "Évoli&#39;s player&#39;s choice" in refused.text  # beside the form, on the fight page
    form = refused.text.split('class="command refused"')[1].split("</form>")[0]
    assert 'value="Éclair"' in form and 'class="error"' in form  # what was typed is kept
    answer = pikachu.api(
        f"/api{path}",
        {"actor": "Pikachu", "command": "move", "keys": {"move": "Éclair", "response": "none"}},
    )
    assert answer.status_code == 403
    error = answer.json()["error"]
    assert (error["code"], error["field"]) == ("forbidden", "response")
    assert "Évoli's player's choice" in error["message"]
    _unchanged(store, campaign_id, fight, before)
    assert 'name="response"' not in pikachu.client.get(path).text  # not the player's to give
    gm = join(app, store, campaign_id, "gm")
    assert 'name="response"' in gm.client.get(path).text
    played = pikachu.post(path, data={"actor": "Pikachu", "command": "move", "move": "Éclair"})
    assert played.status_code == 303  # the attack, and Évoli's player is asked


def test_il_11_a_wizard_never_ends_the_duel(tables: Any) -> None:
    names = ("Seraphina Quill", "Ambrose Vale")
    app, store, campaign_id, fight = tables("ilvermorny", "wizard", names)
    path = f"/c/{campaign_id}/fights/{fight}"
    wizard = join(app, store, campaign_id, "player", "Seraphina Quill")
    before = _now(store, campaign_id, fight)
    end = {"actor": "Seraphina Quill", "command": "end", "winner": "Seraphina Quill"}
    refused = wizard.post(path, data=end)
    assert refused.status_code == 403 and "the GM&#39;s choice" in refused.text
    assert 'data-command="cast"' in refused.text  # the page, not a bare error
    answer = wizard.api(
        f"/api{path}",
        {"actor": "Seraphina Quill", "command": "end", "keys": {"winner": "Seraphina Quill"}},
    )
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "forbidden"
    _unchanged(store, campaign_id, fight, before)
    assert 'data-command="end"' not in wizard.client.get(path).text
    gm = join(app, store, campaign_id, "gm")
    assert 'data-command="end"' in gm.client.get(path).text
    ended = gm.post(path, data=end)
    rules = default_registry().get("ilvermorny").fight
    assert ended.status_code == 303 and rules is not None and state(store, fight, rules)["over"]


def test_a_refused_rule_keeps_the_fight_page_and_what_was_typed(tables: Any) -> None:
    app, store, campaign_id, fight = tables("pokemon", "pokemon", POKEMON)
    pikachu = join(app, store, campaign_id, "player", "Pikachu")
    path = f"/c/{campaign_id}/fights/{fight}"
    refused = pikachu.post(path, data={"actor": "Pikachu", "command": "move", "move": "Ultralaser"})
    assert refused.status_code == 409  # PK-10: not a move of the sheet
    form = refused.text.split('class="command refused"')[1].split("</form>")[0]
    assert 'value="Ultralaser"' in form and "does not know the move Ultralaser" in form
    other = pikachu.post(path, data={"actor": "Évoli", "command": "wait"})
    assert other.status_code == 403 and 'class="commands refused"' in other.text
    assert "a player acts only for their own character" in other.text
    assert 'data-command="move"' in other.text  # the player's own forms are still there


# --- the CLI's hot seat -------------------------------------------------------------------------


def test_pk_12_the_cli_as_the_actors_player_refuses_the_defenders_answer(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from test_fight_commands import pokemon_fight

    db = f"sqlite:///{tmp_path}/t.db"
    pokemon_fight(capsys, db)
    args = ("fight", "act", "1", "Pika", "move", "move=Éclair", "response=none", "--db", db)
    code, out, err = run(capsys, *args, "--as", "player")
    assert code == 2  # the target left out: the one opponent, Chu
    assert "response" in err and "Chu's player's choice" in err
    code, out, err = run(capsys, *args[:-2], "target=Chu", "--db", db, "--as", "joueur")
    assert code == 2 and "Chu's player's choice" in err
    code, out, err = run(capsys, *args[:6], "--db", db, "--as", "player")
    assert code == 0, out + err
    code, out, err = run(capsys, "fight", "act", "1", "Chu", "respond", "response=none",
                         "--db", db, "--as", "mj")  # fmt: skip
    assert code == 0, out + err


def test_the_cli_is_the_gm_unless_told_and_says_whose_choice_a_key_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from test_fight_commands import pokemon_fight

    db = f"sqlite:///{tmp_path}/t.db"
    pokemon_fight(capsys, db)
    code, out, err = run(capsys, "fight", "act", "1", "Pika", "move", "--help", "--db", db)
    assert code == 0 and "the choice of the player of the fighter named by target" in out
    code, out, err = run(capsys, "fight", "act", "1", "Pika", "pass", "--as", "nobody", "--db", db)
    assert code == 2 and "--as" in err


# --- a plug-in's declared owners ----------------------------------------------------------------


def test_om_4_a_plugins_declared_owner_is_honoured_by_the_service(
    store: Store, ombres: Any
) -> None:
    from jdr.fights import service

    campaign_id = store.create_campaign("ombres", "Ombres")
    from jdr_ombres.fight import fight_setup

    fighters = [
        {"name": "Corvo", "sheet": {"name": "Corvo", "combat": 2, "resolve": 1}, "side": "a"},
        {"name": "Lys", "sheet": {"name": "Lys", "combat": 1, "stress_max": 4}, "side": "b"},
    ]
    fight = service.start(store, campaign_id, ombres.fight, fight_setup(fighters, {}))
    store.add_character(campaign_id, "Nox", {"name": "Nox", "combat": 1, "resolve": 1})
    before = _now(store, campaign_id, fight)
    with pytest.raises(AccessError) as refused:
        service.play(store, fight, ombres, "Nox", "join", ["side=a"], seat=Seat(("Nox",)))
    assert refused.value.field == "side" and "the GM's choice" in str(refused.value.reason)
    _unchanged(store, campaign_id, fight, before)
    with pytest.raises(AccessError, match="actor"):
        service.play(store, fight, ombres, "Corvo", "attack", ["target=Lys"], seat=Seat(("Lys",)))
    _unchanged(store, campaign_id, fight, before)
    played = service.play(
        store, fight, ombres, "Corvo", "attack", ["target=Lys"], GivenFaces([6, 6]),
        seat=Seat(("Corvo",)),
    )  # fmt: skip
    assert played.acted.events[0]["type"] == "attacked"
