"""The run header (``summary.json``'s ``header``): where, when and with what code a run was
made, each plugin's part (``pytest_eartest_run_header``), and the run's identity
(``reports.run.identity``)."""

from __future__ import annotations

import platform
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

import pytest

from reports.run import resume

REPO_ROOT = Path(__file__).resolve().parents[2]
REPORTED_PACKAGES = (
    "numpy", "mido", "pyfluidsynth", "soundfile", "pandas", "matplotlib", "statsmodels",
    "pytest", "pytest-xdist",
)


def _git_revision() -> str:
    try:
        rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO_ROOT, capture_output=True,
                             text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=REPO_ROOT, capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (rev or "unknown") + ("+dirty" if dirty.strip() else "")


def _package_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in REPORTED_PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def run_header(config: pytest.Config, run_dir: Path, started: float) -> dict:
    header = {
        "run_id": run_dir.name,
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "git_revision": _git_revision(),
        "packages": _package_versions(),
        "command": " ".join(["pytest", *sys.argv[1:]]),
    }
    for part in config.hook.pytest_eartest_run_header(config=config):
        header.update(part)
    header["identity"] = resume.run_identity(config)
    return header


def bench_test_id(node_id: str) -> str:
    """The trial's test id in a bench test's node id (``path::test[<test id>]``)."""
    return node_id.partition("[")[2].removesuffix("]")
