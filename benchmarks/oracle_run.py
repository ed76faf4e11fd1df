"""Wall-clock of a full oracle run (1,008 core trials), cold and with the stimuli cached.

    .venv/bin/python benchmarks/oracle_run.py [--jobs 2]

Cold uses an empty stimulus cache in a temporary directory, so it includes rendering every
stimulus once; warm repeats the run on that cache. Prints one line per run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests_solvers import CORE_BENCH  # noqa: E402


def timed_run(jobs: int, cache_dir: str, run_dir: str) -> tuple[float, str]:
    cmd = [sys.executable, "-m", "pytest", *CORE_BENCH, "--model", "oracle", "-q",
           "-p", "no:cacheprovider", "--run-dir", run_dir]
    if jobs > 1:
        cmd += ["-n", str(jobs)]
    env = {**os.environ, "EARTEST_CACHE_DIR": cache_dir}
    start = time.perf_counter()
    result = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
    elapsed_s = time.perf_counter() - start
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else result.stderr
    return elapsed_s, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="pytest-xdist workers (1 = none)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for label in ("cold", "warm"):
            elapsed_s, summary = timed_run(args.jobs, f"{tmp}/cache", f"{tmp}/{label}")
            name = f"oracle run, {label} stimulus cache, -n {args.jobs}"
            print(f"{name}: {elapsed_s:6.1f} s  ({summary})")


if __name__ == "__main__":
    main()
