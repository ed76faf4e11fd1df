"""One overview across runs (reports/tables/overview.py): a row per model across every family, the
pooled human row and the published rows; written by ``python -m reports build`` of several
runs."""

from __future__ import annotations

import html
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from reports.tables.overview import OVERVIEW_CSV, OVERVIEW_HTML, overview_rows, write_overview
from tests_solvers import PYTEST

REPO = Path(__file__).resolve().parent.parent


def _record(model: str, family: str, task: str, correct: bool, control: str = "real") -> dict:
    return {"model": model, "family": family, "task": task, "modality": "audio",
            "shot": "zero", "strategy": "standalone", "control": control, "correct": correct,
            "error_class": None, "parsed_answer": "A"}


def _records() -> pd.DataFrame:
    rows = []
    for index in range(10):
        rows.append(_record("oracle", "core", "chord", True))
        rows.append(_record("oracle", "pitch", "pitch_a1", True))
        rows.append(_record("chance", "core", "chord", index < 3))
        rows.append(_record("human:ann", "core", "chord", index < 8))
        rows.append(_record("human:bob", "core", "chord", index < 6))
    rows.append(_record("oracle", "core", "chord", False, control="silence"))  # left out
    return pd.DataFrame(rows)


def test_one_row_per_model_and_family_then_the_pooled_human_and_published_rows(tmp_path):
    rows = overview_rows(_records()).set_index(["row", "family"])
    assert rows.loc[("oracle", "core"), "accuracy"] == 1.0
    assert rows.loc[("oracle", "pitch"), "n"] == 10
    assert rows.loc[("chance", "core"), "accuracy"] == pytest.approx(0.3)
    human = rows.loc[("human", "core")]
    assert (human["kind"], human["n"], human["accuracy"]) == ("human", 20, pytest.approx(0.7))
    # the seed paper's Table 1: Gemini Pro, chord, audio, zero-shot, standalone
    assert rows.loc[("Gemini Pro (published)", "core"), "accuracy"] == pytest.approx(0.4773)
    assert rows.loc[("Gemini Pro (published)", "core"), "tasks"] == 1
    assert (rows.xs("pitch", level="family")["kind"] == "published").sum() >= 2
    written = write_overview(_records(), tmp_path, {"run_id": "merged"})
    page = html.unescape(written[OVERVIEW_HTML].read_text())
    assert "Overview across runs" in page and "Gemini Pro (published)" in page
    assert "100.0 [" in page and "(k=1)" in page
    assert pd.read_csv(written[OVERVIEW_CSV])["row"].str.startswith("human").any()


def test_reports_build_of_several_runs_writes_the_overview(tmp_path):
    for model in ("oracle", "chance"):
        cmd = [*PYTEST, "-q", "-p", "no:cacheprovider", "bench/test_chord.py", "--model", model,
               "--modality", "midi", "--shot", "zero", "--strategy", "standalone",
               "-k", "chord12 or chord16", "--run-dir", str(tmp_path / model), "--no-report"]
        result = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600)
        assert result.returncode in (0, 1), result.stdout[-3000:] + result.stderr[-3000:]
    build = subprocess.run(
        [sys.executable, "-m", "reports", "build", str(tmp_path / "oracle"),
         str(tmp_path / "chance"), "--out", str(tmp_path / "merged")],
        cwd=REPO, capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stderr[-3000:]
    rows = pd.read_csv(tmp_path / "merged" / OVERVIEW_CSV)
    measured = rows[rows["kind"] == "model"]
    assert sorted(measured["row"]) == ["chance", "oracle"]
    assert measured.set_index("row").loc["oracle", "accuracy"] == 1.0
    assert (rows["kind"] == "published").any()
    assert (tmp_path / "merged" / OVERVIEW_HTML).is_file()
