"""Pitch answer scoring: a reply built from the truth is right, one changed position is wrong."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from solvers.notation import NOTATIONS, OCTAVE_FREE_NOTATIONS, format_pitch, midi_to_hz
from solvers.pitch_scoring import (
    ANSWER_KINDS,
    format_timestamp,
    lcs_length,
    ordered_note_f1,
    score_answer,
)
from solvers.pitch_words import CHORD_QUALITY_ALIASES

FAST = settings(max_examples=200, deadline=None)

QUALITIES = (
    "major", "minor", "diminished", "augmented", "dominant seventh", "major seventh",
    "minor seventh", "half-diminished", "sus2", "sus4",
)  # fmt: skip
LETTERS = ("A", "B", "C", "D", "E")
ORDER = ("first", "second")
HEADERS = ["Final Answer: {}", "**Final Answer:** {}", "final answer - {}", "Final Answer：{}"]

# Free prose before the answer line: anything except another committed answer (an "Answer:"
# line, a boxed or JSON answer), which issue 12 makes a second final answer, i.e. a hedge.
_COMMITS = ("answer", "\\boxed", "{", "option", "choice", "i'd go", "i would", "i will", "i pick",
            "i choose", "i select", "i opt", "i'll")
prose = st.text(max_size=200).filter(
    lambda text: not any(word in text.casefold() for word in _COMMITS)
) | st.sampled_from(
    [
        "I first thought C#4 (MIDI 61), maybe 3, but listen again.",
        "The second tone is lower, not higher; rise? fall? 00:01.00\nA minor? B dim?",
    ]
)


def wrap(answer: str, before: str, header: str = HEADERS[0]) -> str:
    return f"{before}\n{header.format(answer)}"


def key(midi_note: int, notation: str) -> int:
    return midi_note % 12 if notation in OCTAVE_FREE_NOTATIONS else midi_note


# --- Replies built from the truth --------------------------------------------------------------


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, tuple, str, str | None, tuple[str, ...]]:
    """(kind, truth, answer text, notation, options) with the answer written from the truth."""
    kind = draw(st.sampled_from(ANSWER_KINDS))
    notation = draw(st.sampled_from(NOTATIONS))
    if kind in ("pitch", "pitch_set", "pitch_sequence"):
        size = 1 if kind == "pitch" else draw(st.integers(1, 10))
        unique = kind == "pitch_set"
        notes = draw(st.lists(st.integers(21, 108), min_size=size, max_size=size, unique=unique))
        truth = tuple(sorted(notes)) if kind == "pitch_set" else tuple(notes)
        shown = draw(st.permutations(notes)) if kind == "pitch_set" else notes
        return kind, truth, ", ".join(format_pitch(m, notation) for m in shown), notation, ()
    if kind == "integer":
        n = draw(st.integers(-12, 12))
        written = draw(st.sampled_from([str(n), f"{n:+d}", str(n).replace("-", "\u2212")]))
        suffix = draw(st.sampled_from(["", " semitones", " (distinct pitches)"]))
        return kind, (n,), written + suffix, None, ()
    if kind == "timestamps":
        count = 2 * draw(st.integers(1, 8))
        times = sorted(draw(st.lists(st.floats(0.0, 59.5), min_size=count, max_size=count)))
        jitter = draw(st.lists(st.floats(-0.24, 0.24), min_size=count, max_size=count))
        shown = [format_timestamp(max(0.0, t + j)) for t, j in zip(times, jitter, strict=True)]
        return kind, tuple(times), ", ".join(shown), None, ()
    if kind == "contour":
        steps = draw(st.lists(st.sampled_from(["up", "down"]), min_size=1, max_size=8))
        words = {"up": ["up", "Up", "rising", "ascending", "\u2191"], "down": ["down", "falls"]}
        shown = [draw(st.sampled_from(words[step])) for step in steps]
        return kind, tuple(steps), ", ".join(shown), None, ()
    if kind == "ranks":
        order = draw(st.permutations(range(1, draw(st.integers(3, 7)) + 1)))
        return kind, tuple(order), ", ".join(map(str, order)), None, ()
    options = draw(st.sampled_from([QUALITIES, LETTERS, ORDER]))
    label = draw(st.sampled_from(options))
    shown = label
    if options is QUALITIES:
        shown = draw(st.sampled_from(CHORD_QUALITY_ALIASES[label]))
    return kind, (label,), shown, None, options


@FAST
@given(cases(), prose, st.sampled_from(HEADERS))
def test_a_reply_built_from_the_truth_is_correct_whatever_prose_comes_first(case, before, header):
    kind, truth, answer, notation, options = case
    verdict = score_answer(kind, truth, wrap(answer, before, header), notation, options)
    assert verdict.correct, (answer, verdict)
    assert verdict.error_class is None and verdict.message is None
    if kind == "pitch_sequence":
        assert verdict.f1 == 1.0


@FAST
@given(cases(), prose, st.data())
def test_a_reply_changed_at_one_position_is_wrong(case, before, data):
    kind, truth, answer, notation, options = case
    changed = list(truth)
    index = data.draw(st.integers(0, len(truth) - 1))
    if kind in ("pitch", "pitch_set", "pitch_sequence"):
        step = data.draw(st.sampled_from([1, -1, 2, 7, -5]))
        changed[index] += step
        if kind == "pitch_set":
            assume({key(m, notation) for m in changed} != {key(m, notation) for m in truth})
        answer = ", ".join(format_pitch(m, notation) for m in changed)
    elif kind == "integer":
        changed[index] += data.draw(st.sampled_from([1, -1, 12]))
        answer = str(changed[index])
    elif kind == "timestamps":
        changed[index] += data.draw(st.sampled_from([-1.0, 1.0])) * data.draw(st.floats(0.27, 5))
        assume(changed[index] >= 0.0)
        answer = ", ".join(format_timestamp(t) for t in changed)
    elif kind == "contour":
        changed[index] = "down" if changed[index] == "up" else "up"
        answer = ", ".join(changed)
    elif kind == "ranks":
        other = (index + 1) % len(truth)
        changed[index], changed[other] = changed[other], changed[index]
        answer = ", ".join(map(str, changed))
    else:
        answer = data.draw(st.sampled_from([o for o in options if o != truth[0]]))
    verdict = score_answer(kind, truth, wrap(answer, before), notation, options)
    assert not verdict.correct and verdict.error_class is None, (answer, verdict)
    if kind == "pitch_sequence":
        assert verdict.f1 < 1.0


# --- Pitch kinds -------------------------------------------------------------------------------


def test_one_pitch_must_be_given_exactly_once():
    assert score_answer("pitch", (60,), "Final Answer: C4 (C4)", "spn").correct
    assert score_answer("pitch", (60,), "Final Answer: C4 = B#3", "spn").correct
    two = score_answer("pitch", (60,), "Final Answer: C4 or C#4", "spn")
    # issue 12: two different pitches are a hedge (was unparseable_answer); never "first one wins"
    assert two.error_class == "hedged_answer" and not two.correct
    # issue 12: "middle C" is C4 to a grader (was unparseable_answer)
    assert score_answer("pitch", (60,), "Final Answer: middle C", "spn").correct
    none = score_answer("pitch", (60,), "Final Answer: C", "spn")
    assert none.error_class == "unparseable_answer"


@pytest.mark.parametrize("written", ["fa#", "fa#2", "FA#5", "sol b", "solb3"])
def test_solfege_is_scored_by_pitch_class(written):
    verdict = score_answer("pitch", (66,), f"Final Answer: {written}", "solfege")
    assert verdict.correct and verdict.parsed == 6


def test_hz_is_scored_by_nearest_note_and_records_cents():
    for cents in (-49, -20, 0, 20, 49):
        reply = f"Final Answer: {midi_to_hz(57 + cents / 100):.3f} Hz"
        verdict = score_answer("pitch", (57,), reply, "hz")
        assert verdict.correct and verdict.cents_error == pytest.approx(cents, abs=0.05)
    assert not score_answer("pitch", (57,), "Final Answer: 227 Hz", "hz").correct  # 58
    # issue 12: a decimal comma right before "Hz" is unambiguous and read (was unparseable)
    assert score_answer("pitch", (60,), "Final Answer: 261,63 Hz", "hz").correct
    comma = score_answer("pitch", (60,), "Final Answer: 261,63", "hz")
    assert comma.error_class == "unparseable_answer"


def test_pitch_set_ignores_order_and_duplicates_but_not_octaves():
    truth = (60, 64, 67)
    assert score_answer("pitch_set", truth, "Final Answer: G4, C4, E4, C4", "spn").correct
    assert not score_answer("pitch_set", truth, "Final Answer: C4, E4, G5", "spn").correct
    assert score_answer("pitch_set", truth, "Final Answer: sol, do, mi", "solfege").correct
    assert not score_answer("pitch_set", truth, "Final Answer: C4, E4", "spn").correct


def test_pitch_sequence_is_position_exact_with_ordered_f1():
    truth = (60, 62, 64, 65)
    verdict = score_answer("pitch_sequence", truth, "Final Answer: 60, 62, 65", "midi")
    assert not verdict.correct and verdict.f1 == pytest.approx(2 * 3 / 7)
    assert score_answer("pitch_sequence", truth, "Final Answer: do re mi fa", "solfege").correct
    empty = score_answer("pitch_sequence", truth, "I cannot tell.", "midi")
    assert empty.error_class == "unparseable_answer" and empty.f1 == 0.0
    nothing = score_answer("pitch_sequence", truth, "", "midi")
    assert nothing.error_class == "no_final_answer" and nothing.f1 == 0.0


# --- Choices -----------------------------------------------------------------------------------


@pytest.mark.parametrize("quality", QUALITIES)
def test_every_chord_alias_names_its_quality(quality):
    for alias in CHORD_QUALITY_ALIASES[quality]:
        verdict = score_answer("choice", (quality,), f"Final Answer: {alias}", options=QUALITIES)
        assert verdict.correct, (alias, verdict)
        for root in ("C", "Bb", "F#"):
            glued = score_answer("choice", (quality,), f"Answer: {root}{alias}", options=QUALITIES)
            assert glued.correct, (root, alias, glued)


@pytest.mark.parametrize(
    ("answer", "quality"),
    [("M", "major"), ("m", "minor"), ("CM", "major"), ("Cm", "minor"), ("M7", "major seventh")]
    + [("m7", "minor seventh"), ("Gm7", "minor seventh"), ("CM7", "major seventh")],
)
def test_case_of_m_is_significant(answer, quality):
    """Defect: "M" and "m" collapsed by lower-casing."""
    assert score_answer("choice", (quality,), f"Final Answer: {answer}", options=QUALITIES).correct


def test_a_negated_option_does_not_count():
    """Defect: "minor, not diminished" read as diminished."""
    for answer in ("minor, not diminished", "not diminished but minor", "minor (not a dim)"):
        verdict = score_answer("choice", ("minor",), f"Final Answer: {answer}", options=QUALITIES)
        assert verdict.correct, answer
    both = score_answer("choice", ("minor",), "Final Answer: major or minor", options=QUALITIES)
    assert both.error_class == "hedged_answer"  # issue 12: a hedge (was unparseable_answer)
    for outside in ("dim7", "C\u00b07", "C+7", "diminished seventh", "augmented 7th"):
        verdict = score_answer("choice", ("diminished",), f"Answer: {outside}", options=QUALITIES)
        assert verdict.error_class == "unparseable_answer", outside  # none of the ten


def test_a_plus_between_numbers_is_arithmetic_not_augmented():
    reply = "Final Answer: major (4 + 3 semitones)"
    assert score_answer("choice", ("major",), reply, options=QUALITIES).correct


def test_letter_options_are_whole_tokens():
    """Defect: a letter extractor that saw the "A" in "Answer: C"."""
    assert score_answer("choice", ("C",), "Answer: C", options=LETTERS).parsed == "C"
    assert score_answer("choice", ("C",), "Final Answer: (c)", options=LETTERS).correct
    assert score_answer("choice", ("B",), "Final Answer: Option B. F#4", options=LETTERS).correct
    article = score_answer("choice", ("C",), "Final Answer: a C", options=LETTERS)
    assert article.correct
    assert score_answer("choice", ("C",), "Final Answer: C#4", options=LETTERS).error_class


def test_first_second_and_pitch_options():
    assert score_answer("choice", ("second",), "Final Answer: 2nd", options=ORDER).correct
    rather = "Final Answer: the second rather than the first"
    assert score_answer("choice", ("second",), rather, options=ORDER).correct
    lower = "Final Answer: the first is lower than the second"
    assert score_answer("choice", ("second",), lower, options=ORDER).error_class
    pitches = ("C4", "F#4", "G4")
    assert score_answer("choice", ("F#4",), "Final Answer: Gb4", "spn", pitches).correct
    assert score_answer("choice", ("F#4",), "Final Answer: A4", "spn", pitches).error_class


# --- F1, answer line, bad calls ----------------------------------------------------------------

notes = st.lists(st.integers(0, 127), max_size=12)


@FAST
@given(notes, notes)
def test_ordered_f1_properties(a, b):
    assert ordered_note_f1(a, a) == 1.0
    assert ordered_note_f1(a, b) == ordered_note_f1(b, a)
    assert 0.0 <= ordered_note_f1(a, b) <= 1.0
    assert lcs_length(a, b) <= min(len(a), len(b))
    disjoint = [n + 128 for n in b]
    if a or b:
        assert ordered_note_f1(a, disjoint) == 0.0


def test_lcs_examples():
    assert lcs_length([1, 2, 3, 4], [2, 4, 3]) == 2
    assert lcs_length("ABCBDAB", "BDCABA") == 4
    assert ordered_note_f1([60, 62, 64], [60, 64]) == pytest.approx(0.8)


def test_no_answer_is_its_own_error_class():
    for reply in ("", "   \n", None, "Final Answer:"):
        verdict = score_answer("integer", (3,), reply)
        assert verdict.error_class == "no_final_answer" and not verdict.correct


def test_bad_calls_raise():
    with pytest.raises(ValueError, match="unknown answer kind"):
        score_answer("pitches", (60,), "Final Answer: 60", "midi")
    with pytest.raises(ValueError, match="notation"):
        score_answer("pitch", (60,), "Final Answer: 60")
    with pytest.raises(ValueError, match="options"):
        score_answer("choice", ("minor",), "Final Answer: minor", options=("major",))
    with pytest.raises(ValueError, match="truth"):
        score_answer("integer", (), "Final Answer: 3")


@pytest.mark.parametrize(
    ("kind", "truth", "notation", "answer", "parsed"),
    [
        ("pitch", (69,), "spn", "The pitch is A4 (440 Hz, MIDI 69)", 69),
        ("pitch", (69,), "midi", "MIDI note 69 (A4, 440 Hz, octave 4)", 69),
        ("pitch", (69,), "hz", "approximately 440 Hz (MIDI note 69, A4)", 69),
        ("pitch", (61,), "spn", "C#4/Db4", 61),
        ("pitch", (70,), "solfege", "si bemol (B-flat)", 10),
        ("pitch_set", (60, 64, 67), "midi", "[60, 64, 67] (C major triad)", [60, 64, 67]),
        ("pitch_sequence", (62, 60), "spn", "D4 → C4", [62, 60]),
        ("integer", (4,), None, "4 semitones (a major third)", 4),
        ("integer", (-5,), None, "-5 (a perfect fourth down)", -5),
        ("timestamps", (2.0, 7.0), None, "onset 00:02.00, offset 00:07.00", [2.0, 7.0]),
        ("timestamps", (2.0, 7.0), None, "from 0:02 to 0:07", [2.0, 7.0]),
        ("contour", ("up", "up", "down"), None, "Up, up, down.", ["up", "up", "down"]),
        ("ranks", (2, 3, 1), None, "2 < 3 < 1", [2, 3, 1]),
    ],
)
def test_realistic_replies(kind, truth, notation, answer, parsed):
    reply = f"Let me listen carefully.\n\n**Final Answer:** {answer}\n"
    verdict = score_answer(kind, truth, reply, notation)
    assert verdict.correct and verdict.parsed == parsed, verdict
