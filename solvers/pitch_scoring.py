"""Score a model's answer to a pitch-hearing question against its ground truth.

``score_answer`` reads the final answer line (see :func:`solvers.answers.final_answer_value`),
reads it in the form the question asked for, and compares it with the truth. Two failures are
kept apart from a wrong answer: ``"no_final_answer"`` (nothing could be read at all) and
``"unparseable_answer"`` (an answer is there but not in the requested form, or it is
ambiguous: two different pitches for one, a number that is no integer, two options). Both are
scored as not correct; the error class lets reports show instruction following separately.

Answer kinds and their truths:

* ``pitch`` — truth ``(midi,)``; exactly one pitch (repeats of the same pitch are fine).
  Solfège compares pitch classes; hertz the nearest equal-tempered note, keeping cents.
* ``pitch_set`` — truth sorted MIDI notes; the set must match (order free, duplicates collapse).
* ``pitch_sequence`` — truth MIDI notes in order; every position must match; ``f1`` is the
  ordered-note F1 = 2·LCS / (N_true + N_pred) (0 when nothing could be read).
* ``integer`` — truth ``(n,)``; exactly one integer ("+7", "−3", "minus three"). An unsigned
  number next to one direction word is signed by it ("7 semitones down" is -7); a written sign
  that contradicts the word, or up and down words together, is unparseable.
* ``timestamps`` — truth seconds (onset1, offset1, ...); the count must match and each time be
  within ``TIMESTAMP_TOLERANCE_S`` (inclusive) of its truth. Formats: see
  :mod:`solvers.pitch_numbers`.
* ``contour`` — truth tokens "up"/"down"; the whole token sequence must match.
* ``ranks`` — truth 1-based positions lowest → highest; the answer must be a permutation of
  1..N ("2nd" counts as 2) and match exactly.
* ``choice`` — truth ``(label,)`` among ``options``; exactly one option named (see
  :func:`solvers.pitch_words.read_choice`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .answers import final_answer_value
from .metrics import f1_from_counts
from .notation import (
    NOTATIONS,
    OCTAVE_FREE_NOTATIONS,
    ParsedPitch,
    find_pitches,
    format_pitch,
    has_decimal_comma,
)
from .pitch_numbers import (
    direction_sign,
    find_integers,
    find_timestamps,
    format_timestamp,
    parse_timestamp,
)
from .pitch_words import read_choice, read_contour

__all__ = [
    "ANSWER_KINDS",
    "TIMESTAMP_TOLERANCE_S",
    "PitchVerdict",
    "format_timestamp",
    "lcs_length",
    "ordered_note_f1",
    "parse_timestamp",
    "score_answer",
]

ANSWER_KINDS = (
    "pitch",
    "pitch_set",
    "pitch_sequence",
    "integer",
    "timestamps",
    "contour",
    "ranks",
    "choice",
)
PITCH_KINDS = ("pitch", "pitch_set", "pitch_sequence")
TIMESTAMP_TOLERANCE_S = 0.25
_FLOAT_SLACK = 1e-9  # so a time exactly 0.25 s off is inside the tolerance despite rounding


@dataclass(frozen=True)
class PitchVerdict:
    """How one answer scored.

    ``parsed`` is the answer as read, in canonical JSON-able form (MIDI int or pitch class for
    solfège, lists of them, seconds, tokens, an option label); None when nothing was read.
    """

    correct: bool
    parsed: object | None
    error_class: str | None
    message: str | None
    cents_error: float | None = None
    f1: float | None = None


def lcs_length(a: Sequence[object], b: Sequence[object]) -> int:
    """Length of the longest common subsequence of a and b (dynamic programming)."""
    previous = [0] * (len(b) + 1)
    for item in a:
        current = [0]
        for j, other in enumerate(b):
            current.append(previous[j] + 1 if item == other else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def ordered_note_f1(true: Sequence[int], predicted: Sequence[int]) -> float:
    """2·LCS / (N_true + N_pred): credit for notes in the right order, 1.0 when both empty."""
    common = lcs_length(true, predicted)
    return f1_from_counts(common, len(predicted) - common, len(true) - common)


def _unparseable(message: str, f1: float | None = None) -> PitchVerdict:
    return PitchVerdict(False, None, "unparseable_answer", message, f1=f1)


def _judged(parsed: object, truth: object, correct: bool, **extra: float | None) -> PitchVerdict:
    message = None if correct else f"read {parsed!r}, expected {truth!r}"
    return PitchVerdict(correct, parsed, None, message, **extra)


# --- Pitches -----------------------------------------------------------------------------------


def _pitch_key(pitch: ParsedPitch | int, notation: str) -> int:
    """What is compared: the pitch class in octave-free notations, else the MIDI note."""
    if isinstance(pitch, int):
        return pitch % 12 if notation in OCTAVE_FREE_NOTATIONS else pitch
    if notation in OCTAVE_FREE_NOTATIONS or pitch.midi_note is None:
        return pitch.pitch_class
    return pitch.midi_note


def _read_pitches(value: str, notation: str) -> tuple[list[ParsedPitch], str | None]:
    if notation == "hz" and has_decimal_comma(value):
        return [], "a decimal comma (e.g. 261,63) is ambiguous; write frequencies with a point"
    pitches = find_pitches(value, notation)
    if not pitches:
        example = format_pitch(66, notation)
        return [], f"no pitch in {notation} notation (like {example!r}) in the answer"
    return pitches, None


def _score_pitch(truth: tuple, value: str, notation: str) -> PitchVerdict:
    pitches, why = _read_pitches(value, notation)
    if why:
        return _unparseable(why)
    keys = list(dict.fromkeys(_pitch_key(p, notation) for p in pitches))
    if len(keys) > 1:
        return _unparseable(f"several different pitches given: {keys}")
    expected = _pitch_key(int(truth[0]), notation)
    return _judged(keys[0], expected, keys[0] == expected, cents_error=pitches[0].cents_error)


def _score_pitch_set(truth: tuple, value: str, notation: str) -> PitchVerdict:
    pitches, why = _read_pitches(value, notation)
    if why:
        return _unparseable(why)
    parsed = sorted({_pitch_key(p, notation) for p in pitches})
    expected = sorted({_pitch_key(int(m), notation) for m in truth})
    return _judged(parsed, expected, parsed == expected)


def _score_pitch_sequence(truth: tuple, value: str, notation: str) -> PitchVerdict:
    pitches, why = _read_pitches(value, notation)
    if why:
        return _unparseable(why, f1=0.0)
    parsed = [_pitch_key(p, notation) for p in pitches]
    expected = [_pitch_key(int(m), notation) for m in truth]
    return _judged(parsed, expected, parsed == expected, f1=ordered_note_f1(expected, parsed))


# --- Numbers, times, words ---------------------------------------------------------------------


def _score_integer(truth: tuple, value: str) -> PitchVerdict:
    integers = find_integers(value)
    if integers is None:
        return _unparseable("the answer holds a number that is not a plain integer")
    distinct = list(dict.fromkeys(integers))
    if len({written.value for written in distinct}) != 1:
        found = [written.value for written in distinct]
        return _unparseable(f"expected exactly one integer, found {found or 'none'}")
    written = distinct[0]
    direction = direction_sign(value)
    if direction is None:
        return _unparseable("the answer names both directions (up and down)")
    number = written.value
    if direction and number != 0:
        if written.signed and (number > 0) != (direction > 0):
            return _unparseable(f"the sign of {number} contradicts the direction word")
        number = abs(number) * direction
    expected = int(truth[0])
    return _judged(number, expected, number == expected)


def _score_timestamps(truth: tuple, value: str) -> PitchVerdict:
    times = find_timestamps(value)
    if times is None:
        return _unparseable("a timestamp is malformed or ambiguous (use MM:SS.cc)")
    if not times:
        return _unparseable("no timestamp (MM:SS.cc) in the answer")
    parsed = [round(t, 3) for t in times]
    expected = [float(t) for t in truth]
    if len(times) != len(expected):
        return PitchVerdict(
            False, parsed, None, f"{len(times)} timestamps given, {len(expected)} expected"
        )
    within = all(
        abs(t - e) <= TIMESTAMP_TOLERANCE_S + _FLOAT_SLACK
        for t, e in zip(times, expected, strict=True)
    )
    return _judged(parsed, expected, within)


def _score_contour(truth: tuple, value: str) -> PitchVerdict:
    steps, why = read_contour(value)
    if steps is None:
        return _unparseable(why or "no contour")
    expected = [str(token) for token in truth]
    return _judged(steps, expected, steps == expected)


def _score_ranks(truth: tuple, value: str) -> PitchVerdict:
    integers = find_integers(value, allow_ordinals=True)
    if not integers:
        return _unparseable("no position numbers in the answer")
    ranks = [written.value for written in integers]
    if sorted(ranks) != list(range(1, len(ranks) + 1)):
        return _unparseable(f"{ranks} is not an ordering of the positions 1..{len(ranks)}")
    expected = [int(position) for position in truth]
    return _judged(ranks, expected, ranks == expected)


def _score_choice(
    truth: tuple, value: str, notation: str | None, options: tuple[str, ...]
) -> PitchVerdict:
    if not options or truth[0] not in options:
        raise ValueError(f"choice truth {truth!r} must be one of the options {options!r}")
    label, why = read_choice(value, options, notation)
    if label is None:
        return _unparseable(why or "no option named")
    return _judged(label, truth[0], label == truth[0])


# --- Dispatch ----------------------------------------------------------------------------------

_PITCH_SCORERS: dict[str, Callable[[tuple, str, str], PitchVerdict]] = {
    "pitch": _score_pitch,
    "pitch_set": _score_pitch_set,
    "pitch_sequence": _score_pitch_sequence,
}
_PLAIN_SCORERS: dict[str, Callable[[tuple, str], PitchVerdict]] = {
    "integer": _score_integer,
    "timestamps": _score_timestamps,
    "contour": _score_contour,
    "ranks": _score_ranks,
}


def score_answer(
    kind: str,
    truth: tuple,
    reply: str,
    notation: str | None = None,
    options: tuple[str, ...] = (),
) -> PitchVerdict:
    """Score one reply. Malformed model output is a verdict; a malformed call raises ValueError.

    ``notation`` is required for the pitch kinds (one of ``NOTATIONS``) and optional for
    ``choice`` (options that are pitches are then read in it); ``options`` only for ``choice``.
    """
    if kind not in ANSWER_KINDS:
        raise ValueError(f"unknown answer kind {kind!r}; expected one of {ANSWER_KINDS}")
    if not isinstance(truth, tuple) or not truth:
        raise ValueError(f"truth must be a non-empty tuple, got {truth!r}")
    if kind in PITCH_KINDS and notation not in NOTATIONS:
        raise ValueError(f"kind {kind!r} needs a notation in {NOTATIONS}, got {notation!r}")
    value = final_answer_value(reply)
    if value is None or not value:
        f1 = 0.0 if kind == "pitch_sequence" else None
        return PitchVerdict(False, None, "no_final_answer", "no answer could be read", f1=f1)
    if kind in _PITCH_SCORERS:
        return _PITCH_SCORERS[kind](truth, value, str(notation))
    if kind == "choice":
        return _score_choice(truth, value, notation, tuple(options))
    return _PLAIN_SCORERS[kind](truth, value)
