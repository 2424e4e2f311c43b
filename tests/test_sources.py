"""Random sources: every face on 1..size, seeds replay, given faces are checked and fully used."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jdr.dice import (
    GivenFaces,
    RandomSource,
    Recording,
    Seeded,
    SystemRandom,
    make_source,
    parse_faces,
)
from jdr.errors import FacesError, InputError, JdrError


# --- SystemRandom and Seeded: uniform on 1..size -------------------------------------------------
@pytest.mark.parametrize("source", [SystemRandom(), Seeded(7)], ids=repr)
@pytest.mark.parametrize("size", [1, 2, 6, 10, 100])
def test_random_sources_give_count_faces_each_on_one_to_size(
    source: RandomSource, size: int
) -> None:
    faces = source.faces(size, 2000)
    assert len(faces) == 2000
    assert all(isinstance(face, int) and 1 <= face <= size for face in faces)
    # 2000 rolls miss a given face of a d≤10 with probability < 10 × 0.9^2000 ≈ 1e-90.
    if size <= 10:
        assert set(faces) == set(range(1, size + 1))


@pytest.mark.parametrize("source", [SystemRandom(), Seeded(7)], ids=repr)
def test_random_sources_give_no_face_for_a_count_of_zero(source: RandomSource) -> None:
    assert source.faces(6, 0) == []


def test_every_source_satisfies_the_random_source_protocol() -> None:
    for source in (SystemRandom(), Seeded(1), GivenFaces([1]), Recording(Seeded(1))):
        assert isinstance(source, RandomSource)


@given(seed=st.integers(min_value=0, max_value=2**64), size=st.integers(1, 1000))
def test_seeded_replays_the_same_faces_for_the_same_seed(seed: int, size: int) -> None:
    first, second = Seeded(seed), Seeded(seed)
    replay = second.faces(size, 5) + second.faces(size, 3)
    assert first.faces(size, 5) + first.faces(size, 3) == replay


def test_seeded_gives_different_faces_for_different_seeds() -> None:
    assert Seeded(1).faces(100, 20) != Seeded(2).faces(100, 20)


def test_seeded_and_system_random_show_how_to_rebuild_them() -> None:
    assert repr(Seeded(42)) == "Seeded(42)"
    assert repr(SystemRandom()) == "SystemRandom()"


# --- GivenFaces: the player's own dice ------------------------------------------------------------
def test_given_faces_are_consumed_in_order_across_calls() -> None:
    source = GivenFaces([7, 1, 2, 6])
    assert source.faces(10, 1) == [7]
    assert source.faces(10, 3) == [1, 2, 6]
    source.finish()


@given(data=st.data(), size=st.integers(1, 100))
def test_given_faces_on_the_die_come_back_unchanged(data: st.DataObject, size: int) -> None:
    faces = data.draw(st.lists(st.integers(1, size), max_size=20))
    source = GivenFaces(faces)
    assert source.faces(size, len(faces)) == faces
    source.finish()


@pytest.mark.parametrize("face", [0, 7, -1, 100])
def test_given_faces_refuse_a_face_off_the_die_naming_face_position_and_range(face: int) -> None:
    source = GivenFaces([3, face])
    with pytest.raises(FacesError) as caught:
        source.faces(6, 2)
    error = caught.value
    assert error.field == "faces"
    assert error.value == face
    assert error.allowed == "1..6"
    assert error.reason == f"face 2 is {face}, not a face of a d6"
    assert str(error) == f"faces: {face} (face 2 is {face}, not a face of a d6; allowed: 1..6)"


def test_pk_2_a_given_0_on_a_d10_counts_10_and_only_on_a_d10() -> None:
    """« parfois, un 0 remplace le 10, mais il compte toujours pour 10 » (PK-2)."""
    source = GivenFaces([0, 7, 0])
    assert source.faces(10, 2) == [10, 7]
    with pytest.raises(FacesError) as caught:  # the third face is asked of a d6: 0 is no face
        source.faces(6, 1)
    assert caught.value.reason == "face 3 is 0, not a face of a d6"
    recording = Recording(GivenFaces([0, 0]))
    assert recording.faces(10, 2) == [10, 10]
    assert recording.rolled == [10, 10]  # what the journal and the JSON `faces` keep


def test_pk_2_a_face_off_a_d10_says_that_0_stands_for_10() -> None:
    with pytest.raises(FacesError) as caught:
        GivenFaces([11]).faces(10, 1)
    assert caught.value.allowed == "1..10, or 0 for 10"
    assert caught.value.reason == "face 1 is 11, not a face of a d10"


def test_given_faces_count_positions_across_calls() -> None:
    source = GivenFaces([4, 4, 5])
    source.faces(4, 2)
    with pytest.raises(FacesError) as caught:
        source.faces(4, 1)
    assert caught.value.reason == "face 3 is 5, not a face of a d4"


def test_given_faces_refuse_too_few_faces_and_say_how_many_were_needed() -> None:
    source = GivenFaces([3, 4])
    with pytest.raises(FacesError) as caught:
        source.faces(6, 3)
    error = caught.value
    assert error.value == "3,4"
    assert error.allowed == "3 faces in all"
    assert error.reason == "2 faces given, the roll needs more"


def test_given_faces_refuse_a_roll_when_none_were_given() -> None:
    with pytest.raises(FacesError) as caught:
        GivenFaces([]).faces(6, 1)
    assert caught.value.value == "-"
    assert caught.value.allowed == "1 face in all"


def test_given_faces_finish_refuses_left_over_faces() -> None:
    source = GivenFaces([3, 4, 5])
    source.faces(6, 2)
    with pytest.raises(FacesError) as caught:
        source.finish()
    error = caught.value
    assert error.value == "3,4,5"
    assert error.allowed == "2 faces"
    assert error.reason == "3 faces given, the roll used only 2"


def test_given_faces_finish_accepts_all_faces_used() -> None:
    source = GivenFaces([1, 2])
    source.faces(2, 2)
    source.finish()
    GivenFaces([]).finish()


def test_faces_error_is_an_input_error_under_the_one_root() -> None:
    with pytest.raises(FacesError) as caught:
        GivenFaces([9]).faces(6, 1)
    assert isinstance(caught.value, InputError)
    assert isinstance(caught.value, JdrError)
    assert isinstance(caught.value, ValueError)
    assert caught.value.code == "invalid_faces"


# --- Recording ------------------------------------------------------------------------------------
def test_recording_remembers_every_face_and_its_die_in_roll_order() -> None:
    recording = Recording(GivenFaces([3, 1, 12]))
    assert recording.faces(4, 2) == [3, 1]
    assert recording.faces(12, 1) == [12]
    assert recording.rolled == [3, 1, 12]
    assert recording.sizes == [4, 4, 12]


def test_recording_of_a_seeded_source_gives_the_faces_to_replay_it() -> None:
    recording = Recording(Seeded(5))
    rolled = recording.faces(10, 4) + recording.faces(6, 2)
    replay = GivenFaces(recording.rolled)
    assert replay.faces(10, 4) + replay.faces(6, 2) == rolled
    replay.finish()


# --- parse_faces ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "faces"),
    [
        ("7,1,2,6", [7, 1, 2, 6]),
        ("7, 1, 2, 6", [7, 1, 2, 6]),
        ("7 1 2 6", [7, 1, 2, 6]),
        ("7;1;2;6", [7, 1, 2, 6]),
        ("  7,\t1\n2 , 6 ", [7, 1, 2, 6]),
        ("1, 3", [1, 3]),
        ("1 ,3", [1, 3]),
        ("12", [12]),
        ("0,-3", [0, -3]),  # whole numbers: GivenFaces, not the parser, refuses them per die
    ],
)
def test_parse_faces_reads_whole_numbers_separated_by_commas_spaces_or_semicolons(
    text: str, faces: list[int]
) -> None:
    assert parse_faces(text) == faces


@pytest.mark.parametrize("text", ["", "   ", ",", " , ;"])
def test_parse_faces_refuses_text_without_any_face(text: str) -> None:
    with pytest.raises(FacesError) as caught:
        parse_faces(text)
    assert caught.value.value == text
    assert caught.value.allowed == "whole numbers separated by commas, e.g. 7,1,2,6"


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("7,x,2", "x"),
        ("7.5", "7.5"),
        ("1e3", "1e3"),
        ("1_0", "1_0"),  # int() would read 10
        ("٣", "٣"),  # an Arabic-Indic digit: int() would read 3
        ("7,1-2", "1-2"),
        ("d6", "d6"),
    ],
)
def test_parse_faces_refuses_malformed_text_naming_the_bad_part(text: str, part: str) -> None:
    with pytest.raises(FacesError) as caught:
        parse_faces(text)
    assert caught.value.field == "faces"
    assert caught.value.value == text
    assert caught.value.reason == f"{part} is not a whole number"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("1,,3", "nothing between two commas, after face 1"),
        ("1, ,3", "nothing between two commas, after face 1"),
        ("7,1,;6", "nothing between two commas, after face 2"),
        ("1,3,", "nothing after the last comma"),
        ("1,3 , ", "nothing after the last comma"),
        (",1,3", "nothing before the first comma"),
    ],
)
def test_parse_faces_refuses_an_empty_face_instead_of_shifting_the_others(
    text: str, reason: str
) -> None:
    with pytest.raises(FacesError) as caught:
        parse_faces(text)
    assert caught.value.field == "faces"
    assert caught.value.value == text
    assert caught.value.reason == reason
    assert caught.value.allowed == "whole numbers separated by commas, e.g. 7,1,2,6"


# --- make_source ----------------------------------------------------------------------------------
def test_make_source_prefers_given_faces() -> None:
    source = make_source(faces="7,1")
    assert isinstance(source, GivenFaces)
    assert source.faces(10, 2) == [7, 1]


def test_make_source_uses_the_seed_when_no_faces_are_given() -> None:
    source = make_source(seed=42)
    assert isinstance(source, Seeded)
    assert source.faces(6, 10) == Seeded(42).faces(6, 10)


def test_make_source_defaults_to_the_system_randomness() -> None:
    assert isinstance(make_source(), SystemRandom)


def test_make_source_refuses_faces_and_seed_together() -> None:
    with pytest.raises(FacesError) as caught:
        make_source(faces="1,2", seed=3)
    assert caught.value.allowed == "either --faces or --seed, not both"


def test_make_source_refuses_malformed_faces() -> None:
    with pytest.raises(FacesError):
        make_source(faces="1,two")
