"""The report's figures drawn in a worker process (reports/builders/figure_worker.py, issue 33):
the same bytes as drawn in the run's own process, no figure lost when the worker dies, and a
run that started one waits for it and leaves no process behind."""

from __future__ import annotations

import filecmp
import multiprocessing
import os
import signal
import time
from pathlib import Path

import pandas as pd
import pytest

from reports.builders import figure_worker
from reports.builders.artifacts import write_artifacts
from reports.builders.factor_section import factor_section, start_factor_section
from reports.builders.figure_worker import FigureWorker, paper_figures
from solvers.trial_record import row_from_json
from tests_solvers.test_factors import _records as factor_records

pytest_plugins = ["pytester"]
REPO = Path(__file__).resolve().parent.parent


def _core_records() -> pd.DataFrame:
    rows = []
    task = "chord"  # its transcriptions are lists of chords: the F1 figure has points
    for n, correct in enumerate([True, False, True, True] * 3):
        for modality in ("midi", "audio"):
            rows.append(row_from_json({
                "record_version": 1, "model": "m", "task": task, "modality": modality,
                "shot": "zero", "strategy": "logiclm", "item_id": f"{task}{n}",
                "trial_id": f"{task}/{modality}/zero/logiclm/{task}{n}", "truth": "A",
                "parsed_answer": "A" if correct else "B", "correct": correct,
                "error_class": None, "truth_transcription": [[60, 64, 67]],
                "transcription": [[60, 64, 67]] if correct else [[61]], "turns": [],
                "family": "core"}))
    return pd.DataFrame(rows)


def _same_files(here: Path, there: Path) -> None:
    names = sorted(p.name for p in here.iterdir())
    assert names == sorted(p.name for p in there.iterdir())
    assert [n for n in names if (here / n).is_file()
            and not filecmp.cmp(here / n, there / n, shallow=False)] == []


@pytest.fixture
def worker():
    started = FigureWorker().start()
    yield started
    started.close()


def test_a_worker_draws_the_same_report_as_the_run_itself(tmp_path: Path, worker) -> None:
    here, there = tmp_path / "here", tmp_path / "there"
    records = _core_records()
    write_artifacts(records, here, {"run_id": "r"})
    written = write_artifacts(records, there, {"run_id": "r"}, worker)
    assert {"accuracy_by_modality.png", "f1_vs_accuracy.png", "report.html"} <= set(written)
    _same_files(here, there)  # the PNGs' bytes and the page that embeds them
    (here / "factors").mkdir()
    (there / "factors").mkdir()
    pitch = factor_records()
    pitch = pitch[pitch["experiment"] == "a2"]  # one experiment's figure
    files, section = factor_section(pitch, here / "factors")
    drawn, drawn_section = start_factor_section(pitch, there / "factors", worker)()
    assert drawn_section == section and sorted(drawn) == sorted(files)
    assert [name for name in drawn if name.endswith(".png")] == ["factors_pitch_a2.png"]
    _same_files(here / "factors", there / "factors")


def test_a_dead_worker_loses_no_figure(tmp_path: Path, worker) -> None:
    pid = worker.draw(os.getpid).result()
    assert pid != os.getpid()  # drawn elsewhere
    os.kill(pid, signal.SIGKILL)
    out = tmp_path / "figures"
    drawn = worker.draw(paper_figures, _core_records(), out).result()
    assert sorted(path.name for path in drawn.values()) == [
        "accuracy_by_modality.png", "f1_vs_accuracy.png"]
    assert all(path.stat().st_size > 1000 for path in drawn.values())


MINI_BENCH = '''
def test_chord(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()
'''


def _mini_run(pytester: pytest.Pytester) -> tuple[pytest.RunResult, Path]:
    """44 oracle trials of a one-module bench with the report on, in this process (so a
    monkeypatched plugin module is the one the run uses)."""
    pytester.makeconftest(
        'pytest_plugins = ["reports.plugins.report", "reports.gate.baseline", '
        '"fixtures.plugins.trials", "fixtures.plugins.models"]')
    pytester.mkdir("bench")
    pytester.makepyfile(**{"bench/test_chord": MINI_BENCH})
    run_dir = pytester.path / "run"
    result = pytester.runpytest_inprocess(
        "--model", "oracle", "--modality", "midi", "-m", "zero and standalone",
        "--run-dir", str(run_dir), "-p", "no:cacheprovider", "-p", "no:randomly")
    return result, run_dir


