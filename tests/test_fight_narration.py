"""Every event type of every system reads as a sentence, in French and in English, never as a
`key=value` dump; names are escaped for the medium a sentence is written in.

The corpus (`tests/fixtures/fight_events.json`, written by `scripts/fight_events.py`) holds real
events of every type, recorded from the scripted fights of the systems' fight tests; each
decider's source is scanned for the event types it can write, so a new type without a sentence,
or missing from the corpus, fails here.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from jdr.fights.narration import Line, Narration, Words, generic_sentence, says
from jdr.fights.odds import Chance
from jdr.i18n import language
from jdr.systems import default_registry

CORPUS = json.loads(
    (Path(__file__).parent / "fixtures" / "fight_events.json").read_text(encoding="utf-8")
)
SYSTEMS = ("pokemon", "plus-ultra", "passion", "ilvermorny", "poledemos")
SOURCES = Path(__file__).parent.parent / "src" / "jdr" / "systems"
DUMP = re.compile(r"\b[a-z_]+=\S")
EMITTED = re.compile(r"""["']type["']\s*:\s*["']([a-z_]+)["']""")
DYNAMIC = {"pokemon": {"endure_rolled", "dodge_rolled"}}
"""Types a decider builds from a word (`f"{defence.kind}_rolled"`)."""


def narration(system: str) -> Narration:
    found: Narration = getattr(default_registry().get(system), "narration")  # noqa: B009
    return found


def emitted(system: str) -> set[str]:
    """The event types a system's deciders write: every `"type": "…"` in its fight modules."""
    folder = SOURCES / system.replace("-", "_")
    names = [p for p in folder.glob("*.py") if p.stem.startswith(("fight", "play"))]
    found = {kind for p in names for kind in EMITTED.findall(p.read_text(encoding="utf-8"))}
    return found | DYNAMIC.get(system, set())


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_event_type_of_every_system_has_a_sentence(system: str) -> None:
    declared = set(narration(system).types())
    assert emitted(system) <= declared, emitted(system) - declared
    assert set(CORPUS[system]) == declared, set(CORPUS[system]) ^ declared


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_recorded_event_reads_in_words_in_both_languages(system: str, lang: str) -> None:
    told = narration(system)
    for kind, events in CORPUS[system].items():
        for event in events:
            with language(lang):
                text = told.sentence(event, Words())
                told.odds(event, {})  # the roller's chance, when known, never fails
            with language("en" if lang == "fr" else "fr"):
                other = told.sentence(event, Words())
            assert text and text[0] != " ", (kind, text)
            assert not DUMP.search(text), (kind, text)
            assert "{" not in text and "}" not in text, (kind, text)
            assert text != other or not re.search("[a-z]{4}", text), (kind, lang, text)


def test_the_odds_a_roller_had_are_exact_where_they_are_known() -> None:
    pokemon, plus_ultra, ilvermorny = (
        narration(s) for s in ("pokemon", "plus-ultra", "ilvermorny")
    )
    attack = CORPUS["pokemon"]["attack_rolled"][0]
    # 3d10 at DD6: P(score > 0), by enumerating all 1000 faces
    wins = sum(
        1
        for a in range(1, 11)
        for b in range(1, 11)
        for c in range(1, 11)
        if sum(f >= 6 for f in (a, b, c)) - sum(f == 1 for f in (a, b, c)) > 0
    )
    assert attack["dice"] == 3
    assert pokemon.odds(attack) == Chance(Fraction(wins, 1000), "chance the attack roll succeeds")
    rolled = {"face": 12, "willpower": 5, "bonus": 0, "defense": 20, "outcome": "miss"}
    assert plus_ultra.odds({"type": "attack_rolled", **rolled}) == Chance(
        Fraction(6, 20), "chance to hit"
    )
    cast = {"type": "spell_cast", "natural": 2, "result": -1, "level": 2}
    # Magie ÷ 2 = 3: faces 1 (imperfect) and 2..7 (result ≤ 4) cast, 8..11 fail, 12 critical
    assert ilvermorny.odds(cast) == Chance(Fraction(7, 12), "chance to cast")  # issue 29: named


def test_a_sentence_escapes_names_for_its_medium() -> None:
    told = Narration({"hit": Line(says("{name} loses {amount} Vitalité."))})
    event = {"type": "hit", "name": "**Pika** [b]x[/b] <i>", "amount": 2}
    assert told.sentence(event, Words("markdown")) == (
        "\\*\\*Pika\\*\\* \\[b\\]x\\[/b\\] \\<i\\> loses 2 Vitalité."
    )
    assert "[b]" not in told.sentence(event, Words("bbcode"))
    assert told.sentence(event, Words("text")).startswith("**Pika** [b]x[/b]")


def test_an_undeclared_event_reads_as_its_type_and_values() -> None:
    event: dict[str, Any] = {"type": "knocked_out", "name": "Bob", "faces": [3, 4], "state": {}}
    assert generic_sentence(event, Words()) == "knocked out: Bob, 3 and 4"
    assert not DUMP.search(Narration({}).sentence({"type": "x", "a": 1}, Words()))


def test_french_numbers_and_names_in_a_sentence() -> None:
    damage = CORPUS["pokemon"]["damage_rolled"][0]
    with language("fr"):
        text = narration("pokemon").sentence(damage, Words())
    assert "× 0,75" in text and text.startswith("Dégâts\u00a0: ")


def test_a_plug_in_declares_its_narration_and_commands_as_the_built_ins_do() -> None:
    from example_system import SYSTEM as EXAMPLE
    from jdr.dice import GivenFaces
    from jdr.fights import play
    from jdr.fights.service import legal_now
    from jdr.fights.story import told

    assert EXAMPLE.fight is not None
    fight = play(EXAMPLE.fight, {"fighters": ["Ann", "Bob"], "vitality": 1},
                 [{"action": "attack", "actor": "Ann", "dice": 1}], GivenFaces([6]))  # fmt: skip
    said = [t.text for t in told(EXAMPLE, fight.events, {})]
    assert said == ["Duel: Ann and Bob.", "Ann hits Bob (6): 1 point.", "Bob is out: Ann wins."]
    commands = EXAMPLE.fight_commands
    assert commands.parse("attaque", ["dés=3"]) == ("attack", {"dice": 3})
    assert legal_now(EXAMPLE, {"turn": "Ann"}, "Ann") == ["attack"]
    assert legal_now(EXAMPLE, {"turn": "Ann"}, "Bob") == []
