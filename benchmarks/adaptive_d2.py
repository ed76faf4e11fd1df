"""D2 (higher or lower) threshold from the fixed grid against ``--adaptive d2``, both by pytest.

    .venv/bin/python benchmarks/adaptive_d2.py [--model listener observer] [--seed 0] [--seeds 1]

For each model it runs the real benchmark twice and reads the runs' ``thresholds.csv``:

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
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
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
    if row["status"] != "fitted":
        return row["status"]
    return f"{float(row['threshold']):.3g} [{float(row['ci_low']):.3g}, " \
           f"{float(row['ci_high']):.3g}] cents"


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


def compare(name: str, seed: int, args: argparse.Namespace, out: Path) -> str:
    """Run both methods for one model and seed, print them; the agreement verdict."""
    model = observer_model(out, args.observer_cents, seed) if name == "observer" else name
    fixed, fixed_s = run(model, out / f"{name}-s{seed}-fixed", seed, [])
    adaptive, adaptive_s = run(model, out / f"{name}-s{seed}-adaptive", seed,
                               ["--adaptive", "d2", "--adaptive-trials", str(args.adaptive_trials)])
    truth = f", true threshold {args.observer_cents:g} cents" if name == "observer" else ""
    print(f"\n{name} (seed {seed}{truth})")
    print(f"  fixed     {int(fixed['n_trials']):4d} trials {fixed_s:6.1f} s: {shown(fixed)}")
    reversal = number(adaptive["reversal_mean"])
    print(f"  adaptive  {int(adaptive['n_trials']):4d} trials {adaptive_s:6.1f} s: "
          f"{shown(adaptive)}; reversal mean "
          f"{'none' if reversal is None or math.isnan(reversal) else f'{reversal:.3g} cents'}")
    share = int(adaptive["n_trials"]) / int(fixed["n_trials"])
    verdict = agrees(fixed, adaptive)
    print(f"  adaptive within the fixed grid's interval: {verdict}, with {100 * share:.1f} % "
          "of its trials")
    return verdict


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", nargs="+", default=["listener", "observer"], choices=OFFLINE)
    parser.add_argument("--seed", type=int, default=0, help="the first seed")
    parser.add_argument("--seeds", type=int, default=1, help="how many seeds from --seed on")
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
        verdicts = [compare(name, seed, args, out)
                    for seed in range(args.seed, args.seed + args.seeds)]
        if args.seeds > 1:
            print(f"\n{name}: adaptive within the fixed grid's interval in "
                  f"{verdicts.count('yes')} of {len(verdicts)} seeds")


if __name__ == "__main__":
    main()
