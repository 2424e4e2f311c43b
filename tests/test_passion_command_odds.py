"""Issue 29 for Passion (PS-2 … PS-16): every fight command that rolls declares the exact odds of
its roll as the fight resolves it — the targets' dodge scores, the sheet's talent (a split's
part), the NPCs' Énergie announced before the roll, an Énergie point standing in for a die — and
the real decider, played on seeded dice, shows each outcome as often as they say; on small pools
every face is walked and the odds are equal to the decider's law. The recaps and the fight's
sentences name what each number measures and show the damage's sum.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from command_odds_check import Case, check_odds, decide_many, mismatches, shifted
from jdr.dice import GivenFaces, Seeded
from jdr.fights import play
from jdr.fights.narration import Words
from jdr.fights.odds import Chance, command_odds
from jdr.fights.sealed import public
from jdr.fights.setup import make_command
from jdr.i18n import language
from jdr.systems.ilvermorny.exact import every_roll, exact_law
from jdr.systems.passion.narration import NARRATION
from jdr.systems.passion.sheet_files import example_path
from jdr.systems.protocol import Json
from test_command_odds import system

PASSION = system("passion")


def sheet(example: str, side: str, **changes: Any) -> Json:
    data: Json = tomllib.loads(example_path(example).read_text(encoding="utf-8"))
    return data | {"side": side} | changes


def _setup(*more: Json) -> Json:
    return {"fighters": [sheet("romuald", "heroes"), sheet("cyber-ninja", "ninjas"), *more]}


def _markers(**markers: int) -> list[Json]:
    return [{"action": "choose_marker", "actor": name, "marker": m} for name, m in markers.items()]


def fight(setup: Json, commands: list[Json], faces: list[int] = ()) -> Callable[[], Json]:  # type: ignore[assignment]
    """The state of a Passion fight after `commands`, with the faces they roll."""

    def state() -> Json:
        return play(PASSION.fight, setup, commands, GivenFaces(list(faces))).state

    return state


DUO = _setup()
"""Romuald (marker 2 + Mobilité 2 = 4) plays before the Cyber-ninja (0 + 3)."""
ROMUALD_FIRST = fight(DUO, _markers(Romuald=2, **{"Cyber-ninja": 0}))
NINJA_FIRST = fight(DUO, _markers(Romuald=0, **{"Cyber-ninja": 5}))
NINJA_ATTACKS = fight(
    DUO,
    [
        *_markers(Romuald=0, **{"Cyber-ninja": 5}),
        {"action": "attack", "actor": "Cyber-ninja", "target": "Romuald"},
    ],
)
"""The NPC never rolls (PS-11): Romuald dodges against its Katana 3."""
NINJA_SPENDS = fight(
    DUO,
    [
        *_markers(Romuald=0, **{"Cyber-ninja": 5}),
        {"action": "attack", "actor": "Cyber-ninja", "target": "Romuald", "energy": True},
    ],
)
"""The NPC's Énergie announced before the dodge (PS-7): +1 to its score."""
ROMUALD_HITS = fight(
    DUO,
    [
        *_markers(Romuald=2, **{"Cyber-ninja": 0}),
        {"action": "attack", "actor": "Romuald", "target": "Cyber-ninja", "dice": "2d6"}
        | {"weapon": "Pied"},
        {"action": "settle", "actor": "Romuald"},
    ],
    [4, 6],  # the rules file's row: 3 +, 2 − → margin 1, a hit
)
"""Romuald's Pied hits: the fight waits for its Violence dice (PS-14)."""
ROMUALD_IS_HIT = fight(
    DUO,
    [
        *_markers(Romuald=0, **{"Cyber-ninja": 5}),
        {"action": "attack", "actor": "Cyber-ninja", "target": "Romuald"},
        {"action": "no_dodge", "actor": "Romuald"},
    ],
)
"""The Cyber-ninja's Katana hits Romuald: the fight waits for its Robustesse dice (PS-15)."""
TWO_NINJAS = fight(
    _setup(sheet("cyber-ninja", "ninjas", name="Ninja 2")),
    _markers(Romuald=2, **{"Cyber-ninja": 0, "Ninja 2": 0}),
    [6, 1],  # the two ninjas' roll-off (PS-9)
)
SPLIT = fight(
    _setup(sheet("cyber-ninja", "ninjas", name="Ninja 2")),
    [
        *_markers(Romuald=4, **{"Cyber-ninja": 0, "Ninja 2": 0}),
        {
            "action": "split_attack",
            "actor": "Romuald",
            "parts": [
                {"target": "Cyber-ninja", "talent": 3, "marker": 3},
                {"target": "Ninja 2", "talent": 1, "marker": 1},
            ],
        },
    ],
    [6, 1],  # the two ninjas' roll-off (PS-9)
)
"""Romuald's split attack (PS-13): its first part, talent 3, marker 3, plays at once."""
WITH_LEA = fight(
    _setup(sheet("romuald", "heroes", name="Léa")),
    _markers(Romuald=3, Léa=1, **{"Cyber-ninja": 0}),
)

