"""Root conftest: registers the eartest plugins for the benchmark and the project's tests."""

import os
from pathlib import Path

# numba's on-disk cache (librosa compiles with cache=True) is not safe for several processes
# writing it at once: xdist workers filling a cold cache together crash with a segmentation
# fault. One cache directory per process role keeps the speed of caching without the race.
# Workers inherit the controller's environment, so a worker always sets its own directory.
# It lies in $EARTEST_CACHE_DIR when that is set, like every cache eartest writes (read here,
# not through fixtures.stimuli.cache.cache_dir: importing fixtures may import numba first).
_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker or "NUMBA_CACHE_DIR" not in os.environ:
    _caches = os.environ.get("EARTEST_CACHE_DIR")
    _numba = Path(_caches) / "numba" if _caches else Path(__file__).parent / ".cache" / "numba"
    os.environ["NUMBA_CACHE_DIR"] = str(_numba / (_worker or "main"))

pytest_plugins = [
    "reports.plugins.report", "reports.plugins.bench_output", "reports.gate.baseline",
    "fixtures.plugins.trials", "fixtures.plugins.models", "fixtures.plugins.shard",
    "fixtures.plugins.human", "fixtures.plugins.staircase_schedule",
]
