"""The held-out halves of the blind reply sets (reply_corpus/README_blind_holdout.md), read
with the public reading API exactly as the blind4 development half is, and the MUSE-as-published
questions with that family's own options and phrase tables. No wrong reading, ever; the
agreement floors are the figures measured when each set was last read (docs/reading.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fixtures.published_muse.protocol import tasks as published_tasks
from solvers.mcq import match_option
from solvers.reading import lettered_yes_no_reader, yes_no_reader
from tests_solvers.test_reply_corpus_blind4 import read_entry

CORPUS = Path(__file__).parent / "reply_corpus"
MIN_AGREEMENT = {"blind4_holdout.jsonl": 0.98, "blind5_holdout.jsonl": 0.985,
                 "blind6_dev.jsonl": 0.925,  # blind6: 81.1 % first read; development data
                 "blind7_dev.jsonl": 0.995,  # blind7: 85.7 % first, 90.6 % after round 7
                 "blind8_dev.jsonl": 0.95,  # blind8: 88.1 %, 5 wrong first read; development data
                 "blind19_dev.jsonl": 0.975,  # 91.7 %, 2 wrong first; 22-23: 96.5, 24: 97.9 %
                 "blind20_holdout.jsonl": 0.99,  # 89.6 -> 93.4 % (held out) -> 24: 99.3 %
                 "blind21_dev.jsonl": 0.98,  # 91.3 %, 2 wrong first; 23: 94.6, 24: 98.6 %
                 "blind22_holdout.jsonl": 0.94,  # held out: 88.1, 4 wrong; 24: 89.5; 26: 94.2
                 "blind23_dev.jsonl": 0.95,  # 86.1 %, 3 wrong first read; round 24: 95.0 %
                 "blind24_dev.jsonl": 0.96,  # 91.7 %, 1 wrong (disputed, below) first; 26: 96.2 %
                 "blind25_holdout.jsonl": 0.955}  # held out: 91.4, 1 wrong; 24: 92.8; 26: 95.5
# Readings that differ from the grader's where the lead keeps the reader's (docs/reading.md,
# round 25), each with why. Any other difference still fails.
DISPUTED = {"blind24-0142": "'The second melody is the first one transposed up' has no full stop; "
                            "the writer graded it cut off, but it is a whole clause, and thousands "
                            "of real replies (MUSE's published runs) end without one: read yes"}
ALIASES = {"pitch_": "", "mcq_muchomusic": "mcq"}  # blind5 spells tasks by family


def read_published(entry: dict) -> object:
    """A MUSE-as-published reply, read as ``fixtures.published_muse.trial`` reads it."""
    task = published_tasks()[entry["task"].removeprefix("musepub_")]
    options = dict(task.options)
    if not task.asks_yes_no:
        return match_option(entry["reply"], options).letter
    if not task.lettered:
        return yes_no_reader(task.phrases)(entry["reply"]).answer
    letter = lettered_yes_no_reader(options, task.phrases)(entry["reply"]).answer
    return None if letter is None else options[letter].split(",")[0].casefold()


def reading(entry: dict) -> object:
    if entry["task"].startswith("musepub_"):
        return read_published(entry)
    task = entry["task"]
    for prefix, replacement in ALIASES.items():
        if task.startswith(prefix):
            task = replacement + task.removeprefix(prefix)
    return read_entry({**entry, "task": task})


@pytest.mark.parametrize("name", sorted(MIN_AGREEMENT))
def test_a_held_out_blind_set_is_read_as_a_grader_reads(name: str, capsys) -> None:
    entries = [json.loads(line) for line in (CORPUS / name).read_text(encoding="utf-8")
               .splitlines() if line.strip()]
    agree, wrong = 0, []
    for entry in entries:
        got = reading(entry)
        if got == entry["grader"]:
            agree += 1
        elif got is not None and entry["id"] not in DISPUTED:
            wrong.append(f"{entry['id']}: read {got!r}, grader {entry['grader']!r}")
    with capsys.disabled():
        print(f"\n{name}: {agree}/{len(entries)} = {agree / len(entries):.1%} agree, "
              f"{len(wrong)} wrong")
    assert not wrong, "\n".join(wrong)
    assert agree / len(entries) >= MIN_AGREEMENT[name]


def test_every_disputed_reading_still_differs_from_its_grade() -> None:
    """A disputed entry the reader comes to read as graded leaves the list: it is no excuse."""
    entries = {entry["id"]: entry for name in MIN_AGREEMENT
               for line in (CORPUS / name).read_text(encoding="utf-8").splitlines()
               if line.strip() and (entry := json.loads(line))["id"] in DISPUTED}
    assert set(entries) == set(DISPUTED)
    assert all(reading(entry) != entry["grader"] for entry in entries.values())