PASSION_CASES = [
    Case("passion attack 2d6 against a dodge 6, talent 4", "passion", ROMUALD_FIRST, "Romuald",
         "attack", {"target": "Cyber-ninja", "dice": "2d6", "weapon": "Pied"}),
    Case("passion attack with an Énergie die and the NPC's Énergie", "passion", ROMUALD_FIRST,
         "Romuald", "attack",
         {"target": "Cyber-ninja", "dice": "1d4", "energy_die": True,
          "npc_energy": ["Cyber-ninja"]}),
    Case("passion attack, the NPC's protection Énergie", "passion", ROMUALD_FIRST, "Romuald",
         "attack", {"target": "Cyber-ninja", "dice": "3d8",
                    "npc_protection": {"Cyber-ninja": "Combinaison cybernétique"}}),
    Case("passion attack with another talent", "passion", ROMUALD_FIRST, "Romuald", "attack",
         {"target": "Cyber-ninja", "dice": "2d6+1d12", "talent": "Corps"}),
    Case("passion a split attack's part: its talent and marker", "passion", SPLIT, "Romuald",
         "attack", {"dice": "3d6"}),
    Case("passion blast on two ninjas, dodges summed", "passion", TWO_NINJAS, "Romuald", "blast",
         {"targets": ["Cyber-ninja", "Ninja 2"], "dice": "4d6"}),
    Case("passion combined attack, talents summed", "passion", WITH_LEA, "Romuald",
         "combined_attack", {"partners": ["Léa"], "target": "Cyber-ninja", "dice": "2d6"}),
    Case("passion action roll, difficulty 2", "passion", ROMUALD_FIRST, "Romuald", "action",
         {"dice": "3d6", "talent": "Esprit", "difficulty": 2}),
    Case("passion dodge against the NPC's Katana", "passion", NINJA_ATTACKS, "Romuald", "dodge",
         {"dice": "3d6"}),
    Case("passion dodge against the NPC's Katana and its Énergie", "passion", NINJA_SPENDS,
         "Romuald", "dodge", {"dice": "2d8"}),
    Case("passion Violence dice (Pied's 2, cut by the NPC's Robustesse 1)", "passion",
         ROMUALD_HITS, "Romuald", "violence", {"dice": "1d6"}),
    Case("passion Robustesse dice", "passion", ROMUALD_IS_HIT, "Romuald", "soak",
         {"dice": "1d6"}),
]  # fmt: skip


@pytest.mark.parametrize("case", PASSION_CASES, ids=str)
def test_issue_29_ps_6_each_roll_happens_as_often_as_its_odds_say(case: Case) -> None:
    problems = check_odds(PASSION, case.state(), case.actor, case.name, case.keys, case.trials)
    assert not problems, problems


def decider_law(case: Case) -> dict[str | None, Fraction]:
    """The exact law of the command's outcome: the decider run on every face it asks for."""
    state = case.state()
    command = make_command(PASSION, case.actor, case.name, dict(case.keys))
    outcome = PASSION.fight_commands.commands[case.name].outcome

    def decided(rng: Any) -> str | None:
        found: str | None = outcome(PASSION.fight.decide(state, command, rng))
        return found

    return exact_law(every_roll(decided))


@pytest.mark.parametrize("case", [c for c in PASSION_CASES if "blast" not in c.label], ids=str)
def test_issue_29_ps_6_small_rolls_odds_equal_the_deciders_law_on_every_face(case: Case) -> None:
    odds = command_odds(PASSION, case.state(), case.actor, case.name, case.keys, exact=True)
    assert odds is not None and odds.exact
    law = decider_law(case)
    assert {k: v for k, v in odds.outcomes.items() if v} == {k: v for k, v in law.items() if v}


