"""Time-bound checks that survive a loaded CI machine.

These checks guard against blow-ups (quadratic reading, catastrophic regex backtracking), not
speed itself (that is measured by ``benchmarks/``). A loaded 2-core machine can stall any one
call for a second, but not every one, so a check takes the fastest of a few calls.
"""

from __future__ import annotations

import time
from collections.abc import Callable


def fastest_s(call: Callable[[], object], repeats: int = 3, enough_s: float = 0.05) -> float:
    """Seconds of the fastest of up to ``repeats`` calls; stops early once one takes
    ``enough_s`` or less (the common case costs a single call)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
        if best <= enough_s:
            break
    return best
