"""PU-11: the recap that ends a post, as golden text in BBCode, Markdown and plain text, in English
and in French. A wording change is a visible diff here."""

from __future__ import annotations

from typing import Any

import pytest

from jdr.dice import GivenFaces
from jdr.errors import UnknownNameError
from jdr.fights import Fight
from jdr.i18n import language
from jdr.systems.plus_ultra.fight import fight_rules
from jdr.systems.plus_ultra.recap import render_attack_recap, render_recap

RULES = fight_rules()
SMASH = {
    "name": "Smash",
    "cost": 3,
    "cooldown": 2,
    "effects": {"extra_damage": 2, "attack_bonus": 1},
}
RAFALE = {"name": "Rafale", "cost": 2, "cooldown": 1, "effects": {"extra_attacks": 2}}


def hero(name: str, side: str, rank: str = "D", energy: int = 5, willpower: int = 5) -> Any:
    return {"name": name, "rank": rank, "energy": energy, "willpower": willpower, "side": side}


def cmd(actor: str | None, action: str, **fields: Any) -> dict[str, Any]:
    return {"action": action, **({"actor": actor} if actor else {}), **fields}


def rafale_turn() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Round 2: Izuku's Rafale on Shoto: two hits, the KO, the third roll ignored; Smash, used
    in round 1, shows 1/2."""
    izuku = hero("Izuku", "a", "C", 8, 8) | {"techniques": [SMASH, RAFALE]}
    source = GivenFaces([9, 11, 1, 14, 17, 6])
    fight = Fight.start(
        RULES,
        {"characters": [izuku, hero("Katsuki", "b", "D", 4, 6), hero("Shoto", "b", "C", 8, 8)]},
        source,
    )
    fight.act(cmd("Izuku", "technique", technique="Smash", target="Shoto"), source)
    fight.act(cmd("Katsuki", "attack", target="Izuku"), source)
    fight.act(cmd("Shoto", "attack", target="Izuku"), source)
    events = fight.act(cmd("Izuku", "technique", technique="Rafale", target="Shoto"), source)
    source.finish()
    return fight.state, events


RAFALE_RECAPS = {
    ("en", "bbcode"): """\
[b]Izuku — round 2[/b]
[b]Actions[/b]
[list]
[*]Technique Rafale on Shoto
[*]Roll 1/3: d20 14 + 5 = 19 against defense 12 → [color=green]hit[/color]: −2 Énergie
[*]Roll 2/3: d20 17 + 5 = 22 against defense 10 → [color=green]hit[/color]: −2 Énergie
[*]Shoto is KO
[*]1 roll ignored (d20 6): Shoto is at 0 Énergie
[*]Cost: −2 Volonté
[/list]
[b]State[/b]
[list]
[*]Énergie: 7/8
[*]Volonté: 3/8
[*]Smash: 1/2
[*]Rafale: 0/1
[/list]""",
    ("en", "markdown"): """\
**Izuku — round 2**

**Actions**
- Technique Rafale on Shoto
- Roll 1/3: d20 14 + 5 = 19 against defense 12 → **hit**: −2 Énergie
- Roll 2/3: d20 17 + 5 = 22 against defense 10 → **hit**: −2 Énergie
- Shoto is KO
- 1 roll ignored (d20 6): Shoto is at 0 Énergie
- Cost: −2 Volonté

**State**
- Énergie: 7/8
- Volonté: 3/8
- Smash: 1/2
- Rafale: 0/1""",
    ("en", "text"): """\
Izuku — round 2
Actions:
- Technique Rafale on Shoto
- Roll 1/3: d20 14 + 5 = 19 against defense 12 → hit: −2 Énergie
- Roll 2/3: d20 17 + 5 = 22 against defense 10 → hit: −2 Énergie
- Shoto is KO
- 1 roll ignored (d20 6): Shoto is at 0 Énergie
- Cost: −2 Volonté
State:
- Énergie: 7/8
- Volonté: 3/8
- Smash: 1/2
- Rafale: 0/1""",
    ("fr", "bbcode"): """\
