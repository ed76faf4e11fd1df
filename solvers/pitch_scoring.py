"""Score a model's answer to a pitch-hearing question against its ground truth.

``score_answer`` finds where the reply commits to its answer (``reply_spans.read_reply``: a
``Final Answer:`` line or block, a boxed or JSON answer, an answer sentence, a short last

line), reads it in the form the question asked for (:mod:`solvers.pitch_reading`: hedges,
restatements in other notations, direction words, explanations) and compares it with the
truth. Failures are kept apart from a wrong answer: ``"no_final_answer"`` (no answer span at
all), ``"hedged_answer"`` (two different answers, "X or Y", a restatement or sign word that
contradicts the answer) and ``"unparseable_answer"`` (an answer is there but in no form
a grader reads: a bare number in an SPN question; a form that names its own notation, ``F#4``
asked in MIDI, is read). All are scored as not correct; the error class lets reports show
instruction following separately. Partial credit (:mod:`solvers.pitch_credit`) is kept beside
the verdict.

Answer kinds and their truths:

* ``pitch`` — truth ``(midi,)``; exactly one pitch (repeats of the same pitch are fine).
  Solfège compares pitch classes; hertz the nearest equal-tempered note, keeping cents.
* ``pitch_set`` — truth sorted MIDI notes; the set must match (order free, duplicates collapse).
* ``pitch_sequence`` — truth MIDI notes in order; every position must match; ``f1`` is the
  ordered-note F1 = 2·LCS / (N_true + N_pred) (0 when nothing could be read).
* ``integer`` — truth ``(n,)``; exactly one integer ("+7", "−3", "minus three", "7.0"). A
  direction word next to the number signs it ("5 semitones lower" is -5).
* ``timestamps`` — truth seconds (onset1, offset1, ...); the count must match and each time be
  within ``TIMESTAMP_TOLERANCE_S`` (inclusive) of its truth. Clock times, or seconds (bare or
  with a unit) when no clock time is written.
* ``contour`` — truth tokens "up"/"down"; the whole token sequence must match ("u, d, u" too).
* ``ranks`` — truth 1-based positions lowest → highest; the answer must be a permutation of
  1..N ("2nd" and "second" count as 2) and match exactly.
* ``choice`` — truth ``(label,)`` among ``options``; exactly one option named (see
  :func:`solvers.pitch_words.read_choice`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .asking_back import unless_asking_back
from .foreign_notes import in_english_notes
from .helmholtz import helmholtz_as_spn
from .metrics import f1_from_counts
from .notation import NOTATIONS, OCTAVE_FREE_NOTATIONS
from .pitch_choice import choice_reader
from .pitch_credit import contour_credit, integer_credit, pitch_credit, rank_credit, timing_credit
from .pitch_numbers import format_timestamp, parse_timestamp
from .pitch_offsets import with_offsets
from .pitch_reading import (
    PitchAnswer,
    contour_reader,
    integer_reader,
    pitch_reader,
    ranks_reader,
    timestamps_reader,
)
from .ranked_leans import unless_ranked
from .reply_spans import HEDGE, Reading, read_reply
from .restated_pitches import unless_restated_otherwise
from .span_text import EMPTY
from .suppositions import unless_supposed

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
    ``answer_source`` says where the answer was found (``final_line``, ``answer_sentence``…),
    ``answer_via`` how it was written (``midi+spn``, ``bare_seconds``…); ``credit`` holds the
    partial-credit figures that apply (see :mod:`solvers.pitch_credit`).
    """

    correct: bool
    parsed: object | None
    error_class: str | None
    message: str | None
    cents_error: float | None = None
    f1: float | None = None
    answer_source: str | None = None
    answer_via: str | None = None
    credit: dict = field(default_factory=dict, compare=False)


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


def _key(midi_note: int, notation: str) -> int:
    return midi_note % 12 if notation in OCTAVE_FREE_NOTATIONS else midi_note


def _judge(kind: str, truth: tuple, answer: object, notation: str | None) -> PitchVerdict:
    """Compare an answer as read with the truth; the verdict without source fields."""
    cents = f1 = None
    credit: dict = {}
    if kind in PITCH_KINDS:
        assert isinstance(answer, PitchAnswer)
        parsed: object = list(answer.keys)
        expected: object = [_key(int(m), str(notation)) for m in truth]
        octave_free = notation in OCTAVE_FREE_NOTATIONS
        if kind == "pitch_set":
            expected = sorted(set(expected))
        else:
            credit = pitch_credit([int(m) for m in truth], answer.keys, octave_free,
                                  answer.freqs_hz)
        if kind == "pitch":
            parsed, expected = parsed[0], expected[0]
            cents = answer.cents_errors[0] if answer.cents_errors else None
        if kind == "pitch_sequence":
            f1 = ordered_note_f1(expected, parsed)
        correct = parsed == expected
    elif kind == "integer":
        parsed, expected = answer, int(truth[0])
        correct, credit = parsed == expected, integer_credit(expected, int(answer))
    elif kind == "timestamps":
        parsed, expected = list(answer), [float(t) for t in truth]
        correct = len(parsed) == len(expected) and all(
            abs(t - e) <= TIMESTAMP_TOLERANCE_S + _FLOAT_SLACK
            for t, e in zip(parsed, expected, strict=True)
        )
        credit = timing_credit(expected, parsed)
    elif kind == "contour":
        parsed, expected = list(answer), [str(token) for token in truth]
        correct, credit = parsed == expected, contour_credit(expected, parsed)
    elif kind == "ranks":
        parsed, expected = list(answer), [int(p) for p in truth]
        correct, credit = parsed == expected, rank_credit(expected, parsed)
    else:
        parsed, expected = answer, truth[0]
        correct = parsed == expected
    message = None if correct else f"read {parsed!r}, expected {expected!r}"
    return PitchVerdict(correct, parsed, None, message, cents_error=cents, f1=f1, credit=credit)


