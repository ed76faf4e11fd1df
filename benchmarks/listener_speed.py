"""Listener throughput in trials per second after warm-up, on N worker processes.

    .venv/bin/python benchmarks/listener_speed.py [--jobs 2] [--pitch-every 25 | --pitch-sample N]

The trials are every core trial (1,008: all modalities, shots and strategies) and pitch trials
in the proportions of a full run: every ``--pitch-every``-th item of the whole pitch benchmark
(sorted by id), in every notation it is asked in. ``--pitch-sample N`` takes N items per
experiment instead, which over-weights the small experiments with long clips (F2's chorales).
Each job runs its share the way an xdist worker does: it builds the listener once (model load
and numba JIT: the warm-up, timed on its own), then runs ``run_trial`` on each trial in turn.

Stimuli are rendered beforehand into a fresh cache, so rendering is not timed. Two passes on
fresh processes: "cold" analyses every recording for the first time (Basic Pitch, pYIN...);
"warm" finds those analyses in the disk cache, as every re-run and every other worker does.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def all_trials(pitch_sample: int | None, pitch_every: int) -> list:
    from fixtures.backends.base import GenerationSettings
    from fixtures.pitch.catalog import EXPERIMENTS
    from fixtures.pitch.selection import PitchSelection, selected_pitch_trials
    from fixtures.running.run_options import RunOptions
    from fixtures.tasks.catalog import TASK_NAMES
    from fixtures.tasks.family import CoreSelection, selected_trials
    from fixtures.tasks.prompting import DEFAULT_MODALITIES, SHOTS, STRATEGIES

    run = RunOptions(
        models=("listener",), modalities=DEFAULT_MODALITIES, shots=SHOTS, strategies=STRATEGIES,
        settings=GenerationSettings(),
    )
    core_selection = CoreSelection(DEFAULT_MODALITIES)
    core = [t for task in TASK_NAMES for t in selected_trials(run, core_selection, task)]
    pitch_selection = PitchSelection(sample=pitch_sample)
    pitch = [t for e in EXPERIMENTS for t in selected_pitch_trials(run, pitch_selection, e)]
    if pitch_sample is None:
        kept = set(sorted({t.item.item_id for t in pitch})[::pitch_every])
        pitch = [t for t in pitch if t.item.item_id in kept]
    return core + pitch


def render_stimuli(trials: list) -> None:
    from fixtures.pitch.render import scene_wav_path
    from fixtures.stimuli import wav_path

    for trial in trials:
        if hasattr(trial.item, "clips"):
            for clip in trial.item.clips:
                wav_path(clip)
        else:
            for scene in trial.item.scenes:
                scene_wav_path(scene)


def run_share(args: tuple[int, int, int]) -> dict:
    """One worker: warm up, then run every ``jobs``-th trial; returns timings and tallies."""
    job, jobs, pitch_sample, pitch_every = args
    from fixtures.backends import make_backend
    from fixtures.backends.base import GenerationSettings
    from fixtures.running.runner import run_trial_sync

    trials = all_trials(pitch_sample, pitch_every)[job::jobs]
    started = time.perf_counter()
    backend = make_backend("listener")
    warm_up_s = time.perf_counter() - started
    tally = {"core": [0, 0, 0.0, 0.0], "pitch": [0, 0, 0.0, 0.0]}  # trials, correct, s, CPU s
    for trial in trials:
        kind = "core" if hasattr(trial.item, "clips") else "pitch"
        begun, begun_cpu = time.perf_counter(), time.process_time()
        result = run_trial_sync(backend, trial, GenerationSettings())
        tally[kind][0] += 1
        tally[kind][1] += int(result.correct)
        tally[kind][2] += time.perf_counter() - begun
        tally[kind][3] += time.process_time() - begun_cpu
    return {"warm_up_s": warm_up_s, "tally": tally, "wall_s": time.perf_counter() - started}


def run_pass(jobs: int, pitch_sample: int | None, pitch_every: int) -> dict:
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        shares = list(pool.map(run_share,
                               [(j, jobs, pitch_sample, pitch_every) for j in range(jobs)]))
    wall_s = time.perf_counter() - started
    warm_up_s = max(s["warm_up_s"] for s in shares)
    summary = {"warm_up_s": warm_up_s, "wall_s": wall_s}
    for kind in ("core", "pitch"):
        count = sum(s["tally"][kind][0] for s in shares)
        correct = sum(s["tally"][kind][1] for s in shares)
        # Workers run side by side: a kind's wall time is its slowest worker's busy time.
        busy_s = max(s["tally"][kind][2] for s in shares)
        cpu_s = sum(s["tally"][kind][3] for s in shares)  # the machine's load does not count
        summary[kind] = (count, correct, busy_s, cpu_s)
    summary["after_warm_up_s"] = max(s["wall_s"] - s["warm_up_s"] for s in shares)
    return summary


def report(label: str, jobs: int, summary: dict) -> None:
    total = sum(summary[k][0] for k in ("core", "pitch"))
    rate = total / summary["after_warm_up_s"]
    cpu_ms = 1000 * sum(summary[k][3] for k in ("core", "pitch")) / max(total, 1)
    print(f"{label} pass, {jobs} workers: warm-up {summary['warm_up_s']:.1f} s per worker, "
          f"{total} trials in {summary['after_warm_up_s']:.1f} s after warm-up: "
          f"{rate:.1f} trials/s, {cpu_ms:.1f} ms CPU per trial (process time), "
          f"load average {os.getloadavg()[0]:.1f}")
    for kind in ("core", "pitch"):
        count, correct, busy_s, cpu_s = summary[kind]
        if count:
            print(f"  {kind:5s}: {count:5d} trials, {count / busy_s:7.1f} trials/s, "
                  f"{1000 * cpu_s / count:6.1f} ms CPU per trial, "
                  f"{100 * correct / count:5.1f} % correct")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default: 2)")
    parser.add_argument("--pitch-every", type=int, default=25,
                        help="every K-th item of the full pitch benchmark (default: 25)")
    parser.add_argument("--pitch-sample", type=int, default=None,
                        help="N items per pitch experiment instead of --pitch-every")
    parser.add_argument("--cache-dir", default=None,
                        help="stimulus/analysis cache to use (default: a fresh temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["EARTEST_CACHE_DIR"] = args.cache_dir or tmp
        trials = all_trials(args.pitch_sample, args.pitch_every)
        started = time.perf_counter()
        render_stimuli(trials)
        print(f"rendered the stimuli of {len(trials)} trials in "
              f"{time.perf_counter() - started:.1f} s (not counted)")
        for label in ("cold", "warm"):
            report(label, args.jobs, run_pass(args.jobs, args.pitch_sample, args.pitch_every))


if __name__ == "__main__":
    main()
