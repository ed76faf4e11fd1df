"""Properties of the deterministic solvers: the musical facts they must respect."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from solvers.logic import (
    CHORD_INTERVALS,
    CHORD_LETTER_BY_QUALITY,
    SYNCOPATION_LETTER_BY_COUNT,
    are_transpositions,
    chord_answer,
    chord_quality,
    count_offbeats,
    intervals,
    is_offbeat,
    pitch_class_set,
    syncopation_answer,
    transposition_answer,
)

FAST = settings(max_examples=200, deadline=None)

slots = st.integers(min_value=1, max_value=32)
onset_lists = st.lists(slots, unique=True, max_size=32)
pitches = st.integers(min_value=0, max_value=127)
melodies = st.lists(pitches, min_size=1, max_size=24)


# --- Syncopation -------------------------------------------------------------------------------


def test_grid_beats_and_offbeats() -> None:
    downbeats = [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]
    ands = [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32]
    assert not any(is_offbeat(slot) for slot in downbeats)
    assert all(is_offbeat(slot) for slot in ands)


@pytest.mark.parametrize("slot", [0, 33, -1, 64])
def test_slot_outside_grid_is_an_error(slot: int) -> None:
    with pytest.raises(ValueError, match="grid"):
        is_offbeat(slot)


@FAST
@given(onset_lists)
def test_count_offbeats_counts_even_slots(onsets: list[int]) -> None:
    assert count_offbeats(onsets) == sum(1 for slot in onsets if slot % 2 == 0)


@FAST
@given(onset_lists)
def test_syncopation_letter_only_for_listed_counts(onsets: list[int]) -> None:
    count = sum(1 for slot in onsets if slot % 2 == 0)
    expected = {0: "A", 2: "B", 4: "C", 6: "D", 8: "E"}.get(count)
    assert syncopation_answer(onsets) == expected


@FAST
@given(st.lists(st.sampled_from(range(1, 33, 2)), unique=True))
def test_adding_onbeats_never_changes_the_answer(onbeat_slots: list[int]) -> None:
    base = [2, 10, 18, 26]  # four off-beats -> C
    assert syncopation_answer(base + onbeat_slots) == "C"


def test_syncopation_examples() -> None:
    straight = [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]
    assert syncopation_answer(straight) == "A"
    assert syncopation_answer([]) == "A"
    assert syncopation_answer([2, 4, 6, 8, 10, 12, 14, 16]) == "E"
    assert syncopation_answer([2]) is None
    assert syncopation_answer(list(range(2, 33, 2))) is None  # 16 off-beats
    assert SYNCOPATION_LETTER_BY_COUNT == {0: "A", 2: "B", 4: "C", 6: "D", 8: "E"}


# --- Transposition -----------------------------------------------------------------------------


def test_intervals() -> None:
    assert intervals([60, 62, 62, 59]) == (2, 0, -3)
    assert intervals([60]) == ()
    assert intervals([]) == ()


@FAST
@given(melodies, st.data())
def test_any_transposition_is_the_same_melody(melody: list[int], data: st.DataObject) -> None:
    shift = data.draw(st.integers(-min(melody), 127 - max(melody)), label="shift")
    moved = [pitch + shift for pitch in melody]
    assert are_transpositions(melody, moved) is True
    assert transposition_answer(melody, moved) == "yes"
    assert transposition_answer(moved, melody) == "yes"


@FAST
@given(st.lists(pitches, min_size=2, max_size=24), st.data())
def test_changing_one_interval_makes_a_different_melody(
    melody: list[int], data: st.DataObject
) -> None:
    position = data.draw(st.integers(1, len(melody) - 1), label="position")
    delta = data.draw(st.integers(-12, 12).filter(bool), label="delta")
    # Shift every note from `position` on: exactly one interval changes, by `delta`.
    changed = melody[:position] + [pitch + delta for pitch in melody[position:]]
    assert sum(a != b for a, b in zip(intervals(melody), intervals(changed), strict=True)) == 1
    assert are_transpositions(melody, changed) is False
    assert transposition_answer(melody, changed) == "no"


@FAST
@given(melodies, melodies)
def test_different_lengths_are_different_melodies(first: list[int], second: list[int]) -> None:
    assume(len(first) != len(second))
    assert transposition_answer(first, second) == "no"


@FAST
@given(melodies)
def test_empty_melody_is_undecidable(melody: list[int]) -> None:
    assert are_transpositions(melody, []) is None
    assert are_transpositions([], melody) is None
    assert transposition_answer([], melody) is None
    assert transposition_answer([], []) is None


def test_single_notes_are_transpositions() -> None:
    assert are_transpositions([60], [71]) is True


def test_retrograde_and_inversion_are_not_transpositions() -> None:
    melody = [60, 62, 64, 65, 67]
    assert are_transpositions(melody, melody[::-1]) is False
    assert are_transpositions(melody, [120 - pitch for pitch in melody]) is False


# --- Chord quality -----------------------------------------------------------------------------

qualities = st.sampled_from(sorted(CHORD_INTERVALS))


@st.composite
def voicings(draw: st.DrawFn) -> tuple[str, list[int]]:
    """A root-position voicing: root lowest, chord tones with optional doublings above it."""
    quality = draw(qualities)
    root = draw(st.integers(0, 80))
    tones = [root + semitones for semitones in CHORD_INTERVALS[quality]]
    extra = draw(
        st.lists(
            st.tuples(st.sampled_from(tones), st.integers(0, 3)).map(lambda t: t[0] + 12 * t[1]),
            max_size=6,
        )
    )
    voiced = tones + [pitch for pitch in extra if pitch <= 127]
    return quality, draw(st.permutations(voiced))


@FAST
@given(voicings())
def test_root_position_voicings_are_classified(case: tuple[str, list[int]]) -> None:
    quality, voiced = case
    assert chord_quality(voiced) == quality
    assert chord_answer(voiced) == CHORD_LETTER_BY_QUALITY[quality]


@FAST
@given(voicings(), st.data())
def test_quality_is_invariant_under_transposition(
    case: tuple[str, list[int]], data: st.DataObject
) -> None:
    quality, voiced = case
    shift = data.draw(st.integers(-min(voiced), 127 - max(voiced)), label="shift")
    assert chord_quality([pitch + shift for pitch in voiced]) == quality


@FAST
@given(voicings(), st.data())
def test_doubling_a_chord_tone_above_the_root_keeps_quality(
    case: tuple[str, list[int]], data: st.DataObject
) -> None:
    quality, voiced = case
    root = min(voiced)
    tone = data.draw(st.sampled_from(voiced), label="tone")
    octaves = data.draw(st.integers(0, 4), label="octaves")
    doubled = tone + 12 * octaves
    assume(doubled <= 127 and doubled >= root)
    assert chord_quality([*voiced, doubled]) == quality


@FAST
@given(qualities, st.integers(12, 100), st.data())
def test_inversions_are_not_read_as_root_position(
    quality: str, root: int, data: st.DataObject
) -> None:
    """The lowest note is taken as the root: an inverted chord must not pass as its quality."""
    tones = [root + semitones for semitones in CHORD_INTERVALS[quality]]
    bass = data.draw(st.sampled_from(tones[1:]), label="bass")
    inverted = [bass] + [tone + 12 if tone < bass else tone for tone in tones if tone != bass]
    assert chord_quality(inverted) != quality
    assert chord_quality(inverted) is None


@FAST
@given(st.lists(pitches, min_size=1, max_size=10))
def test_anything_else_is_unclassified(chord: list[int]) -> None:
    known = set(CHORD_INTERVALS.values())
    if pitch_class_set(chord) in known:
        assert chord_quality(chord) is not None
    else:
        assert chord_quality(chord) is None
        assert chord_answer(chord) is None


def test_pitch_class_set_examples() -> None:
    assert pitch_class_set([56, 60, 64, 67, 72, 76]) == (0, 4, 8, 11)
    assert pitch_class_set([60, 76, 67, 64, 72]) == (0, 4, 7)
    assert pitch_class_set([]) == ()
    assert chord_quality([]) is None
    assert chord_quality([60]) is None
    assert chord_quality([60, 63, 66, 69]) is None  # fully diminished seventh is not an option
    assert chord_quality([60, 64, 67, 71]) is None  # major seventh is not "dominant"
    assert chord_answer([48, 60, 63, 67]) == "B"
    assert chord_answer([62, 66, 69, 72]) == "C"
    assert chord_answer([59, 62, 65]) == "D"
