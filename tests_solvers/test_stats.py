"""Per-task GLMMs and paired run comparisons: synthetic data with known effects, real runs.

The real runs are ``pytest bench`` subprocesses (MIDI only, offline backends) into tmp dirs, one
module-scoped fixture each, so the records are exactly what users get.
"""

from __future__ import annotations

import math
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from reports.builders.compare import compare_runs
from reports.stats.inference import (
    GLMM_COLUMNS,
    PAIRED_COLUMNS,
    format_comparison,
    glmm_by_task,
    paired_comparison,
)
from reports.tables.accuracy import load_records
from tests_solvers import CORE_BENCH, PYTEST

REPO_ROOT = Path(__file__).resolve().parent.parent
ITEMS = {"syncopation": 20, "transposition": 20, "chord": 44}
CELL = ("task", "modality", "shot", "strategy")


def run_bench(run_dir: Path, models: str, seed: int) -> pd.DataFrame:
    """One MIDI-only benchmark run in a subprocess; its trial records."""
    done = subprocess.run(
        [*PYTEST, *CORE_BENCH, "--model", models, "--modality", "midi",
         "-q", "-p", "no:cacheprovider", "--seed", str(seed), "--run-dir", str(run_dir),
         "--no-report"],  # the statistics are computed here from the records
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=600,
    )
    assert (run_dir / "trials.jsonl").is_file(), done.stdout[-2000:] + done.stderr[-2000:]
    return load_records(run_dir)


@pytest.fixture(scope="module")
def oracle_chance(tmp_path_factory) -> Path:
    run_dir = tmp_path_factory.mktemp("stats") / "oracle_chance"
    run_bench(run_dir, "oracle,chance", seed=1)
    return run_dir


@pytest.fixture(scope="module")
def chance_other_seed(tmp_path_factory) -> Path:
    run_dir = tmp_path_factory.mktemp("stats") / "chance_seed2"
    run_bench(run_dir, "chance", seed=2)
    return run_dir


def synthetic(
    accuracy: dict[tuple[str, str], float],
    seed: int = 0,
    tasks: tuple[str, ...] = ("chord",),
    stimulus_sd: float = 0.5,
) -> pd.DataFrame:
    """Trial records drawn from a logistic model with a random intercept per stimulus.

    ``accuracy`` maps (model, modality) to the accuracy of an average stimulus; each cell
    holds every stimulus under 2 shots x 3 strategies, like a real run.
    """
    rng = np.random.default_rng(seed)
    rows = []
    for task in tasks:
        offsets = rng.normal(0.0, stimulus_sd, ITEMS[task])
        for (model, modality), p in accuracy.items():
            for item, offset in enumerate(offsets, start=1):
                logit = math.log(p / (1 - p)) + offset
                for shot in ("zero", "few"):
                    for strategy in ("standalone", "cot", "logiclm"):
                        correct = bool(rng.random() < 1 / (1 + math.exp(-logit)))
                        rows.append({
                            "model": model, "task": task, "modality": modality, "shot": shot,
                            "strategy": strategy, "item_id": f"{task}{item}",
                            "trial_id": f"{task}/{modality}/{shot}/{strategy}/{task}{item}",
                            "correct": correct, "error_class": None,
                            "parsed_answer": "A" if correct else "B",
                        })
    return pd.DataFrame(rows)


def by_term(table: pd.DataFrame, task: str = "chord") -> dict[str, pd.Series]:
    rows = table[table["task"] == task]
    return {row["term"]: row for _, row in rows.iterrows()}


# --- GLMM --------------------------------------------------------------------------------------


def test_glmm_recovers_a_model_specific_modality_gap():
    df = synthetic({("good", "midi"): 0.97, ("good", "audio"): 0.30,
                    ("weak", "midi"): 0.27, ("weak", "audio"): 0.27})
    table = glmm_by_task(df)
    assert list(table.columns) == list(GLMM_COLUMNS)
    terms = by_term(table)
    assert set(terms) == {"model", "modality", "model:modality"}
    for term in terms.values():
        assert term["p_value"] < 0.001 and term["df"] == 1 and term["note"] == ""
        assert term["n_trials"] == len(df)
    assert 0.1 < terms["model"]["stimulus_sd"] < 2.0


