"""The MUSE family through pytest, as a user runs it: the oracle is right on every task, shot
and strategy; the chance backend lands on each task's analytic chance; the report gives every
task a chance row and a transcription F1 (issue 21)."""

from __future__ import annotations

import csv
import json
import math
import subprocess
from pathlib import Path

from tests_solvers import PYTEST

REPO = Path(__file__).resolve().parent.parent
ANALYTIC_CHANCE = {"muse_instrument": 0.25, "muse_melody_shape": 0.25, "muse_meter": 1 / 3,
                   "muse_oddball": 0.5, "muse_rhythm_match": 0.5, "muse_modulation": 0.5,
                   "muse_chord_sequence": 0.5, "muse_sync_compare": 0.5}


def run(tmp_path: Path, model: str, *options: str) -> list[dict]:
    run_dir = tmp_path / model
    done = subprocess.run(
        [*PYTEST, "bench/test_muse.py", "--muse", "all", "--model", model, "--modality", "midi",
         "-q", "-p", "no:cacheprovider", "--run-dir", str(run_dir), *options],
        cwd=REPO, capture_output=True, text=True, timeout=900)
    assert done.returncode in (0, 1), done.stdout[-2000:] + done.stderr[-2000:]
    lines = (run_dir / "trials.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_oracle_is_right_everywhere_and_the_report_scores_every_task(tmp_path):
    records = run(tmp_path, "oracle")
    assert {r["task"] for r in records} == set(ANALYTIC_CHANCE)
    strategies = ("standalone", "cot", "logiclm")
    assert {(r["shot"], r["strategy"]) for r in records} == {
        (shot, strategy) for shot in ("zero", "few") for strategy in strategies}
    assert len(records) == 8 * 24 * 6 and all(r["correct"] for r in records)
    table = [line for line in (tmp_path / "oracle" / "table1.md").read_text().splitlines()
             if line.strip()]
    header = [c.strip() for c in table[0].strip("|").split("|")]
    chance_row = [c.strip() for c in table[-1].strip("|").split("|")]
    for column, value in zip(header[3:], chance_row[3:], strict=True):
        task = column.split(" / ")[0]
        assert float(value) == round(100 * ANALYTIC_CHANCE[task], 1), column
    with (tmp_path / "oracle" / "transcription_f1.csv").open() as handle:
        f1 = list(csv.DictReader(handle))
    assert {row["task"] for row in f1} == set(ANALYTIC_CHANCE)
    assert all(float(row["f1"]) == 1.0 for row in f1)


def test_chance_lands_on_each_task_analytic_chance(tmp_path):
    # two strategies are enough; the records are all it reads
    records = run(tmp_path, "chance", "--strategy", "standalone,cot", "--no-report")
    for task, chance in ANALYTIC_CHANCE.items():
        outcomes = [r["correct"] for r in records if r["task"] == task]
        assert len(outcomes) == 24 * 4
        sigma = math.sqrt(chance * (1 - chance) / len(outcomes))
        # 4 sigma per task: eight tasks together trip by accident about once in 2,000 runs
        assert abs(sum(outcomes) / len(outcomes) - chance) < 4 * sigma, task


# Where the MUSE family may be named in code: its package, its bench module, its pure solvers
# (``solvers/`` holds every family's), its tests and the registry line.
# (benchmarks/ holds measuring scripts run by hand on the family's material, not machinery)
FAMILY_FILES = ("fixtures/muse/", "bench/test_muse.py", "solvers/muse.py", "tests_solvers/",
                "benchmarks/")
REGISTRY_LINE = '    "fixtures.muse.family:MuseFamily",'


def test_nothing_outside_the_family_names_it():
    """The family protocol's test: the machinery (requests, reading, LogicLM loop, records,
    report sections, the listener) is reached through the suite, ``Family.listen`` and the
    run header, so no other code names the family, its package or its tasks."""
    named = []
    for path in sorted(REPO.glob("**/*.py")):
        relative = path.relative_to(REPO).as_posix()
        if relative.startswith((".venv/", *FAMILY_FILES)):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if any(token in line for token in ("fixtures.muse", "muse_", '"muse"', "'muse'")):
                named.append(f"{relative}:{number}: {line.strip()}")
    assert named == [f"fixtures/families.py:{_registry_line_number()}: {REGISTRY_LINE.strip()}"]


def _registry_line_number() -> int:
    lines = (REPO / "fixtures" / "families.py").read_text(encoding="utf-8").splitlines()
    return lines.index(REGISTRY_LINE) + 1
