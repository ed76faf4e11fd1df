"""pytest plugin: every trial attaches one JSON record; the controller writes them to disk.

Test bodies call the ``record`` fixture. The record travels in the test report's
``user_properties`` (so ``--json-report`` and xdist carry it to the controller, with no side
files that could go missing) and the controller appends it to ``<run dir>/trials.jsonl``.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

RECORD_PROPERTY = "eartest_record"
REPO_ROOT = Path(__file__).resolve().parent.parent


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("eartest", "eartest benchmark axes")
    group.addoption("--run-dir", default=None,
                    help="where to write this run's records (default: reports/out/<run-id>)")


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


class RecordWriter:
    """Appends records to the run's JSONL file as reports arrive, flushing each line."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.path = run_dir / "trials.jsonl"
        self.count = 0
        self._handle = None

    def write(self, record: dict) -> None:
        if self._handle is None:
            self.run_dir.mkdir(parents=True, exist_ok=True)
            self._handle = open(self.path, "a", encoding="utf-8")
        self._handle.write(json.dumps(record, sort_keys=True, ensure_ascii=False) + "\n")
        self._handle.flush()
        self.count += 1

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()


def _default_run_dir(config: pytest.Config) -> Path:
    """``reports/out/<time>-<models>``, with a numeric suffix if that name is taken."""
    models = re.sub(r"[^A-Za-z0-9_.-]+", "_", config.getoption("model"))
    base = REPO_ROOT / "reports" / "out" / f"{time.strftime('%Y%m%d-%H%M%S')}-{models}"
    candidate, suffix = base, 1
    while candidate.exists():
        suffix += 1
        candidate = base.with_name(f"{base.name}-{suffix}")
    return candidate


def _run_dir(config: pytest.Config) -> Path:
    chosen = config.getoption("run_dir")
    if not chosen:
        return _default_run_dir(config)
    run_dir = Path(chosen)
    if (run_dir / "trials.jsonl").exists():
        raise pytest.UsageError(
            f"--run-dir {run_dir} already holds a run's records; choose a new directory "
            "(one run per directory keeps every record counted once)"
        )
    return run_dir


class RecordPlugin:
    """Lives on the controller only (or the single process without xdist)."""

    def __init__(self, writer: RecordWriter) -> None:
        self.writer = writer
        self.missing: list[str] = []  # bench trials that ended without a record

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # user_properties ride on the setup, call and teardown reports alike: read the call's.
        records = [v for k, v in report.user_properties if k == RECORD_PROPERTY]
        if report.when != "call":
            records = []
        for value in records:
            self.writer.write(value)
        in_bench = report.nodeid.startswith("bench/")
        lost = (report.when == "call" and not records) or (report.when == "setup" and report.failed)
        if in_bench and lost:
            self.missing.append(report.nodeid)

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if self.writer.count:
            terminalreporter.write_line(
                f"eartest: {self.writer.count} trial records in {self.writer.path}"
            )
        if self.missing:
            terminalreporter.write_line(
                f"eartest: {len(self.missing)} trials ended without a record "
                f"(errors before judging), e.g. {self.missing[0]}"
            )

    def pytest_unconfigure(self) -> None:
        self.writer.close()


def pytest_configure(config: pytest.Config) -> None:
    if _is_worker(config):
        return
    writer = RecordWriter(_run_dir(config))
    config.pluginmanager.register(RecordPlugin(writer), "eartest-records")


@pytest.fixture
def record(request: pytest.FixtureRequest):
    """``record(result)``: attach the trial's JSON record to this test's report."""

    def _record(result) -> None:
        request.node.user_properties.append((RECORD_PROPERTY, result.record()))

    return _record