def test_glmm_gives_large_p_values_without_effects():
    df = synthetic({(m, mod): 0.6 for m in ("a", "b") for mod in ("audio", "midi")}, seed=3)
    for term in by_term(glmm_by_task(df)).values():
        assert term["p_value"] > 0.05 and term["chi2"] >= 0


def test_glmm_multi_df_terms_and_excluded_trials():
    accuracy = {(m, mod): 0.5 for m in ("a", "b", "c") for mod in ("audio", "midi")}
    df = synthetic({**accuracy, ("c", "midi"): 0.95}, seed=5)
    df.loc[df.index[:7], ["error_class", "correct"]] = ["token_limit", False]
    terms = by_term(glmm_by_task(df))
    assert terms["model"]["df"] == 2 and terms["modality"]["df"] == 1
    assert terms["model:modality"]["df"] == 2 and terms["model:modality"]["p_value"] < 0.001
    assert terms["model"]["n_trials"] == len(df) - 7


def test_glmm_fits_every_term_of_a_two_model_two_modality_run():
    """The size of a two-model core run. (Its time is part of the report's wrap-up, measured by
    benchmarks/whole_run.py: a timed assert here failed on a loaded machine, not on a slow fit.)"""
    models = {("good", "midi"): 0.9, ("good", "audio"): 0.4,
              ("weak", "midi"): 0.5, ("weak", "audio"): 0.3}
    df = synthetic(models, tasks=tuple(ITEMS))
    assert len(df) == 2 * 1008
    table = glmm_by_task(df)
    assert len(table) == 9 and table["p_value"].notna().all()


def test_glmm_reports_separation_instead_of_numbers(oracle_chance):
    table = glmm_by_task(load_records(oracle_chance))
    assert list(table["task"].unique()) == ["syncopation", "transposition", "chord"]
    assert table["p_value"].isna().all() and table["chi2"].isna().all()
    model_rows = table[table["term"] == "model"]
    assert model_rows["note"].str.contains("separation: oracle/midi is all correct").all()
    modality_rows = table[table["term"] != "model"]
    assert modality_rows["note"].str.contains("only one modality").all()


def test_glmm_separation_with_two_modalities_blanks_every_term():
    df = synthetic({("oracle", "midi"): 0.5, ("oracle", "audio"): 0.5,
                    ("chance", "midi"): 0.25, ("chance", "audio"): 0.25})
    df.loc[(df["model"] == "oracle") & (df["modality"] == "midi"), "correct"] = True
    table = glmm_by_task(df)
    assert table["p_value"].isna().all()
    assert table["note"].str.startswith("separation: oracle/midi is all correct").all()


def test_glmm_empty_cell_and_single_model():
    df = synthetic({("a", "midi"): 0.5, ("a", "audio"): 0.5, ("b", "midi"): 0.5})
    table = glmm_by_task(df)
    assert table["p_value"].isna().all()
    assert table["note"].str.contains("empty cell: b/audio").all()
    assert glmm_by_task(df[df["model"] == "a"]) is None


# --- Paired comparison -------------------------------------------------------------------------


def test_two_chance_seeds_pair_per_model_and_agree_with_accuracies(
    oracle_chance, chance_other_seed
):
    a = load_records(oracle_chance)
    a = a[a["model"] == "chance"]
    b = load_records(chance_other_seed)
    table = paired_comparison(a, b)
    assert list(table.columns) == list(PAIRED_COLUMNS)
    assert (table["model_a"] == "chance").all() and (table["model_b"] == "chance").all()
    assert table["p_value"].between(0, 1).all()
    assert not (table["b"] + table["c"] == 0).all(), "different seeds should flip some trials"
    cells = table[table["modality"] != "all"]
    assert len(cells) == 3 * 6 and cells["n_pairs"].sum() == len(a) == len(b)
    expected = a.groupby(list(CELL))["correct"].mean()
    for row in cells.itertuples():
        key = (row.task, row.modality, row.shot, row.strategy)
        assert row.accuracy_a == pytest.approx(expected[key])
    assert np.allclose(table["delta"], 100 * (table["accuracy_b"] - table["accuracy_a"]))
    assert np.allclose(table["delta"], 100 * (table["c"] - table["b"]) / table["n_pairs"])
    totals = table[table["modality"] == "all"].set_index("task")
    assert totals.loc["chord", "n_pairs"] == 6 * ITEMS["chord"]