# --- Dispatch ----------------------------------------------------------------------------------


def span_reader(kind: str, notation: str | None, options: tuple[str, ...] = (),
                option_pitches: tuple[int, ...] = ()):
    """The span reader of a kind, remembering spans already read (a reply may repeat one)."""
    if kind not in ANSWER_KINDS:
        raise ValueError(f"unknown answer kind {kind!r}; expected one of {ANSWER_KINDS}")
    if kind in PITCH_KINDS and notation not in NOTATIONS:
        raise ValueError(f"kind {kind!r} needs a notation in {NOTATIONS}, got {notation!r}")
    if kind == "pitch":  # "A4 plus about 60 cents" is A#4 (round 24)
        read = with_offsets(pitch_reader(str(notation), kind), notation in OCTAVE_FREE_NOTATIONS)
    elif kind in PITCH_KINDS:
        read = pitch_reader(str(notation), kind)
    elif kind == "choice":
        read = choice_reader(options, notation, option_pitches)
    else:
        read = {"integer": integer_reader, "timestamps": timestamps_reader,
                "contour": contour_reader, "ranks": ranks_reader}[kind]
    seen: dict[tuple[str, str], tuple] = {}

    def remembered(text: str, source: str) -> tuple:
        if (text, source) not in seen:  # a source may change the reading ("last_clause")
            seen[text, source] = read(text, source)
        return seen[text, source]

    return remembered


def read_pitch_reply(reply: str, read_span, notation: str | None, kind: str) -> Reading:
    """The one reading of a pitch-family reply, for the bench's scoring and the public reading
    API alike: the tiers of ``read_reply``, then the vetoes that look past the answer's span (a
    pitch only supposed, restated otherwise in the reasoning, or a reply asking back); a reply's
    note names of another language in English ones first, unless its letters name options
    (German "B" is B flat, never option B; round 26)."""
    if kind != "choice" and isinstance(reply, str):
        reply = in_english_notes(reply, notation)
    reading = unless_ranked(read_reply(helmholtz_as_spn(reply), read_span), reply, read_span,
                            lambda leaned: read_reply(helmholtz_as_spn(leaned), read_span))
    if kind in PITCH_KINDS:
        reading = unless_supposed(reading, notation)
    return unless_asking_back(unless_restated_otherwise(reading, reply, notation, kind), reply)


def score_answer(
    kind: str,
    truth: tuple,
    reply: str,
    notation: str | None = None,
    options: tuple[str, ...] = (),
    option_pitches: tuple[int, ...] = (),
) -> PitchVerdict:
    """Score one reply. Malformed model output is a verdict; a malformed call raises ValueError.

    ``notation`` is required for the pitch kinds (one of ``NOTATIONS``) and optional for
    ``choice`` (options that are pitches are then read in it); ``options`` only for ``choice``;
    ``option_pitches`` the MIDI note behind each lettered option, when the options stand for
    pitches (the answer may then name the pitch instead of the letter).
    """
    if kind not in ANSWER_KINDS:
        raise ValueError(f"unknown answer kind {kind!r}; expected one of {ANSWER_KINDS}")
    if not isinstance(truth, tuple) or not truth:
        raise ValueError(f"truth must be a non-empty tuple, got {truth!r}")
    if kind in PITCH_KINDS and notation not in NOTATIONS:
        raise ValueError(f"kind {kind!r} needs a notation in {NOTATIONS}, got {notation!r}")
    if kind == "choice" and (not options or truth[0] not in options):
        raise ValueError(f"choice truth {truth!r} must be one of the options {options!r}")
    reading = read_pitch_reply(reply, span_reader(kind, notation, tuple(options),
                                                  tuple(option_pitches)), notation, kind)
    if reading.answer is None:
        f1 = 0.0 if kind == "pitch_sequence" else None
        if reading.error == HEDGE:
            error, message = "hedged_answer", "the reply gives more than one answer"
        elif reading.source is None or reading.error == EMPTY:
            error, message = "no_final_answer", "no answer could be read"
        else:
            error, message = "unparseable_answer", reading.error
        return PitchVerdict(False, None, error, message, f1=f1, answer_source=reading.source)
    verdict = _judge(kind, truth, reading.answer, notation)
    return PitchVerdict(
        verdict.correct, verdict.parsed, None, verdict.message, verdict.cents_error, verdict.f1,
        reading.source, reading.via, verdict.credit,
    )
