"""The MCQ bench end to end on the synthetic sets: oracle perfect, chance at 1/4, the report."""

from __future__ import annotations

import json
import subprocess
from collections import defaultdict
from pathlib import Path

import pandas as pd
import pytest

from fixtures.mcq.synthetic import make_synthetic
from reports.tables.mcq import mcq_markdown, mcq_summary
from solvers.metrics import exact_binomial_sf
from tests_solvers import PYTEST, trial_row

REPO = Path(__file__).resolve().parent.parent


def _pytest(*args: str, timeout: int = 900) -> subprocess.CompletedProcess:
    return subprocess.run([*PYTEST, "-p", "no:cacheprovider", *args],
                          cwd=REPO, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def mcq_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    base = tmp_path_factory.mktemp("mcq_bench")
    muchomusic, wildscore = make_synthetic(base / "data")
    run_dir = base / "run"
    result = _pytest("bench/test_mcq.py", "-q", "--model", "oracle,chance",
                     "--mcq-dataset", f"{muchomusic},{wildscore}", "--mcq-examples", "1",
                     "--run-dir", str(run_dir))
    assert result.returncode == 1, result.stdout[-3000:]  # chance fails trials, nothing errors
    assert " error" not in result.stdout.splitlines()[-1], result.stdout[-3000:]
    records = [trial_row(line) for line in (run_dir / "trials.jsonl").read_text().splitlines()]
    return run_dir, records


def test_every_dataset_condition_and_repeat_runs_and_the_oracle_is_perfect(mcq_run):
    _, records = mcq_run
    oracle = [r for r in records if r["model"] == "oracle"]
    cells = {(r["dataset"], r["condition"], r["repeat"]) for r in oracle}
    assert cells == {(d, c, r) for d, conditions in
                     (("muchomusic", ("audio", "no-audio")), ("wildscore", ("image", "text-only")))
                     for c in conditions for r in range(3)}
    assert len(oracle) == 2 * 2 * 3 * 12
    assert all(r["correct"] and r["parsed_answer"] == r["truth"] for r in oracle)
    assert all((r["answer_source"], r["answer_via"]) == ("final_line", "letter") for r in oracle)
    assert all(len(r["example_items"]) == 1 and r["item_id"] not in r["example_items"]
               for r in oracle)


def test_chance_lands_on_one_in_four_and_always_follows_the_format(mcq_run):
    _, records = mcq_run
    chance = [r for r in records if r["model"] == "chance"]
    assert {r["chance_probability"] for r in chance} == {0.25}
    assert all(r["error_class"] is None and r["parsed_answer"] for r in chance)  # IFR 100 %
    n, correct = len(chance), sum(r["correct"] for r in chance)
    # Two-sided exact binomial test at 0.1 %: the count is no surprise for a 1-in-4 guesser.
    assert exact_binomial_sf(correct, n, 0.25) > 0.0005, (correct, n)
    assert 1 - exact_binomial_sf(correct + 1, n, 0.25) > 0.0005, (correct, n)


def test_the_presented_order_is_recorded_and_shared_by_models_and_conditions(mcq_run):
    _, records = mcq_run
    orders = defaultdict(set)
    for r in records:
        letters = [letter for letter, _ in r["presented_options"]]
        assert letters == list("ABCD")[: len(letters)]
        truth_text = dict(r["presented_options"])[r["truth"]]
        assert truth_text == r["truth_label"]
        orders[(r["dataset"], r["item_id"], r["repeat"])].add(tuple(r["option_order"]))
    assert all(len(seen) == 1 for seen in orders.values())
    by_item = defaultdict(set)
    for (dataset, item_id, _repeat), seen in orders.items():
        by_item[(dataset, item_id)] |= seen
    assert any(len(seen) > 1 for seen in by_item.values()), "repeats reshuffle the options"


def test_the_report_has_the_mcq_table(mcq_run):
    run_dir, _ = mcq_run
    table = (run_dir / "mcq.md").read_text()
    assert "| muchomusic | audio | 1-shot | all | oracle | 100.0 [" in table
    assert "| wildscore | text-only | 1-shot | subcategory: Metric Structure | oracle |" in table
    assert "category: reasoning" in table
    summary = json.loads((run_dir / "summary.json").read_text())
    overall = [row for row in summary["mcq"] if row["group_kind"] == "all"]
    assert {(row["model"], row["dataset"], row["condition"]) for row in overall} == {
        (m, d, c) for m in ("oracle", "chance")
        for d, c in (("muchomusic", "audio"), ("muchomusic", "no-audio"),
                     ("wildscore", "image"), ("wildscore", "text-only"))}
    assert all(row["ifr"] == 1.0 and row["n"] == 36 for row in overall)
    assert "Multiple-choice datasets" in (run_dir / "report.html").read_text()
    assert summary["header"]["mcq"]["repeats"] == 3
    assert not summary["cells"], "MCQ trials stay out of the core tasks' tables"


def test_runs_without_mcq_records_have_no_mcq_table():
    for frame in (pd.DataFrame({"model": ["m"], "correct": [True]}),
                  pd.DataFrame({"model": ["m"], "family": ["pitch"], "correct": [True]})):
        summary = mcq_summary(frame)
        assert summary.empty and mcq_markdown(summary) == ""


def test_without_a_dataset_the_mcq_module_collects_nothing_and_says_so_once():
    result = _pytest("bench/test_mcq.py", "--collect-only", timeout=300)
    assert result.returncode == 5, result.stdout[-2000:]  # no tests collected
    assert result.stdout.count("no --mcq-dataset given") == 1
    assert "test_mcq[" not in result.stdout
