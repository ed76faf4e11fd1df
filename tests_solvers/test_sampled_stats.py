"""Issue 17: statistics that treat K samples of an item as repeats — the cluster bootstrap's
width and coverage, Holm, and the sampled gate's false-alarm rate and power (outcomes are
simulated in-process and go through the real report and gate functions)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from reports.gate.baseline import Baseline, gate_failures, save_baseline
from reports.stats.sampled import sample_fields
from reports.tables.accuracy import cell_summary
from solvers.cluster_stats import cluster_bootstrap_interval, holm, paired_drop_p
from solvers.metrics import wilson_interval
from solvers.sampling import summarize

# The core bench's chance cells: options per task and items per task (84 items x 12 cells).
TASKS = {"syncopation": (5, 20), "transposition": (2, 20), "chord": (4, 44)}
CELLS = [(m, sh, st) for m in ("audio", "midi") for sh in ("zero", "few")
         for st in ("standalone", "cot", "logiclm")]


def _record(task: str, cell: tuple, item: int, answers: list[int], seed: int) -> dict:
    """A flattened trial record of K samples (answer 0 is the right one)."""
    letters = [chr(65 + a) for a in answers]
    outcome = summarize(letters, [a == 0 for a in answers], [seed + s for s in range(len(answers))])
    modality, shot, strategy = cell
    return {"model": "chance", "task": task, "modality": modality, "shot": shot,
            "strategy": strategy, "trial_id": f"{task}/{modality}/{shot}/{strategy}/{item}",
            "item_id": f"{task}{item}", "truth": "A", "parsed_answer": outcome.majority_answer,
            "correct": outcome.majority_correct, "error_class": None,
            "answer_source": "final_line", "samples": outcome.to_json()}


def chance_run(seed: int, samples: int = 3, right_p: dict | None = None) -> pd.DataFrame:
    """A whole core bench of a uniform guesser (or, with ``right_p``, of a model right with
    that probability per task), K samples per trial."""
    rng = np.random.default_rng(seed)
    rows = []
    for task, (options, items) in TASKS.items():
        for cell in CELLS:
            for item in range(items):
                if right_p is None:
                    answers = rng.integers(0, options, size=samples).tolist()
                else:
                    answers = [0 if rng.random() < right_p[task] else 1 for _ in range(samples)]
                rows.append(_record(task, cell, item, answers, seed))
    return pd.DataFrame(rows)


def test_cluster_interval_is_wider_than_naive_when_items_differ():
    # half the items heard (right 90 % of samples), half not (10 %): repeats are correlated
    rng = np.random.default_rng(3)
    p = np.repeat([0.9, 0.1], 22)
    right = rng.binomial(5, p)
    mean, low, high = cluster_bootstrap_interval(right, [5] * len(p), seed=1)
    naive_low, naive_high = wilson_interval(int(right.sum()), 5 * len(p))
    assert mean == pytest.approx(right.sum() / (5 * len(p)))
    assert (high - low) > 1.8 * (naive_high - naive_low)


def test_cluster_interval_of_chance_covers_chance_at_its_rate_over_20_seeds():
    covered, widths = 0, []
    for seed in range(20):
        run = chance_run(seed)
        cell = run[(run["task"] == "chord") & (run["modality"] == "midi")
                   & (run["shot"] == "zero") & (run["strategy"] == "standalone")]
        fields = sample_fields(cell, True, seed=seed)
        covered += fields["mean_ci_low"] <= 0.25 <= fields["mean_ci_high"]
        widths.append((fields["mean_ci_high"] - fields["mean_ci_low"])
                      / (fields["naive_ci_high"] - fields["naive_ci_low"]))
    assert covered >= 17  # 95 % intervals: 17 or fewer of 20 happens with probability < 2 %
    # never narrower than the naive interval; a guesser's samples are independent, so
    # clustering costs it (almost) nothing more
    assert min(widths) >= 1.0 and float(np.mean(widths)) < 1.2


def test_cell_summary_reports_mean_majority_and_agreement():
    run = chance_run(0)
    summary = cell_summary(run)
    chord = summary.loc[("chance", "chord", "midi", "zero", "standalone")]
    assert chord["samples_k"] == 3 and chord["n"] == 44
    cell = run[run["trial_id"].str.startswith("chord/midi/zero/standalone/")]
    assert chord["accuracy"] == pytest.approx(cell["correct"].mean())  # majority vote
    flags = [c for s in cell["samples"] for c in s["correct"]]
    assert chord["mean_accuracy"] == pytest.approx(np.mean(flags))
    assert chord["agreement"] == pytest.approx(np.mean([s["agreement"] for s in cell["samples"]]))


def test_holm_adjusts_step_down():
    assert holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert holm([]) == []


def test_paired_drop_p_sees_a_drop_and_not_a_rise():
    base = [1.0] * 30
    assert paired_drop_p([0.0] * 30, base) < 0.001
    assert paired_drop_p(base, [0.0] * 30) == 1.0
    assert paired_drop_p(base, base) == 1.0


def _baseline(run: pd.DataFrame, path: Path) -> Baseline:
    save_baseline(run, path)
    return Baseline.load(path)


def test_gate_between_chance_runs_rarely_trips_and_a_real_drop_trips_it(tmp_path):
    alarms = 0
    for pair in range(20):
        base = _baseline(chance_run(1000 + pair), tmp_path / f"b{pair}.json")
        assert base.samples and len(base.samples["chance"]) == 1008
        alarms += bool(gate_failures(base, chance_run(2000 + pair), 0.01))
    assert alarms <= 1
    heard = {"syncopation": 0.9, "transposition": 0.9, "chord": 0.9}
    deaf = {**heard, "chord": 0.5}
    base = _baseline(chance_run(7, right_p=heard), tmp_path / "heard.json")
    failures = gate_failures(base, chance_run(8, right_p=deaf), 0.01)
    assert failures and all(f.startswith("chance chord/") for f in failures)


def test_a_sampled_run_is_not_gated_against_a_single_sample_baseline(tmp_path):
    single = chance_run(0).drop(columns="samples")
    base = _baseline(single, tmp_path / "single.json")
    assert base.samples is None
    (failure,) = gate_failures(base, chance_run(1), 0.01)
    assert "--samples" in failure


def test_exact_sign_flip_p_matches_its_draws():
    rng = np.random.default_rng(5)
    now, base = rng.integers(0, 4, 40) / 3, rng.integers(0, 4, 40) / 3
    exact = paired_drop_p(now, base, denominators=[3])
    drawn = paired_drop_p(now, base, draws=200_000)
    assert exact == pytest.approx(drawn, abs=0.005)
    assert paired_drop_p([0.0] * 12, [1.0] * 12, denominators=[1]) == pytest.approx(0.5 ** 12)


def test_mcq_consistency_across_option_orders_beside_pooled_accuracy():
    from reports.tables.mcq import order_consistency

    rights = {"q1": [1, 1, 1], "q2": [1, 1, 0], "q3": [0, 1, 0]}  # per repeat (option order)
    frame = pd.DataFrame([{"item_id": q, "correct": bool(c), "error_class": None,
                           "trial_id": f"mcq/r{r}/{q}"}
                          for q, flags in rights.items() for r, c in enumerate(flags)])
    numbers = order_consistency(frame)
    assert numbers["orders"] == 3
    assert numbers["all_orders"] == pytest.approx(1 / 3)
    assert numbers["majority_orders"] == pytest.approx(2 / 3)
    assert numbers["cluster_ci_low"] <= 6 / 9 <= numbers["cluster_ci_high"]


def test_compare_pairs_items_and_corrects_across_cells():
    from reports.gate.sampled import format_sampled_comparison, sampled_comparison

    same = sampled_comparison(chance_run(0), chance_run(1))
    assert len(same) == 36 and (same["n_items"] > 0).all()
    assert (same["p_holm"] >= same["p_value"]).all() and (same["p_holm"] > 0.01).all()
    heard = {"syncopation": 0.9, "transposition": 0.9, "chord": 0.9}
    better = sampled_comparison(chance_run(2, right_p={**heard, "chord": 0.4}),
                                chance_run(3, right_p=heard))
    moved = better[better["p_holm"] < 0.01]
    assert len(moved) and (moved["task"] == "chord").all() and (moved["delta"] > 0).all()
    assert "Holm over 36 cells" in format_sampled_comparison(better)


def test_every_sample_is_a_row_for_the_glmm():
    from reports.stats.sampled import every_sample

    run = chance_run(0).head(5)
    rows = every_sample(run)
    assert len(rows) == 15 and list(rows["sample"][:3]) == [0, 1, 2]
    assert list(rows["correct"]) == [c for s in run["samples"] for c in s["correct"]]
    plain = run.drop(columns="samples")
    assert every_sample(plain) is plain


def test_the_modality_figure_plots_the_mean_over_samples_with_its_item_interval():
    from reports.figures.paper import accuracy_by_modality, modality_accuracy

    run = chance_run(0)
    table = modality_accuracy(run).set_index(["task", "model", "modality"])
    chord = run[(run["task"] == "chord") & (run["modality"] == "midi")]
    bar = table.loc[("chord", "chance", "midi")]
    assert bar["accuracy"] == pytest.approx(np.mean([c for s in chord["samples"]
                                                     for c in s["correct"]]))
    assert bar["ci_low"] < bar["accuracy"] < bar["ci_high"]
    assert "over items" in accuracy_by_modality(run).axes[0].get_ylabel()
