"""The end of a run's say on its baseline: regressions, the gate's verdict, and whether the run
may become a baseline itself (the controller's ``pytest_sessionfinish`` calls these).

Every verdict here refuses to pass on nothing: a run that measured nothing, or whose broken
trials exceed ``--max-error-rate`` (:mod:`reports.gate.run_health`), fails the gate and is not
saved as a baseline, and each failure is one message naming what was not measured. A failed
gate or a refused save ends the session with pytest's ``TESTS_FAILED`` (exit 1) unless it
already ends with a worse status.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from reports.gate import baseline as baseline_plugin
from reports.gate.exit_status import broken

MAX_LISTED = 25  # regressions and gate cells printed in the terminal


def fail(session: pytest.Session) -> None:
    """End the session non-zero (keeping a status already worse than wrong answers)."""
    if session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def listed(lines: list[str]) -> list[str]:
    """``lines`` indented for the terminal, at most :data:`MAX_LISTED` of them."""
    shown = [f"  {line}" for line in lines[:MAX_LISTED]]
    if len(lines) > MAX_LISTED:
        shown.append(f"  ... and {len(lines) - MAX_LISTED} more")
    return shown


def nothing_recorded(session: pytest.Session) -> list[str]:
    """A session that recorded no trial: a gate or a baseline save asked of it fails."""
    config = session.config
    if config.getoption("collectonly"):
        return []
    alpha = config.getoption("gate", None)  # (None too without the baseline plugin)
    asked = [what for what, given in ((f"gate at alpha {alpha}", alpha is not None),
                                      ("baseline save", config.getoption("baseline_save", None)))
             if given]
    if not asked:
        return []
    broken(session)
    return [f"eartest: {' and '.join(asked)} FAILED: nothing was measured (no trial recorded)"]


def save_checked(session: pytest.Session, df: pd.DataFrame, path: Path,
                 problem: str | None) -> list[str]:
    """Save the run's records ``df`` as a baseline at ``path``, unless the run's health
    ``problem`` says it measured failures rather than the model."""
    if problem:
        fail(session)
        return [f"eartest: baseline NOT saved to {path}: {problem}"]
    baseline_plugin.save_baseline(df, path)
    return [f"eartest: baseline saved to {path}"]


def apply_baseline(session: pytest.Session, baseline: baseline_plugin.Baseline, df: pd.DataFrame,
                   run_dir: Path, harness_failures: int, problem: str | None) -> list[str]:
    """Regressions against ``baseline`` (listed in ``run_dir``) and, under ``--gate``, the
    gate's verdict; ``problem`` is the run's health problem, which alone fails the gate."""
    config = session.config
    lines = [f"eartest: WARNING: baseline {baseline.path} has no trials of model {model!r} (it "
             f"has {', '.join(sorted(baseline.outcomes)) or 'none'}); nothing compared"
             for model in sorted(set(df["model"]) - set(baseline.outcomes))]
    regressed = baseline_plugin.regressions(baseline, df)
    if regressed:
        listing = run_dir / "regressions.txt"
        listing.write_text("".join(f"{name}\n" for name in regressed), encoding="utf-8")
        lines.append(f"eartest: {len(regressed)} regressions against {baseline.path} "
                     f"(all listed in {listing}):")
        lines += listed(regressed)
    alpha = config.getoption("gate")
    if alpha is None:
        return lines
    partial = config.getoption("gate_partial")
    pairs = zip(df["model"], df["trial_id"], strict=True)
    if coverage := baseline_plugin.coverage_problem(baseline, pairs, partial):
        fail(session)
        return [*lines, f"eartest: gate at alpha {alpha} FAILED: {coverage}"]
    # a --shard K/N run measures one part of the selection: baseline cells outside it are
    # not expected (its cells must still be measured, and its trials held by the baseline)
    sharded = bool(config.getoption("shard", None))
    failures = baseline_plugin.gate_failures(baseline, df, alpha, partial or sharded)
    if problem:
        lines.append(f"eartest: gate at alpha {alpha} FAILED: {problem}")
    if failures:
        lines += [f"eartest: gate at alpha {alpha} FAILED for {len(failures)} cells:",
                  *listed(failures)]
    if problem or failures:
        fail(session)
        return lines
    lines.append(f"eartest: gate at alpha {alpha} passed")
    # Under --gate the verdict is the gate's: wrong answers of a nondeterministic model
    # are reported above but do not fail the run; an error in the harness still does.
    if session.exitstatus == pytest.ExitCode.TESTS_FAILED and not harness_failures:
        lines.append("eartest: wrong answers are reported, not failed, under --gate")
        session.exitstatus = pytest.ExitCode.OK
    return lines