[b]Izuku — manche 2[/b]
[b]Actions[/b]
[list]
[*]Technique Rafale sur Shoto
[*]Jet 1/3\u00a0: d20 14 + 5 = 19 contre défense 12 → [color=green]touché[/color]\u00a0: −2 Énergie
[*]Jet 2/3\u00a0: d20 17 + 5 = 22 contre défense 10 → [color=green]touché[/color]\u00a0: −2 Énergie
[*]Shoto est K.O.
[*]1 jet ignoré (d20 6)\u00a0: Shoto est à 0 Énergie
[*]Coût\u00a0: −2 Volonté
[/list]
[b]État[/b]
[list]
[*]Énergie\u00a0: 7/8
[*]Volonté\u00a0: 3/8
[*]Smash\u00a0: 1/2
[*]Rafale\u00a0: 0/1
[/list]""",
    ("fr", "markdown"): """\
**Izuku — manche 2**

**Actions**
- Technique Rafale sur Shoto
- Jet 1/3\u00a0: d20 14 + 5 = 19 contre défense 12 → **touché**\u00a0: −2 Énergie
- Jet 2/3\u00a0: d20 17 + 5 = 22 contre défense 10 → **touché**\u00a0: −2 Énergie
- Shoto est K.O.
- 1 jet ignoré (d20 6)\u00a0: Shoto est à 0 Énergie
- Coût\u00a0: −2 Volonté

**État**
- Énergie\u00a0: 7/8
- Volonté\u00a0: 3/8
- Smash\u00a0: 1/2
- Rafale\u00a0: 0/1""",
    ("fr", "text"): """\
Izuku — manche 2
Actions\u00a0:
- Technique Rafale sur Shoto
- Jet 1/3\u00a0: d20 14 + 5 = 19 contre défense 12 → touché\u00a0: −2 Énergie
- Jet 2/3\u00a0: d20 17 + 5 = 22 contre défense 10 → touché\u00a0: −2 Énergie
- Shoto est K.O.
- 1 jet ignoré (d20 6)\u00a0: Shoto est à 0 Énergie
- Coût\u00a0: −2 Volonté
État\u00a0:
- Énergie\u00a0: 7/8
- Volonté\u00a0: 3/8
- Smash\u00a0: 1/2
- Rafale\u00a0: 0/1""",
}


@pytest.mark.parametrize(("lang", "fmt"), sorted(RAFALE_RECAPS))
def test_pu_11_pu_8_recap_of_a_technique_in_three_formats_and_two_languages(
    lang: str, fmt: str
) -> None:
    state, events = rafale_turn()
    with language(lang):
        assert render_recap(state, "izuku", events, fmt) == RAFALE_RECAPS[lang, fmt]


ATTACK_RECAPS = {
    ("en", "bbcode"): """\
[b]Izuku[/b]
[b]Actions[/b]
[list]
[*]Attack on Shoto: d20 12 + 5 = 17 against defense 16 → [color=green]hit[/color]: −2 Énergie
[/list]
[b]State[/b]
[list]
[*]Énergie: 5/5
[*]Volonté: 5
[/list]""",
    ("en", "markdown"): """\
**Izuku**

**Actions**
- Attack on Shoto: d20 12 + 5 = 17 against defense 16 → **hit**: −2 Énergie

**State**
- Énergie: 5/5
- Volonté: 5""",
    ("en", "text"): """\
Izuku
Actions:
- Attack on Shoto: d20 12 + 5 = 17 against defense 16 → hit: −2 Énergie
State:
- Énergie: 5/5
- Volonté: 5""",
    ("fr", "bbcode"): """\
[b]Izuku[/b]
[b]Actions[/b]
[list]
[*]Attaque sur Shoto\u00a0: d20 12 + 5 = 17 contre défense 16 → [color=green]touché[/color]\u00a0: −2 Énergie
[/list]
[b]État[/b]
[list]
[*]Énergie\u00a0: 5/5
[*]Volonté\u00a0: 5
[/list]""",  # noqa: E501
    ("fr", "markdown"): """\
**Izuku**

**Actions**
- Attaque sur Shoto\u00a0: d20 12 + 5 = 17 contre défense 16 → **touché**\u00a0: −2 Énergie