def test_issue_29_ps_6_odds_moved_by_five_points_fail_the_check() -> None:
    case = PASSION_CASES[0]
    state = case.state()
    right = command_odds(PASSION, state, case.actor, case.name, case.keys)
    assert right is not None
    seen = decide_many(PASSION, state, case.actor, case.name, case.keys, case.trials)
    assert not mismatches(right, seen, case.trials)
    assert mismatches(shifted(right, 0.05), seen, case.trials)


def test_issue_29_ps_11_what_rolls_nothing_has_no_odds() -> None:
    """An NPC's attack (its targets dodge), a split's declaration, damage steps without dice."""
    ninja = NINJA_FIRST()
    assert command_odds(PASSION, ninja, "Cyber-ninja", "attack", {"target": "Romuald"}) is None
    parts = [
        {"target": "Cyber-ninja", "talent": 2, "marker": 1},
        {"target": "Ninja 2", "talent": 2, "marker": 1},
    ]
    split = command_odds(PASSION, TWO_NINJAS(), "Romuald", "split_attack", {"parts": parts})
    assert split is None
    assert command_odds(PASSION, ROMUALD_HITS(), "Romuald", "violence", {}) is None
    refused = {"target": "Cyber-ninja", "dice": "1d6"}  # fewer dice than its marker 2 (PS-10)
    assert command_odds(PASSION, ROMUALD_FIRST(), "Romuald", "attack", refused) is None


def test_issue_29_ps_11_the_odds_read_the_targets_dodge_and_the_sheets_talent() -> None:
    keys = {"target": "Cyber-ninja", "dice": "2d6", "weapon": "Pied"}
    odds = command_odds(PASSION, ROMUALD_FIRST(), "Romuald", "attack", keys, exact=True)
    assert odds is not None
    assert odds.outcomes["success"] == Fraction(5, 36)  # 2d6: 3 positives at least, PS-2
    assert odds.said() == "chance to hit 13.89 %"
    assert odds.formula[1:3] == [
        "difficulty 6: Cyber-ninja's dodge 6",
        "Coup de pied circulaire 4 cancels up to 4 negatives (PS-4)",
    ]
    assert odds.formula[-1] == "damage 4 physical: Pied 1 + Corps 3"
    with language("fr"):
        assert odds.said() == "chance de toucher 13,89 %"
        french = command_odds(PASSION, ROMUALD_FIRST(), "Romuald", "attack", keys)
        assert french is not None
        assert french.formula[1] == "difficulté 6\u00a0: esquive de Cyber-ninja 6"
        assert french.formula[-1] == "dégâts physiques 4\u00a0: Pied 1 + Corps 3"
    dodge = command_odds(PASSION, NINJA_ATTACKS(), "Romuald", "dodge", {"dice": "3d6"})
    assert dodge is not None and dodge.said().startswith("chance to dodge ")
    assert dict(dodge.names)["success"] == "dodged"


def test_issue_29_ps_6_the_recaps_chance_is_the_commands_and_names_what_it_measures() -> None:
    keys = {"target": "Cyber-ninja", "dice": "2d6", "weapon": "Pied"}
    state = ROMUALD_FIRST()
    odds = command_odds(PASSION, state, "Romuald", "attack", keys, exact=True)
    events = PASSION.fight.decide(
        state, make_command(PASSION, "Romuald", "attack", keys), Seeded(1)
    )
    rolled = next(e for e in events if e["type"] == "roll_made")
    chance = NARRATION.odds(rolled)
    assert isinstance(chance, Chance) and odds is not None
    assert chance == odds.chance()
    with language("fr"):
        assert chance.said() == "chance de toucher 13,89 %"


