"""The report and the terminal label what ran (issue 27, defect 23): one chance level per pitch
experiment, a mean row naming the experiments that ran, table columns that fit every name."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pandas as pd

from reports.builders.artifacts import compact_table
from tests_solvers import PYTEST

REPO = Path(__file__).resolve().parent.parent


def test_defect23_one_chance_level_per_pitch_experiment_and_an_honest_mean_label(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    done = subprocess.run(
        [*PYTEST, "bench/test_pitch", "-q", "-p", "no:cacheprovider", "--model", "chance",
         "--pitch-sample", "1", "-k", "test_a1 and not mcq", "--run-dir", str(tmp_path / "run")],
        cwd=REPO, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-3000:]  # chance is wrong
    page = re.sub(r"<a [^>]*>|</a>", "", (tmp_path / "run" / "report.html").read_text())
    headline = re.search(r"<th>pitch</th><th>pitch_a1</th><td>[^<]*</td><td>([\d.]+)</td>", page)
    table = re.search(r"<tr><th>a1</th>(?:<td>[^<]*</td>)*?<td>([\d.]+)</td></tr>", page)
    assert headline and table, page[:3000]
    assert headline.group(1) == table.group(1), "two chance levels for one experiment"
    assert "Mean (1 experiment)" in page and "Mean (28 experiments)" not in page


def test_defect23_terminal_table_columns_fit_the_longest_task():
    index = pd.MultiIndex.from_tuples(
        [("listener", "syncopation@live", "audio"), ("listener", "chord", "audio")],
        names=["model", "task", "modality"])
    pooled = pd.DataFrame({"accuracy": [0.5, 1.0], "n": [10, 4], "n_excluded": [0, 0]},
                          index=index)
    header, *rows = compact_table(pooled)
    columns = [line.index("audio") for line in rows]
    assert len(set(columns)) == 1, rows
    assert header.index("modality") == columns[0]
    assert rows[0].split()[:3] == ["listener", "syncopation@live", "audio"]
