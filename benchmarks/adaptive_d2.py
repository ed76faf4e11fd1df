"""D2 (higher or lower) threshold from the fixed grid against an adaptive staircase.

    .venv/bin/python benchmarks/adaptive_d2.py [--model listener] [--trials 55] [--seed 0]

The fixed grid asks every item of D2's default sample (220 pairs, 1 to 1,200 cents) and fits a
psychometric function to the outcomes (solvers/psychometric.py). The staircase
(solvers/staircase.py, weighted up-down to 75 % correct, the fit's midpoint for a two-option
task) asks ``--trials`` pairs whose step depends only on the earlier answers; the gap, base
note and order of trial n come from ``--seed`` and n, so the run repeats exactly. Its trials
are fitted the same way and its reversal mean is printed beside. Both stay within the grid's
range (1 to 1,200 cents): neither extrapolates.

Offline models only (listener, oracle, chance): a paid model would be asked 275 questions.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

OFFLINE = ("listener", "oracle", "chance")


def ask(backend, model: str, item) -> bool:
    from fixtures.backends.base import GenerationSettings
    from fixtures.pitch.trial import PitchTrial
    from fixtures.runner import run_trial_sync

    return bool(run_trial_sync(backend, PitchTrial(model, "plain", item),
                               GenerationSettings()).correct)


def fixed_grid(backend, model: str) -> tuple[list[float], list[bool]]:
    from fixtures.pitch.catalog import pitch_items

    items = pitch_items("d2")
    return ([float(i.params_dict()["delta_cents"]) for i in items],
            [ask(backend, model, i) for i in items])


def adaptive(backend, model: str, trials: int, seed: int) -> tuple[list[float], list[bool]]:
    from fixtures.pitch.experiments.d_sequential import BASES_MIDI, GAPS_MS, d2_item
    from solvers.staircase import Staircase, midpoint_target, next_level

    staircase = Staircase(start=200.0, lowest=1.0, highest=1200.0, target=midpoint_target(0.5))
    levels: list[float] = []
    answers: list[bool] = []
    for n in range(trials):
        cents = round(next_level(staircase, answers), 2)  # ids stay short and exact
        rng = random.Random(f"eartest-adaptive-d2:{seed}:{n}")
        item = d2_item(cents, rng.choice(GAPS_MS), rng.choice(sorted(BASES_MIDI)),
                       rng.choice(("first", "second")))
        levels.append(cents)
        answers.append(ask(backend, model, item))
    return levels, answers


def describe(label: str, levels: list[float], answers: list[bool], seconds: float,
             extra: str = "") -> None:
    from dataclasses import asdict

    import pandas as pd

    from reports.thresholds import threshold_cell
    from solvers.psychometric import FITTED, fit_psychometric

    fit = fit_psychometric(levels, [int(a) for a in answers], [1] * len(answers), 0.5,
                           log_scale=True, n_boot=200)
    shown = threshold_cell(pd.Series(asdict(fit)))  # as in thresholds.md
    shown = f"{shown} cents (95 % interval)" if fit.status == FITTED else shown
    print(f"{label:<9} {len(answers):4d} trials, {100 * sum(answers) / len(answers):5.1f} % "
          f"right, {seconds:6.1f} s: threshold {shown}{extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="listener", choices=OFFLINE)
    parser.add_argument("--trials", type=int, default=55,
                        help="staircase trials (default 55: a quarter of the grid's 220)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.trials < 1:
        parser.error("--trials must be at least 1")
    from fixtures.backends import make_backend
    from solvers.staircase import Staircase, midpoint_target, threshold_estimate

    backend = make_backend(args.model)
    started = time.perf_counter()
    levels, answers = fixed_grid(backend, args.model)
    describe("fixed", levels, answers, time.perf_counter() - started)
    started = time.perf_counter()
    levels, answers = adaptive(backend, args.model, args.trials, args.seed)
    staircase = Staircase(start=200.0, lowest=1.0, highest=1200.0,
                          target=midpoint_target(0.5))
    estimate = threshold_estimate(staircase, answers)
    reversal = "" if estimate is None else f"; reversal mean {estimate:.3g} cents"
    describe("adaptive", levels, answers, time.perf_counter() - started, reversal)
    print("levels asked: " + " ".join(f"{level:g}" for level in levels))


if __name__ == "__main__":
    main()
