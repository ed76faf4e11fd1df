"""Drawing a report's figures in a second process while the first builds the tables.

The figures are the largest part of a report's cost (matplotlib's import, then laying out and
writing each PNG), and nothing but the HTML page's last step needs them. A run that will build
a report starts a :class:`FigureWorker` once its trials are collected: the worker imports
matplotlib while the prefetch waits on the network (on the machine's other core), and draws
when the records are in, while the pytest process builds the tables. ``write_artifacts`` waits
for every drawing before it writes ``report.html``, so the report, "report in ...", the gate
and the exit status are all whole when the process ends. A worker that died (killed, out of
memory) is not a lost report: its drawings are made again in the calling process.

Without a worker (``python -m reports build``, small runs, a machine with no core to spare)
figures are drawn in the calling process by the same functions; a PNG's bytes do not depend
on the process that drew it.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Protocol


def paper_figures(records, out_dir: Path) -> dict[str, Path]:
    """The paper's figures (``reports.figures.paper.write_figures``), importable by name."""
    from reports.figures.paper import write_figures

    return write_figures(records, out_dir)


def factor_figures(marginals, out_dir: Path) -> dict[str, Path]:
    """One small-multiples PNG per experiment (``reports.figures.factors``)."""
    from reports.figures.factors import write_factor_figures

    return write_factor_figures(marginals, out_dir)


class Drawing:
    """A drawing under way (or done): ``result()`` waits for it and returns its files."""

    def __init__(self, future: Future, job: Callable[..., Any], args: tuple) -> None:
        self._future = future
        self._job = job
        self._args = args

    def result(self) -> Any:
        try:
            return self._future.result()
        except BrokenProcessPool:  # the worker died: draw here rather than lose the report
            return self._job(*self._args)


def spare_core() -> bool:
    """Whether a core is free for the worker (the 1-minute load average at most the cores less
    one). On a busy machine a second process buys no parallel time and costs its own start-up
    (Python, pandas, matplotlib: about 2 s of CPU), so the figures are drawn in process."""
    cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except OSError:  # no load average on this system: assume the machine is busy
        return False
    return cores >= 2 and load <= cores - 1


class FigureDrawer(Protocol):
    """Where a report's figures are drawn: :class:`FigureWorker` or :class:`DrawHere`."""

    def draw(self, job: Callable[..., Any], *args: Any) -> Drawing: ...


def draw_here(job: Callable[..., Any], *args: Any) -> Drawing:
    """Draw in this process now (no worker)."""
    future: Future = Future()
    try:
        future.set_result(job(*args))
    except Exception as exc:  # raised again by result(), where a worker's error would be
        future.set_exception(exc)
    return Drawing(future, job, args)


def _warm_up() -> None:
    """In the worker: ignore Ctrl-C (the pytest process decides what an interrupt stops),
    then :func:`warm_figures`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warm_figures()


def warm_figures() -> None:
    """Import matplotlib and the figure modules and lay out one line of text (the font cache),
    so a drawing asked for later starts at once (in the worker, or in a run that draws its
    figures itself, during its tests)."""
    import io

    from reports.figures import factors, paper

    figure = paper._new_figure(1.0, 1.0)
    figure.text(0.5, 0.5, "warm")
    figure.savefig(io.BytesIO(), format="png", dpi=paper.DPI)
    del factors


def _nothing() -> None:
    """A first job: makes the executor start its process (it starts it on a first submit)."""


class FigureWorker:
    """One spawned process that draws figures; ``draw`` returns a :class:`Drawing`."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._futures: list[Future] = []  # every drawing sent, to know when it is idle

    def start(self) -> FigureWorker:
        # spawn, not fork: the pytest process runs threads (the prefetch's event loop, SQLite)
        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=_warm_up)
        self._pool.submit(_nothing)
        return self

    def draw(self, job: Callable[..., Any], *args: Any) -> Drawing:
        if self._pool is None:
            return draw_here(job, *args)
        try:
            future = self._pool.submit(job, *args)
        except (BrokenProcessPool, RuntimeError):  # died or shut down before the job was sent
            return draw_here(job, *args)
        self._futures.append(future)
        return Drawing(future, job, args)

    def close(self) -> None:
        """Stop the process (after any drawing under way); safe to call more than once. An
        idle worker (every drawing delivered) is ended at once: its interpreter's orderly
        exit (freeing matplotlib and pandas) cost the run's wrap-up 0.3 s, for nothing."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if all(future.done() for future in self._futures):
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)


class DrawHere:
    """The drawer of a report built without a worker: every drawing is made on the spot."""

    def draw(self, job: Callable[..., Any], *args: Any) -> Drawing:
        return draw_here(job, *args)
