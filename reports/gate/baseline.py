"""Expected-failure baselines and the statistical regression gate.

A baseline file holds, per model, every trial's outcome and every cell's accuracy.

* ``--baseline-save PATH`` writes one from this run.
* ``--baseline PATH`` marks the trials that failed in the baseline as ``xfail``, so known
  failures keep CI green while a trial that passed there and fails now is a plain failure and
  is listed as a regression. ``--baseline-strict`` makes an unexpected pass fail too (the
  signal to refresh the baseline).
* ``--gate ALPHA`` fails the session when a cell's accuracy is lower than the baseline's by
  more than chance allows: a one-sided Fisher exact test per cell at level ALPHA. Each cell is
  tested on its own, so with K cells the chance of at least one false alarm between two runs
  of an unchanged model is at most about K x ALPHA; choose ALPHA with that in mind. Under
  ``--gate`` the gate decides the run: wrong answers are still reported (and regressions
  listed) but do not by themselves fail it, because a nondeterministic model flips some
  trials on every run; errors of the harness still fail it. A gate that compares nothing (the
  baseline holds none of the run's trials) fails, and so does one whose baseline holds only
  some of them, unless ``--gate-partial`` says that is meant: a gate must not pass on trials
  it never saw.

With ``--samples K`` a trial passes (and is an expected failure) by its majority answer, the
baseline also stores every trial's sample outcomes, and the gate compares mean accuracy
paired by item, Holm-adjusted across cells (:mod:`reports.gate.sampled`); a sampled run is
gated only against a sampled baseline.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from reports.gate.run_health import DEFAULT_MAX_ERROR_RATE
from solvers.metrics import DENOMINATOR_EXCLUDED, one_sided_drop_test

if TYPE_CHECKING:  # pandas and the tables load when a gate or a save runs, not at start-up
    import pandas as pd

BASELINE_VERSION = 1
CELL_KEYS = ("task", "modality", "shot", "strategy")  # a baseline cell, within a model
OUTCOMES = ("passed", "failed", "excluded")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("eartest", "eartest benchmark axes")
    group.addoption("--baseline", default=None, metavar="PATH",
                    help="xfail the trials that failed in this baseline; list regressions")
    group.addoption("--baseline-strict", action="store_true",
                    help="with --baseline: a trial that failed in the baseline and passes now "
                    "fails the run (time to refresh the baseline)")
    group.addoption("--baseline-save", default=None, metavar="PATH",
                    help="write this run's per-trial outcomes and per-cell accuracy to PATH")
    group.addoption("--gate", type=float, default=None, metavar="ALPHA",
                    help="with --baseline: fail the run when a cell's accuracy drops below the "
                    "baseline's by more than chance allows (one-sided exact test at ALPHA)")
    group.addoption("--gate-partial", action="store_true",
                    help="with --gate: accept a baseline and a run that overlap only in part "
                    "(by default a run trial or cell the baseline lacks, or a baseline cell "
                    "the run did not measure, fails the gate)")
    group.addoption("--max-error-rate", type=float, default=DEFAULT_MAX_ERROR_RATE,
                    metavar="SHARE",
                    help="share of trials that may get no answer because the run broke "
                    "(backend_error, empty_output, no record) before the gate fails, "
                    "--baseline-save refuses and the run is flagged (0..1, default "
                    f"{DEFAULT_MAX_ERROR_RATE})")


@dataclass(frozen=True)
class Baseline:
    path: Path
    outcomes: dict[str, dict[str, str]]  # model -> trial_id -> passed | failed | excluded
    cells: dict[str, list[dict]]  # model -> rows of (task, modality, shot, strategy, correct, n)
    samples: dict[str, dict[str, list[int]]] | None = None  # --samples: model -> trial -> 0/1s

    @classmethod
    def load(cls, path: Path) -> Baseline:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            check_baseline(data)
            models = data["models"]
            outcomes = {m: dict(v["trials"]) for m, v in models.items()}
            cells = {m: list(v["cells"]) for m, v in models.items()}
            samples = {m: dict(v["samples"]) for m, v in models.items() if "samples" in v}
        except FileNotFoundError:
            raise pytest.UsageError(f"--baseline: no such file {path}") from None
        except BaselineError as exc:
            raise pytest.UsageError(f"--baseline: {path} cannot be read: {exc}") from None
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise pytest.UsageError(
                f"--baseline: {path} is not an eartest baseline ({type(exc).__name__}: {exc})"
            ) from None
        return cls(path, outcomes, cells, samples or None)


class BaselineError(ValueError):
    """A baseline file that parses as JSON but holds values this eartest does not know."""


def check_baseline(data: dict) -> None:
    """Raise BaselineError naming the first thing in a baseline's JSON this eartest cannot read
    as written: an unknown version, an outcome outside :data:`OUTCOMES`, a cell without its
    axes or with impossible counts, a sample flag other than 0/1 (a gate must not compare
    against values it guessed at)."""
    version = data["baseline_version"]
    if version != BASELINE_VERSION or isinstance(version, bool):
        raise BaselineError(f"baseline_version {version!r} is not {BASELINE_VERSION}, the "
                            "only version this eartest reads")
    for model, held in data["models"].items():
        for trial_id, value in held["trials"].items():
            if value not in OUTCOMES:
                raise BaselineError(f"model {model!r}, trial {trial_id}: outcome {value!r} is "
                                    f"not one of {', '.join(OUTCOMES)}")
        for cell in held["cells"]:
            name = "/".join(str(cell.get(key)) for key in CELL_KEYS)
            correct, n = cell.get("correct"), cell.get("n")
            if not all(isinstance(cell.get(key), str) for key in CELL_KEYS):
                raise BaselineError(f"model {model!r}: a cell without its {', '.join(CELL_KEYS)}")
            if not (type(correct) is int and type(n) is int and 0 <= correct <= n):
                raise BaselineError(f"model {model!r}, cell {name}: {correct!r} correct of "
                                    f"n = {n!r}")
        for trial_id, flags in held.get("samples", {}).items():
            if not all(type(flag) is int and flag in (0, 1) for flag in flags):
                raise BaselineError(f"model {model!r}, trial {trial_id}: samples {flags!r} are "
                                    "not 0/1 outcomes")


def outcome(record_correct: bool, error_class: str | None) -> str:
    if record_correct:
        return "passed"
    return "excluded" if error_class in DENOMINATOR_EXCLUDED else "failed"


def baseline_from_records(df: pd.DataFrame) -> dict:
    from reports.gate.sampled import baseline_samples
    from reports.tables import accuracy as tables

    summary = tables.cell_summary(df, samples=False)
    models: dict[str, dict] = {}
    for model, group in df.groupby("model", sort=True):
        trials = {
            row.trial_id: outcome(bool(row.correct), row.error_class)
            for row in group.sort_values("trial_id").itertuples()
        }
        cells = [
            {"task": task, "modality": modality, "shot": shot, "strategy": strategy,
             "correct": int(row["correct"]), "n": int(row["n"])}
            for (m, task, modality, shot, strategy), row in summary.iterrows()
            if m == model
        ]
        models[str(model)] = {"trials": trials, "cells": cells}
    for model, trials in baseline_samples(df).items():
        models[model]["samples"] = trials
    return {
        "baseline_version": BASELINE_VERSION,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "models": models,
    }


def save_baseline(df: pd.DataFrame, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(baseline_from_records(df), indent=1, sort_keys=True)
    path.write_text(text + "\n", encoding="utf-8")


BASELINE_KEY = pytest.StashKey[Baseline]()


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("baseline")
    gate = config.getoption("gate")
    if gate is not None and not 0 < gate < 1:
        raise pytest.UsageError(f"--gate takes a level between 0 and 1, got {gate}")
    if gate is not None and not path:
        raise pytest.UsageError("--gate compares against a baseline: give --baseline PATH too")
    if config.getoption("gate_partial") and gate is None:
        raise pytest.UsageError("--gate-partial qualifies --gate: give --gate ALPHA too")
    if not 0 <= config.getoption("max_error_rate") <= 1:
        raise pytest.UsageError("--max-error-rate takes a share between 0 and 1, got "
                                f"{config.getoption('max_error_rate')}")
    if config.getoption("baseline_strict") and not path:
        raise pytest.UsageError("--baseline-strict needs --baseline PATH")
    if path:
        config.stash[BASELINE_KEY] = Baseline.load(Path(path))
    save_to = config.getoption("baseline_save")
    if save_to and not hasattr(config, "workerinput"):  # the controller writes it, at the end
        from reports.run.paths import file_problem

        if problem := file_problem(Path(save_to)):
            raise pytest.UsageError(f"--baseline-save: {problem}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    baseline = config.stash.get(BASELINE_KEY, None)
    if baseline is None:
        return
    strict = config.getoption("baseline_strict")
    for item in items:
        trial = trial_of(item)
        if trial is None:
            continue
        known = baseline.outcomes.get(trial.model, {}).get(trial.trial_id)
        if known in ("failed", "excluded"):
            reason = f"{known} in baseline {baseline.path.name}"
            item.add_marker(pytest.mark.xfail(reason=reason, strict=strict))


def trial_of(item: pytest.Item):
    """The trial a collected bench test runs, or None for any other test."""
    callspec = getattr(item, "callspec", None)
    return callspec.params.get("trial") if callspec else None


def pytest_collection_finish(session: pytest.Session) -> None:
    """Refuse a gate that could not judge the selected trials before any request is sent (the
    prefetch runs after this); under xdist the controller collects nothing and the check is
    made on the records at the end of the run."""
    config = session.config
    baseline = config.stash.get(BASELINE_KEY, None)
    gate = config.getoption("gate")
    if baseline is None or gate is None or hasattr(config, "workerinput"):
        return
    trials = [trial_of(item) for item in session.items]
    pairs = [(t.model, t.trial_id) for t in trials  # (an empty parametrization's NOTSET has
             if hasattr(t, "trial_id")               # no trial; controls are never baselined)
             and getattr(t, "control", "real") == "real"]
    if problem := coverage_problem(baseline, pairs, config.getoption("gate_partial")):
        raise pytest.UsageError(f"--gate {gate}: {problem}")


def coverage_problem(
    baseline: Baseline, trials: Iterable[tuple[str, str]], partial: bool
) -> str | None:
    """Why the gate cannot judge these (model, trial_id) pairs against ``baseline``, or None:
    it holds none of them, or (unless ``partial``) only some."""
    wanted = list(trials)
    held = sum(1 for model, trial_id in wanted if trial_id in baseline.outcomes.get(model, {}))
    if wanted and not held:
        return (f"baseline {baseline.path} holds none of this run's {len(wanted)} trials, so "
                "the gate would compare nothing; choose the baseline of these trials")
    if held < len(wanted) and not partial:
        return (f"baseline {baseline.path} holds only {held} of this run's {len(wanted)} "
                "trials; give --gate-partial to gate on those alone")
    return None


def regressions(baseline: Baseline, df: pd.DataFrame) -> list[str]:
    """Trials that passed in the baseline and did not pass now, as ``model/trial_id``."""
    found = []
    for row in df.itertuples():
        was = baseline.outcomes.get(row.model, {}).get(row.trial_id)
        if was == "passed" and not row.correct:
            found.append(f"{row.model}/{row.trial_id}")
    return sorted(found)


def gate_failures(baseline: Baseline, df: pd.DataFrame, alpha: float,
                  partial: bool = False) -> list[str]:
    """Cells whose accuracy fell below the baseline's by more than chance allows, and every
    cell the gate could not compare (:func:`cell_gaps`): a gate never passes on nothing."""
    from reports.gate.sampled import sampled_gate_failures
    from reports.stats.sampled import has_samples
    from reports.tables import accuracy as tables

    summary = tables.cell_summary(df, samples=False)
    gaps = cell_gaps(baseline, summary, partial)
    if has_samples(df) or baseline.samples:
        if not (has_samples(df) and baseline.samples):
            which = "this run has" if has_samples(df) else "the baseline has"
            return [*gaps, f"only {which} --samples: a sampled run and a single-sample one "
                    "measure different accuracies; gate against a baseline made with the same "
                    "--samples"]
        return gaps + sampled_gate_failures(baseline.samples, df, alpha)
    failures = []
    for (model, *cell), row in summary.iterrows():
        base = held_cells(baseline, model).get(tuple(cell))
        if base is None or not base["n"] or not row["n"]:
            continue  # not compared: cell_gaps names it unless --gate-partial allows it
        p_value = one_sided_drop_test(int(row["correct"]), int(row["n"]),
                                      base["correct"], base["n"])
        if p_value < alpha:
            failures.append(
                f"{model} {'/'.join(cell)}: {int(row['correct'])}/{int(row['n'])} now vs "
                f"{base['correct']}/{base['n']} in the baseline (p = {p_value:.2g})"
            )
    return gaps + failures


def held_cells(baseline: Baseline, model: str) -> dict[tuple, dict]:
    """The baseline's cells of ``model`` by (task, modality, shot, strategy)."""
    return {tuple(c[k] for k in CELL_KEYS): c for c in baseline.cells.get(model, [])}


