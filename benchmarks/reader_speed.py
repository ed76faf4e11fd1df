"""Reader speed on a megabyte of adversarial text (issue 14 item 16): every reader, every unit.

Each reply is one short unit ("A ", "1 ", "Final Answer: B\\n", "C#4 ", ...) repeated to 1 MB,
the shapes that made readers quadratic before. Prints, per reader, the median and the worst
time over the units (best of ``--repeat`` runs each), so the figure in docs/ can be checked:

    .venv/bin/python benchmarks/reader_speed.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solvers.pitch_scoring import score_answer  # noqa: E402
from tests_solvers.test_issue12_core import READERS, UNITS  # noqa: E402
from tests_solvers.test_pitch_reader_time import ADVERSARIAL, KINDS  # noqa: E402

MEGABYTE = 10**6


def _pitch_readers() -> dict:
    readers = {}
    for kind, truth, notation, options in KINDS:
        name = f"pitch {kind}" + (f" ({notation})" if notation else "")
        readers[name] = (lambda reply, k=kind, t=truth, n=notation, o=options:
                         score_answer(k, t, reply, n, o))
    return readers


def _best_time(reader, reply: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        reader(reply)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    units = sorted(set(UNITS) | set(ADVERSARIAL.values()))
    replies = [unit * (MEGABYTE // len(unit)) for unit in units]
    readers = {**READERS, **_pitch_readers()}
    print(f"{len(readers)} readers x {len(units)} units of 1 MB, best of {args.repeat}")
    print(f"{'reader':<28} {'median ms':>10} {'worst ms':>10}  worst unit")
    overall = 0.0
    for name, reader in readers.items():
        times = [_best_time(reader, reply, args.repeat) for reply in replies]
        worst = max(range(len(units)), key=times.__getitem__)
        overall = max(overall, times[worst])
        print(f"{name:<28} {1000 * statistics.median(times):>10.1f} "
              f"{1000 * times[worst]:>10.1f}  {units[worst]!r}")
    print(f"slowest call: {1000 * overall:.1f} ms")


if __name__ == "__main__":
    main()
