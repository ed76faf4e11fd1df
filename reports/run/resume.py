"""Interrupted runs: how one is told apart from a finished run, and ``--resume RUN_DIR``.

A run stopped by Ctrl-C (or ``-x``/``--maxfail``) ends with the records it has, and its
``summary.json``, report and terminal say it is incomplete. ``--resume RUN_DIR`` runs the same
selection into the same directory: trials already recorded there are deselected (their
records stay as they are), the others run, their answers coming from the response cache when
they were answered before the interruption, and the report is rebuilt from every record.

The run's identity (``reports.run.identity``: the options that decide which trials run and what
they ask, the test paths and pytest's selection options, each model's endpoint, the content of
the input files, and the selected trials' count and fingerprint) is saved with the run
(``run_options.json``). A resume whose identity differs is refused with one message naming
every difference (the selected trials once they are collected, before any request), so one
run never mixes two selections, two seeds, two servers or two versions of a manifest.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reports.gate.baseline import trial_of
from reports.run import identity
from reports.run.identity import ADDED_DEFAULTS, run_options

OPTIONS_FILE = "run_options.json"
RECORDS_FILE = "trials.jsonl"


def run_identity(config: pytest.Config) -> dict:
    """This run's identity (``reports.run.identity``), worked out once; the selected trials are
    added when they are collected."""
    if identity.IDENTITY_KEY not in config.stash:
        config.stash[identity.IDENTITY_KEY] = identity.config_identity(config)
    return config.stash[identity.IDENTITY_KEY]


def save_options(config: pytest.Config, run_dir: Path) -> None:
    run_dir.mkdir(parents=True, exist_ok=True)
    saved = {**run_options(config), "identity": run_identity(config)}
    (run_dir / OPTIONS_FILE).write_text(json.dumps(saved, indent=2, default=str) + "\n",
                                        encoding="utf-8")


def saved_identity(run_dir: Path) -> dict | None:
    """The identity ``run_dir``'s run saved (from an older eartest: its options and paths),
    or None when it saved none."""
    path = run_dir / OPTIONS_FILE
    if not path.exists():
        return None
    saved = json.loads(path.read_text(encoding="utf-8"))
    return saved.get("identity") or {"options": saved.get("options", {}),
                                     "selection": {"args": saved.get("args")}}


def recorded_test_ids(run_dir: Path) -> list[str]:
    """Test ids of the trials recorded in ``run_dir``, in file order (torn last line skipped:
    a record cut off by a kill was never complete)."""
    path = run_dir / RECORDS_FILE
    if not path.exists():
        return []
    ids = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            ids.append(json.loads(line)["test_id"])
        except (ValueError, KeyError, TypeError):
            continue
    return ids


def check_resumable(config: pytest.Config, run_dir: Path) -> None:
    """Raise a usage error unless ``run_dir`` holds an unfinished run of this selection."""
    if not run_dir.is_dir():
        raise pytest.UsageError(f"--resume {run_dir}: no such directory")
    if not (run_dir / RECORDS_FILE).exists() and not (run_dir / OPTIONS_FILE).exists():
        raise pytest.UsageError(f"--resume {run_dir}: holds no eartest run to resume")
    summary_path = run_dir / "summary.json"
    if summary_path.exists():
        try:
            complete = json.loads(summary_path.read_text(encoding="utf-8")).get("complete")
        except ValueError:
            complete = None
        if complete is True:
            raise pytest.UsageError(f"--resume {run_dir}: that run is already complete")
    saved = saved_identity(run_dir)
    if saved is None:
        return  # killed before it could save them (SIGKILL): the records are all there is
    given = {key: value for key, value in saved.get("selection", {}).items()
             if key not in identity.COLLECTED}  # the collected trials: checked once collected
    _refuse_differences(run_dir, identity.differences({**saved, "selection": given},
                                                      run_identity(config), ADDED_DEFAULTS))


def check_selection(config: pytest.Config, run_dir: Path, test_ids: list[str]) -> None:
    """Once collected: refuse a resume whose selected trials (those recorded before and those
    still to run) are not the run's."""
    now = identity.with_selection(run_identity(config), test_ids)
    config.stash[identity.IDENTITY_KEY] = now
    saved = saved_identity(run_dir)
    if saved is not None and config.getoption("resume"):
        _refuse_differences(run_dir, identity.differences(saved, now, ADDED_DEFAULTS))


def _refuse_differences(run_dir: Path, differing: list[str]) -> None:
    if differing:
        raise pytest.UsageError(
            f"--resume {run_dir}: run it with the options, selection and inputs it was started "
            f"with; different: {'; '.join(differing)}"
        )


def deselect_recorded(config: pytest.Config, items: list[pytest.Item], run_dir: Path) -> None:
    """Leave out the trials ``run_dir`` already holds a record of."""
    done = set(recorded_test_ids(run_dir))
    keep, drop = [], []
    for item in items:
        trial = trial_of(item)
        (drop if getattr(trial, "test_id", None) in done else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
