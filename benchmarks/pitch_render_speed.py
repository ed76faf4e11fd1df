"""Pitch-scene rendering speed by kind of scene (cold: WAV cache empty, in-process render).

    .venv/bin/python benchmarks/pitch_render_speed.py [--jobs 2]

A representative mix of the pitch set: 100 A1-like 5 s tones across all 19 sources, 20 B-like
60 s clips with short tones in silence, 10 chorale-like 40 s four-voice GM piano scenes, and
20 effect / background / stretch scenes. Each job renders its share in its own process (the
way xdist workers do) and writes WAVs through ``scene_wav_path`` into an empty cache. The
one-off GM calibration (per source, cached on disk) is measured separately, first, and so is
each process's start-up (imports, numba JIT, first synthesiser).
"""

from __future__ import annotations

import argparse
import os
import random
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    jobs = parser.parse_args().jobs
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
        from fixtures.pitch.sources import gm_calibration

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


if __name__ == "__main__":
    main()
