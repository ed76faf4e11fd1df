"""Pitch-scene rendering speed: the whole pitch set cold and warm, or a representative mix.

    .venv/bin/python benchmarks/pitch_render_speed.py --full [--jobs 2] [--pytest-collect]
        [--keep-cache DIR]
    .venv/bin/python benchmarks/pitch_render_speed.py [--jobs 2]

``--full`` checks the acceptance figures of the pitch set: how long collecting
``all_pitch_items()`` takes (in this fresh process, imports included, and optionally
``pytest --collect-only`` of bench/test_pitch), how long rendering every distinct scene takes
cold (an empty temporary ``EARTEST_CACHE_DIR``: the per-source GM calibration first, then
each scene once, shared between ``--jobs`` spawned processes, longest scenes first), with
ms/scene per experiment, and how long resolving every scene again through ``scene_wav_path``
takes once cached. Other work on the machine inflates wall times, so the CPU seconds the
workers spent are printed too: CPU / jobs is the wall time on otherwise idle cores.

Without ``--full``: a representative mix of the pitch set: 100 A1-like 5 s tones across all
19 sources, 20 B-like 60 s clips with short tones in silence, 10 chorale-like 40 s four-voice
GM piano scenes, and 20 effect / background / stretch scenes. Each job renders its share in
its own process (the way xdist workers do) and writes WAVs through ``scene_wav_path`` into an
empty cache. The one-off GM calibration (per source, cached on disk) is measured separately,
first, and so is each process's start-up (imports, numba JIT, first synthesiser).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from fixtures.pitch.spec import (  # noqa: E402
    GM_PROGRAMS,
    SOURCES,
    Background,
    Effect,
    Scene,
    Stretch,
    Tone,
)


def a1_scenes(rng: random.Random) -> list[Scene]:
    return [
        Scene((Tone(SOURCES[i % len(SOURCES)], 0.0, 5.0, rng.randint(29, 89)),), 5.0)
        for i in range(100)
    ]


def b_scenes(rng: random.Random) -> list[Scene]:
    scenes = []
    for i in range(20):
        source = SOURCES[(3 * i) % len(SOURCES)]
        onsets = sorted(rng.sample(range(1, 58), 5 if i % 2 else 10))
        tones = tuple(Tone(source, float(onset), 0.8, rng.randint(40, 80)) for onset in onsets)
        scenes.append(Scene(tones, 60.0))
    return scenes


def chorale_scenes(rng: random.Random) -> list[Scene]:
    scenes = []
    for _ in range(10):
        tones = []
        for low, high in ((60, 79), (53, 72), (48, 67), (36, 55)):
            time_s = 0.0
            while time_s < 40.0:
                duration_s = rng.choice((0.5, 1.0, 1.0, 2.0))
                tones.append(Tone("piano", time_s, duration_s, rng.randint(low, high)))
                time_s += duration_s
        scenes.append(Scene(tuple(tones), 41.0))
    return scenes


def condition_scenes(rng: random.Random) -> list[Scene]:
    effects = [
        Effect("highpass", (("cutoff_hz", 400.0), ("order", 6))),
        Effect("bitcrush", (("bits", 4),)),
        Effect("drive", (("drive_db", 30),)),
        Effect("saturation", (("drive_db", 15),)),
        Effect(
            "reverb", (("room_size", 0.9), ("damping", 0.4), ("wet_level", 0.6), ("dry_level", 0.4))
        ),
        Effect("chorus", (("rate_hz", 1.2), ("depth", 0.9), ("mix", 0.6))),
    ]
    backgrounds = [
        "white_noise",
        "competing_tones",
        "oscillating_noise",
        "bells",
        "crowd",
        "rain",
        "street",
    ]
    scenes = []
    for i in range(20):
        tone = Tone(list(GM_PROGRAMS)[i % 15], 0.0, 3.0, rng.randint(45, 80))
        if i < 8:
            scenes.append(Scene((tone,), 3.0, effects=(effects[i % len(effects)],)))
        elif i < 16:
            background = Background(
                backgrounds[i % len(backgrounds)], rng.choice((10, 0, -6, -12)), i
            )
            scenes.append(Scene((tone,), 3.0, background=background))
        else:
            method = "resample" if i % 2 else "phase_vocoder"
            scenes.append(Scene((tone,), 3.0, stretch=Stretch(method, (0.5, 2.0)[i % 2])))
    return scenes


def render_share(job: tuple[str, list[tuple[str, Scene]]]) -> list[tuple[str, float]]:
    cache_dir, scenes = job
    os.environ["EARTEST_CACHE_DIR"] = cache_dir
    from fixtures.pitch.render import render_scene, scene_wav_path

    start = time.perf_counter()  # imports, JIT and first synthesiser: once per process
    warm_up = Tone("flute", 0.0, 0.5, 60)
    render_scene(
        Scene(
            (warm_up,),
            0.5,
            Stretch("phase_vocoder", 2.0),
            (Effect("chorus", (("rate_hz", 1.0), ("depth", 0.5), ("mix", 0.5))),),
            Background("crowd", 0, 1),
        )
    )
    timings = [("process start-up", time.perf_counter() - start)]
    for kind, scene in scenes:
        start = time.perf_counter()
        scene_wav_path(scene)
        timings.append((kind, time.perf_counter() - start))
    return timings


def _calibrate(source: str) -> tuple[str, float, float]:
    from fixtures.pitch.gm_sources import gm_calibration

    wall, cpu = time.perf_counter(), time.process_time()
    gm_calibration(source)
    return source, time.perf_counter() - wall, time.process_time() - cpu


def _render_one(job: tuple[str, Scene]) -> tuple[str, float, float]:
    from fixtures.pitch.render import scene_wav_path

    experiment, scene = job
    wall, cpu = time.perf_counter(), time.process_time()
    scene_wav_path(scene)
    return experiment, time.perf_counter() - wall, time.process_time() - cpu


def _scene_cost(scene: Scene) -> float:
    """Rough render cost, only to start the longest scenes first (balances the workers)."""
    return scene.duration_s + 2.0 * sum(tone.duration_s for tone in scene.tones)


def collect_full_set() -> tuple[list[tuple[str, Scene]], int, float, float]:
    """(experiment, scene) for every distinct scene, the item count and the wall and CPU
    seconds taken."""
    start, cpu = time.perf_counter(), time.process_time()
    from fixtures.pitch.catalog import all_pitch_items

    items = all_pitch_items()
    collect_s, collect_cpu_s = time.perf_counter() - start, time.process_time() - cpu
    scenes: dict[str, tuple[str, Scene]] = {}
    for item in items:
        for scene in item.scenes:
            scenes.setdefault(scene.spec_hash(), (item.experiment, scene))
    return list(scenes.values()), len(items), collect_s, collect_cpu_s


def pytest_collect_seconds() -> tuple[float, float]:
    """(wall, CPU) seconds of ``pytest --collect-only bench/test_pitch`` in a fresh process."""
    cpu_before = _children_cpu_s()
    start = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "bench/test_pitch",
            "--model",
            "oracle",
            "--collect-only",
            "-q",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
        ],
        cwd=REPO,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - start, _children_cpu_s() - cpu_before


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_full(jobs: int, with_pytest: bool, keep_cache_dir: Path | None) -> None:
    work, item_count, collect_s, collect_cpu_s = collect_full_set()
    print(
        f"collect all_pitch_items(): {item_count} items, {len(work)} distinct scenes, "
        f"{collect_s:.1f} s wall, {collect_cpu_s:.1f} s CPU (fresh process, imports included)"
    )
    if with_pytest:
        wall_s, cpu_s = pytest_collect_seconds()
        print(f"pytest --collect-only bench/test_pitch: {wall_s:.1f} s wall, {cpu_s:.1f} s CPU")
    work.sort(key=lambda job: -_scene_cost(job[1]))
    timings: list[tuple[str, float, float]] = []
    if keep_cache_dir is not None and keep_cache_dir.exists() and any(keep_cache_dir.iterdir()):
        sys.exit(f"--keep-cache {keep_cache_dir} is not empty: a cold render needs an empty cache")
    with tempfile.TemporaryDirectory() as temporary_dir:
        cache_dir = str(keep_cache_dir or temporary_dir)
        os.environ["EARTEST_CACHE_DIR"] = cache_dir
        from fixtures.pitch.spec import GM_PROGRAMS as gm_sources

        cpu_before = _children_cpu_s()
        start = time.perf_counter()
        pool = multiprocessing.get_context("spawn").Pool(jobs)
        calibration = pool.map(_calibrate, list(gm_sources), chunksize=1)
        calibration_wall_s = time.perf_counter() - start
        timings += pool.imap_unordered(_render_one, work, chunksize=4)
        pool.close()
        pool.join()  # reaped workers' CPU, start-up included, shows in RUSAGE_CHILDREN
        cold_wall_s = time.perf_counter() - start
        workers_cpu_s = _children_cpu_s() - cpu_before
        from fixtures.pitch.render import scene_wav_path

        start, cpu = time.perf_counter(), time.process_time()
        paths = {scene_wav_path(scene) for _, scene in work}
        warm_s, warm_cpu_s = time.perf_counter() - start, time.process_time() - cpu
        assert len(paths) == len(work) and all(path.is_file() for path in paths)
    calibration_cpu_s = sum(cpu for _, _, cpu in calibration)
    print(
        f"GM calibration, {len(calibration)} sources: {calibration_wall_s:.1f} s wall, "
        f"{calibration_cpu_s:.1f} s CPU"
    )
    print(f"{'experiment':10s} {'scenes':>6s} {'ms/scene':>9s} {'CPU ms/scene':>13s} {'share':>6s}")
    total_cpu_s = sum(cpu for _, _, cpu in timings)
    for experiment in dict.fromkeys(experiment for experiment, _ in sorted(work, key=_order)):
        rows = [(wall, cpu) for name, wall, cpu in timings if name == experiment]
        wall_ms = 1000 * sum(wall for wall, _ in rows) / len(rows)
        cpu_ms = 1000 * sum(cpu for _, cpu in rows) / len(rows)
        share = sum(cpu for _, cpu in rows) / total_cpu_s
        print(f"{experiment:10s} {len(rows):6d} {wall_ms:9.1f} {cpu_ms:13.1f} {share:6.1%}")
    print(
        f"cold: {len(work)} scenes on {jobs} processes: {cold_wall_s:.1f} s wall, calibration "
        f"and process start-up included; the workers used {workers_cpu_s:.1f} s CPU "
        f"({workers_cpu_s / jobs:.1f} s of wall on {jobs} otherwise idle cores)"
    )
    print(
        f"warm: {len(work)} scenes through scene_wav_path: {warm_s:.2f} s wall, "
        f"{warm_cpu_s:.2f} s CPU (one process)"
    )


def _order(job: tuple[str, Scene]) -> int:
    from fixtures.pitch.catalog import EXPERIMENTS

    return EXPERIMENTS.index(job[0])


def run_mix(jobs: int) -> None:
    rng = random.Random(2024)
    kinds = {
        "A1 5 s tone": a1_scenes(rng),
        "B 60 s, tones in silence": b_scenes(rng),
        "chorale 40 s, 4 voices": chorale_scenes(rng),
        "effect/background/stretch": condition_scenes(rng),
    }
    work = [(kind, scene) for kind, scenes in kinds.items() for scene in scenes]
    random.Random(0).shuffle(work)
    with tempfile.TemporaryDirectory() as cache_dir:
        os.environ["EARTEST_CACHE_DIR"] = cache_dir
        from fixtures.pitch.gm_sources import gm_calibration

        start = time.perf_counter()
        for source in GM_PROGRAMS:
            gm_calibration(source)
        print(f"GM calibration, 15 sources, once per machine: {time.perf_counter() - start:.1f} s")
        shares = [(cache_dir, work[i::jobs]) for i in range(jobs)]
        start = time.perf_counter()
        with ProcessPoolExecutor(jobs) as pool:
            timings = [t for share in pool.map(render_share, shares) for t in share]
        wall_s = time.perf_counter() - start
    for kind in ["process start-up", *kinds]:
        times = [seconds for name, seconds in timings if name == kind]
        print(f"{kind:28s} n={len(times):3d}  {1000 * sum(times) / len(times):7.1f} ms/scene")
    print(f"{len(work)} scenes on {jobs} processes: {wall_s:.1f} s wall")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--full", action="store_true", help="the whole pitch set, cold and warm")
    parser.add_argument(
        "--pytest-collect", action="store_true", help="with --full: also time pytest collection"
    )
    parser.add_argument(
        "--keep-cache",
        type=Path,
        metavar="DIR",
        help="with --full: render into this empty folder and keep it (to compare renderers)",
    )
    args = parser.parse_args()
    if args.full:
        run_full(args.jobs, args.pytest_collect, args.keep_cache)
    else:
        run_mix(args.jobs)


if __name__ == "__main__":
    main()
