"""A sheet revision's changes: diff, apply, invert, rebase, and field paths as people type them."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jdr.characters.changes import (
    apply,
    diff,
    invert,
    parse_path,
    path_text,
    rebase,
    value_at,
)
from jdr.characters.revisions import fold, undoable
from jdr.errors import InputError, UnknownNameError

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3)
    ),
    max_leaves=12,
)
SHEETS = st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), JSON, max_size=4)


@settings(deadline=None)
@given(SHEETS, SHEETS)
def test_diff_then_apply_gives_the_new_sheet_and_invert_the_old(old: Any, new: Any) -> None:
    changes = diff(old, new)
    assert apply(old, changes) == new
    assert apply(new, invert(changes)) == old
    assert old == apply(old, [])  # nothing changed in place


@settings(deadline=None)
@given(SHEETS, SHEETS)
def test_rebasing_onto_the_same_sheet_changes_nothing(old: Any, new: Any) -> None:
    moved, conflicts = rebase(diff(old, new), old)
    assert conflicts == []
    assert apply(old, moved) == new


def test_diff_tells_true_from_one_and_keeps_key_order() -> None:
    assert diff({"x": 1}, {"x": True}) == [{"path": ["x"], "before": 1, "after": True}]
    assert diff({"a": 1, "b": 2}, {"b": 3, "a": 1}) == [{"path": ["b"], "before": 2, "after": 3}]
    assert diff({"x": 1}, {"x": 1.0}) == []


def test_apply_leaves_the_sheet_given_as_it_was() -> None:
    sheet = {"stats": {"magic": 7}, "spells": [{"xp": 1}]}
    changed = apply(sheet, [{"path": ["spells", 0, "xp"], "before": 1, "after": 4}])
    assert sheet == {"stats": {"magic": 7}, "spells": [{"xp": 1}]}
    assert changed["stats"] is sheet["stats"]  # untouched parts are shared, not copied


def test_a_number_moved_since_moves_by_the_same_amount() -> None:
    fight = [{"path": ["xp"], "before": 4, "after": 7}]  # +3 in the fight
    moved, conflicts = rebase(fight, {"xp": 14})  # the GM awarded 10 meanwhile
    assert (apply({"xp": 14}, moved), conflicts) == ({"xp": 17}, [])


def test_a_value_changed_on_both_sides_is_a_conflict_and_left_out() -> None:
    changes: list[dict[str, Any]] = [
        {"path": ["condition"], "before": None, "after": "burn"},
        {"path": ["xp"], "before": 4, "after": 7},
    ]
    moved, conflicts = rebase(changes, {"condition": "sleep", "xp": 4})
    assert conflicts == [changes[0]]
    assert apply({"condition": "sleep", "xp": 4}, moved) == {"condition": "sleep", "xp": 7}


def test_a_change_already_there_is_not_made_twice() -> None:
    moved, conflicts = rebase([{"path": ["xp"], "before": 4, "after": 7}], {"xp": 7})
    assert (moved, conflicts) == ([], [])


def test_paths_read_as_people_type_them() -> None:
    sheet = {
        "stats": {"magic": 7},
        "spells": [{"name": "Lumos", "xp": 1}, {"name": "Expelliarmus", "xp": 2}],
        "skills": {"Déplacements rapides": 1},
    }
    assert parse_path("stats.magic", sheet) == ["stats", "magic"]
    assert parse_path("spells[2].xp", sheet) == ["spells", 1, "xp"]
    assert parse_path("spells[expelliarmus].xp", sheet) == ["spells", 1, "xp"]
    assert parse_path('skills."Déplacements rapides"', sheet) == ["skills", "Déplacements rapides"]
    assert parse_path("skills.deplacements-rapides", sheet) == ["skills", "Déplacements rapides"]
    assert parse_path("new_field", sheet) == ["new_field"]
    assert path_text(["spells", 1, "xp"], sheet) == "spells[Expelliarmus].xp"
    assert path_text(["spells", 1, "xp"]) == "spells[2].xp"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("spells[9].xp", "no such position"),
        ("stats[1]", "not a list"),
        ('skills."open', "a quote is not closed"),
        ("spells[1", r"a \[ is not closed"),
        ("", "empty"),
    ],
)
def test_a_bad_path_says_why(text: str, problem: str) -> None:
    sheet = {"stats": {"magic": 7}, "spells": [{"name": "Lumos"}], "skills": {}}
    with pytest.raises(InputError, match=problem):
        parse_path(text, sheet)


def test_an_unknown_item_name_says_the_closest() -> None:
    with pytest.raises(UnknownNameError) as found:
        parse_path("spells[Lumso].xp", {"spells": [{"name": "Lumos"}]})
    assert found.value.suggestion == "Lumos"


def test_value_at_a_missing_place_is_not_a_json_value() -> None:
    from jdr.characters.changes import absent

    assert absent(value_at({"a": []}, ["a", 0])) and not absent(value_at({"a": None}, ["a"]))


def test_a_sheet_is_the_fold_of_its_revisions_and_undo_takes_the_last_back() -> None:
    created = {"changes": [{"path": [], "after": {"xp": 1}}], "name": "Kai"}
    assert fold([("created", created)]) == ("Kai", {"xp": 1})
    revisions = [(1, "created", {}), (2, "set", {}), (3, "undone", {"target": 2})]
    assert undoable(revisions) is None  # the creation is never undone
    assert undoable([*revisions, (4, "buy", {})]) == 4
