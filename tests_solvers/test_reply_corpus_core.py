"""The reply corpus (core choices, yes/no, MCQ, LogicLM): read as a careful grader reads.

Every entry of tests_solvers/reply_corpus/{core,mcq,logiclm}_*.jsonl is run through the entry
points the benchmark uses (``TASKS[task].extract_answer``, ``solvers.mcq.match_option``,
``TASKS[task].parse``) and compared with the grader's reading: zero wrong readings (an answer
the grader does not see, or a different one), and at least 98 % agreement.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from fixtures.tasks.definitions import TASKS
from solvers.mcq import match_option
from solvers.schemas import SchemaError

CORPUS = Path(__file__).parent / "reply_corpus"
FILES = sorted(path for prefix in ("core_", "mcq_", "logiclm_")
               for path in CORPUS.glob(f"{prefix}*.jsonl"))
MIN_AGREEMENT = 0.98


def load_corpus(files=FILES) -> list[dict]:
    entries = []
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                entries.append(json.loads(line))
    return entries


def read_entry(entry: dict) -> object:
    """The reading of one entry by the benchmark's own entry point (None: no answer)."""
    kind, reply = entry["kind"], entry["reply"]
    if kind == "mcq":
        return match_option(reply, entry["options"]).letter
    definition = TASKS[entry["task"]]
    if kind == "logiclm":
        try:
            return [list(line) for line in definition.parse(reply, tuple(entry["ids"]))]
        except SchemaError:
            return None
    return definition.extract_answer(reply)


# Held-out entries graded before issue 30 settled the retraction rule (a correction marker
# between two final answers, then exactly one answer, commits to it). The held-out files are
# never edited; the settled grading is applied here.
SETTLED_BY_ISSUE_30 = {"core_heldout-0086": "no"}  # "Final Answer: Yes. / Hmm, on second
# thought: / Final Answer: No."
# Round 22: an answer followed by a doubt is that answer (docs/reading.md, round 22)
SETTLED_BY_ROUND_22 = {"core_heldout-0087": "yes"}  # "I believe yes, but I'm not certain."
SETTLED = {**SETTLED_BY_ISSUE_30, **SETTLED_BY_ROUND_22}


def corpus_figures(entries: list[dict]) -> tuple[Counter, Counter, list[str]]:
    sizes, agreed, wrong = Counter(), Counter(), []
    for entry in entries:
        got, want = read_entry(entry), SETTLED.get(entry["id"], entry["grader"])
        sizes[entry["kind"]] += 1
        if got == want:
            agreed[entry["kind"]] += 1
        elif got is not None:
            wrong.append(f"{entry['id']}: read {got!r}, grader {want!r}: {entry['reply']!r}")
    return sizes, agreed, wrong


def test_the_corpus_is_large_and_well_formed() -> None:
    entries = load_corpus()
    assert len(entries) >= 800
    assert len({entry["id"] for entry in entries}) == len(entries)
    kinds = Counter(entry["kind"] for entry in entries)
    assert set(kinds) == {"choice", "yes_no", "mcq", "logiclm"}


def test_the_corpus_is_read_as_a_grader_reads(capsys: pytest.CaptureFixture) -> None:
    sizes, agreed, wrong = corpus_figures(load_corpus())
    total, agree = sum(sizes.values()), sum(agreed.values())
    with capsys.disabled():
        print(f"\nreply corpus (core): {total} entries, {agree} agree "
              f"({100 * agree / total:.2f} %), {len(wrong)} wrong readings")
        for kind in sorted(sizes):
            print(f"  {kind}: {sizes[kind]} entries, {agreed[kind]} agree "
                  f"({100 * agreed[kind] / sizes[kind]:.1f} %)")
    assert not wrong, "wrong readings:\n" + "\n".join(wrong)
    assert agree / total >= MIN_AGREEMENT
