"""Pitch readers take linear time and never raise (issue 14 item 16).

Long ``pitch_sequence`` replies took 7-8 s (an LCS over every pitch of the reply). The value
readers now refuse spans longer than ``MAX_SPAN_CHARS`` (no grader reads a 1,500-character
answer line as one answer) and do linear work below it. Budgets are generous for a loaded
2-core machine: a reader gets 0.5 s on 1 MB, where it takes well under a millisecond. The
whole ``score_answer`` path (which includes ``reply_spans``) is checked for linear growth.
"""

from __future__ import annotations

from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers import pitch_choice, pitch_reading, span_text
from solvers.pitch_scoring import score_answer
from tests_solvers.timing import fastest_s

MB = 10**6
BUDGET_S = 0.5
ADVERSARIAL = {
    "letters": "A ", "digits": "1 ", "sharps": "#", "spn": "C#4 ", "midi": "60, ",
    "hz": "261,63 Hz ", "times": "00:01.50, ", "bare_times": "1.5 ", "hedges": "60 or ",
    "contour": "up ", "letters_ud": "u, ", "ordinals": "third, ", "dashes": "\u2014 ",
    "lines": "C4\n", "sentence": "The answer is C4. ", "final": "Final Answer: 60\n",
    "parens": "(((", "minus": "-5 semitones lower ",
}
KINDS = [("pitch", (60,), "midi", ()), ("pitch", (60,), "spn", ()), ("pitch", (60,), "hz", ()),
         ("pitch", (60,), "solfege", ()), ("pitch_set", (60, 64), "midi", ()),
         ("pitch_sequence", (60, 62), "spn", ()), ("integer", (3,), None, ()),
         ("timestamps", (1.0, 2.0), None, ()), ("contour", ("up",), None, ()),
         ("ranks", (2, 1), None, ()), ("choice", ("first",), None, ("first", "second"))]


def _readers():
    readers = [pitch_reading.pitch_reader(n, k) for n in ("midi", "spn", "hz", "solfege")
               for k in ("pitch", "pitch_set", "pitch_sequence")]
    return readers + [pitch_reading.integer_reader, pitch_reading.timestamps_reader,
                      pitch_reading.contour_reader, pitch_reading.ranks_reader,
                      pitch_choice.choice_reader(("first", "second"), None)]


def _timed(call) -> float:
    return fastest_s(call, enough_s=BUDGET_S / 10)


@pytest.mark.parametrize("chunk", sorted(ADVERSARIAL))
def test_every_reader_is_fast_on_a_megabyte_and_at_the_longest_span_it_reads(chunk):
    pattern = ADVERSARIAL[chunk]
    huge = pattern * (MB // len(pattern))
    longest = (pattern * (span_text.MAX_SPAN_CHARS // len(pattern) + 1))[
        : span_text.MAX_SPAN_CHARS]
    for reader in _readers():
        for text in (huge, longest):
            elapsed = _timed(lambda reader=reader, text=text: reader(text, "final_line"))
            assert elapsed < BUDGET_S, (chunk, len(text), elapsed)


@pytest.mark.parametrize("chunk", ["spn", "hedges", "lines", "final"])
def test_scoring_grows_linearly_with_the_reply(chunk):
    """The old quadratic reading of long sequences took seconds at 100 kB already."""
    pattern = ADVERSARIAL[chunk]
    small, large = (pattern * (size // len(pattern)) for size in (20_000, 200_000))
    for kind, truth, notation, options in (KINDS[5], KINDS[0]):
        t_small = min(_timed(partial(score_answer, kind, truth, small, notation, options))
                      for _ in range(3))
        t_large = _timed(partial(score_answer, kind, truth, large, notation, options))
        # ten times the text: linear work takes ~10x, quadratic ~100x
        assert t_large < 30 * t_small + 0.25, (chunk, kind, t_small, t_large)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(sorted(ADVERSARIAL.values())) | st.text(max_size=20), max_size=12),
    st.integers(1, 400),
    st.sampled_from(KINDS),
)
def test_fuzzed_replies_never_raise_and_stay_fast(pieces, repeat, case):
    kind, truth, notation, options = case
    reply = "".join(pieces) * repeat
    verdict = score_answer(kind, truth, reply, notation, options)
    assert _timed(partial(score_answer, kind, truth, reply, notation, options)) < BUDGET_S
    assert verdict.correct in (True, False)
    assert verdict.error_class in (None, "no_final_answer", "unparseable_answer", "hedged_answer")
