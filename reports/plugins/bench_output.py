"""How a benchmark run prints its failures: one ``FAILED <trial> - <why>`` line each.

A wrong answer is a result, not a bug to debug, so a run over ``bench/`` shows no tracebacks
unless the user asks for them with ``--tb``. pytest prints a failure's whole message in its
short summary when it thinks it runs in CI (``$CI`` set), and assertion rewriting adds
``assert False`` and ``where ...`` lines to it; a bench trial's message is cut to its first line
so the output reads the same on a laptop and in CI.
"""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def is_bench_run(config: pytest.Config) -> bool:
    """Whether the run's paths are inside ``bench/`` (``pytest`` alone runs ``testpaths``)."""
    bench = REPO_ROOT / "bench"
    paths = [Path(config.invocation_params.dir, arg.split("::")[0]).resolve()
             for arg in config.args]
    return bool(paths) and all(path == bench or bench in path.parents for path in paths)


ONE_LINE = pytest.StashKey[bool]()


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """An xdist worker receives the controller's ``--tb=no`` and trims its own reports."""
    bench = is_bench_run(config)
    if config.option.tbstyle == "auto" and bench:
        config.option.tbstyle = "no"
    config.stash[ONE_LINE] = bench and config.option.tbstyle == "no"
    snapshots = config.pluginmanager.get_plugin("syrupy")
    if bench and snapshots is not None:
        # a bench run has no snapshot to check; left in, the snapshot plugin prints its
        # summary and a warning about missing worker reports when the run is interrupted
        config.pluginmanager.unregister(snapshots)
    properties = config.pluginmanager.get_plugin("hypothesispytest")
    if bench and properties is not None:
        # a bench run has no property test; left in, Hypothesis' plugin imports hypothesis
        # (0.5-1 s) for its end-of-session summary
        config.pluginmanager.unregister(properties)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call):
    if item.config.stash.get(ONE_LINE, False):
        _trim_to_test_body(item, call)
    outcome = yield
    report = outcome.get_result()
    if not (report.failed and item.config.stash.get(ONE_LINE, False)):
        return
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None and "\n" in crash.message:
        crash.message = crash.message.split("\n", 1)[0]


def _trim_to_test_body(item: pytest.Item, call) -> None:
    """A wrong answer's traceback, cut to the test body's own frame before pytest formats it.

    pytest keeps the frames from the test function on and checks each frame's file on disk
    while cutting (about 25 frames of runner and pluggy above the test body, several ms per
    failure; most trials of a weak model fail). When the assertion is raised in the test
    body itself, that frame is the one pytest keeps anyway, so the failure reads the same.
    """
    excinfo = call.excinfo
    if call.when != "call" or excinfo is None or not excinfo.errisinstance(AssertionError):
        return
    last = excinfo.traceback[-1]
    body = getattr(getattr(item, "obj", None), "__code__", None)
    if body is not None and last.frame.code.raw is body:
        excinfo.traceback = excinfo.traceback[-1:]
