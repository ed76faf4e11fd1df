"""Summaries the label and shortcut checks print at the end of a run (also under xdist: the
numbers travel as user properties of the test reports), and the warm road for the tests'
``python -m pytest`` / ``python -m reports`` subprocesses (``tests_solvers/warm_python.py``;
``EARTEST_TESTS_COLD=1`` turns it off)."""

from __future__ import annotations

import subprocess
from collections import Counter

import pytest

from tests_solvers import warm_python

subprocess.run = warm_python.run  # a new interpreter only where the warm one would differ

_TALLIES: dict[str, tuple[Counter[str], float | None]] = {}
_NUISANCE_LINES: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "call":
        return
    for name, value in report.user_properties:
        if name == "tracker_tally":
            experiment, counts, min_margin_db = value
            _TALLIES[experiment] = (Counter(counts), min_margin_db)
        elif name == "nuisance_lines":
            _NUISANCE_LINES.extend(value)


def pytest_terminal_summary(terminalreporter) -> None:
    if _TALLIES:
        from tests_solvers.pitch_second_opinion import tracker_shares

        terminalreporter.section("pitch trackers: share of tones each confirmed")
        for experiment, (counts, margin_db) in sorted(_TALLIES.items()):
            terminalreporter.write_line(f"{experiment}: {tracker_shares(counts, margin_db)}")
        total = sum((counts for counts, _ in _TALLIES.values()), Counter())
        margins = [margin for _, margin in _TALLIES.values() if margin is not None]
        terminalreporter.write_line(f"all: {tracker_shares(total, min(margins, default=None))}")
    if _NUISANCE_LINES:
        terminalreporter.section("nuisance classifiers (features that say nothing about the task)")
        for line in sorted(_NUISANCE_LINES):
            terminalreporter.write_line(line)
