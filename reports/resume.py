"""Interrupted runs: how one is told apart from a finished run, and ``--resume RUN_DIR``.

A run stopped by Ctrl-C (or ``-x``/``--maxfail``) ends with the records it has, and its
``summary.json``, report and terminal say it is incomplete. ``--resume RUN_DIR`` runs the same
selection into the same directory: trials already recorded there are deselected (their
records stay as they are), the others run, their answers coming from the response cache when
they were answered before the interruption, and the report is rebuilt from every record.

The options that decide which trials run and what they ask are saved with the run
(``run_options.json``); a resume with other values is refused, so one run never mixes two
selections or two seeds.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .baseline import trial_of

OPTIONS_FILE = "run_options.json"
RECORDS_FILE = "trials.jsonl"
# Options that choose the trials or change what they ask: a resume must repeat them.
RESULT_OPTIONS = (
    "model", "modality", "shot", "strategy", "seed", "max_output_tokens", "control",
    "temperature", "top_p", "samples", "shard",
    "stimuli_manifest", "notation", "pitch_sample", "backgrounds", "adaptive",
    "adaptive_trials", "pitch_dataset", "mcq_dataset", "mcq_layout",
    "mcq_repeats", "mcq_examples", "mcq_condition", "mcq_missing", "mcq_root", "mcq_ablate",
    "base_url", "thinking_budget", "thinking_level", "hf_dtype", "hf_batch_size", "keyword",
    "markexpr",
)
# Options added after runs were first saved: a saved run without them ran at these values.
ADDED_DEFAULTS = {"temperature": 0.0, "top_p": 1.0, "samples": 1, "pitch_dataset": ""}


def run_options(config: pytest.Config) -> dict:
    """The run's result-deciding options (those this process knows) and its paths."""
    options = {name: config.getoption(name, None) for name in RESULT_OPTIONS}
    return {"options": options, "args": list(config.args)}


def save_options(config: pytest.Config, run_dir: Path) -> None:
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / OPTIONS_FILE).write_text(json.dumps(run_options(config), indent=2, default=str)
                                        + "\n", encoding="utf-8")


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
    saved_path = run_dir / OPTIONS_FILE
    if not saved_path.exists():
        return  # killed before it could save them (SIGKILL): the records are all there is
    saved = json.loads(saved_path.read_text(encoding="utf-8"))
    now = json.loads(json.dumps(run_options(config), default=str))
    differing = [f"--{name.replace('_', '-')} (was {saved['options'].get(name)!r}, now "
                 f"{value!r})" for name, value in now["options"].items()
                 if saved["options"].get(name, ADDED_DEFAULTS.get(name)) != value]
    if saved.get("args") != now["args"]:
        differing.append(f"test paths (was {saved.get('args')}, now {now['args']})")
    if differing:
        raise pytest.UsageError(
            f"--resume {run_dir}: run it with the options it was started with; "
            f"different: {'; '.join(differing)}"
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
