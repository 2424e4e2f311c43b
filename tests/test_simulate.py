"""`jdr.simulate`: whole fights played through the deciders, checked against exact answers."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

from jdr.dice.source import Seeded
from jdr.errors import RulesError
from jdr.fights import Fight
from jdr.simulate import compare, run_seed, simulate, wilson
from jdr.simulate.core import (
    DEFAULT_PRECISION,
    DEFAULT_RUNS,
    FIRST_CHECKPOINT,
    Report,
    checkpoints,
    chunks,
)
from jdr.systems.plus_ultra import SYSTEM as PLUS_ULTRA
from jdr.systems.plus_ultra.duel import duel_odds
from jdr.systems.plus_ultra.sheets import Duelist
from jdr.systems.plus_ultra.tactic import tactic as plus_ultra_tactic


def hero(name: str, side: str, rank: str, energy: int, willpower: int) -> dict[str, object]:
    return {"name": name, "side": side, "rank": rank, "energy": energy, "willpower": willpower}


DUEL = {
    "characters": [
        hero("Izuku", "a", "C", 7, 9),
        hero("Katsuki", "b", "C", 9, 7),
    ]
}


def test_pu_1_pu_3_pu_4_duel_simulation_agrees_with_the_exact_markov_chain() -> None:
    exact = duel_odds(
        Duelist(rank="C", energy=7, willpower=9), Duelist(rank="C", energy=9, willpower=7)
    )
    report = simulate(PLUS_ULTRA, DUEL, runs=3000, seed=7)
    for side in ("a", "b"):
        low, high = report.wins[side].interval
        assert low <= exact.outcomes[side] <= high, (side, exact.outcomes[side], low, high)
    assert report.undecided.hits == 0
    assert report.wins["a"].hits + report.wins["b"].hits == 3000
    assert exact.mean_rounds is not None
    assert abs(report.mean_rounds - float(exact.mean_rounds)) < 0.05 * float(exact.mean_rounds)
    # a duel ends with exactly one KO, and all the Énergie taken was dealt by the other
    assert report.knocked_out["Izuku"].hits + report.knocked_out["Katsuki"].hits == 3000
    assert report.dealt["Izuku"] == pytest.approx(report.taken["Katsuki"])


def test_pu_10_same_seed_same_report_whatever_the_executor_and_workers() -> None:
    alone = simulate(PLUS_ULTRA, DUEL, runs=300, seed=11)
    with ProcessPoolExecutor(2) as pool:
        two = simulate(PLUS_ULTRA, DUEL, runs=300, seed=11, executor=pool, workers=2)
    with ThreadPoolExecutor(3) as threads:
        three = simulate(PLUS_ULTRA, DUEL, runs=300, seed=11, executor=threads, workers=3)
    assert alone.to_json() == two.to_json() == three.to_json()
    assert simulate(PLUS_ULTRA, DUEL, runs=300, seed=12).to_json() != alone.to_json()


def test_pu_4_tactic_attacks_the_weakest_opponent_with_the_best_expected_damage() -> None:
    setup = {
        "characters": [
            {
                **hero("Izuku", "a", "C", 7, 9),
                "techniques": [
                    {"name": "Smash", "cost": 2, "cooldown": 2, "effects": {"extra_damage": 2}},
                    {"name": "Garde", "cost": 1, "cooldown": 1, "effects": {"defense_bonus": 3}},
                ],
            },
            hero("Katsuki", "b", "C", 9, 7),
            hero("Eijiro", "b", "D", 4, 6),
        ]
    }
    fight = Fight.start(PLUS_ULTRA.fight, setup, Seeded(1))  # type: ignore[arg-type]
    command = plus_ultra_tactic(fight.state)
    assert command == {
        "action": "technique",
        "actor": "Izuku",
        "technique": "Smash",
        "target": "Eijiro",
    }
    fight.act(command, Seeded(2))  # legal: the decider accepts it


def test_pu_7_party_fight_with_techniques_ends_and_reports_every_fighter() -> None:
    setup = {
        "characters": [
            {
                **hero("Izuku", "a", "C", 7, 9),
                "techniques": [
                    {"name": "Smash", "cost": 2, "cooldown": 2, "effects": {"extra_damage": 2}}
                ],
            },
            hero("Ochaco", "a", "D", 5, 5),
            hero("Katsuki", "b", "C", 9, 7),
            hero("Eijiro", "b", "D", 4, 6),
        ]
    }
    report = simulate(PLUS_ULTRA, setup, runs=200, seed=3)
    assert set(report.knocked_out) == {"Izuku", "Ochaco", "Katsuki", "Eijiro"}
    assert report.wins["a"].hits + report.wins["b"].hits + report.undecided.hits == 200
    assert sum(report.rounds.values()) == 200


def test_pu_2_compare_a_stronger_variant_wins_more_often() -> None:
    base = simulate(PLUS_ULTRA, DUEL, runs=1500, seed=5)
    stronger = {"characters": [hero("Izuku", "a", "B", 11, 11), DUEL["characters"][1]]}
    report = compare(base, simulate(PLUS_ULTRA, stronger, runs=1500, seed=5))
    difference = next(d for d in report.compare if d.side == "a")
    low, high = difference.interval
    assert 0 < low <= difference.delta <= high


def test_wilson_interval_and_default_runs_for_one_percent() -> None:
    low, high = wilson(DEFAULT_RUNS // 2, DEFAULT_RUNS)
    assert high - low <= 0.02 + 1e-9
    low, high = wilson(DEFAULT_RUNS // 2, DEFAULT_RUNS - 200)
    assert high - low > 0.02
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == pytest.approx(1.0)


def test_runs_are_split_without_gaps_and_seeds_depend_only_on_the_index() -> None:
    for runs, workers in [(1, 4), (10, 3), (1000, 2)]:
        slices = chunks(runs, workers)
        assert [i for a, b in slices for i in range(a, b)] == list(range(runs))
    assert run_seed(1, 5) == run_seed(1, 5) != run_seed(1, 6)


def test_zero_runs_is_refused() -> None:
    with pytest.raises(RulesError):
        simulate(PLUS_ULTRA, DUEL, runs=0)


def mon(
    name: str, side: str, types: list[str], moves: list[dict[str, object]]
) -> dict[str, object]:
    stats = dict(strength=3, concentration=3, constitution=2, willpower=2, dexterity=2)
    return {
        "name": name,
        "types": types,
        "stats": stats,
        "side": side,
        "moves": moves,
        "vitality": {"current": 12, "max": 12},
        "energy": {"current": 5, "max": 5},
    }


def move(name: str, type_: str, dice: int = 2, category: str = "physique") -> dict[str, object]:
    return {"name": name, "type": type_, "category": category, "damage_dice": dice}


def pokemon_fight() -> dict[str, object]:
    return {
        "pokemon": [
            mon("Carapuce", "a", ["Eau"], [move("Charge", "Normal"), move("Pistolet", "Eau")]),
            mon("Salamèche", "b", ["Feu"], [move("Griffe", "Normal")]),
        ]
    }


def test_pk_10_pk_11_tactic_picks_the_super_effective_move_and_an_answer() -> None:
    from jdr.systems.pokemon import SYSTEM as POKEMON
    from jdr.systems.pokemon.tactic import tactic as pokemon_tactic

    fight = Fight.start(POKEMON.fight, pokemon_fight(), Seeded(4))  # type: ignore[arg-type]
    state = fight.state
    orders = pokemon_tactic(state)
    actor = state["to_play"][0]
    if actor == "Carapuce":
        assert orders[0]["move"] == "Pistolet"
        assert orders[0]["target"] == "Salamèche"
    assert orders[0]["response"] in ("none", "endure", "dodge")
    assert orders[-1] == {"action": "pass", "actor": actor}
    fight.act(orders[0], Seeded(5))  # the decider accepts it


def test_pk_11_simulated_pokemon_fight_favours_the_type_advantage() -> None:
    from jdr.systems.pokemon import SYSTEM as POKEMON

    report = simulate(POKEMON, pokemon_fight(), runs=300, seed=2)
    assert report.wins["a"].hits + report.wins["b"].hits + report.undecided.hits == 300
    assert report.wins["a"].interval[0] > 0.5
    assert report.taken["Salamèche"] > report.taken["Carapuce"]


def wizard(name: str, magic: int, spells: list[tuple[str, str, int]]) -> dict[str, object]:
    from jdr.systems.ilvermorny.rules import STATS

    return {
        "name": name,
        "stats": dict.fromkeys(STATS, 5) | {"magic": magic},
        "spells": [
            {"name": s, "difficulty": 1, "element": e, "level": level} for s, e, level in spells
        ],
    }


def test_il_6_il_10_il_11_tactic_picks_the_dominant_element_and_one_round_matches_exact() -> None:
    """One spell each, the first spell that lands ends the duel (the simulation's reading): each
    round Ann's lands with P(cast a) × (P(b fails) + P(b cast) × P(a wins the meeting)), nothing
    lands with P(both fail) + P(both cast) × P(both cancelled), so she wins with
    P(lands) / (1 − P(nothing)) (levels do not change in so short a duel: IL-8 needs 50 XP)."""
    from jdr.systems.ilvermorny import SYSTEM as ILVERMORNY
    from jdr.systems.ilvermorny.tactic import cast_chance, meeting_won
    from jdr.systems.ilvermorny.tactic import tactic as ilvermorny_tactic

    setup = {
        "wizards": [
            wizard("Ann", 7, [("Incendio", "feu", 2), ("Aguamenti", "eau", 2)]),
            wizard("Bob", 6, [("Herbivicus", "vigne", 2)]),
        ]
    }
    state = Fight.start(ILVERMORNY.fight, setup, Seeded(1)).state  # type: ignore[arg-type]
    assert ilvermorny_tactic(state) == {"action": "cast", "wizard": "Ann", "spell": "Incendio"}
    duel = {"wizards": [wizard("Ann", 7, [("Incendio", "feu", 2)]), setup["wizards"][1]]}
    report = simulate(ILVERMORNY, duel, runs=3000, seed=8)
    a_cast, b_cast = cast_chance(7, 2), cast_chance(6, 2)
    first_round_a = a_cast * ((1 - b_cast) + b_cast * meeting_won(7, "feu", 6, "vigne"))
    low, high = report.wins["Ann"].interval
    # Ann wins the duel: first-round landing, or a round with nothing landed and then a win
    nothing = (1 - a_cast) * (1 - b_cast) + a_cast * b_cast * (
        1 - meeting_won(7, "feu", 6, "vigne") - meeting_won(6, "vigne", 7, "feu")
    )
    exact = first_round_a / (1 - nothing)
    assert low <= float(exact) <= high, (float(exact), low, high)


def test_pd_4_pd_5_simulated_hand_agrees_with_the_exact_best_policy() -> None:
    """Alice's hand, played by the tactic (the best policy's dice), gains on average the exact
    expected PA of `best_policy`: within 4 standard errors of its exact law."""
    import math

    from jdr.systems.poledemos import SYSTEM as POLEDEMOS
    from jdr.systems.poledemos.hand import best_policy, hand_distribution

    vals = [3, 4, 5, 5]
    setup = {
        "first": "Alice",
        "players": [
            {
                "name": "Alice",
                "figures": [{"name": f"A{i}", "val": f"{v}+"} for i, v in enumerate(vals)],
            },
            {"name": "Bob", "figures": [{"name": "Smith", "val": "4+"}]},
        ],
    }
    runs = 3000
    report = simulate(POLEDEMOS, setup, runs=runs, seed=6)
    policy = best_policy(vals)
    law = hand_distribution(vals, policy.dice)
    mean = float(policy.mean)
    variance = 0.0
    for pa, p in law.marginal(0).to_list():
        assert isinstance(pa, int)
        variance += float(p) * (pa - mean) ** 2
    assert abs(report.dealt["Alice"] - mean) < 4 * math.sqrt(variance / runs)
    assert report.wins["Alice"].hits + report.wins["Bob"].hits + report.undecided.hits == runs


def test_pk_14_simulated_counters_agree_with_the_exact_counter_chain() -> None:
    """A tactic that counters every attack it may (`pokemon.tactic.countering`, passed as a
    user's tactic): the first counter of each simulated fight (`play_fight`, the simulation's
    own runs) is won by the attacker as often as the exact Markov chain of PK-14 says
    (`counter_odds`, `jdr odds pokemon counter`: the attacker's Force against the defender's
    Constitution, rolled first, and the other way round), whoever attacks first, within the
    95 % interval (the defender wins the rest: a draw after 50 exchanges has odds of 1e-97). The
    chain with the thresholds swapped (each side needing its own Constitution) falls outside: the
    test tells the rule from a mistake. The default tactic never counters."""
    from jdr.simulate import play_fight
    from jdr.simulate.core import Rate
    from jdr.systems.pokemon import SYSTEM as POKEMON
    from jdr.systems.pokemon.counter import counter_odds
    from jdr.systems.pokemon.tactic import countering

    def fighter(name: str, side: str, strength: int, constitution: int) -> dict[str, object]:
        sheet = mon(name, side, ["Normal"], [move("Charge", "Normal")])
        stats = dict(strength=strength, concentration=2, constitution=constitution)
        return sheet | {"stats": stats | {"willpower": 2, "dexterity": 2}}

    stats = {"Carapuce": (3, 4), "Salamèche": (4, 2)}  # (Force, Constitution)
    setup = {"pokemon": [fighter("Carapuce", "a", *stats["Carapuce"]),
                         fighter("Salamèche", "b", *stats["Salamèche"])]}  # fmt: skip
    simulation = POKEMON.simulation
    assert simulation is not None
    runs, seed = 2000, 21
    first_attacks = dict.fromkeys(stats, 0)
    attacker_won = dict.fromkeys(stats, 0)
    for index in range(runs):
        played = play_fight(simulation, POKEMON.fight, setup, run_seed(seed, index), countering)
        first = next(e for e in played.events if e["type"] == "counter_resolved")
        first_attacks[first["attacker"]] += 1
        attacker_won[first["attacker"]] += first["winner"] == first["attacker"]
    for attacker, (strength, constitution) in stats.items():
        (their_strength, their_constitution) = next(v for k, v in stats.items() if k != attacker)
        exact = counter_odds(strength, their_constitution, their_strength, constitution, exact=True)
        assert exact["none"] < 1e-90
        assert first_attacks[attacker] > runs // 4  # each attacks first often enough to check
        low, high = Rate(attacker_won[attacker], first_attacks[attacker]).interval
        assert low <= float(exact["attacker"]) <= high, (
            attacker,
            float(exact["attacker"]),
            low,
            high,
        )
        swapped = counter_odds(strength, constitution, their_strength, their_constitution)
        assert not low <= swapped["attacker"] <= high
    for index in range(100):
        seed_i = run_seed(seed, index)
        default = play_fight(simulation, POKEMON.fight, setup, seed_i, simulation.tactic)
        assert not any(e["type"] == "counter_started" for e in default.events)


def test_pk_12_pk_14_an_attack_waiting_for_its_answer_is_endured_or_countered() -> None:
    """A table that asks defenders (`reactions = ask`) and an order given without an answer: the
    default tactic endures (its answer names the defender, as the decider asks), `countering`
    counters; the decider accepts both."""
    from jdr.systems.pokemon import SYSTEM as POKEMON
    from jdr.systems.pokemon.tactic import countering
    from jdr.systems.pokemon.tactic import tactic as pokemon_tactic

    fight = Fight.start(POKEMON.fight, pokemon_fight(), Seeded(4))  # type: ignore[arg-type]
    actor = fight.state["to_play"][0]
    order = {key: pokemon_tactic(fight.state)[0][key] for key in ("action", "actor", "move")}
    order["target"] = pokemon_tactic(fight.state)[0]["target"]
    fight.act(order, Seeded(5))
    reaction = fight.state["reaction"]
    assert reaction is not None and reaction["attacker"] == actor
    defender = reaction["pokemon"]
    assert pokemon_tactic(fight.state) == [
        {"action": "respond", "actor": defender, "response": "endure"}
    ]
    answer = countering(fight.state)[0]
    assert answer["response"] == "counter" and answer["actor"] == defender
    events = fight.act(answer, Seeded(6))
    assert [e["type"] for e in events][:2] == ["reaction_given", "counter_started"]


WALKOVER = {
    "characters": [hero("Izuku", "a", "B", 11, 11), hero("Mineta", "b", "E", 2, 2)],
}


def test_pu_1_without_runs_a_walkover_stops_at_the_first_checkpoint_within_one_point() -> None:
    report = simulate(PLUS_ULTRA, WALKOVER, seed=3)
    assert report.runs == FIRST_CHECKPOINT and report.precision == DEFAULT_PRECISION
    low, high = report.wins["a"].interval
    assert high - report.wins["a"].rate <= 0.01 and report.wins["a"].rate - low <= 0.01
    # the same runs as asking for that many: the checkpoint is a prefix of the seeded sequence
    fixed = simulate(PLUS_ULTRA, WALKOVER, runs=FIRST_CHECKPOINT, seed=3)
    assert fixed.precision is None
    assert {**report.to_json(), "precision": None} == fixed.to_json()


def test_pu_1_without_runs_a_close_duel_plays_on_until_every_side_is_within_one_point() -> None:
    # a mirror duel: p = ½, so ±1 point needs all 9,604 runs (the worst case)
    mirror = {"characters": [hero("Izuku", "a", "C", 8, 8), hero("Shoto", "b", "C", 8, 8)]}
    report = simulate(PLUS_ULTRA, mirror, seed=1)
    assert report.runs in checkpoints()
    assert precise_enough(report) and report.runs > FIRST_CHECKPOINT
    earlier = [mark for mark in checkpoints() if mark < report.runs]
    assert not precise_enough(simulate(PLUS_ULTRA, mirror, runs=earlier[-1], seed=1))


def precise_enough(report: Report) -> bool:
    return all(
        max(rate.rate - rate.interval[0], rate.interval[1] - rate.rate) <= 0.01 + 1e-12
        for rate in [*report.wins.values(), report.undecided]
    )


def test_pu_10_a_precision_run_stops_at_the_same_checkpoint_whatever_the_workers() -> None:
    setup = {"characters": [hero("Izuku", "a", "C", 10, 6), hero("Shoto", "b", "C", 6, 10)]}
    alone = simulate(PLUS_ULTRA, setup, seed=4)
    with ProcessPoolExecutor(2) as pool:
        two = simulate(PLUS_ULTRA, setup, seed=4, executor=pool, workers=2)
    assert alone.to_json() == two.to_json()
    assert FIRST_CHECKPOINT < alone.runs < DEFAULT_RUNS  # stopped between two checkpoints


def test_checkpoints_grow_to_the_most_and_chunks_start_where_asked() -> None:
    assert checkpoints(700) == [500, 700]
    assert checkpoints(300) == [300]
    assert chunks(1000, 2, start=500) == [
        (500, 563), (563, 626), (626, 689), (689, 752),
        (752, 815), (815, 878), (878, 941), (941, 1000),
    ]  # fmt: skip


def test_pk_14_a_named_tactic_is_found_as_people_type_it_and_reported() -> None:
    from jdr.errors import UnknownNameError
    from jdr.systems.pokemon import SYSTEM as POKEMON
    from jdr.systems.pokemon.tactic import countering

    setup = {"pokemon": [pokemon_mon("Evoli", "a"), pokemon_mon("Rattata", "b")]}
    by_name = simulate(POKEMON, setup, runs=40, seed=2, tactic="Countering")
    by_function = simulate(POKEMON, setup, runs=40, seed=2, tactic=countering)
    assert by_name.tactic == by_function.tactic == "countering"
    assert by_name.to_json() == by_function.to_json()
    assert simulate(POKEMON, setup, runs=40, seed=2).tactic == "default"
    with pytest.raises(UnknownNameError) as refused:
        simulate(POKEMON, setup, runs=40, seed=2, tactic="counter")
    assert "default, countering" in str(refused.value)


def pokemon_mon(name: str, side: str) -> dict[str, object]:
    stats = dict(strength=3, concentration=2, constitution=3, willpower=2, dexterity=2)
    moves = [{"name": "Charge", "type": "Normal", "category": "physique", "damage_dice": 2}]
    return {"name": name, "types": ["Normal"], "stats": stats, "side": side, "moves": moves,
            "vitality": {"current": 9, "max": 9}, "energy": {"current": 5, "max": 5}}  # fmt: skip


def test_pk_10_a_fight_nobody_can_pay_a_move_for_stops_as_a_stalemate_with_no_winner() -> None:
    """Énergie is only spent (PK-10): two Pokémon of 99 Vitalité with 2 Énergie each and moves
    costing 1 cannot knock each other out; the simulation stops once both are spent, rather than
    playing passes until its cut."""
    from jdr.simulate import play_fight
    from jdr.simulate.core import MAX_ACTIONS, simulation_of
    from jdr.systems.pokemon import SYSTEM as POKEMON

    def tough(name: str, side: str) -> dict[str, object]:
        mon = pokemon_mon(name, side)
        moves = [{"name": "Charge", "type": "Normal", "category": "physique", "damage_dice": 1,
                  "energy": 1}]  # fmt: skip
        return mon | {"moves": moves, "vitality": {"current": 99, "max": 99},
                      "energy": {"current": 2, "max": 2}}  # fmt: skip

    setup = {"pokemon": [tough("Evoli", "a"), tough("Rattata", "b")]}
    simulation = simulation_of(POKEMON)
    played = play_fight(simulation, POKEMON.fight, setup, 5, simulation.tactic)
    assert not played.ended and not played.state["over"]
    assert all(p["energy"] == 0 for p in played.state["pokemon"].values())
    assert sum(e["type"] == "move_used" for e in played.events) == 4
    assert sum(e["type"] == "passed" for e in played.events) < 4  # not MAX_ACTIONS of them
    assert MAX_ACTIONS > 100
    report = simulate(POKEMON, setup, runs=20, seed=1)
    assert report.undecided.hits == 20 and report.mean_rounds < 5


def _example(system: str, file: str) -> dict[str, object]:
    import tomllib
    from importlib import resources

    package = "jdr.systems." + system.replace("-", "_")
    text = resources.files(package).joinpath("examples", file).read_text(encoding="utf-8")
    return tomllib.loads(text)


def _setups() -> list[tuple[str, dict[str, object]]]:
    wizard = _example("ilvermorny", "wizard.toml")
    rival = {
        "name": "Rival",
        "stats": dict(wizard["stats"]) | {"magic": 6},  # type: ignore[call-overload]
        "spells": [{"name": "Incendio", "difficulty": 1, "element": "feu", "level": 2}],
    }
    other = {"name": "Bob", "figures": [{"name": f"B{i}", "val": "4+"} for i in range(3)]}
    return [
        ("plus-ultra", dict(DUEL)),
        ("pokemon", {"pokemon": [pokemon_mon("Evoli", "a"), pokemon_mon("Rattata", "b")]}),
        ("passion", {"fighters": [_example("passion", "romuald.toml") | {"side": "a"},
                                  _example("passion", "cyber-ninja.toml") | {"side": "b"}]}),
        ("ilvermorny", {"wizards": [wizard, rival]}),
        ("poledemos", {"players": [_example("poledemos", "warband.toml") | {"name": "Al"}, other]}),
    ]  # fmt: skip


@pytest.mark.parametrize(("system_id", "setup"), _setups(), ids=[s for s, _ in _setups()])
def test_pu_1_a_decisions_own_state_is_the_fold_of_its_events(
    system_id: str, setup: dict[str, object]
) -> None:
    """A simulation keeps the state each built-in decider folded as it decided (`decided`), never
    folding again: that state is the fold of the fight's events from scratch, and the same
    fight as a decider without `decided` plays (its events folded by the simulation)."""
    from jdr.simulate import play_fight
    from jdr.simulate.core import simulation_of
    from jdr.systems import default_registry

    system = default_registry().get(system_id)
    rules, simulation = system.fight, simulation_of(system)
    assert rules is not None and hasattr(rules, "decided")

    class Plain:
        """The same rules without `decided`."""

        def __init__(self) -> None:
            assert rules is not None
            self.start, self.decide, self.evolve = rules.start, rules.decide, rules.evolve

    for seed in range(5):
        played = play_fight(simulation, rules, setup, seed, simulation.tactic)
        state: dict[str, object] = {}
        for event in played.events:
            state = rules.evolve(state, event)
        assert state == played.state
        plain = play_fight(simulation, Plain(), setup, seed, simulation.tactic)
        assert plain.events == played.events and plain.state == played.state
