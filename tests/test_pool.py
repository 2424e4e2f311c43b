"""Scored dice and pools: one scoring per rule, rolled from an injected source into a record."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jdr.dice import DieRoll, GivenFaces, Pool, PoolRoll, ScoredDie, Seeded, Vector, roll_pool
from jdr.errors import FacesError, InputError


def _parity(face: int) -> Vector:
    return (1, 0) if face % 2 == 0 else (0, 1)


# --- ScoredDie ------------------------------------------------------------------------------------
def test_from_function_scores_and_marks_every_face_in_order() -> None:
    die = ScoredDie.from_function(4, _parity, mark=lambda face: "e" if face % 2 == 0 else "o")
    assert die.scores == ((0, 1), (1, 0), (0, 1), (1, 0))
    assert die.marks == ("o", "e", "o", "e")
    assert die.width == 2
    assert [die.score(face) for face in (1, 2)] == [(0, 1), (1, 0)]
    assert [die.mark(face) for face in (3, 4)] == ["o", "e"]


def test_from_function_without_marks_marks_nothing_and_is_labelled_by_size() -> None:
    die = ScoredDie.from_function(8, lambda face: (face,))
    assert die.marks == ()
    assert die.mark(5) == ""
    assert die.label == "d8"


def test_a_named_die_is_labelled_by_its_name() -> None:
    assert ScoredDie.from_function(6, lambda face: (face,), name="dF").label == "dF"


@pytest.mark.parametrize("size", [1, 4, 6, 20, 100])
def test_sum_die_scores_its_own_face(size: int) -> None:
    die = ScoredDie.sum(size)
    assert die.scores == tuple((face,) for face in range(1, size + 1))
    assert die.width == 1


def test_threshold_counts_successes_at_or_above_and_failures_at_or_below() -> None:
    die = ScoredDie.threshold(10, success_at=6, failure_at=1)
    assert die.scores == ((0, 1), *[(0, 0)] * 4, *[(1, 0)] * 5)
    assert die.marks == ("✗", "", "", "", "", "✓", "✓", "✓", "✓", "✓")


def test_threshold_without_failure_face_never_fails() -> None:
    die = ScoredDie.threshold(6, success_at=5)
    assert die.scores == ((0, 0), (0, 0), (0, 0), (0, 0), (1, 0), (1, 0))


def test_threshold_at_difficulty_1_a_one_is_one_success_and_one_failure() -> None:
    die = ScoredDie.threshold(10, success_at=1, failure_at=1)
    assert die.score(1) == (1, 1)
    assert die.mark(1) == "✓✗"
    assert all(die.score(face) == (1, 0) for face in range(2, 11))


def test_a_die_needs_at_least_one_face() -> None:
    with pytest.raises(InputError) as caught:
        ScoredDie.sum(0)
    assert (caught.value.field, caught.value.value, caught.value.allowed) == ("size", 0, "1..")


@pytest.mark.parametrize(
    ("size", "scores", "marks"),
    [
        (3, ((1,), (2,)), ()),  # fewer scores than faces
        (2, ((1,), (2, 0)), ()),  # mixed widths
        (1, ((),), ()),  # no component
        (1, ((1, 2, 3),), ()),  # three components
        (2, ((1,), (2,)), ("a",)),  # fewer marks than faces
    ],
)
def test_a_die_refuses_scores_or_marks_that_do_not_fit_its_faces(
    size: int, scores: tuple[Vector, ...], marks: tuple[str, ...]
) -> None:
    with pytest.raises(ValueError):
        ScoredDie(size, scores, marks)


# --- Pool -----------------------------------------------------------------------------------------
def test_pool_of_keeps_group_order_and_drops_empty_groups() -> None:
    d4, d12, d6 = ScoredDie.sum(4), ScoredDie.sum(12), ScoredDie.sum(6)
    pool = Pool.of((d4, 2), (d6, 0), (d12, 1))
    assert pool.groups == ((d4, 2), (d12, 1))
    assert pool.notation() == "2d4+1d12"
    assert pool.dice_count == 3
    assert pool.width == 1
    assert list(pool.dice()) == [d4, d4, d12]


def test_notation_uses_die_names() -> None:
    fate = ScoredDie.from_function(3, lambda face: (face - 2,), name="dF")
    assert Pool.of((fate, 4)).notation() == "4dF"


def test_an_empty_pool_has_no_dice_and_one_component() -> None:
    pool = Pool.of()
    assert pool.notation() == "0d"
    assert pool.dice_count == 0
    assert pool.width == 1
    assert list(pool.dice()) == []


def test_pool_width_is_its_dice_width() -> None:
    assert Pool.of((ScoredDie.threshold(10, 6, 1), 3)).width == 2


def test_a_pool_refuses_dice_of_different_widths() -> None:
    with pytest.raises(ValueError):
        Pool.of((ScoredDie.sum(6), 1), (ScoredDie.threshold(10, 6), 1))


def test_a_pool_refuses_a_negative_count() -> None:
    with pytest.raises(InputError) as caught:
        Pool(((ScoredDie.sum(6), -1),))
    assert (caught.value.field, caught.value.value) == ("dice", -1)


# --- roll_pool ------------------------------------------------------------------------------------
def test_4d10_at_difficulty_6_with_faces_7_1_2_6_is_two_successes_one_failure() -> None:
    d10 = ScoredDie.threshold(10, success_at=6, failure_at=1)
    record = roll_pool(Pool.of((d10, 4)), GivenFaces([7, 1, 2, 6]))
    assert record.total == (2, 1)
    assert [roll.mark for roll in record.rolls] == ["✓", "✗", "", "✓"]
    assert record.faces == [7, 1, 2, 6]
    assert record.faces_text() == "7✓ 1✗ 2 6✓"
    assert record.rolls[0] == DieRoll(size=10, face=7, score=(1, 0), mark="✓")


def test_roll_takes_faces_group_by_group_in_pool_order() -> None:
    pool = Pool.of((ScoredDie.sum(4), 2), (ScoredDie.sum(12), 1))
    record = roll_pool(pool, GivenFaces([3, 4, 11]))
    assert [(roll.size, roll.face) for roll in record.rolls] == [(4, 3), (4, 4), (12, 11)]
    assert record.total == (18,)
    assert record.faces_text() == "3 4 11"


def test_roll_checks_each_face_against_its_own_die() -> None:
    pool = Pool.of((ScoredDie.sum(4), 2), (ScoredDie.sum(12), 1))
    with pytest.raises(FacesError) as caught:
        roll_pool(pool, GivenFaces([3, 11, 4]))
    assert caught.value.reason == "face 2 is 11, not a face of a d4"


def test_roll_at_difficulty_1_counts_a_one_both_ways() -> None:
    d10 = ScoredDie.threshold(10, success_at=1, failure_at=1)
    record = roll_pool(Pool.of((d10, 3)), GivenFaces([1, 5, 1]))
    assert record.total == (3, 2)
    assert record.faces_text() == "1✓✗ 5✓ 1✓✗"


def test_an_empty_pool_rolls_to_the_zero_vector_without_faces() -> None:
    source = GivenFaces([])
    record = roll_pool(Pool.of(), source)
    assert record == PoolRoll(Pool.of(), (), (0,))
    source.finish()


def test_the_roll_record_keeps_its_pool() -> None:
    pool = Pool.of((ScoredDie.sum(6), 2))
    assert roll_pool(pool, GivenFaces([1, 2])).pool is pool


@given(seed=st.integers(0, 2**32), count=st.integers(0, 30))
def test_a_roll_total_is_the_sum_of_its_dice_scores(seed: int, count: int) -> None:
    pool = Pool.of((ScoredDie.threshold(10, 6, 1), count), (ScoredDie.from_function(6, _parity), 2))
    record = roll_pool(pool, Seeded(seed))
    assert len(record.rolls) == count + 2
    assert record.total == tuple(sum(roll.score[i] for roll in record.rolls) for i in range(2))
    assert all(
        roll.score == die.score(roll.face)
        for roll, die in zip(record.rolls, pool.dice(), strict=True)
    )


def test_the_same_seed_rolls_the_same_record() -> None:
    pool = Pool.of((ScoredDie.threshold(10, 6, 1), 8))
    assert roll_pool(pool, Seeded(9)) == roll_pool(pool, Seeded(9))
