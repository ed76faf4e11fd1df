"""A whole ``pytest bench`` process against a fake Gemini: where its time goes, per phase.

    .venv/bin/python benchmarks/whole_run.py [--latency-s 0.2] [--concurrency 32]
                                             [--select "-m zero"] [--repeats 1]

Serves ``tests_solvers.fakes.gemini_server`` (``--latency-s`` per request) from another
process, then runs, as a user would, ``python -m pytest bench --ignore=bench/test_pitch
--model gemini-pro --concurrency 32`` twice against one response cache:

- *fresh*: an empty response cache, the report on (every request goes to the server);
- *cached*: the same trials again, every answer in the cache, ``--no-report``.

An untimed run on a throwaway cache first fills the stimulus cache (rendered clips) and the
bytecode caches, so both timed runs find their audio rendered and their modules compiled, as
any run after a machine's first does. The runs write bytecode (and pytest its rewritten test
modules) into a private ``PYTHONPYCACHEPREFIX`` as a default Python would, even when the
calling shell sets ``PYTHONDONTWRITEBYTECODE``: without it every run compiles every module
and rewrites every plugin's asserts again (several seconds of start-up). A small plugin
(``benchmarks/phase_clock.py``, loaded with ``-p``) notes when the run passes each phase; the
table prints, for each run: collection (process start to the end of collection: interpreter,
imports, plugins, items), prefetch (until the first test body may start: since the prefetch
runs beside the test bodies, the first answers; a fully cached run's whole prefetch), tests
(the test bodies, taking each result as it comes while the rest are in flight), wrap-up (last
test to process exit: records, report, caches), the whole process, its
cost per trial, the process's CPU time (user + system) per trial, which depends less on
what else the machine runs, the load average when the run started and, for the fresh run,
the rate against the ideal, ``concurrency / latency`` requests per second over the requests
the server received.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
KEY = "benchmark-key"
PHASES = ("collection", "prefetch", "tests", "wrap-up")


def serve(latency_s: float, pipe: Connection) -> None:
    """The fake in its own process; each message from the parent asks how many generate
    requests it has answered so far (``None`` stops it)."""
    sys.path.insert(0, str(REPO))
    from tests_solvers.fakes.gemini_server import FakeGeminiServer

    with FakeGeminiServer(api_key=KEY, latency_s=latency_s, keep_bodies=False) as server:
        pipe.send(server.base_url)
        while pipe.recv() is not None:
            pipe.send(server.generate_count)


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_bench(args: argparse.Namespace, base_url: str, cache: Path, run_dir: Path,
              *extra: str) -> dict[str, float]:
    """One pytest process; its phase times and CPU time in seconds, its trials, the load."""
    clock = run_dir.parent / f"{run_dir.name}.clock.json"
    env = {**os.environ, "GEMINI_API_KEY": KEY, "GEMINI_BASE_URL": base_url,
           "EARTEST_PHASE_CLOCK": str(clock),
           "PYTHONPYCACHEPREFIX": str(run_dir.parent / "pycache"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).parent),
                                                       os.environ.get("PYTHONPATH")]))}
    env.pop("PYTEST_XDIST_WORKER", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cmd = [sys.executable, "-m", "pytest", "bench", "--ignore=bench/test_pitch", "-q",
           "-p", "phase_clock", "--model", "gemini-pro", "--concurrency",
           str(args.concurrency), "--cache-path", str(cache), "--run-dir", str(run_dir),
           *shlex.split(args.select), *extra]
    load = os.getloadavg()[0]
    cpu_before_s = _children_cpu_s()
    start_s = time.time()
    done = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
    end_s = time.time()
    cpu_s = _children_cpu_s() - cpu_before_s
    if done.returncode not in (0, 1):
        sys.exit(f"whole_run: exit status {done.returncode}\n{done.stdout[-2000:]}"
                 f"{done.stderr[-2000:]}")
    marks = json.loads(clock.read_text())
    trials = sum(1 for line in (run_dir / "trials.jsonl").open() if line.strip())
    first_test = marks.get("first_test", marks["prefetched"])
    return {"collection": marks["collected"] - start_s,
            "prefetch": marks["prefetched"] - marks["collected"],
            "tests": marks.get("last_test", first_test) - marks["prefetched"],
            "wrap-up": end_s - marks.get("last_test", first_test),
            "whole": end_s - start_s, "trials": trials, "cpu": cpu_s, "load": load}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency-s", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--select", default="",
                        help="pytest selection options, e.g. \"-m 'zero and midi'\" "
                             "(default: the 1,008 core trials)")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--fresh-no-report", action="store_true",
                        help="the fresh run with --no-report too (the requests, the tests and "
                             "the terminal's lines, no report)")
    args = parser.parse_args()
    parent, child = multiprocessing.Pipe()
    server = multiprocessing.Process(target=serve, args=(args.latency_s, child), daemon=True)
    server.start()
    base_url = parent.recv()

    def sent() -> int:
        parent.send("count")
        return parent.recv()

    ideal_rps = args.concurrency / args.latency_s
    print(f"{'run':<8}" + "".join(f"{p:>12}" for p in (*PHASES, "whole")) +
          f"{'ms/trial':>10}{'CPU ms/trial':>14}{'x ideal':>9}{'load':>7}")
    try:
        with tempfile.TemporaryDirectory(prefix="eartest-whole-run-") as scratch:
            root = Path(scratch)
            run_bench(args, base_url, root / "warm.sqlite", root / "warm-up", "--no-report")
            for repeat in range(args.repeats):
                cache = root / f"responses-{repeat}.sqlite"
                before = sent()
                fresh = run_bench(args, base_url, cache, root / f"fresh-{repeat}",
                                  *(["--no-report"] if args.fresh_no_report else []))
                requests = sent() - before
                cached = run_bench(args, base_url, cache, root / f"cached-{repeat}",
                                   "--no-report")
                if sent() != before + requests:
                    sys.exit("whole_run: the cached re-run sent requests")
                for name, times in (("fresh", fresh), ("cached", cached)):
                    ratio = (f"{requests / ideal_rps / times['whole']:>9.2f}"
                             if name == "fresh" else f"{'':>9}")
                    print(f"{name:<8}" + "".join(f"{times[p]:>11.2f}s" for p in PHASES) +
                          f"{times['whole']:>11.2f}s" +
                          f"{1000 * times['whole'] / times['trials']:>10.2f}"
                          f"{1000 * times['cpu'] / times['trials']:>14.2f}{ratio}"
                          f"{times['load']:>7.2f}")
                print(f"  {fresh['trials']} trials, {requests} requests, ideal "
                      f"{requests / ideal_rps:.2f} s at {ideal_rps:.0f} requests/s")
    finally:
        parent.send(None)
        server.join(timeout=10)


if __name__ == "__main__":
    main()
