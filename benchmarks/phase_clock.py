"""A pytest plugin for ``benchmarks/whole_run.py``: the wall-clock time at which a run passes
each phase, written as JSON to ``$EARTEST_PHASE_CLOCK`` when pytest unconfigures.

Loaded with ``-p phase_clock`` (``benchmarks/`` on ``PYTHONPATH``); it only reads the clock,
so the run it times is the run a user starts. Single process only (no ``-n``): under xdist the
controller neither collects nor prefetches.
"""

from __future__ import annotations

import json
import os
import time

import pytest

_marks: dict[str, float] = {"configured": time.time()}


@pytest.hookimpl(wrapper=True, tryfirst=True)  # around the prefetch, which runs trylast
def pytest_collection_finish(session: pytest.Session):
    _marks["collected"] = time.time()
    try:
        return (yield)
    finally:
        _marks["prefetched"] = time.time()


def pytest_runtest_logstart(nodeid: str, location: tuple) -> None:
    _marks.setdefault("first_test", time.time())


def pytest_runtest_logfinish(nodeid: str, location: tuple) -> None:
    _marks["last_test"] = time.time()


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    _marks["unconfigured"] = time.time()
    if path := os.environ.get("EARTEST_PHASE_CLOCK"):
        with open(path, "w") as out:
            json.dump(_marks, out)
