"""Trials per second against a fake Gemini server with a fixed latency, by concurrency.

    .venv/bin/python benchmarks/throughput.py [--latency-s 0.2] [--modality midi]

Runs the real prefetch engine, trial runner and google-genai SDK (no response cache) against
``tests_solvers.fakes.gemini_server`` on 127.0.0.1, served from a separate process so the
server's threads do not compete with the client for the GIL. Each concurrency level runs ten latency
rounds' worth of single-request trials (standalone and CoT; the fake's reply needs no repair)
and prints trials/s next to the ideal, concurrency / latency.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fixtures.backends import BackendOptions, make_backend  # noqa: E402
from fixtures.backends.base import GenerationSettings  # noqa: E402
from fixtures.backends.retry import RetryCounter  # noqa: E402
from fixtures.prefetch import Progress, prefetch_trials  # noqa: E402
from fixtures.runner import Trial, run_sync  # noqa: E402
from fixtures.tasks.catalog import TASK_NAMES, items_for  # noqa: E402
from tests_solvers.fakes.gemini_server import FakeGeminiServer  # noqa: E402

KEY = "benchmark-key"


def trials(modality: str, count: int) -> list[Trial]:
    pool = [
        Trial("gemini-pro", modality, shot, strategy, item)
        for task in TASK_NAMES for item in items_for(task, "test")
        for shot in ("zero", "few") for strategy in ("standalone", "cot")
    ]
    return (pool * (count // len(pool) + 1))[:count]


def serve(latency_s: float, pipe) -> None:
    with FakeGeminiServer(api_key=KEY, latency_s=latency_s, keep_bodies=False) as server:
        pipe.send(server.base_url)
        pipe.recv()  # until the parent says stop


def measure(base_url: str, modality: str, concurrency: int) -> float:
    backend = make_backend("gemini-pro", BackendOptions(base_url=base_url), RetryCounter())
    batch = trials(modality, max(20, int(10 * concurrency)))
    progress = Progress(total=len(batch), counter=RetryCounter())
    run_sync(prefetch_trials(batch[:concurrency], lambda _: backend, GenerationSettings(),
                             concurrency, Progress(concurrency, RetryCounter()), lambda _: None))
    start = time.perf_counter()
    run_sync(prefetch_trials(batch, lambda _: backend, GenerationSettings(), concurrency,
                             progress, lambda _: None, interval_s=3600))
    return len(batch) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency-s", type=float, default=0.2)
    parser.add_argument("--modality", default="midi", choices=("midi", "audio"))
    parser.add_argument("--concurrency", default="1,8,32,64")
    args = parser.parse_args()
    os.environ["GEMINI_API_KEY"] = KEY
    parent, child = multiprocessing.Pipe()
    server = multiprocessing.Process(target=serve, args=(args.latency_s, child), daemon=True)
    server.start()
    base_url = parent.recv()
    try:
        for concurrency in (int(c) for c in args.concurrency.split(",")):
            rate = measure(base_url, args.modality, concurrency)
            ideal = concurrency / args.latency_s
            print(f"concurrency {concurrency:3d}, latency {args.latency_s * 1000:.0f} ms, "
                  f"{args.modality}: {rate:7.1f} trials/s = {rate / ideal:.2f} x ideal "
                  f"({ideal:.0f}/s)")
    finally:
        parent.send("stop")
        server.join(timeout=10)


if __name__ == "__main__":
    main()
