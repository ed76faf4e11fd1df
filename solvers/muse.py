"""Pure parsers and solvers of the MUSE family's LogicLM schemas (fixtures/muse/).

As for the core tasks, the model only transcribes (pitches, onset slots, chords, a program
number) and these functions decide; each returns None when the transcription determines no
answer, rather than guessing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

from .logic import count_offbeats, intervals
from .schemas import (
    MIDI_PITCH_RANGE,
    SchemaError,
    _check_identifier,
    _check_non_empty,
    _check_range,
    _require_lines,
)

Lines = tuple[tuple[int, ...], ...]

# --- parsing ----------------------------------------------------------------------------------


def parse_lines(text: str, name: str, identifiers: Sequence[str], count: int,
                value_range: tuple[int, int] = MIDI_PITCH_RANGE, non_empty: bool = True,
                distinct: bool = False) -> Lines:
    """``count`` lines ``name(identifier, [ints])`` in order; ``identifiers`` names each line's
    stimulus (one per line, or one for all lines of a single stimulus)."""
    lines = _require_lines(text, name, count)
    expected = list(identifiers) if len(identifiers) == count else [identifiers[0]] * count
    for line, identifier in zip(lines, expected, strict=True):
        _check_identifier(line, identifier)
        if non_empty:
            _check_non_empty(line, "values")
        _check_range(line, value_range, "values")
        if distinct:
            repeated = sorted(v for v, times in Counter(line.values).items() if times > 1)
            if repeated:
                listed = ", ".join(str(v) for v in repeated)
                raise SchemaError("domain", f"{name}(...) lists value(s) more than once: {listed}")
    return tuple(line.values for line in lines)


# --- melody shape -----------------------------------------------------------------------------

CONTOUR_LETTER: dict[str, str] = {
    "ascending": "A", "descending": "B", "arch": "C", "inverted arch": "D",
}


def contour(pitches: Sequence[int]) -> str | None:
    """"ascending", "descending", "arch" (up, then down) or "inverted arch" (down, then up)
    from the directions of the steps, repeated notes ignored; None for any other shape."""
    signs = [1 if step > 0 else -1 for step in intervals(pitches) if step]
    runs = [sign for index, sign in enumerate(signs) if index == 0 or sign != signs[index - 1]]
    return {(1,): "ascending", (-1,): "descending", (1, -1): "arch",
            (-1, 1): "inverted arch"}.get(tuple(runs))


def contour_answer(pitches: Sequence[int]) -> str | None:
    shape = contour(pitches)
    return None if shape is None else CONTOUR_LETTER[shape]


# --- oddball ----------------------------------------------------------------------------------

MAJOR_SCALE_STEPS = (0, 2, 4, 5, 7, 9, 11)


def out_of_key(tonic_pc: int, pitches: Sequence[int]) -> tuple[int, ...]:
    """The pitches whose pitch class is not in the major scale on ``tonic_pc`` (0 = C)."""
    return tuple(p for p in pitches if (p - tonic_pc) % 12 not in MAJOR_SCALE_STEPS)


def oddball_answer(tonic_pc: int, pitches: Sequence[int]) -> str | None:
    """"yes" when a note lies outside the major key, "no" when none does; None without notes."""
    if not pitches:
        return None
    return "yes" if out_of_key(tonic_pc, pitches) else "no"


# --- rhythm matching, syncopation comparison, meter -------------------------------------------


def rhythm_match_answer(first: Sequence[int], second: Sequence[int]) -> str:
    """"yes" when the two onset grids are the same set of slots, else "no"."""
    return "yes" if set(first) == set(second) else "no"


def sync_compare_answer(first: Sequence[int], second: Sequence[int]) -> str | None:
    """"A" when the first loop has more off-beat (even-slot) hits, "B" when the second has;
    None when they have as many."""
    first_count, second_count = count_offbeats(first), count_offbeats(second)
    if first_count == second_count:
        return None
    return "A" if first_count > second_count else "B"


METER_LETTER: dict[str, str] = {"duple": "A", "triple": "B", "compound": "C"}


def meter(kicks: Sequence[int], snares: Sequence[int]) -> str | None:
    """The grouping of an eighth-note grid from its downbeats (kicks) and other beats (snares):
    kicks every 4 eighths with snares 2 after them: duple (2/4); every 6 with snares 2 and 4
    after: triple (3/4); every 6 with snares 3 after: compound (6/8); snares before the first
    kick count from the downbeat a bar earlier. None otherwise."""
    downbeats = sorted(set(kicks))
    gaps = {later - earlier for earlier, later in pairwise(downbeats)}
    if len(gaps) != 1 or not snares:
        return None
    (bar,) = gaps
    offsets = set()
    for slot in snares:
        before = [k for k in downbeats if k <= slot] or [downbeats[0] - bar]  # a pickup bar
        if not 0 < slot - before[-1] < bar:
            return None
        offsets.add(slot - before[-1])
    shapes = {(4, (2,)): "duple", (6, (2, 4)): "triple", (6, (3,)): "compound"}
    return shapes.get((bar, tuple(sorted(offsets))))


def meter_answer(kicks: Sequence[int], snares: Sequence[int]) -> str | None:
    found = meter(kicks, snares)
    return None if found is None else METER_LETTER[found]


# --- key modulation, chord sequences, instruments ---------------------------------------------

# Krumhansl & Kessler's major-key profile (probe-tone ratings), tonic first.
MAJOR_PROFILE = (6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88)


def major_key(pitches: Sequence[int]) -> int | None:
    """The tonic pitch class (0 = C) of the major key whose Krumhansl-Kessler profile best
    correlates with the pitch-class counts of ``pitches`` (Krumhansl-Schmuckler); None for
    no pitches or a tie."""
    counts = [0.0] * 12
    for pitch in pitches:
        counts[pitch % 12] += 1
    if not any(counts):
        return None
    scores = [_correlation(counts, MAJOR_PROFILE[-tonic:] + MAJOR_PROFILE[:-tonic])
              for tonic in range(12)]
    best = max(scores)
    winners = [tonic for tonic, score in enumerate(scores) if best - score < 1e-9]
    return winners[0] if len(winners) == 1 else None


def _correlation(first: Sequence[float], second: Sequence[float]) -> float:
    mean_1, mean_2 = sum(first) / len(first), sum(second) / len(second)
    covariance = sum((a - mean_1) * (b - mean_2) for a, b in zip(first, second, strict=True))
    spread = (sum((a - mean_1) ** 2 for a in first) * sum((b - mean_2) ** 2 for b in second))
    return covariance / spread ** 0.5 if spread else 0.0


def modulation_answer(chords: Sequence[Sequence[int]]) -> str | None:
    """"yes" when the major key of the second half of the chords differs from the first
    half's, "no" when it is the same; None for an odd chord count or an unclear key."""
    if not chords or len(chords) % 2:
        return None
    half = len(chords) // 2
    keys = [major_key([p for chord in part for p in chord])
            for part in (chords[:half], chords[half:])]
    if None in keys:
        return None
    return "no" if keys[0] == keys[1] else "yes"


def progression_answer(first_roots: Sequence[int], second_roots: Sequence[int]) -> str | None:
    """"yes" when two progressions' roots move by the same intervals (octaves folded): the same
    functions in another key; "no" otherwise; None when a progression is empty."""
    if not first_roots or not second_roots:
        return None
    if len(first_roots) != len(second_roots):
        return "no"
    steps = [tuple((b - a) % 12 for a, b in pairwise(roots))
             for roots in (first_roots, second_roots)]
    return "yes" if steps[0] == steps[1] else "no"


INSTRUMENT_LETTER: dict[int, str] = {0: "A", 40: "B", 56: "C", 73: "D"}  # GM program -> option


def instrument_answer(program: int) -> str | None:
    """The option of a GM program (0-based): any of the eight pianos (0-7) is the piano."""
    return INSTRUMENT_LETTER.get(0 if 0 <= program <= 7 else program)
