"""Pitch questions: wording, oracle and chance replies, chance levels, scoring dispatch.

The oracle must score 100 % on every item and notation, and the chance backend's expected
accuracy must be exactly ``chance_probability``: both are checked against the real scorer.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest

from fixtures.pitch import questions
from fixtures.pitch.catalog import EXPERIMENTS, all_pitch_items, pitch_items
from fixtures.pitch.questions import (
    NO_NOTATION,
    chance_probability,
    chance_replies,
    notations_for,
    oracle_reply,
    score,
    system_instruction,
    user_parts,
)
from solvers.notation import NOTATIONS, format_pitch

PITCH_KINDS = ("pitch", "pitch_set", "pitch_sequence")


def trials(items):
    return [(item, notation) for item in items for notation in notations_for(item)]


def by_id(item_id: str):
    experiment = item_id.split("-")[0]
    (found,) = [i for i in pitch_items(experiment) if i.item_id == item_id]
    return found


def test_notations_follow_the_answer_kind():
    for item in all_pitch_items():
        expected = NOTATIONS if item.answer_kind in PITCH_KINDS else (NO_NOTATION,)
        assert notations_for(item) == expected
        assert item.notation_axis == (item.answer_kind in PITCH_KINDS)
    # D7's reference is written in the notation, so D7 is asked in all four
    assert notations_for(pitch_items("d7a")[0]) == NOTATIONS


def test_asking_in_a_notation_the_item_does_not_use_is_an_error():
    with pytest.raises(ValueError, match="plain"):
        user_parts(pitch_items("c1")[0], "midi")
    with pytest.raises(ValueError, match="midi, spn"):
        oracle_reply(pitch_items("a1")[0], NO_NOTATION)


def test_oracle_is_correct_for_every_item_and_notation():
    wrong = [(i.item_id, n) for i, n in trials(all_pitch_items())
             if not score(i, n, oracle_reply(i, n)).correct]
    assert wrong == []


def test_a_chance_reply_other_than_the_truth_scores_false_everywhere():
    rng = random.Random(7)
    for item, notation in trials(all_pitch_items()):
        truth_reply = oracle_reply(item, notation)
        others = [r for r in chance_replies(item, notation) if r != truth_reply]
        reply = rng.choice(others)
        verdict = score(item, notation, reply)
        if item.answer_kind == "timestamps" and _timestamps_close(item.truth, reply):
            continue  # a drawn time list can land inside the tolerance: that one IS right
        assert not verdict.correct, (item.item_id, notation, reply)
        assert verdict.error_class is None, (item.item_id, notation, reply, verdict.message)


def _timestamps_close(truth, reply) -> bool:
    times = [int(m) * 60 + float(s) for m, s in re.findall(r"(\d+):(\d+\.\d+)", reply)]
    return len(times) == len(truth) and all(abs(a - b) <= 0.25 for a, b in zip(times, truth,
                                                                               strict=True))


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_chance_probability_is_the_scored_share_of_chance_replies(experiment):
    # long note lists take ~0.1 s per 200 scored replies: fewer items there
    size = 3 if experiment in ("d8", "f1", "f2") else 8
    for item, notation in trials(pitch_items(experiment, sample=size)):
        replies = chance_replies(item, notation)
        assert 1 <= len(replies) <= 200 and len(set(replies)) == len(replies)
        hits = [r for r in replies if score(item, notation, r).correct]
        assert chance_probability(item, notation) == len(hits) / len(replies)
        assert 0.0 <= chance_probability(item, notation) <= 1.0
        for reply in replies:  # every guess is well formed: read, just maybe wrong
            assert score(item, notation, reply).error_class is None, (item.item_id, reply)


@pytest.mark.parametrize(
    ("item_id", "notation", "expected"),
    [
        ("a1-sine-m29", "midi", Fraction(1, 61)),
        ("a1-sine-m29", "spn", Fraction(1, 61)),
        ("a1-sine-m29", "hz", Fraction(1, 61)),
        ("a1-sine-m29", "solfege", Fraction(1, 12)),
        ("d7a-square-m43-i-12", "midi", Fraction(1, 61)),
        ("a1mcq-sine-m29-s4", NO_NOTATION, Fraction(1, 5)),
        ("d2-c1-g200-a3-first", NO_NOTATION, Fraction(1, 2)),
        ("c3-major-m29-same", NO_NOTATION, Fraction(1, 10)),
        ("c1-major-m40-same", NO_NOTATION, Fraction(1, 6)),
        ("c2-i1-m29-d1000-mixed", NO_NOTATION, Fraction(1, 12)),
        ("d1-n1-regular-d500-r0", NO_NOTATION, Fraction(1, 10)),
        ("d6-i-12-m41-g1000-d1000", NO_NOTATION, Fraction(1, 25)),
        ("d3-t2-s1-d250-r0", NO_NOTATION, Fraction(1, 4)),  # 2 moves: 2² contours
        ("d4-rising-i1-m30", NO_NOTATION, Fraction(1, 4)),  # four glide shapes
        ("d5-n3-c25-regular-a3", NO_NOTATION, Fraction(1, 6)),  # 3! orders
        ("c4-dyad0-m29", "midi", Fraction(1, 61)),  # a unison is one pitch
        ("c4-dyad0-m29", "solfege", Fraction(1, 12)),
    ],
)
def test_chance_levels_by_hand(item_id, notation, expected):
    probability = chance_probability(by_id(item_id), notation)
    assert Fraction(probability).limit_denominator(1000) == expected


def test_d2_chance_is_exactly_one_half_on_every_item():
    assert {chance_probability(i, NO_NOTATION) for i in pitch_items("d2")} == {0.5}


def test_octave_free_solfege_set_counts_pitch_classes():
    item = by_id("c4-dyad12-m29")  # an octave: two notes, one pitch class
    assert item.truth == (29, 41)
    assert oracle_reply(item, "solfege") == "Final Answer: fa"
    assert score(item, "solfege", "Final Answer: fa").correct
    assert not score(item, "midi", "Final Answer: 29").correct


def test_user_parts_attach_every_scene_once_in_order():
    for item in all_pitch_items():
        parts = user_parts(item, notations_for(item)[0])
        audio = [p for p in parts if isinstance(p, int)]
        assert audio == list(range(len(item.scenes)))
        assert all(isinstance(p, str) and p.strip() for p in parts if not isinstance(p, int))
        assert "Final Answer:" in parts[-1] and "$" not in parts[-1]
    d7b = user_parts(pitch_items("d7b")[0], "spn")
    assert [type(p) for p in d7b] == [str, int, str, int, str]


def test_questions_state_the_answer_form_exactly():
    assert "<MIDI note number>" in user_parts(pitch_items("a1")[0], "midi")[-1]
    assert "MM:SS.cc" in user_parts(pitch_items("b3")[0], NO_NOTATION)[-1]
    assert "from -12 to 12" in user_parts(pitch_items("d6")[0], NO_NOTATION)[-1]
    c3 = user_parts(pitch_items("c3")[0], NO_NOTATION)[-1]
    assert "half-diminished" in c3 and "sus4" in c3
    mcq = user_parts(by_id("a1mcq-sine-m29-s4"), NO_NOTATION)[-1]
    assert "C. F1 (MIDI note 29)" in mcq and "A, B, C, D, E" in mcq


def test_reference_and_named_pitches_are_written_in_the_trial_notation():
    item = by_id("d7a-square-m43-i-12")
    for notation in NOTATIONS:
        question = user_parts(item, notation)[-1]
        assert f"its pitch is {format_pitch(43, notation)}." in question
    b2 = pitch_items("b2")[0]
    stamp = b2.prompt_dict()["timestamp_s"]
    assert f"{int(stamp // 60):02d}:{stamp % 60:05.2f}" in user_parts(b2, "midi")[-1]


def test_questions_never_spell_out_the_answer():
    for item in all_pitch_items():
        if item.answer_kind not in ("pitch", "pitch_sequence", "pitch_set"):
            continue
        if item.experiment in ("d7a", "d7b") and item.params_dict()["interval_semitones"] == 0:
            continue  # a unison target IS the reference: the question is still fair
        text = " ".join(p for p in user_parts(item, "spn") if isinstance(p, str))
        text = text.replace(questions.answer_line(item, "spn"), "")  # its e.g. is generic
        for midi in set(item.truth):
            assert not re.search(rf"\b{re.escape(format_pitch(midi, 'spn'))}\b", text), item.item_id


def test_system_instruction_names_the_notation():
    a1 = pitch_items("a1")[0]
    assert "MIDI note numbers" in system_instruction(a1, "midi")
    assert "fixed-do" in system_instruction(a1, "solfege")
    assert "440" in system_instruction(a1, "hz")
    plain = system_instruction(pitch_items("c1")[0], NO_NOTATION)
    assert "Final Answer:" in plain and "Write pitches" not in plain


def test_malformed_replies_are_classified_not_crashed():
    item = pitch_items("a1")[0]
    verdict = score(item, "midi", "I cannot hear anything.")
    assert not verdict.correct and verdict.error_class in ("no_final_answer", "unparseable_answer")
    c3 = pitch_items("c3")[0]
    assert score(c3, NO_NOTATION, "Final Answer: major").correct
    assert not score(c3, NO_NOTATION, "Final Answer: minor").correct


def test_questions_module_reads_its_templates_once():
    assert questions.templates() is questions.templates()
