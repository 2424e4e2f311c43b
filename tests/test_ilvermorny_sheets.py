"""Ilvermorny sheets, creation and progression (IL-1, IL-4, IL-5, IL-7, IL-8, IL-9): the example
sheet, clear messages for bad sheets, creation's bounds, and pure updates that the GM can undo."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jdr.dice import GivenFaces
from jdr.errors import InputError, RulesError, UnknownNameError
from jdr.params import validate_params
from jdr.systems.ilvermorny.creation import CreateParams, create, roll_create
from jdr.systems.ilvermorny.progression import (
    cast_from_sheet,
    gain_xp,
    grant_level,
    revert,
    study_from_sheet,
    yearly_growth,
)
from jdr.systems.ilvermorny.sheets import (
    SheetError,
    Wizard,
    example_path,
    load_example,
    load_wizard,
)

EXAMPLE = example_path().read_text("utf-8")


# --- sheets (IL-1, IL-5, IL-10) -----------------------------------------------------------------


def test_il_1_the_example_sheet_loads() -> None:
    mary = load_example()
    assert mary.name == "Seraphina Quill"
    assert mary.stats.total() == 37
    assert [spell.element for spell in mary.spells] == ["neutre", "feu", "eau", "vigne", "feu"]
    assert mary.spell("stupefix").level == 0


def test_il_1_a_sheet_from_a_path(tmp_path: Path) -> None:
    path = tmp_path / "wizard.toml"
    path.write_text(EXAMPLE, encoding="utf-8")
    assert load_wizard(path) == load_wizard(str(path)) == load_example()


def test_il_1_french_stat_keys_and_english_elements() -> None:
    text = EXAMPLE.replace("magic = 7", "magie = 7").replace('element = "eau"', 'element = "Water"')
    mary = load_wizard(text)
    assert mary.stats.magic == 7
    assert mary.spell("protego").element == "eau"


@pytest.mark.parametrize(
    ("old", "new", "path", "words"),
    [
        ("magic = 7", "magic = 11", "stats.magic", "at most 10"),
        ("level = 3", "level = 6", "spells[1].level", "at most 5"),
        ("difficulty = 1", "difficulty = 0", "spells[1].difficulty", "at least 1"),
        ('element = "neutre"', 'element = "air"', "spells[1].element", "feu, vigne, eau, neutre"),
        ("skill = 5", "skill = 5\nluck = 5", "stats.luck", "unknown key"),
        ('name = "Protego"', 'name = "LUMOS"', "spells[3].name", "the same name as spell 1"),
    ],
)
def test_il_1_il_5_bad_sheets_say_where_and_why(old: str, new: str, path: str, words: str) -> None:
    with pytest.raises(SheetError) as caught:
        load_wizard(EXAMPLE.replace(old, new, 1))
    message = caught.value.message()
    assert message.startswith(path), message
    assert words in message


def test_a_missing_or_broken_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="readable"):
        load_wizard(tmp_path / "nowhere.toml")
    with pytest.raises(InputError, match="TOML"):
        load_wizard("name = \n")


def test_an_unknown_spell_lists_the_known_ones() -> None:
    with pytest.raises(UnknownNameError) as caught:
        load_example().spell("Avada Kedavra")
    assert "Lumos" in caught.value.message()


# --- creation (IL-4) ----------------------------------------------------------------------------


def test_il_4_one_d6_per_stat_in_the_source_order_then_each_step() -> None:
    made = create(
        GivenFaces([3, 4, 5, 2, 3, 4, 3]),
        questionnaire={"magic": 2, "intuition": 1},
        free={"magic": 3, "resolution": 2},
        rebalance={"charisma": 1, "strength": -1},
    )
    assert made.rolled == {
        "resolution": 3,
        "comprehension": 4,
        "magic": 5,
        "charisma": 2,
        "strength": 3,
        "skill": 4,
        "intuition": 3,
    }
    assert made.stats["magic"] == 10
    assert made.stats["resolution"] == 5
    assert (made.total, made.free_points_left, made.outcome) == (32, 0, "valid")


def test_il_4_every_bound_is_reported_with_a_clear_message() -> None:
    made = create(GivenFaces([6, 1, 6, 1, 1, 1, 1]), {"magic": 4}, {"magic": 1}, {"skill": -2})
    kinds = {problem.kind: problem for problem in made.problems}
    assert set(kinds) == {"above_max", "below_min", "free_points_left", "total_low"}
    assert kinds["above_max"].text() == "Magic is 11: no stat above 10 (IL-4)"
    assert kinds["below_min"].text() == "Skill is -1: no stat below 0 (IL-1)"
    assert kinds["free_points_left"].text() == "4 of the 5 free points still to split (IL-4)"
    assert kinds["total_low"].text() == ("total 20: below 30, the GM rebalances to 30..40 (IL-4)")
    assert made.outcome == "to_rebalance"


def test_il_4_a_total_above_40_asks_for_rebalancing() -> None:
    made = create(GivenFaces([6] * 7), {}, {"magic": 4, "skill": 1})
    assert (made.total, [p.kind for p in made.problems]) == (47, ["total_high"])


@pytest.mark.parametrize(
    ("raw", "field", "words"),
    [
        ({"free": "magic=4,charisma=2"}, "free", "the player splits 5"),
        ({"free": "magic=-1"}, "free.magic", "never negative"),
        ({"questionnaire": "luck=2"}, "questionnaire", "unknown stat luck"),
        ({"questionnaire": "magic=two"}, "questionnaire", "is not stat=n"),
        ({"rebalance": "magic"}, "rebalance", "is not stat=n"),
    ],
)
def test_il_4_bad_points_are_refused_at_once(raw: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(InputError) as caught:
        validate_params(CreateParams, raw)
    assert caught.value.field == field
    assert words in caught.value.message()


def test_il_4_points_in_french_or_english_signed_and_added_up() -> None:
    params = validate_params(
        CreateParams,
        {"free": "Magie=2, habileté=1, magic=1", "rebalance": "force physique=-2,charisma=+1"},
    )
    assert params.free == {"magic": 3, "skill": 1}
    assert params.rebalance == {"strength": -2, "charisma": 1}


def test_il_4_create_record() -> None:
    params = validate_params(
        CreateParams, {"questionnaire": "magic=2", "free": "magic=3,intuition=2"}
    )
    record = roll_create(params, GivenFaces([3, 4, 5, 2, 3, 4, 3]))
    assert record.outcome == "valid"
    assert list(record.faces) == [3, 4, 5, 2, 3, 4, 3]
    assert record.totals["total"] == 31
    assert record.totals["problems"] == []
    assert record.explain().endswith("total 31 → valid")


# --- progression (IL-4, IL-7, IL-8, IL-9) -------------------------------------------------------


def test_il_7_casting_from_a_sheet_gives_the_spell_its_xp() -> None:
    mary = load_example()
    step = cast_from_sheet(mary, "protego", GivenFaces([9]))  # 9 − 3 = 6 > 2: failure, +1
    assert step.cast is not None and step.cast.outcome == "failure"
    assert step.sheet.spell("Protego").xp == 9
    assert mary.spell("Protego").xp == 8  # the sheet given is not changed


def test_il_8_casting_buys_levels_as_soon_as_the_xp_is_there() -> None:
    mary = load_example()  # Expelliarmus: level 2, 31 XP, difficulty 2 (2 → 3 costs 50)
    step = gain_xp(mary, "Expelliarmus", 19, "IL-7")
    spell = step.sheet.spell("Expelliarmus")
    assert (spell.level, spell.xp) == (3, 0)
    assert [(c.kind, c.before, c.after) for c in step.changes] == [
        ("xp_gained", 31, 50),
        ("level_gained", 2, 3),
        ("xp_spent", 50, 0),
    ]


def test_il_8_several_levels_at_once_from_a_sheet() -> None:
    step = gain_xp(load_example(), "Tarentallegra", 10 + 25 + 3, "IL-9")  # difficulty 1, level 1
    spell = step.sheet.spell("Tarentallegra")
    assert (spell.level, spell.xp) == (3, 3)
    assert [c.kind for c in step.changes] == [
        "xp_gained",
        "level_gained",
        "xp_spent",
        "level_gained",
        "xp_spent",
    ]


def test_il_8_level_0_to_1_only_by_the_gms_grant() -> None:
    mary = load_example()
    assert gain_xp(mary, "Stupefix", 500, "IL-9").sheet.spell("Stupefix").level == 0
    with pytest.raises(RulesError) as caught:
        cast_from_sheet(mary, "Stupefix", GivenFaces([3]))
    assert caught.value.rule == "IL-5"
    granted = grant_level(mary, "Stupefix")
    assert granted.sheet.spell("Stupefix").level == 1
    with pytest.raises(RulesError) as refused:
        grant_level(granted.sheet, "Stupefix")
    assert refused.value.rule == "IL-8"


def test_il_8_a_granted_level_may_use_the_xp_kept() -> None:
    text = EXAMPLE.replace("level = 0\nxp = 0", "level = 0\nxp = 35")
    step = grant_level(load_wizard(text), "Stupefix")  # difficulty 3: 1 → 2 costs 30
    assert [c.kind for c in step.changes] == ["level_granted", "level_gained", "xp_spent"]
    assert (step.sheet.spell("Stupefix").level, step.sheet.spell("Stupefix").xp) == (2, 5)


def test_il_9_studying_from_a_sheet_uses_its_stats() -> None:
    mary = load_example()  # Compréhension 6, Résolution 6
    step = study_from_sheet(mary, "Protego", 2, 0, GivenFaces([6, 6, 6, 7]))
    assert step.study is not None
    assert (step.study.hours_completed, step.study.xp) == (1, 3)
    assert step.sheet.spell("Protego").xp == 11
    with pytest.raises(RulesError):
        study_from_sheet(mary, "Stupefix", 1, 0, GivenFaces([1, 1]))


def test_il_8_the_gm_undoes_a_level_and_only_a_change_still_on_the_sheet() -> None:
    mary = load_example()
    step = gain_xp(mary, "Expelliarmus", 25, "IL-7")
    assert revert(step.sheet, step.changes) == mary
    undone = revert(step.sheet, step.changes[1:])  # keep the XP, undo the level
    assert (undone.spell("Expelliarmus").level, undone.spell("Expelliarmus").xp) == (2, 56)
    later = gain_xp(step.sheet, "Expelliarmus", 1, "IL-7").sheet
    with pytest.raises(RulesError, match="cannot undo"):
        revert(later, step.changes)


def test_il_4_a_school_year_adds_two_points() -> None:
    mary = load_example()
    step = yearly_growth(mary, {"magie": 2})
    assert (step.sheet.year, step.sheet.stats.magic) == (3, 9)
    assert revert(step.sheet, step.changes) == mary


def test_il_4_the_gm_may_add_more_never_above_10() -> None:
    mary = load_example()
    assert yearly_growth(mary, {"magic": 3, "skill": 1}, gm_bonus=2).sheet.stats.skill == 6
    with pytest.raises(RulesError, match="2 points to split, 3 given") as caught:
        yearly_growth(mary, {"magic": 3})
    assert caught.value.rule == "IL-4"
    with pytest.raises(RulesError, match="no stat above 10"):
        yearly_growth(mary, {"magic": 4}, gm_bonus=2)
    with pytest.raises(InputError, match="unknown stat"):
        yearly_growth(mary, {"luck": 2})


def test_changes_are_json_ready() -> None:
    step = gain_xp(load_example(), "Lumos", 3, "IL-7")
    assert step.changes[0].to_json() == {
        "kind": "xp_gained",
        "field": "xp",
        "before": 12,
        "after": 15,
        "rule": "IL-7",
        "spell": "Lumos",
    }


def test_a_wizard_is_the_systems_sheet() -> None:
    from jdr.systems.ilvermorny import SYSTEM

    assert SYSTEM.sheet is Wizard