def test_issue_29_ps_14_ps_16_the_damage_shows_its_sum_and_the_energy_points() -> None:
    words = Words()
    hit: Json = {"type": "target_hit", "attacker": "Ann", "target": "Bob", "damage": 4}
    hit |= {"damage_type": "physique", "resistance": 5, "weapon_energy": True}
    hit |= {"resistance_terms": {"potential": 3, "protections": 2}}
    assert NARRATION.sentence(hit, words) == (
        "Bob is hit: damage 4 + 1 (weapon) physical against resistance 5 (potential 3 +"
        " protections 2)."
    )
    wounded: Json = {"type": "wounded", "name": "Bob", "by": "Ann", "damage_type": "physique"}
    wounded |= {"damage": 4, "weapon_energy": True, "resistance": 5, "protection_energy": True}
    wounded |= {"base": -1, "violence_margin": 2, "robustness_margin": None, "wounds": 1}
    wounded |= {"total": 1}
    assert NARRATION.sentence(wounded, words) == (
        "Bob takes 1 wound (damage 4 + 1 (weapon) − resistance 5 − 1 (protection) = −1,"
        " Violence +2); 1 in all."
    )
    with language("fr"):
        assert "dégâts 4 + 1 (arme) − résistance 5 − 1 (protection) = −1" in NARRATION.sentence(
            wounded, words
        )
    state = ROMUALD_HITS()
    started: Json = {"type": "action_started", "kind": "attack", "actor": "Romuald"}
    started |= {"participants": ["Romuald"], "targets": ["Cyber-ninja"], "talent": "Combat"}
    started |= {"score": 4, "min_dice": 2, "weapon": "Pied", "damage": 4}
    started |= {"damage_type": "physique", "roller": "attacker"}
    said = NARRATION.sentence(started, Words(state=state))
    assert "damage 4 (Pied 1 + Corps 3) physical" in said


@pytest.mark.parametrize(
    ("state", "name", "label"),
    [
        (ROMUALD_HITS, "violence", "wounds before any Robustesse dice"),
        (ROMUALD_IS_HIT, "soak", "wounds"),
    ],
)
def test_issue_29_ps_16_damage_dice_odds_give_the_wounds_the_fight_deals(
    state: Callable[[], Json], name: str, label: str
) -> None:
    """Every face of the damage dice, settled with nothing spent: the wounds the fight writes
    are the odds' distribution (the NPC target has no Robustesse dice to roll after Violence)."""
    before = state()
    odds = command_odds(PASSION, before, "Romuald", name, {"dice": "1d6"}, exact=True)
    assert odds is not None and odds.label == label and odds.distribution is not None
    rules = PASSION.fight
    command = make_command(PASSION, "Romuald", name, {"dice": "1d6"})
    settle = make_command(PASSION, "Romuald", "settle", {})

    def wounds(rng: Any) -> int:
        _events, after = rules.decided(before, command, rng)
        settled, _after = rules.decided(after, settle, rng)
        return int(next(e for e in settled if e["type"] == "wounded")["wounds"])

    assert exact_law(every_roll(wounds)) == dict(odds.distribution)
    assert odds.formula[-1].startswith("wounds: max(0, damage − resistance ")


def test_ps_3_ps_7_a_settled_roll_shows_how_its_positives_and_negatives_add_up() -> None:
    steps = {"dice_positives": 2, "dice_negatives": 3, "difficulty": 4, "npc_energy": 1}
    steps |= {"cancelled_by_talent": 5, "energy": True, "cancelled_positives": 1}
    steps |= {"cancelled_by_passion": 0}
    settled: Json = {"type": "roll_settled", "roller": "Ann", "kind": "action", "energy": True}
    settled |= {"passion": 0, "npc_passion": 1, "item": None, "steps": steps}
    settled |= {"positives": 2, "negatives": 3, "margin": -1, "outcome": "failure"}
    assert NARRATION.sentence(settled, Words()) == (
        "Ann's action roll (+1 Énergie, 1 Passion against): 2 +, 3 − (positives 2 on the dice +"
        " Énergie 1 − NPC Passion 1; negatives 3 on the dice + difficulty 4 + NPC Énergie 1 −"
        " talent 5) → margin −1: failure."
    )
    with language("fr"):
        assert "(positifs 2 sur les dés + Énergie 1 − Passion de PNJ 1\u202f; négatifs" in (
            NARRATION.sentence(settled, Words())
        )


@pytest.mark.parametrize("case", PASSION_CASES, ids=str)
def test_issue_29_the_odds_read_from_the_public_state_are_the_same(case: Case) -> None:
    """What the web table shows (the state as anyone may see it, `sealed.public`)."""
    state = case.state()
    full = command_odds(PASSION, state, case.actor, case.name, case.keys, exact=True)
    seen = command_odds(PASSION, public(state), case.actor, case.name, case.keys, exact=True)
    assert full is not None and seen is not None and full.outcomes == seen.outcomes