**État**
- Énergie\u00a0: 5/5
- Volonté\u00a0: 5""",
    ("fr", "text"): """\
Izuku
Actions\u00a0:
- Attaque sur Shoto\u00a0: d20 12 + 5 = 17 contre défense 16 → touché\u00a0: −2 Énergie
État\u00a0:
- Énergie\u00a0: 5/5
- Volonté\u00a0: 5""",
}


@pytest.mark.parametrize(("lang", "fmt"), sorted(ATTACK_RECAPS))
def test_pu_11_recap_of_one_attack_outside_a_fight(lang: str, fmt: str) -> None:
    with language(lang):
        recap = render_attack_recap(
            12,
            17,
            16,
            True,
            2,
            fmt,
            name="Izuku",
            target="Shoto",
            energy=5,
            energy_max=5,
            willpower=5,
        )
    assert recap == ATTACK_RECAPS[lang, fmt]


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "Plus Ultra attack\nActions:\n- Attack: d20 3 − 1 = 2 against defense 16 → miss"),
        (
            "fr",
            "Attaque Plus Ultra\nActions\u00a0:\n"
            "- Attaque\u00a0: d20 3 − 1 = 2 contre défense 16 → raté",
        ),
    ],
)
def test_pu_11_an_attack_recap_with_nothing_known_but_the_roll(lang: str, expected: str) -> None:
    with language(lang):
        assert render_attack_recap(3, 2, 16, False, 0) == expected


def test_pu_11_pu_6_the_attacker_and_the_protector_each_recap_their_part() -> None:
    source = GivenFaces([10])
    fight = Fight.start(
        RULES,
        {"characters": [hero("Katsuki", "b", "C", 8, 8), hero("Ochaco", "a"), hero("Izuku", "a")]},
        source,
    )
    events = fight.act(cmd("Katsuki", "attack", target="Ochaco", protector="Izuku"), source)
    roll = "d20 10 + 8 = 18 against raw defense 13 → [color=red]Izuku takes the hit[/color]"
    assert render_recap(fight.state, "Izuku", events, "bbcode") == (
        "[b]Izuku — round 1[/b]\n[b]Actions[/b]\n[list]\n"
        f"[*]Protects Ochaco from Katsuki: {roll}: −2 Énergie\n"
        "[/list]\n[b]State[/b]\n[list]\n[*]Énergie: 3/5\n[*]Volonté: 5/5\n[/list]"
    )
    assert render_recap(fight.state, "Katsuki", events, "text") == (
        "Katsuki — round 1\nActions:\n"
        "- Attack on Ochaco (protector: Izuku): d20 10 + 8 = 18 against raw defense 13"
        " → Izuku takes the hit: −2 Énergie\n"
        "State:\n- Énergie: 8/8\n- Volonté: 8/8"
    )
    assert render_recap(fight.state, "Ochaco", events, "markdown") == (
        "**Ochaco — round 1**\n\n**Actions**\n- No action\n\n"
        "**State**\n- Énergie: 5/5\n- Volonté: 5/5"
    )


def test_pu_11_pu_9_a_flight_interrupted_seen_by_both_and_a_flight_let_go() -> None:
    source = GivenFaces([10])
    fight = Fight.start(
        RULES,
        {"characters": [hero("Izuku", "a"), hero("Katsuki", "b", "C", 8, 8), hero("Mei", "a")]},
        source,
    )
    fled = fight.act(cmd("Izuku", "flee"), source)
    answer = fight.act(cmd("Katsuki", "interrupt"), source)
    state = fight.state
    assert render_recap(state, "Izuku", fled, "text").splitlines()[:3] == [
        "Izuku — round 1",
        "Actions:",
        "- Flees: +3 defense",
    ]
    roll = "d20 10 + 8 = 18 against defense 16 (+3 fleeing)"
    assert render_recap(state, "Izuku", answer, "bbcode").splitlines()[3:5] == [
        f"[*]Interrupted by Katsuki: {roll} → [color=red]hit[/color]: −2 Énergie",
        "[*]Izuku's flight fails",
    ]
    assert render_recap(state, "Katsuki", answer, "markdown").splitlines()[3:5] == [
        f"- Interrupts Izuku's flight: {roll} → **hit**: −2 Énergie",
        "- Izuku's flight fails",
    ]
    fight.act(cmd("Katsuki", "defend"), source)
    fight.act(cmd("Mei", "flee"), source)
    gone = fight.act(cmd(None, "no_interrupt"), source)
    with language("fr"):
        assert render_recap(fight.state, "Mei", gone, "text") == (
            "Mei — manche 1\nActions\u00a0:\n- Personne n'interrompt la fuite\n"
            "- Mei quitte le combat\nÉtat\u00a0:\n- Énergie\u00a0: 5/5\n- Volonté\u00a0: 5/5\n"
            "- Hors du combat\u00a0: en fuite"
        )
    source.finish()


def test_pu_11_pu_7_defense_bonus_side_effects_gm_text_ko_and_the_end_of_the_fight() -> None:
    gloves = {
        "name": "Gantelets",
        "cost": 0,
        "cooldown": 3,
        "equipment": True,
        "effects": {"defense_bonus": 2, "text": "Le coup est encaissé."},
    }
    fear = {"name": "Intimidation", "cost": 1, "cooldown": 0, "effects": {"lower_willpower": 2}}
    izuku = hero("Izuku", "a", "C", 8, 8) | {"techniques": [gloves, fear]}
    source = GivenFaces([20, 20])
    fight = Fight.start(RULES, {"characters": [izuku, hero("Kai", "b")]}, source)
    gloves_turn = fight.act(cmd("Izuku", "technique", technique="Gantelets"), source)
    assert render_recap(fight.state, "Izuku", gloves_turn, "text") == (
        "Izuku — round 1\nActions:\n- Technique Gantelets\n- Defense +2 until the next turn\n"
        "- For the GM: Le coup est encaissé.\n"
        "State:\n- Énergie: 8/8\n- Volonté: 8/8\n- Gantelets: 0/3\n- Intimidation: ready"
    )
    fight.act(cmd("Kai", "defend"), source)
    fear_turn = fight.act(cmd("Izuku", "technique", technique="Intimidation", target="Kai"), source)
    last = fight.act(cmd("Kai", "attack", target="Izuku"), source)
    with language("fr"):
        assert render_recap(fight.state, "Izuku", [], "bbcode").splitlines()[-3:] == [
            "[*]Gantelets\u00a0: 2/3",
            "[*]Intimidation\u00a0: [color=green]disponible[/color]",
            "[/list]",
        ]
    assert render_recap(fight.state, "Izuku", fear_turn, "text").splitlines()[2:6] == [
        "- Technique Intimidation on Kai: d20 20 + 8 = 28 against defense 18 (+5 defending)"
        " → hit: −2 Énergie",
        "- Kai: −2 Volonté",
        "- Cost: −1 Volonté",
        "State:",
    ]
    assert render_recap(fight.state, "Kai", last, "text").splitlines()[2] == (
        "- Attack on Izuku: d20 20 + 3 = 23 against defense 16 → hit: −1 Énergie"
    )
    source.finish()
    ko = Fight.start(RULES, {"characters": [izuku, hero("Kai", "b", "E", 2, 2)]}, GivenFaces([]))
    ko.events.append({"type": "energy_lost", "name": "Kai", "amount": 2, "by": "Izuku"})
    ko.events += [{"type": "knocked_out", "name": "Kai"}, {"type": "fight_over", "winner": "a"}]
    recap = render_recap(ko.state, "Kai", [], "text")
    assert recap.splitlines()[-2:] == ["- Énergie: 0/2 (KO)", "- Volonté: 2/2"]


def test_pu_11_an_unknown_format_or_character_is_refused() -> None:
    state, events = rafale_turn()
    with pytest.raises(UnknownNameError, match="html"):
        render_recap(state, "Izuku", events, "html")
    with pytest.raises(UnknownNameError, match="Mirio"):
        render_recap(state, "Mirio", events, "text")
    with pytest.raises(UnknownNameError, match="bbcode, markdown, text"):
        render_attack_recap(1, 1, 1, True, 1, "rtf")