def test_a_run_against_itself_changes_nothing(oracle_chance):
    df = load_records(oracle_chance)
    table = paired_comparison(df, df)
    assert set(table["model_a"]) == {"oracle", "chance"}
    assert (table["model_a"] == table["model_b"]).all()
    assert (table["delta"] == 0).all() and (table["p_value"] == 1).all()
    assert (table[["b", "c", "n_excluded", "n_unpaired"]] == 0).all().all()


def test_one_flipped_cell_is_significant_and_only_that_cell(oracle_chance):
    a = load_records(oracle_chance)
    b = a.copy()
    flipped = (b["model"] == "oracle") & (b["task"] == "chord") & (b["shot"] == "zero") & (
        b["strategy"] == "standalone")
    b.loc[flipped, "correct"] = False
    table = paired_comparison(a, b).set_index(["model_a", *CELL])
    cell = table.loc[("oracle", "chord", "midi", "zero", "standalone")]
    assert cell["n_pairs"] >= 44 and cell["b"] == cell["n_pairs"] and cell["c"] == 0
    assert cell["p_value"] < 0.05 and cell["delta"] == -100
    assert table.loc[("oracle", "chord", "all", "all", "all"), "p_value"] < 0.05
    others = table.drop([("oracle", "chord", "midi", "zero", "standalone"),
                         ("oracle", "chord", "all", "all", "all")])
    assert (others["p_value"] == 1).all()
    line = next(
        ln for ln in format_comparison(paired_comparison(a, b)).splitlines()
        if ln.split()[:5] == ["oracle", "chord", "midi", "zero", "standalone"]
    )
    assert line.rstrip().endswith("***") and "-100.0" in line


def test_excluded_and_unpaired_trials_are_counted_not_dropped(oracle_chance):
    a = load_records(oracle_chance)
    a = a[a["model"] == "chance"].reset_index(drop=True)
    b = a.copy()
    cot = a.index[(a["task"] == "chord") & (a["shot"] == "zero") & (a["strategy"] == "cot")]
    a.loc[cot[:2], "error_class"] = "token_limit"
    b.loc[cot[2], "error_class"] = "backend_error"
    b.loc[cot[3], "error_class"] = "schema_parse"  # the model's failure: still counted
    b = b.drop(index=cot[4:7])
    table = paired_comparison(a, b).set_index(list(CELL))
    cell = table.loc[("chord", "midi", "zero", "cot")]
    assert (cell["n_excluded"], cell["n_unpaired"]) == (3, 3)
    assert cell["n_pairs"] == ITEMS["chord"] - 6
    total = table.loc[("chord", "all", "all", "all")]
    assert (total["n_excluded"], total["n_unpaired"]) == (3, 3)
    assert total["n_pairs"] + 6 == 6 * ITEMS["chord"]
    assert table.drop(index=[("chord", "midi", "zero", "cot"), ("chord", "all", "all", "all")])[
        ["n_excluded", "n_unpaired"]].eq(0).all().all()
    text = format_comparison(paired_comparison(a, b))
    assert "excluded" in text.splitlines()[0] and "unpaired" in text.splitlines()[0]
    assert "3 excluded from the denominator in either run, 3 in one run only" in text


def test_runs_that_disagree_about_a_trial_are_an_error(oracle_chance):
    a = load_records(oracle_chance)
    b = a.copy()
    b.loc[b.index[0], "shot"] = "few"
    with pytest.raises(ValueError, match="disagree on the shot of trial"):
        paired_comparison(a, b)


def test_compare_runs_pairs_every_model_when_model_sets_differ(oracle_chance, chance_other_seed):
    text = compare_runs(oracle_chance, chance_other_seed)
    assert "models oracle, chance" in text.splitlines()[0]
    assert "model chance" in text.splitlines()[1]
    lines = text.splitlines()
    assert any(ln.startswith("oracle -> chance") for ln in lines)
    assert any(ln.startswith("chance -> chance") for ln in lines)
    assert "p: exact McNemar" in text
    assert format_comparison(paired_comparison(load_records(oracle_chance).iloc[:0],
                                               load_records(chance_other_seed).iloc[:0])) == (
        "no trials to compare\n")