def cell_gaps(baseline: Baseline, summary: pd.DataFrame, partial: bool) -> list[str]:
    """The cells a gate on the run's ``summary`` (:func:`reports.tables.accuracy.cell_summary`)
    cannot compare, each named: a measured cell with n = 0 or whose baseline cell has n = 0, always;
    a measured cell the baseline lacks and a baseline cell of a measured model the run did not
    measure, unless ``partial``; and, when no cell at all is compared, that."""
    gaps, measured, compared = [], set(), 0
    for (model, *cell), row in summary.iterrows():
        if model not in baseline.outcomes:
            continue  # a model the baseline lacks: coverage_problem's (and a warning's) matter
        name = f"{model} {'/'.join(cell)}"
        measured.add((model, tuple(cell)))
        base = held_cells(baseline, model).get(tuple(cell))
        if not row["n"]:
            why = ", ".join(f"{c} {int(row[c])}" for c in sorted(DENOMINATOR_EXCLUDED)
                            if c in row and row[c])
            gaps.append(f"{name}: nothing measured now (n = 0 of {int(row['n_trials'])} "
                        f"trials{': ' + why if why else ''})")
        elif base is None:
            if not partial:
                gaps.append(f"{name}: measured now, but the baseline has no such cell "
                            "(--gate-partial allows that)")
        elif not base["n"]:
            gaps.append(f"{name}: the baseline measured nothing in this cell (n = 0)")
        else:
            compared += 1
    for model in sorted({model for model, _ in measured}):
        for cell, base in held_cells(baseline, model).items():
            if (model, cell) not in measured and not partial:
                gaps.append(f"{model} {'/'.join(cell)}: {base['correct']}/{base['n']} in the "
                            "baseline, not measured in this run (--gate-partial allows that)")
    if not gaps and not compared:
        gaps.append("no cell of this run has a counterpart in the baseline: nothing compared")
    return gaps
