"""D2 (higher or lower) threshold from the fixed grid against ``--adaptive d2``, both by pytest.

    .venv/bin/python benchmarks/adaptive_d2.py [--model listener observer] [--seed 0] [--seeds 1]

For each model it runs the real benchmark, once on the grid and ``--seeds`` times adaptively,
and reads the runs' ``thresholds.csv``:

    pytest bench/test_pitch/test_d_sequential.py::test_d2 --model M                 # 220 pairs
    pytest bench/test_pitch/test_d_sequential.py::test_d2 --model M --adaptive d2   # 4 × 13 slots

and prints, pooled over the four gaps, the trials used, the psychometric fit's threshold with
its 95 % interval, the staircase's reversal mean, and whether the adaptive threshold lies in
the fixed grid's interval (for a grid that is easy throughout, "below the smallest tested
level", whether it lies below that level). ``observer`` is a scripted model whose probability
of a right answer is a known psychometric function of the step (``--observer-cents``, slope 4
per decade, lapse 2 %): a model with a threshold inside the grid, so both methods can be
checked against the truth. Offline models only (listener, oracle, chance, observer).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
OFFLINE = ("listener", "oracle", "chance", "observer")
D2_TEST = "bench/test_pitch/test_d_sequential.py::test_d2"
BELOW = "below the smallest tested level"


def observer_model(out_dir: Path, cents: float, seed: int) -> str:
    """``scripted:<file>``: the known psychometric observer (fixtures/backends/scripted.py)."""
    path = out_dir / f"observer-s{seed}.json"
    path.write_text(json.dumps({"base": "oracle", "psychometric": {
        "trials": "pitch/d2/*", "param": "delta_cents", "threshold": cents, "slope": 4,
        "guess": 0.5, "lapse": 0.02, "seed": seed}}))
    return f"scripted:{path}"


def run(model: str, run_dir: Path, seed: int, extra: list[str]) -> tuple[dict, float]:
    """The pooled D2 row of the run's thresholds.csv, and the run's wall time."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:hypothesispytest",
                           "-p", "no:cacheprovider", D2_TEST, "-q", "--model", model,
                           "--seed", str(seed), "--run-dir", str(run_dir), *extra],
                          cwd=REPO, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        sys.exit(f"pytest failed ({done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    with (run_dir / "thresholds.csv").open(encoding="utf-8") as handle:
        rows = [row for row in csv.DictReader(handle) if row["condition"] == "all"]
    return rows[0], seconds


def number(text: str) -> float | None:
    return float(text) if text not in ("", None) else None


def shown(row: dict) -> str:
    """As thresholds.md shows it (a bound beyond the tested range as <smallest, >largest)."""
    import pandas as pd

    from reports.stats.thresholds import threshold_cell

    numbers = {key: number(row[key]) for key in ("threshold", "ci_low", "ci_high",
                                                 "smallest_level", "largest_level")}
    cell = threshold_cell(pd.Series({**row, **numbers}))
    return f"{cell} cents" if row["status"] == "fitted" else cell


def agrees(fixed: dict, adaptive: dict) -> str:
    """Whether the adaptive threshold is within what the fixed grid says."""
    point = number(adaptive["threshold"])
    if adaptive["status"] != "fitted" or point is None:
        return "same verdict" if adaptive["status"] == fixed["status"] else "no"
    if fixed["status"] == BELOW:
        return "yes" if point < float(fixed["smallest_level"]) else "no"
    if fixed["status"] != "fitted":
        return "no"
    return "yes" if float(fixed["ci_low"]) <= point <= float(fixed["ci_high"]) else "no"


def compare(name: str, args: argparse.Namespace, out: Path) -> None:
    """One fixed-grid run and ``--seeds`` adaptive runs of one model, printed side by side."""
    model = observer_model(out, args.observer_cents, args.seed) if name == "observer" else name
    fixed, fixed_s = run(model, out / f"{name}-fixed", args.seed, [])
    truth = f" (true threshold {args.observer_cents:g} cents)" if name == "observer" else ""
    print(f"\n{name}{truth}")
    print(f"  fixed grid        {int(fixed['n_trials']):4d} trials {fixed_s:5.1f} s: "
          f"{shown(fixed)}")
    verdicts, points = [], []
    for seed in range(args.seed, args.seed + args.seeds):
        adaptive, adaptive_s = run(model, out / f"{name}-adaptive-s{seed}", seed,
                                   ["--adaptive", "d2", "--adaptive-trials",
                                    str(args.adaptive_trials)])
        reversal = number(adaptive["reversal_mean"])
        verdicts.append(agrees(fixed, adaptive))
        if adaptive["status"] == "fitted":
            points.append(float(adaptive["threshold"]))
        share = int(adaptive["n_trials"]) / int(fixed["n_trials"])
        print(f"  adaptive, seed {seed:<2d} {int(adaptive['n_trials']):4d} trials "
              f"({100 * share:.1f} %) {adaptive_s:5.1f} s: {shown(adaptive)}; reversal mean "
              f"{'none' if reversal is None or math.isnan(reversal) else f'{reversal:.3g}'}; "
              f"within the fixed grid's: {verdicts[-1]}")
    if args.seeds > 1:
        middle = f"; median threshold {statistics.median(points):.3g} cents" if points else ""
        print(f"  adaptive agrees with the fixed grid in {len(verdicts) - verdicts.count('no')} "
              f"of {len(verdicts)} seeds ({verdicts.count('yes')} within its interval, "
              f"{verdicts.count('same verdict')} the same verdict){middle}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", nargs="+", default=["listener", "observer"], choices=OFFLINE)
    parser.add_argument("--seed", type=int, default=0,
                        help="the fixed grid's seed and the first adaptive run's")
    parser.add_argument("--seeds", type=int, default=1,
                        help="adaptive runs, with seeds from --seed on (each draws other base "
                             "notes and orders, so other answers)")
    parser.add_argument("--adaptive-trials", type=int, default=13,
                        help="staircase slots per gap (default 13: 52 trials, under ¼ of 220)")
    parser.add_argument("--observer-cents", type=float, default=20.0)
    parser.add_argument("--out", type=Path, default=None, help="where the runs go (a temp dir)")
    args = parser.parse_args()
    if min(args.adaptive_trials, args.seeds) < 1 or args.observer_cents <= 0:
        parser.error("--adaptive-trials, --seeds and --observer-cents must be positive")
    out = args.out or Path(tempfile.mkdtemp(prefix="eartest-adaptive-d2-"))
    out.mkdir(parents=True, exist_ok=True)
    print(f"runs in {out}")
    for name in args.model:
        compare(name, args, out)


if __name__ == "__main__":
    main()
