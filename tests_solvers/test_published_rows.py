"""Published rows: the seed papers' tables kept as data, shown beside a run's own numbers."""

from __future__ import annotations

import html
import subprocess
from pathlib import Path

from reports.tables.accuracy import load_records
from reports.tables.published import CITATIONS, published_rows, published_table
from tests_solvers import PYTEST

REPO = Path(__file__).resolve().parent.parent


def _one(task: str, **where: str) -> float:
    rows = [r for r in published_rows(task) if all(r[k] == v for k, v in where.items())]
    assert len(rows) == 1, rows
    return rows[0]["accuracy_pct"]


def test_the_papers_numbers_are_kept_as_printed():
    # Table 1 of the companion paper: 3 tasks x 2 modalities x 2 shots x 3 strategies x 3 models
    assert sum(len(published_rows(t)) for t in ("chord", "syncopation", "transposition")) == 108
    assert _one("transposition", modality="audio", shot="zero", strategy="standalone",
                model="Gemini Pro") == 94.74
    assert _one("chord", modality="midi", shot="few", strategy="cot",
                model="Gemini Flash") == 97.73
    assert _one("syncopation", modality="audio", shot="few", strategy="logiclm",
                model="Qwen2.5-Omni") == 20.00
    # MUSE's numbers belong to MUSE as published (its recordings and prompts): Table B
    assert _one("musepub_key_modulation", shot="zero", model="Gemini 2.5 Pro") == 81.66
    assert _one("musepub_meter", shot="6-shot", model="Gemini 2.5 Flash") == 35.00
    # MUSE's repository summary: its Table B "original" column is the standalone row
    assert _one("musepub_chord_sequence", shot="few", strategy="standalone",
                model="Gemini 2.5 Pro") == 66.67
    assert _one("musepub_transposition", shot="few", strategy="standalone",  # "Pitch Shift"
                model="Gemini 2.5 Pro") == 81.36
    assert _one("musepub_instrument", shot="few", strategy="cot", model="Audio Flamingo 3") > 0
    # PitchBench Table 1 (28 experiments x 6 models) and MuChoMusic Table 3
    assert sum(len(published_rows(f"pitch_{e}")) for e in (
        "a1 a2 a3 b1 b2 b3 b4 b5 c1 c2 c3 c4 d1 d2 d3 d4 d5 d6 d7 d8 e1 e2 e3 e4 e5 e6 f1 f2"
        .split())) == 168
    assert _one("pitch_a1", model="Qwen-3.5 Omni Plus") == 91.6
    assert _one("pitch_d7", model="Gemini 3.1 Pro") == 58.5
    assert _one("mcq_muchomusic", model="Qwen-Audio") == 51.4
    for task in ("chord", "musepub_meter", "pitch_e4", "mcq_muchomusic"):
        assert all(r["citation"] == CITATIONS[r["source"]] for r in published_rows(task))


def test_a_core_run_report_shows_the_published_rows_beside_its_own(tmp_path):
    run_dir = tmp_path / "run"
    cmd = [*PYTEST, "-q", "-p", "no:cacheprovider", "bench/test_chord.py", "--model", "oracle",
           "--modality", "audio", "--shot", "zero", "--strategy", "standalone",
           "-k", "chord12 or chord16", "--run-dir", str(run_dir)]
    result = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    table = published_table(load_records(run_dir))
    assert list(table["row"]) == ["oracle (this run)", "Gemini Flash (published)",
                                  "Gemini Pro (published)", "Qwen2.5-Omni (published)"]
    assert list(table["accuracy %"]) == [100.0, 31.82, 47.73, 31.82]
    assert set(table["source"][1:]) == {CITATIONS["carone-table1"]}
    report = html.unescape((run_dir / "report.html").read_text())
    assert "Published results (seed papers)" in report
    assert "Gemini Pro (published)" in report and CITATIONS["carone-table1"] in report
