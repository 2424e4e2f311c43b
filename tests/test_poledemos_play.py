"""Polédémos play (PD-3 … PD-10): games scripted with given faces, every event checked.

Each game ends with `finish`: every given face was used, and the state is the fold of the events
after a JSON round trip (a game is a fold over its events).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from fight_checks import finish
from jdr.dice import GivenFaces, Seeded
from jdr.errors import InputError, RulesError
from jdr.fights import Fight, fold, play
from jdr.systems import FightRules
from jdr.systems.poledemos.play import PoledemosPlay, available_figures, open_kinds, play_rules

RULES = play_rules()
Command = dict[str, Any]

PERRY: dict[str, Any] = {
    "name": "Sergent Perry",
    "val": "3+",
    "leader": True,
    "followers": ["Caporal", "Recrue 1", "Recrue 2"],
}
SECTION: list[dict[str, Any]] = [
    PERRY,
    {"name": "Caporal", "val": "4+"},
    {"name": "Recrue 1", "val": "5+"},
    {"name": "Recrue 2", "val": 5},
    {"name": "Éclaireur", "val": 3},
]
BOB: list[dict[str, Any]] = [{"name": "Smith", "val": "4+"}, {"name": "Jones", "val": "4+"}]


def table(*players: tuple[str, list[dict[str, Any]]], **extra: Any) -> dict[str, Any]:
    return {"players": [{"name": n, "figures": f} for n, f in players], **extra}


SETUP = table(("Alice", SECTION), ("Bob", BOB), first="Alice")


def activate(
    figure: str, dice: int, player: str = "Alice", group: list[str] | None = None
) -> Command:
    command: Command = {"action": "activate", "player": player, "figure": figure, "dice": dice}
    return command if group is None else {**command, "group": group}


def action(kind: str, pa: int | None = None, player: str = "Alice", **fields: Any) -> Command:
    command: Command = {"action": "action", "player": player, "kind": kind, **fields}
    return command if pa is None else {**command, "pa": pa}


def end(player: str = "Alice") -> Command:
    return {"action": "end_activation", "player": player}


def game(
    commands: list[Command], faces: list[int], setup: dict[str, Any] = SETUP
) -> tuple[Fight, GivenFaces]:
    source = GivenFaces(faces)
    return play(RULES, setup, commands, source), source


def types(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]


def of_type(fight: Fight, kind: str) -> list[dict[str, Any]]:
    return [event for event in fight.events if event["type"] == kind]


def hands(fight: Fight) -> list[str]:
    return [event["player"] for event in of_type(fight, "hand_started")]


# --- PD-3: who starts, the order of play ---------------------------------------------------------


def test_pd_3_play_rules_is_a_decider() -> None:
    assert isinstance(RULES, FightRules)
    assert isinstance(RULES, PoledemosPlay)
    assert RULES.legal_commands({}) == []
    with pytest.raises(RulesError, match="not started") as refused:
        RULES.decide({}, activate("Caporal", 1), GivenFaces([]))
    assert refused.value.rule == "PD-3"


def test_pd_3_the_scenario_gives_the_first_player_and_nothing_is_rolled() -> None:
    fight, source = game([], [], {**SETUP, "first": "bob"})
    assert types(fight.events) == ["game_started", "first_player", "hand_started"]
    assert fight.events[1] == {"type": "first_player", "player": "Bob", "by": "scenario"}
    assert fight.events[2] == {"type": "hand_started", "player": "Bob", "hand": 1}
    state = finish(fight, source)
    assert state["hand"] == "Bob" and state["hand_number"] == 1
    assert RULES.legal_commands(state) == ["activate"]
    assert available_figures(state) == ["Smith", "Jones"]


def test_pd_3_roll_off_highest_starts_and_the_tied_players_roll_again() -> None:
    three = table(("Ann", BOB), ("Ben", BOB), ("Cid", BOB))
    fight, source = game([], [3, 5, 5, 6, 6, 2, 4], three)
    rolls = of_type(fight, "roll_off")
    assert [r["round"] for r in rolls] == [1, 2, 3]
    assert rolls[0]["faces"] == [
        {"player": "Ann", "face": 3},
        {"player": "Ben", "face": 5},
        {"player": "Cid", "face": 5},
    ]
    assert [f["player"] for f in rolls[1]["faces"]] == ["Ben", "Cid"]
    assert rolls[2]["faces"] == [{"player": "Ben", "face": 2}, {"player": "Cid", "face": 4}]
    assert of_type(fight, "first_player") == [
        {"type": "first_player", "player": "Cid", "by": "roll_off"}
    ]
    assert finish(fight, source)["hand"] == "Cid"


def test_pd_3_a_roll_off_that_never_ends_is_refused() -> None:
    with pytest.raises(RulesError, match="still tied") as refused:
        RULES.start(table(("Ann", BOB), ("Ben", BOB)), GivenFaces([4] * 200))
    assert refused.value.rule == "PD-3"


def _one_each(*names: str) -> list[tuple[str, list[dict[str, Any]]]]:
    return [(name, [{"name": f"{name}'s", "val": 2}]) for name in names]


@pytest.mark.parametrize(
    ("direction", "first", "order"),
    [
        ("clockwise", "Ann", ["Ann", "Ben", "Cid", "Ann", "Ben"]),
        ("counterclockwise", "Ann", ["Ann", "Cid", "Ben", "Ann", "Cid"]),
        ("counterclockwise", "Ben", ["Ben", "Ann", "Cid", "Ben", "Ann"]),
    ],
)
def test_pd_3_three_players_go_around_the_table_in_a_fixed_direction(
    direction: str, first: str, order: list[str]
) -> None:
    setup = table(*_one_each("Ann", "Ben", "Cid"), first=first, direction=direction)
    commands = []
    for player in order[:-1]:  # one figure each: activated, ended, no figure left → next
        commands += [activate(f"{player}'s", 1, player), end(player)]
    fight, source = game(commands, [6] * (len(order) - 1), setup)
    assert hands(fight) == order
    passed = of_type(fight, "hand_passed")
    assert {event["reason"] for event in passed} == {"no_figure_left"}
    state = finish(fight, source)
    assert state["hand_number"] == len(order)


def test_pd_3_two_players_alternate() -> None:
    setup = table(*_one_each("Ann", "Ben"), first="Ben", direction="counterclockwise")
    commands = [activate("Ben's", 1, "Ben"), end("Ben"), activate("Ann's", 1, "Ann"), end("Ann")]
    fight, source = game(commands, [6, 6], setup)
    assert hands(fight) == ["Ben", "Ann", "Ben"]
    finish(fight, source)


# --- PD-4: the hand ----------------------------------------------------------------------------


def test_pd_4_each_figure_once_per_hand_and_all_again_when_the_hand_returns() -> None:
    setup = table(("Alice", SECTION[1:3]), ("Bob", BOB[:1]), first="Alice")
    fight, source = game(
        [activate("Caporal", 1), end(), activate("Recrue 1", 2), end()],
        [4, 6, 1],  # Caporal 1 PA; Recrue 1: 6, 1 → 1 PA, 1 failure
        setup,
    )
    assert hands(fight) == ["Alice", "Bob"]
    assert of_type(fight, "hand_passed")[-1]["reason"] == "no_figure_left"
    with pytest.raises(RulesError) as refused:
        fight.act(activate("Caporal", 1), GivenFaces([6]))
    assert refused.value.rule == "PD-4"
    fight.act(activate("Smith", 1, "Bob"), source := GivenFaces([4, 5]))
    fight.act(end("Bob"), source)
    assert hands(fight)[-1] == "Alice"
    state = fight.state
    assert state["activated"] == [] and available_figures(state) == ["Caporal", "Recrue 1"]
    fight.act(activate("Caporal", 1), source)  # activated again: the hand came back
    assert fight.state["activation"]["figure"] == "Caporal"
    finish(fight, source)


def test_pd_4_a_figure_rolled_for_is_activated_even_with_no_pa() -> None:
    fight, source = game([activate("Caporal", 1)], [3])  # 3 < 4+: no PA, one failure
    rolled, ended = fight.events[-2:]
    assert rolled["action_points"] == 0 and not rolled["pass_hand"]
    assert ended == {
        "type": "activation_ended",
        "player": "Alice",
        "figure": "Caporal",
        "reason": "not_activated",
    }
    state = finish(fight, source)
    assert state["hand"] == "Alice" and "Caporal" in state["activated"]
    assert state["activation"] is None and RULES.legal_commands(state) == ["activate"]


def test_pd_4_a_voluntary_pass_only_when_the_table_allows_it() -> None:
    setup = {**SETUP, "settings": {"voluntary_pass": True}}
    fight, source = game([activate("Caporal", 1), end()], [6], setup)
    assert RULES.legal_commands(fight.state) == ["activate", "pass"]
    fight.act({"action": "pass", "player": "Alice"}, source)
    assert fight.events[-2] == {"type": "hand_passed", "player": "Alice", "reason": "voluntary"}
    assert fight.events[-1] == {"type": "hand_started", "player": "Bob", "hand": 2}
    finish(fight, source)


# --- PD-5: activation --------------------------------------------------------------------------


def test_pd_5_example_two_failures_pass_the_hand_after_the_action() -> None:
    fight, source = game([activate("Sergent Perry", 3)], [2, 5, 2])
    rolled = fight.events[-1]
    assert rolled == {
        "type": "activation_rolled",
        "player": "Alice",
        "figure": "Sergent Perry",
        "val": 3,
        "dice": 3,
        "faces": [2, 5, 2],
        "action_points": 1,
        "failures": 2,
        "pass_hand": True,
        "members": [],
    }
    assert fight.state["hand"] == "Alice"  # the PA is used first
    assert RULES.legal_commands(fight.state) == ["action", "end_activation"]
    assert open_kinds(fight.state) == ["move", "shoot", "melee"]
    events = fight.act(action("shoot", note="Smith, hit"), source)
    assert types(events) == ["action_taken", "activation_ended", "hand_passed", "hand_started"]
    assert events[0]["note"] == "Smith, hit" and events[0]["bonus"] == 0
    assert events[1]["reason"] == "spent"
    assert events[2] == {"type": "hand_passed", "player": "Alice", "reason": "failures"}
    assert events[3] == {"type": "hand_started", "player": "Bob", "hand": 2}
    finish(fight, source)


def test_pd_5_two_failures_and_no_pa_pass_the_hand_at_once() -> None:
    fight, source = game([activate("Caporal", 2)], [1, 3])
    assert types(fight.events[-4:]) == [
        "activation_rolled",
        "activation_ended",
        "hand_passed",
        "hand_started",
    ]
    assert fight.events[-2]["reason"] == "failures"
    assert finish(fight, source)["hand"] == "Bob"


def test_pd_5_ending_early_loses_the_pa_left_and_still_passes_on_failures() -> None:
    fight, source = game([activate("Éclaireur", 3), end()], [3, 1, 2])  # 1 PA, 2 failures
    assert fight.events[-3]["reason"] == "ended"
    assert fight.events[-2]["reason"] == "failures"
    assert finish(fight, source)["hand"] == "Bob"


# --- PD-6: actions and augmented actions ----------------------------------------------------------


@pytest.mark.parametrize(
    ("actions", "expected"),
    [
        (
            [("shoot", 1), ("move", 1), ("melee", 1)],
            [{"bonus": 0}, {"distance_factor": 1.0}, {"bonus": 0}],
        ),
        ([("move", 3)], [{"distance_factor": 2.0}]),
        ([("move", 1), ("shoot", 2)], [{"distance_factor": 1.0}, {"bonus": 1}]),
        ([("melee", 3)], [{"bonus": 2}]),
        ([("move", 2), ("melee", 1)], [{"distance_factor": 1.5}, {"bonus": 0}]),
    ],
    ids=["shoot-move-melee", "double-move", "move-shoot+1", "melee+2", "move×1.5-melee"],
)
def test_pd_6_three_pa_buy_actions_or_augmented_actions(
    actions: list[tuple[str, int]], expected: list[dict[str, Any]]
) -> None:
    commands = [activate("Sergent Perry", 3), *(action(kind, pa) for kind, pa in actions)]
    fight, source = game(commands, [6, 5, 3])
    taken = of_type(fight, "action_taken")
    for event, (kind, pa), extra in zip(taken, actions, expected, strict=True):
        assert event == {
            "type": "action_taken",
            "player": "Alice",
            "figure": "Sergent Perry",
            "kind": kind,
            "pa": pa,
            **extra,
            "note": None,
            "members": [],
            "staying": [],
        }
    assert fight.events[-1] == {
        "type": "activation_ended",
        "player": "Alice",
        "figure": "Sergent Perry",
        "reason": "spent",
    }
    state = finish(fight, source)
    assert state["hand"] == "Alice" and state["activation"] is None


def test_pd_6_pd_7_the_note_is_recorded_not_resolved() -> None:
    note = "12 cm to the wall"
    fight, source = game([activate("Éclaireur", 1), action("move", note=f"  {note} ")], [4])
    assert of_type(fight, "action_taken")[0]["note"] == note
    finish(fight, source)


# --- PD-8 … PD-10: leaders and groups -----------------------------------------------------------

GROUP = ["Caporal", "Recrue 1", "Recrue 2"]


def test_pd_8_pd_9_example_members_read_the_leaders_dice() -> None:
    fight, source = game([activate("Sergent Perry", 3, group=GROUP)], [6, 4, 3])
    rolled = fight.events[-1]
    assert (rolled["action_points"], rolled["failures"], rolled["pass_hand"]) == (3, 0, False)
    assert rolled["members"] == [
        {"figure": "Caporal", "val": 4, "action_points": 2, "failures": 1},
        {"figure": "Recrue 1", "val": 5, "action_points": 1, "failures": 2},
        {"figure": "Recrue 2", "val": 5, "action_points": 1, "failures": 2},
    ]
    state = finish(fight, source)
    assert state["hand"] == "Alice"  # the recruits' failures do not pass the hand
    assert state["activated"] == ["Sergent Perry", *GROUP]
    assert available_figures(state) == ["Éclaireur"]


def test_pd_10_example_members_take_the_leaders_actions_while_they_have_pa() -> None:
    fight, source = game(
        [
            activate("Sergent Perry", 3, group=GROUP),
            action("shoot", 2, members={"Caporal": 1}),
            action("move", 1),
        ],
        [6, 4, 3],
    )
    shot, move = of_type(fight, "action_taken")
    assert (shot["pa"], shot["bonus"]) == (2, 1)
    assert shot["members"] == [
        {"figure": "Caporal", "pa": 1, "bonus": 0},
        {"figure": "Recrue 1", "pa": 1, "bonus": 0},
        {"figure": "Recrue 2", "pa": 1, "bonus": 0},
    ]
    assert shot["staying"] == []
    assert (move["pa"], move["distance_factor"]) == (1, 1.0)
    assert move["members"] == [{"figure": "Caporal", "pa": 1, "distance_factor": 1.0}]
    assert move["staying"] == ["Recrue 1", "Recrue 2"]
    assert fight.events[-1]["type"] == "activation_ended"
    state = finish(fight, source)
    assert state["hand"] == "Alice" and available_figures(state) == ["Éclaireur"]


def test_pd_10_a_member_augments_up_to_its_leader() -> None:
    fight, source = game(
        [
            activate("Sergent Perry", 3, group=["Caporal"]),
            action("melee", 2, members={"caporal": 2}),
        ],
        [6, 5, 1],  # Perry 2 PA (two successes, one failure), Caporal 2 PA
    )
    (melee,) = of_type(fight, "action_taken")
    assert melee["members"] == [{"figure": "Caporal", "pa": 2, "bonus": 1}]
    finish(fight, source)


def test_pd_9_a_leader_with_no_pa_takes_its_group_with_it() -> None:
    chief = {"name": "Chef", "val": "5+", "leader": True, "followers": ["Vétéran"]}
    setup = table(("Alice", [chief, {"name": "Vétéran", "val": "2+"}]), ("Bob", BOB), first="Alice")
    fight, source = game([activate("Chef", 2, group=["Vétéran"])], [2, 3], setup)
    rolled = of_type(fight, "activation_rolled")[0]
    assert rolled["action_points"] == 0 and rolled["members"][0]["action_points"] == 2
    assert [e["type"] for e in fight.events[-3:]] == [
        "activation_ended",
        "hand_passed",
        "hand_started",
    ]
    assert fight.events[-3]["reason"] == "not_activated"
    assert fight.events[-2]["reason"] == "failures"
    finish(fight, source)


def test_pd_4_pd_8_names_match_ignoring_case_and_accents_and_keep_the_setups_spelling() -> None:
    fight, source = game(
        [
            activate(" sergent  PERRY", 1, "alice", ["caporal"]),
            action("shoot", members={"CAPORAL": 1}),
        ],
        [6],
    )
    rolled, taken = of_type(fight, "activation_rolled")[0], of_type(fight, "action_taken")[0]
    assert (rolled["player"], rolled["figure"]) == ("Alice", "Sergent Perry")
    assert rolled["members"][0]["figure"] == "Caporal"
    assert taken["members"] == [{"figure": "Caporal", "pa": 1, "bonus": 0}]
    fight.act(activate("eclaireur", 1), source := GivenFaces([6]))
    assert fight.state["activation"]["figure"] == "Éclaireur"
    finish(fight, source)


# --- illegal commands: refused with the rule, nothing rolled, nothing changed --------------------

PERRY_3 = [activate("Sergent Perry", 3, group=GROUP)]  # faces 6, 4, 3 (see the PD-10 example)
PERRY_1 = [activate("Sergent Perry", 1)]  # face 6: 1 PA


@pytest.mark.parametrize(
    ("before", "faces", "command", "rule", "words"),
    [
        ([], [], activate("Caporal", 4), "PD-5", "1, 2 or 3 dice"),
        ([], [], activate("Caporal", 0), "PD-5", "1, 2 or 3 dice"),
        ([], [], activate("Smith", 1, "Bob"), "PD-4", "does not have the hand"),
        ([], [], activate("Perry", 1, "Zoé"), "PD-3", "unknown player"),
        ([], [], activate("Smith", 1), "PD-4", "no figure named Smith"),
        ([activate("Caporal", 1), end()], [6], activate("Caporal", 1), "PD-4", "already been"),
        ([], [], activate("Sergent Perry", 2, group=["Éclaireur"]), "PD-8", "not one of"),
        ([], [], activate("Caporal", 2, group=["Recrue 1"]), "PD-8", "not a leader"),
        ([], [], activate("Sergent Perry", 2, group=["Caporal", "caporal"]), "PD-8", "twice"),
        (
            [activate("Caporal", 1), end()],
            [6],
            activate("Sergent Perry", 3, group=["Caporal"]),
            "PD-4",
            "already been activated",
        ),
        (PERRY_1, [6], activate("Caporal", 1), "PD-4", "still activated"),
        ([], [], action("shoot"), "PD-5", "no figure is activated"),
        ([], [], end(), "PD-5", "no figure is activated"),
        (PERRY_3, [6, 4, 3], action("shoot", player="Bob"), "PD-4", "does not have the hand"),
        (
            [*PERRY_3, action("shoot")],
            [6, 4, 3],
            action("shoot"),
            "PD-6",
            "already shot",
        ),
        ([*PERRY_3, action("move")], [6, 4, 3], action("move"), "PD-6", "already moved"),
        ([*PERRY_3, action("melee")], [6, 4, 3], action("melee"), "PD-6", "already fought"),
        (PERRY_1, [6], action("shoot", 2), "PD-5", "1 PA left"),
        (PERRY_3, [6, 4, 3], action("shoot", 4), "PD-6", "1, 2 or 3 PA"),
        (PERRY_3, [6, 4, 3], action("shoot", 0), "PD-6", "1, 2 or 3 PA"),
        (PERRY_3, [6, 4, 3], action("shoot", members={"Éclaireur": 1}), "PD-10", "not in"),
        (PERRY_3, [6, 4, 3], action("shoot", 1, members={"Caporal": 2}), "PD-10", "1 to 1 PA"),
        (PERRY_3, [6, 4, 3], action("shoot", 3, members={"Recrue 1": 2}), "PD-10", "1 to 1 PA"),
        (PERRY_3, [6, 4, 3], action("shoot", 2, members={"Caporal": 0}), "PD-10", "1 to 2 PA"),
        (
            [*PERRY_3, action("shoot")],
            [6, 4, 3],
            action("move", members={"Recrue 2": 1}),
            "PD-10",
            "no PA left",
        ),
        ([], [], {"action": "pass", "player": "Alice"}, "PD-4", "only when forced"),
        ([], [], {"action": "charge", "player": "Alice"}, "PD-4", "unknown command"),
        ([], [], {"player": "Alice"}, "PD-4", "unknown command"),
    ],
)
def test_pd_3_to_pd_10_illegal_commands_are_refused_with_the_rule_and_change_nothing(
    before: list[Command], faces: list[int], command: Command, rule: str, words: str
) -> None:
    fight, source = game(before, faces)
    events = json.loads(json.dumps(fight.events))
    state = fight.state
    untouched = GivenFaces([6, 6, 6])
    with pytest.raises(RulesError, match=words) as refused:
        fight.act(command, untouched)
    assert refused.value.rule == rule
    assert fight.events == events and fight.state == state
    assert untouched.used == 0  # refused before any die
    finish(fight, source)


@pytest.mark.parametrize(
    ("command", "field"),
    [
        (activate("Caporal", "three"), "dice"),  # type: ignore[arg-type]
        ({**activate("Caporal", 1), "groupe": []}, "groupe"),
        ({"action": "activate", "player": "Alice", "dice": 1}, "figure"),
        (action("dance"), "kind"),
        (action("move", note="x" * 501), "note"),
        ({"action": "end_activation"}, "player"),
    ],
)
def test_pd_4_malformed_commands_are_input_errors(command: Command, field: str) -> None:
    fight, _ = game([], [])
    with pytest.raises(InputError) as refused:
        fight.act(command, GivenFaces([]))
    assert refused.value.field == field


# --- setup ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setup", "rule", "words"),
    [
        ([], "PD-3", "a table with its players"),
        (table(("Alice", BOB), ("alice", BOB)), "PD-3", "two players are named"),
        (table(("Alice", BOB), ("Bob", BOB), first="Zoé"), "PD-3", "not at the table"),
    ],
)
def test_pd_3_a_setup_breaking_a_rule_is_refused(setup: Any, rule: str, words: str) -> None:
    with pytest.raises(RulesError, match=words) as refused:
        RULES.start(setup, GivenFaces([]))
    assert refused.value.rule == rule


@pytest.mark.parametrize(
    ("setup", "field"),
    [
        (table(("Alice", BOB)), "players"),
        (table(("Alice", [{"name": "X", "val": "7+"}]), ("Bob", BOB)), "players[1].figures[1].val"),
        (table(("Alice", []), ("Bob", BOB)), "players[1].figures"),
        (
            table(("Alice", [{"name": "X", "val": 3, "followers": ["Y"]}]), ("Bob", BOB)),
            "players[1].figures[1].followers",
        ),
        (table(("Alice", BOB), ("Bob", BOB), direction="left"), "direction"),
        ({**SETUP, "frist": "Alice"}, "frist"),
    ],
)
def test_pd_1_pd_3_pd_8_a_malformed_setup_is_an_input_error_naming_the_field(
    setup: Any, field: str
) -> None:
    with pytest.raises(InputError) as refused:
        RULES.start(setup, GivenFaces([]))
    assert refused.value.field == field


# --- a fold over its events ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_pd_3_to_pd_10_random_legal_games_are_folds_of_their_json_events(seed: int) -> None:
    """Random legal commands with a seeded source: every state is the fold of its events."""
    choose = random.Random(seed)
    setup = table(
        ("Alice", SECTION), ("Bob", BOB), ("Cid", SECTION[1:]), direction="counterclockwise"
    )
    rng = Seeded(seed)
    fight = Fight.start(RULES, setup, rng)
    for _ in range(60):
        state = fight.state
        player = state["hand"]
        if state["activation"] is None:
            figure = choose.choice(available_figures(state))
            found = next(f for f in state["figures"][player] if f["name"] == figure)
            fresh = [f for f in found["followers"] if f not in state["activated"]]
            group = choose.sample(fresh, choose.randint(0, len(fresh)))
            fight.act(activate(figure, choose.randint(1, 3), player, group), rng)
        elif open_kinds(state) and choose.random() < 0.8:
            pa = choose.randint(1, state["activation"]["left"])
            fight.act(action(choose.choice(open_kinds(state)), pa, player), rng)
        else:
            fight.act(end(player), rng)
        assert fold(RULES, json.loads(json.dumps(fight.events))) == fight.state
    assert len(of_type(fight, "hand_started")) > 1
