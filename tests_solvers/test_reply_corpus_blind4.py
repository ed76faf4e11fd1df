"""A blind set of replies (``reply_corpus/blind4_dev.jsonl``, README_blind4.md), read with the
public reading API (:mod:`solvers.reading`) for each question's own options and phrases.

Written by a helper who never read the reader, in the styles of current audio models (terse
numbered chains of thought, negations, lettered yes/no options, retractions); never edited to
fit the reader. No wrong reading, and the agreement below (docs/reading.md has its figures).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fixtures.muse.definitions import OUT_OF_KEY
from fixtures.muse.harmony_definitions import KEY_CHANGE, SAME_PROGRESSION
from fixtures.muse.registry import TASKS as MUSE_TASKS
from fixtures.muse.rhythm_definitions import SAME_RHYTHM
from fixtures.tasks.definitions import CHORD, SYNCOPATION
from solvers.mcq import match_option
from solvers.notation import OCTAVE_FREE_NOTATIONS
from solvers.reading import (
    SAMENESS,
    lettered_yes_no_reader,
    pitch_answer_reader,
    sameness,
    yes_no_reader,
)

CORPUS = Path(__file__).parent / "reply_corpus" / "blind4_dev.jsonl"
MIN_AGREEMENT = 0.975  # first reading 75.7 % (4 wrong); 97.1 % after round 3; 98.1 % round 4
CHOICE_TASKS = {**MUSE_TASKS, "chord": CHORD, "syncopation": SYNCOPATION}
# Each question's phrases, as a user of the API gives them. MUSE's own oddball question ("are
# these the same exact melody? ... if you notice an oddball") is a question of sameness.
PHRASES = {"muse_oddball": OUT_OF_KEY, "muse_modulation": KEY_CHANGE,
           "muse_chord_sequence": SAME_PROGRESSION, "muse_rhythm_match": SAME_RHYTHM,
           "transposition": SAMENESS}
SAME_EXACT_MELODY = sameness(different=("oddball", "oddballs"))


def phrases_of(entry: dict):
    if "same exact melody" in entry.get("question", ""):
        return SAME_EXACT_MELODY
    return PHRASES[entry["task"]]


def read_entry(entry: dict) -> object:
    """The reading of one entry in the grader's form (a letter, "yes"/"no", a MIDI note)."""
    kind, reply = entry["kind"], entry["reply"]
    if kind == "mcq":
        return match_option(reply, entry["options"]).letter
    if kind == "choice":
        return CHOICE_TASKS[entry["task"]].extract_answer(reply)
    if kind == "yesno":
        return yes_no_reader(phrases_of(entry))(reply).answer
    if kind == "yesno_lettered":
        letter = lettered_yes_no_reader(entry["options"], phrases_of(entry))(reply).answer
        return None if letter is None else entry["options"][letter].split(",")[0].casefold()
    answer = pitch_answer_reader(kind, entry["notation"])(reply).answer
    if answer is None:
        return None
    (key,) = answer.keys
    grader = entry["grader"]
    if entry["notation"] in OCTAVE_FREE_NOTATIONS and grader is not None:  # a pitch class:
        return grader if key == grader % 12 else key  # the grader's note agrees
    return key


def test_the_blind_set_is_read_as_a_grader_reads(capsys: pytest.CaptureFixture) -> None:
    entries = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()
               if line.strip()]
    assert len(entries) >= 200
    agree, wrong = 0, []
    for entry in entries:
        got = read_entry(entry)
        if got == entry["grader"]:
            agree += 1
        elif got is not None:
            wrong.append(f"{entry['id']}: read {got!r}, grader {entry['grader']!r}: "
                         f"{entry['reply']!r}")
    with capsys.disabled():
        print(f"\nblind4_dev: {len(entries)} replies, {agree} agree "
              f"({100 * agree / len(entries):.1f} %), {len(wrong)} wrong readings")
    assert not wrong, "wrong readings:\n" + "\n".join(wrong)
    assert agree / len(entries) >= MIN_AGREEMENT
