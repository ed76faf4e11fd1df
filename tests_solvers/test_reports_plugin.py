"""The reporting plugin end to end: artifacts, baselines, regressions, the gate, merging.

The plugin is driven with pytester (in a subprocess, with and without ``-n 2``) on a small
bench of its own, and through the real ``bench/`` for the acceptance runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests_solvers import CORE_BENCH, PYTEST

REPO = Path(__file__).resolve().parent.parent
pytest_plugins = ["pytester"]

MINI_BENCH = '''
def test_chord(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()
'''


def bench(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    cmd = [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", *args]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=900)


@pytest.fixture
def mini(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A throwaway project using eartest's plugins, with one bench module."""
    monkeypatch.setenv("PYTHONPATH", str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    pytester.makeconftest(
        'pytest_plugins = ["reports.plugins.report", "reports.gate.baseline", '
        '"fixtures.plugins.trials", "fixtures.plugins.models"]'
    )
    pytester.mkdir("bench")
    pytester.makepyfile(**{"bench/test_chord": MINI_BENCH})  # the core family's module
    return pytester


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_plugin_writes_every_artifact(mini: pytest.Pytester, workers: list[str]) -> None:
    run_dir = mini.path / "run"
    result = mini.runpytest_subprocess(
        "--model", "oracle,chance", "--modality", "midi", "-m", "zero and standalone",
        "--run-dir", str(run_dir), "-p", "no:cacheprovider", *workers,
    )
    outcomes = result.parseoutcomes()
    assert outcomes["passed"] + outcomes["failed"] == 88
    for name in ("trials.jsonl", "summary.json", "table1.md", "table1.csv",
                 "transcription_f1.csv", "accuracy_by_modality.png", "f1_vs_accuracy.png",
                 "report.html"):
        assert (run_dir / name).is_file(), name
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["header"]["options"]["models"] == ["oracle", "chance"]
    assert summary["header"]["git_revision"]
    assert "numpy" in summary["header"]["packages"]
    assert summary["header"]["seed"] == 0
    cells = {(c["model"], c["task"], c["modality"]): c for c in summary["cells"]}
    assert cells[("oracle", "chord", "midi")]["accuracy"] == 1.0
    assert cells[("chance", "chord", "midi")]["ifr"] == 1.0
    result.stdout.fnmatch_lines(["*model*task*modality*accuracy*", "*oracle*chord*midi*100.0%*"])
    result.stdout.fnmatch_lines(["*eartest: report in*report.html*"])


def test_oracle_run_reports_full_marks_in_table1_shape(tmp_path: Path) -> None:
    run_dir = tmp_path / "oracle"
    result = bench("--model", "oracle", "--run-dir", str(run_dir))
    assert result.returncode == 0, result.stdout[-2000:]
    summary = json.loads((run_dir / "summary.json").read_text())
    assert len(summary["cells"]) == 3 * 2 * 2 * 3
    assert all(c["accuracy"] == 1.0 and c["ifr"] == 1.0 for c in summary["cells"])
    assert all(c["n"] == c["n_trials"] for c in summary["cells"])
    f1 = summary["transcription_f1"]
    assert f1 and all(row["f1"] == 1.0 for row in f1)
    table = (run_dir / "table1.md").read_text().strip().splitlines()
    body = [line for line in table[2:]]  # header row, separator row, then 12 rows + chance
    assert len(body) == 13
    assert body[-1].startswith("| Chance")
    assert "100.0" in body[0]


@pytest.fixture(scope="module")
def chance_baseline(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A chance run (seed 0) saved as a baseline, shared by the tests that re-run against it."""
    folder = tmp_path_factory.mktemp("chance_baseline")
    baseline = folder / "chance.json"
    first = bench("--model", "chance", "--no-report", "--run-dir",
                  str(folder / "run"), "--baseline-save", str(baseline))
    assert first.returncode == 1  # a guesser fails trials
    return baseline


def test_chance_baseline_rerun_with_the_same_seed_is_green(
    tmp_path: Path, chance_baseline: Path
) -> None:
    baseline = chance_baseline
    again = bench("--model", "chance", "--no-report", "--run-dir",
                  str(tmp_path / "b"), "--baseline", str(baseline), "--baseline-strict",
                  "--gate", "0.01")
    assert again.returncode == 0, again.stdout[-3000:]
    assert "xfailed" in again.stdout and " failed" not in again.stdout
    assert "gate at alpha 0.01 passed" in again.stdout


def test_chance_runs_with_different_seeds_pass_the_gate(
    tmp_path: Path, chance_baseline: Path
) -> None:
    baseline = chance_baseline
    other = bench("--model", "chance", "--no-report", "--seed", "1",
                  "--run-dir", str(tmp_path / "b"), "--baseline", str(baseline),
                  "--gate", "0.01")
    assert "gate at alpha 0.01 passed" in other.stdout, other.stdout[-3000:]
    assert other.returncode == 0, other.stdout[-3000:]


def _script(path: Path, wrong: list[str]) -> str:
    path.write_text(json.dumps({"base": "oracle", "wrong": wrong}))
    return f"scripted:{path}"


def test_a_regressed_cell_is_red_and_named(tmp_path: Path) -> None:
    script = tmp_path / "model.json"
    model = _script(script, [])
    baseline = tmp_path / "base.json"
    args = ["--modality", "midi", "--no-report"]
    saved = bench("--model", model, *args, "--run-dir", str(tmp_path / "a"),
                  "--baseline-save", str(baseline))
    assert saved.returncode == 0, saved.stdout[-2000:]
    _script(script, ["chord/midi/zero/cot/*"])
    regressed = bench("--model", model, *args, "--run-dir", str(tmp_path / "b"),
                      "--baseline", str(baseline))
    assert regressed.returncode == 1
    assert "44 regressions against" in regressed.stdout
    listed = (tmp_path / "b" / "regressions.txt").read_text().splitlines()
    assert len(listed) == 44
    assert f"{model}/chord/midi/zero/cot/chord1" in listed


def test_gate_fails_on_a_twenty_point_drop_in_one_cell(tmp_path: Path) -> None:
    script = tmp_path / "model.json"
    model = _script(script, [])
    baseline = tmp_path / "base.json"
    args = ["--modality", "midi", "--no-report", "-m", "chord"]
    bench("--model", model, *args, "--run-dir", str(tmp_path / "a"),
          "--baseline-save", str(baseline))
    nine_of_44 = [f"chord/midi/few/logiclm/chord{n}" for n in (1, 2, 3, 4, 5, 6, 7, 9, 10)]
    _script(script, nine_of_44)
    # xfail nothing: the failures are new, and the gate must also see the drop as a whole
    gated = bench("--model", model, *args, "--run-dir", str(tmp_path / "b"),
                  "--baseline", str(baseline), "--gate", "0.01")
    assert gated.returncode == 1
    assert "gate at alpha 0.01 FAILED for 1 cells" in gated.stdout
    assert "chord/midi/few/logiclm: 35/44 now vs 44/44" in gated.stdout


def test_build_reports_bad_input_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "trials.jsonl").write_text("{not json\n")
    result = subprocess.run(
        [sys.executable, "-m", "reports", "build", str(tmp_path / "broken"),
         "--out", str(tmp_path / "out")],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 4
    assert "Traceback" not in result.stderr
    assert "trials.jsonl:1" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--gate", "0.01"], "give --baseline PATH too"),
        (["--gate", "2", "--baseline", "x.json"], "between 0 and 1"),
        (["--baseline", "/nonexistent/b.json"], "no such file"),
        (["--baseline-strict"], "needs --baseline"),
    ],
)
def test_baseline_usage_errors(args: list[str], message: str) -> None:
    result = bench(*args, "--collect-only")
    assert result.returncode == 4
    assert message in result.stderr
    assert "Traceback" not in result.stderr
