"""Deterministic solvers for the three LogicLM tasks.

The model only transcribes; these functions make the musical decision from the transcription, so
a correct final answer is grounded in what the model claims to have heard. Each solver returns
None when the transcription does not determine an answer, rather than guessing.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

# --- Syncopation -------------------------------------------------------------------------------

GRID_SLOT_FIRST = 1
GRID_SLOT_LAST = 32  # 4 bars x 8 eighth-note slots

SYNCOPATION_LETTER_BY_COUNT: dict[int, str] = {0: "A", 2: "B", 4: "C", 6: "D", 8: "E"}


def is_offbeat(slot: int) -> bool:
    """True for an off-beat eighth-note slot ("and"); odd slots are the beats 1-4 of a bar.

    Raises ValueError outside the 1..32 grid: an out-of-grid slot has no metrical meaning and
    must be caught by the schema parser, not silently counted.
    """
    if not GRID_SLOT_FIRST <= slot <= GRID_SLOT_LAST:
        raise ValueError(f"slot {slot} is outside the {GRID_SLOT_FIRST}..{GRID_SLOT_LAST} grid")
    return slot % 2 == 0


def count_offbeats(onset_slots: Sequence[int]) -> int:
    """Number of kick/snare onsets that fall on off-beat slots (each listed onset counts)."""
    return sum(1 for slot in onset_slots if is_offbeat(slot))


def syncopation_answer(onset_slots: Sequence[int]) -> str | None:
    """Multiple-choice letter for the off-beat count, or None if the count is not an option."""
    return SYNCOPATION_LETTER_BY_COUNT.get(count_offbeats(onset_slots))


# --- Transposition -----------------------------------------------------------------------------


def intervals(pitches: Sequence[int]) -> tuple[int, ...]:
    """Semitone steps between successive notes (0 for a repeated note)."""
    return tuple(later - earlier for earlier, later in pairwise(pitches))


def are_transpositions(first: Sequence[int], second: Sequence[int]) -> bool | None:
    """Whether two melodies are the same up to transposition; None if either is empty.

    Same melody means same note count and same interval sequence; key and register are
    irrelevant, so two single notes are always transpositions of each other.
    """
    if not first or not second:
        return None
    if len(first) != len(second):
        return False
    if len(first) == 1:
        return True
    return intervals(first) == intervals(second)


def transposition_answer(first: Sequence[int], second: Sequence[int]) -> str | None:
    """Answer the same-melody question with "yes" or "no"; None when undecidable."""
    same = are_transpositions(first, second)
    if same is None:
        return None
    return "yes" if same else "no"


# --- Chord quality -----------------------------------------------------------------------------

CHORD_INTERVALS: dict[str, tuple[int, ...]] = {
    "major": (0, 4, 7),
    "minor": (0, 3, 7),
    "dominant": (0, 4, 7, 10),
    "diminished": (0, 3, 6),
}

CHORD_LETTER_BY_QUALITY: dict[str, str] = {
    "major": "A",
    "minor": "B",
    "dominant": "C",
    "diminished": "D",
}

_QUALITY_BY_INTERVALS: dict[tuple[int, ...], str] = {
    semitones: quality for quality, semitones in CHORD_INTERVALS.items()
}


def pitch_class_set(pitches: Sequence[int]) -> tuple[int, ...]:
    """Sorted distinct pitch classes measured in semitones above the lowest pitch.

    The stimuli are in root position, so the lowest note is the root; octave doublings and
    repeated notes collapse into the same class. Empty input gives ().
    """
    if not pitches:
        return ()
    root_pitch = min(pitches)
    return tuple(sorted({(pitch - root_pitch) % 12 for pitch in pitches}))


def chord_quality(pitches: Sequence[int]) -> str | None:
    """Name the chord quality (a key of CHORD_INTERVALS); None for any other pitch-class set."""
    return _QUALITY_BY_INTERVALS.get(pitch_class_set(pitches))


def chord_answer(pitches: Sequence[int]) -> str | None:
    """Multiple-choice letter A-D for the chord quality, or None if it matches no option."""
    quality = chord_quality(pitches)
    return None if quality is None else CHORD_LETTER_BY_QUALITY[quality]
