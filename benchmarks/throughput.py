"""Trials per second against a fake Gemini server with a fixed latency, by concurrency.

    .venv/bin/python benchmarks/throughput.py [--latency-s 0.2] [--modality midi] [--workers 2]
                                              [--rounds 30] [--concurrency 1,8,32,64]

Runs the real prefetch engine, trial runner and google-genai SDK (no response cache) against
``tests_solvers.fakes.gemini_server`` on 127.0.0.1, served from a separate process. The client
side is ``--workers`` processes that split the trials and the concurrency between them exactly
as ``pytest -n <workers>`` workers split a run's prefetch
(``fixtures.sending.prefetch.worker_share``);
``--workers 1`` is a single-process run. Each concurrency level runs ``--rounds`` latency
rounds' worth (default 30: at concurrency 32, about the 1,008 trials of a core run; the first
round, when every slot's request is built at once, weighs more in a shorter run) of distinct
single-request MIDI or audio trials (standalone and CoT; the fake's reply needs
no repair), timed from one start signal to the last worker's end, and prints trials/s next to
the ideal, concurrency / latency, with the client CPU time each trial cost. Every measured
trial's request is built afresh (the memoised builds are dropped before each level), as in a
real run, where each trial is asked once.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from dataclasses import replace
from multiprocessing.connection import Connection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fixtures.running.runner import Trial  # noqa: E402
from fixtures.sending.prefetch import worker_share  # noqa: E402
from fixtures.tasks.catalog import TASK_NAMES, items_for  # noqa: E402

KEY = "benchmark-key"


def trials(modality: str, count: int) -> list[Trial]:
    """``count`` distinct single-request trials. Past the 336 the catalogue has (84 items x
    2 shots x 2 strategies), items come again under new ids (``chord5~1``), so each trial still
    builds its own request, as every trial of a real run does."""
    pool = [
        (shot, strategy, item)
        for task in TASK_NAMES for item in items_for(task, "test")
        for shot in ("zero", "few") for strategy in ("standalone", "cot")
    ]
    return [
        Trial("gemini-pro", modality, shot, strategy,
              replace(item, item_id=f"{item.item_id}~{n // len(pool)}") if n >= len(pool) else item)
        for n in range(count)
        for shot, strategy, item in [pool[n % len(pool)]]
    ]


def forget_built_requests() -> None:
    """Drop memoised request builds, so the measured trials pay for building their requests."""
    from fixtures.stimuli import midi_text
    from fixtures.tasks.prompting import build_request

    build_request.cache_clear()
    midi_text.cache_clear()


def serve(latency_s: float, pipe: Connection) -> None:
    from tests_solvers.fakes.gemini_server import FakeGeminiServer

    with FakeGeminiServer(api_key=KEY, latency_s=latency_s, keep_bodies=False) as server:
        pipe.send(server.base_url)
        pipe.recv()  # until the parent says stop


def client(base_url: str, index: int, workers: int, pipe: Connection) -> None:
    """One client process: for each level the parent sends, warm up, report ready, wait for
    the start signal, run this worker's share, and send back (end time, trials, CPU s)."""
    from fixtures.backends import BackendOptions, make_backend
    from fixtures.backends.base import GenerationSettings
    from fixtures.backends.retry import RetryCounter
    from fixtures.running.runner import run_sync
    from fixtures.sending.prefetch import Progress, prefetch_trials

    os.environ["GEMINI_API_KEY"] = KEY
    backend = make_backend("gemini-pro", BackendOptions(base_url=base_url), RetryCounter())
    settings = GenerationSettings()

    def run(batch: list[Trial], concurrency: int) -> None:
        progress = Progress(total=len(batch), counter=RetryCounter())
        run_sync(prefetch_trials(batch, lambda _: backend, settings, concurrency, progress,
                                 lambda _: None, interval_s=3600))

    while (message := pipe.recv()) is not None:
        modality, concurrency, rounds = message
        batch, slots = worker_share(trials(modality, max(20, rounds * concurrency)), index,
                                    workers, concurrency)
        if batch:
            run(batch[:slots], slots)  # connections open, code paths warm
        forget_built_requests()
        pipe.send("ready")
        pipe.recv()  # start
        cpu_s = time.process_time()
        if batch:
            run(batch, slots)
        pipe.send((time.monotonic(), len(batch), time.process_time() - cpu_s))


def measure(
    pipes: list[Connection], modality: str, concurrency: int, rounds: int
) -> tuple[float, float]:
    """(trials per second, client CPU ms per trial) for one concurrency level."""
    for pipe in pipes:
        pipe.send((modality, concurrency, rounds))
    for pipe in pipes:
        assert pipe.recv() == "ready"
    start_s = time.monotonic()
    for pipe in pipes:
        pipe.send("start")
    results = [pipe.recv() for pipe in pipes]
    count = sum(n for _, n, _ in results)
    elapsed_s = max(end_s for end_s, _, _ in results) - start_s
    return count / elapsed_s, 1000 * sum(cpu for _, _, cpu in results) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency-s", type=float, default=0.2)
    parser.add_argument("--modality", default="midi", choices=("midi", "audio"))
    parser.add_argument("--concurrency", default="1,8,32,64")
    parser.add_argument("--rounds", type=int, default=30,
                        help="latency rounds' worth of trials per level (default: 30, about "
                             "the 1,008 core trials of a run at concurrency 32)")
    parser.add_argument("--workers", type=int, default=2,
                        help="client processes, as in pytest -n (default: 2)")
    args = parser.parse_args()
    parent, child = multiprocessing.Pipe()
    server = multiprocessing.Process(target=serve, args=(args.latency_s, child), daemon=True)
    server.start()
    base_url = parent.recv()
    pipes, clients = [], []
    for index in range(args.workers):
        ours, theirs = multiprocessing.Pipe()
        process = multiprocessing.Process(target=client, args=(base_url, index, args.workers,
                                                               theirs), daemon=True)
        process.start()
        pipes.append(ours)
        clients.append(process)
    try:
        for concurrency in (int(c) for c in args.concurrency.split(",")):
            rate, cpu_ms = measure(pipes, args.modality, concurrency, args.rounds)
            ideal = concurrency / args.latency_s
            print(f"concurrency {concurrency:3d}, latency {args.latency_s * 1000:.0f} ms, "
                  f"{args.modality}, {args.workers} worker(s): {rate:7.1f} trials/s = "
                  f"{rate / ideal:.2f} x ideal ({ideal:.0f}/s); client CPU {cpu_ms:.1f} ms/trial",
                  flush=True)
    finally:
        for pipe in pipes:
            pipe.send(None)
        for process in clients:
            process.join(timeout=10)
        parent.send("stop")
        server.join(timeout=10)


if __name__ == "__main__":
    main()
