"""Several listeners: ``python -m reports build`` merges ``human:<listener>`` runs into one row
per listener and a pooled ``human`` row whose interval resamples listeners, and compares each
model with the pool by the paired test of ``reports compare``.

The listeners answer real runs in terminal mode (``--human-ui terminal``, answers on stdin),
so their records are what a listening page would have recorded.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from reports.tables.accuracy import load_records
from reports.tables.humans import listener_table, pool_comparison
from solvers.cluster_stats import cluster_bootstrap_interval
from tests_solvers import PYTEST

REPO = Path(__file__).resolve().parent.parent
SLICE = ["bench/test_chord.py", "--modality", "audio", "--shot", "zero", "--strategy",
         "standalone", "-k", "chord12 or chord16 or chord17 or chord5 or chord38 or chord45",
         "--no-report", "-p", "no:cacheprovider"]
PRACTICE = ["1"] * 4  # the four chord examples come first


def _run(tmp_path: Path, model: str, typed: list[str]) -> Path:
    run_dir = tmp_path / model.replace(":", "-")
    cmd = [*PYTEST, "-q", *SLICE, "--model", model, "--human-ui", "terminal",
           "--run-dir", str(run_dir), "--cache-path", str(tmp_path / "responses.sqlite")]
    result = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300,
                            input="\n".join(typed) + "\n")
    assert result.returncode in (0, 1), result.stdout[-3000:] + result.stderr[-3000:]
    return run_dir


def test_two_listeners_merge_into_rows_a_pool_and_a_comparison(tmp_path):
    first = _run(tmp_path, "human:A", PRACTICE + ["1", "2", "3", "4", "?", "1"])
    second = _run(tmp_path, "human:B", PRACTICE + ["a", "a", "b", "?", "c", "d"])
    chance = tmp_path / "chance"
    subprocess.run([*PYTEST, "-q", *SLICE, "--model", "chance", "--run-dir", str(chance)],
                   cwd=REPO, capture_output=True, timeout=300, check=False)
    out = tmp_path / "merged"
    built = subprocess.run([sys.executable, "-m", "reports", "build", str(first), str(second),
                            str(chance), "--out", str(out)],
                           cwd=REPO, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr[-3000:]

    df = load_records(out)
    table = listener_table(df)
    assert list(table["row"]) == ["human:A", "human:B", "human (pooled)"]
    pooled = table.iloc[-1]
    assert pooled["listeners"] == 2 and pooled["n"] == 12
    # the pooled interval resamples whole listeners: their (right, asked) counts
    humans = df[df["model"].str.startswith("human:")]
    counts = humans.groupby("model")["correct"].agg(["sum", "count"])
    mean, low, high = cluster_bootstrap_interval(counts["sum"].tolist(), counts["count"].tolist())
    assert pooled["accuracy % [95 % CI]"] == (
        f"{100 * mean:.1f} [{100 * low:.1f}, {100 * high:.1f}]")
    assert mean == humans["correct"].mean()

    versus = pool_comparison(df)
    overall = versus[(versus["model"] == "chance") & (versus["modality"] == "all")].iloc[0]
    assert overall["n pairs"] == 6
    # the pool's verdict per trial: both listeners right, else wrong (a tie of two is wrong)
    both_right = humans.groupby("trial_id")["correct"].all()
    assert overall["listeners %"] == round(100 * both_right.mean(), 1)

    report = (out / "report.html").read_text()
    for text in ("Human listeners", "human:A", "human:B", "human (pooled)",
                 "Models against the pooled listeners"):
        assert text in report
    assert json.loads((out / "summary.json").read_text())["header"]["merged_from"]