def test_a_run_waits_for_its_worker_and_leaves_no_process(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    from reports.plugins import report

    jobs: list[str] = []

    class CountingWorker(FigureWorker):
        def draw(self, job, *args):
            jobs.append(job.__name__)
            return super().draw(job, *args)

    monkeypatch.setattr(report, "FIGURE_WORKER_MIN_TRIALS", 40)
    monkeypatch.setattr(report, "spare_core", lambda: True)  # this machine may be busy
    monkeypatch.setattr(report, "FigureWorker", CountingWorker)
    result, run_dir = _mini_run(pytester)
    assert result.ret == 0, result.stdout.str()[-2000:]
    result.stdout.fnmatch_lines(["*eartest: report in*report.html*"])
    assert sorted(jobs) == ["factor_figures", "paper_figures"]
    assert (run_dir / "accuracy_by_modality.png").stat().st_size > 1000
    assert "data:image/png;base64," in (run_dir / "report.html").read_text()
    assert multiprocessing.active_children() == []  # the worker was shut down with the run


@pytest.mark.parametrize(("cores", "load", "spare"), [
    (2, 0.7, True), (2, 1.0, True), (2, 1.6, False), (1, 0.0, False), (8, 6.5, True)])
def test_a_worker_is_started_only_with_a_core_to_spare(monkeypatch, cores, load, spare) -> None:
    monkeypatch.setattr(figure_worker.os, "cpu_count", lambda: cores)
    monkeypatch.setattr(figure_worker.os, "getloadavg", lambda: (load, load, load))
    assert figure_worker.spare_core() is spare


def test_a_busy_machine_draws_the_report_in_process(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    from reports.plugins import report

    started: list[bool] = []
    monkeypatch.setattr(report, "FIGURE_WORKER_MIN_TRIALS", 40)
    monkeypatch.setattr(report, "spare_core", lambda: False)
    monkeypatch.setattr(FigureWorker, "start", lambda self: started.append(True) or self)
    result, run_dir = _mini_run(pytester)
    assert result.ret == 0 and started == []
    assert (run_dir / "accuracy_by_modality.png").stat().st_size > 1000


def _process_of(worker: FigureWorker):
    return next(iter(worker._pool._processes.values()))


def test_an_idle_worker_is_ended_at_once_and_a_busy_one_finishes_its_drawing() -> None:
    """Issue 33: once every drawing is delivered, closing ends the worker without its
    interpreter's orderly exit (0.3 s of a run's wrap-up); a drawing under way is awaited."""
    idle = FigureWorker().start()
    idle.draw(os.getpid).result()
    process = _process_of(idle)
    idle.close()
    assert process.exitcode == -signal.SIGTERM
    busy = FigureWorker().start()
    drawing = busy.draw(time.sleep, 1.0)
    process = _process_of(busy)
    busy.close()
    assert drawing.result() is None and process.exitcode == 0
    assert multiprocessing.active_children() == []


@pytest.mark.parametrize("spare", [False, True])
def test_a_run_drawing_its_own_figures_warms_matplotlib_during_its_tests(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, spare: bool) -> None:
    """Issue 33: matplotlib's import and font cache at the first test, off the wrap-up, when
    no worker draws; a run with a worker leaves matplotlib to it."""
    from reports.plugins import report

    warmed: list[bool] = []
    monkeypatch.setattr(report, "FIGURE_WORKER_MIN_TRIALS", 40)
    monkeypatch.setattr(report, "spare_core", lambda: spare)
    monkeypatch.setattr(report, "warm_figures", lambda: warmed.append(True))
    result, run_dir = _mini_run(pytester)
    assert result.ret == 0 and (run_dir / "accuracy_by_modality.png").stat().st_size > 1000
    assert warmed == ([] if spare else [True])  # once, not at every test
