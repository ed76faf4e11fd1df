"""Partial credit for pitch answers: the figures, the record fields and the report tables."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from fixtures.pitch.catalog import pitch_items
from fixtures.pitch.trial import PitchTrial, PitchTrialResult
from reports.tables.pitch import partial_credit_summary, partial_credit_table, pitch_markdown
from solvers.notation import midi_to_hz
from solvers.pitch_credit import contour_credit, pitch_credit, rank_credit, timing_credit
from solvers.pitch_scoring import score_answer


def test_a_near_miss_gets_pitch_class_octave_and_semitone_credit():
    # truth G4 (67); F#4 is one semitone off: same octave, other pitch class
    near = score_answer("pitch", (67,), "Final Answer: F#4", "spn")
    assert not near.correct
    assert near.credit == {"pitch_class_correct": 0.0, "octave_correct": 1.0,
                           "within_1_semitone": 1.0}
    octave = score_answer("pitch", (67,), "Final Answer: G5", "spn")
    assert octave.credit["pitch_class_correct"] == 1.0 and octave.credit["octave_correct"] == 0.0
    solfege = score_answer("pitch", (67,), "Final Answer: sol", "solfege")
    assert solfege.credit == {"pitch_class_correct": 1.0}  # octave-free: no octave figures


def test_hz_answers_keep_cents_and_the_one_percent_rule_as_a_second_score():
    # 380 Hz is F#4 + 46 cents: the nearest note is right, but it is 2.7 % off 369.99 Hz
    sharp = score_answer("pitch", (66,), "Final Answer: 380 Hz", "hz")
    assert sharp.correct and sharp.credit["hz_within_1pct"] == 0.0
    assert sharp.credit["cents_error_abs"] == pytest.approx(1200 * math.log2(380 / midi_to_hz(66)))
    close = score_answer("pitch", (66,), "Final Answer: 372 Hz", "hz")
    assert close.correct and close.credit["hz_within_1pct"] == 1.0
    assert "cents_error_abs" not in score_answer("pitch", (66,), "Final Answer: 66", "midi").credit


def test_sequence_credit_is_per_position_over_the_truth():
    credit = pitch_credit([60, 62, 64, 65], [60, 74, 63], octave_free=False)
    assert credit == {"pitch_class_correct": 0.5, "octave_correct": 0.5,
                      "within_1_semitone": 0.5}


def test_rank_contour_and_timing_credit():
    assert rank_credit([1, 2, 3], [1, 2, 3]) == {"kendall_tau": 1.0}
    assert rank_credit([1, 2, 3], [3, 2, 1]) == {"kendall_tau": -1.0}
    assert rank_credit([1, 2, 3, 4], [2, 1, 3, 4])["kendall_tau"] == pytest.approx(2 / 3)
    assert rank_credit([1, 2, 3], [1, 2])["kendall_tau"] is None
    assert contour_credit(["up", "down", "up"], ["up", "up", "up"]) == {"step_accuracy": 2 / 3}
    assert contour_credit(["up", "down"], ["up"]) == {"step_accuracy": 0.5}
    timing = timing_credit([1.0, 2.0], [1.5, 2.5])
    assert timing["timing_iou"] == pytest.approx(0.5 / 1.5)
    assert (timing["hits_100ms"], timing["hits_250ms"], timing["hits_500ms"]) == (0, 0, 1)
    assert timing_credit([1.0, 2.0, 3.0, 4.0], [1.0, 2.0])["timing_iou"] == 0.5  # a note missing


def test_the_pitch_record_carries_source_via_and_partial_credit():
    item = next(i for i in pitch_items("a1", 1))
    result = PitchTrialResult(PitchTrial("oracle", "spn", item), "oracle", "hash")
    verdict = score_answer(item.answer_kind, item.truth, "**Final Answer:** C4", "spn")
    result.answer_source, result.answer_via = verdict.answer_source, verdict.answer_via
    result.partial_credit = dict(verdict.credit)
    record = result.record().flat()
    assert record["answer_source"] == "final_line" and record["answer_via"] == "spn"
    assert set(record["partial_credit"]) == {"pitch_class_correct", "octave_correct",
                                             "within_1_semitone"}


def _records(rows: list[tuple[str, str, str, tuple, str]]) -> pd.DataFrame:
    """Trial records as the pitch trials write them, scored by the real scorer."""
    records = []
    for experiment, notation, kind, truth, reply in rows:
        verdict = score_answer(kind, truth, reply, None if notation == "plain" else notation)
        records.append({
            "model": "m", "experiment": experiment, "notation": notation, "item_id": reply,
            "correct": verdict.correct, "error_class": verdict.error_class,
            "parsed_answer": verdict.parsed, "chance_probability": 0.1,
            "partial_credit": {k: v for k, v in verdict.credit.items() if v is not None},
        })
    return pd.DataFrame(records)


def test_partial_credit_table_counts_unanswered_trials_as_zero_and_keeps_exact_accuracy():
    df = _records([
        ("a1", "hz", "pitch", (66,), "Final Answer: 380 Hz"),  # right note, 2.7 % off
        ("a1", "hz", "pitch", (66,), "Final Answer: 370 Hz"),
        ("a1", "hz", "pitch", (66,), "I cannot hear audio."),  # unanswered: 0 credit
        ("a1", "hz", "pitch", (66,), "Final Answer: 392 Hz"),  # G4: one semitone off
        ("d5", "plain", "ranks", (1, 2, 3), "Final Answer: 3, 2, 1"),
        ("d5", "plain", "ranks", (1, 2, 3), "Final Answer: 1, 2, 3"),
    ])
    summary = partial_credit_summary(df).set_index(["experiment", "notation"])
    hz = summary.loc[("a1", "hz")]
    assert hz["n"] == 4 and hz["accuracy"] == 0.5
    assert hz["hz_within_1pct"] == 0.25 and hz["within_1_semitone"] == 0.75
    assert hz["pitch_class_correct"] == 0.5 and hz["n_cents"] == 3
    ranks = summary.loc[("d5", "plain")]
    assert ranks["kendall_tau"] == 0.0 and math.isnan(ranks["hz_within_1pct"])
    table = partial_credit_table(partial_credit_summary(df))
    assert table.loc[("m", "a1", "hz"), "Hz ±1 %"] == "25.0"
    assert table.loc[("m", "d5", "plain"), "Kendall τ"] == "+0.00"
    assert "Hz ±1 %" in pitch_markdown(df) and "Kendall τ" in pitch_markdown(df)
