"""The prefetch engine: its concurrency bound, the split of work between xdist workers, and
the progress board through which workers report to the controller."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fixtures.backends.base import GenerationSettings, Request, Response
from fixtures.backends.retry import RetryCounter
from fixtures.running.runner import Trial
from fixtures.sending.prefetch import (
    Progress,
    ProgressBoard,
    Tally,
    prefetch_trials,
    prefetching_workers,
    worker_share,
)
from fixtures.tasks.catalog import items_for


# -- worker_share -----------------------------------------------------------------------------
@given(trial_count=st.integers(0, 300), workers=st.integers(1, 12),
       concurrency=st.integers(1, 100))
def test_shares_cover_every_trial_once_and_split_the_concurrency(
    trial_count, workers, concurrency
):
    trials = [f"t{i}" for i in range(trial_count)]
    shares = [worker_share(trials, i, workers, concurrency) for i in range(workers)]
    assert Counter(t for share, _ in shares for t in share) == Counter(trials)
    assert sum(slots for _, slots in shares) == concurrency
    prefetching = prefetching_workers(workers, concurrency)
    assert prefetching == min(workers, concurrency)
    for index, (share, slots) in enumerate(shares):
        if index < prefetching:
            assert slots >= 1 and len(share) in (trial_count // prefetching,
                                                  -(-trial_count // prefetching))
        else:
            assert (share, slots) == ([], 0)
    assert shares == [worker_share(trials, i, workers, concurrency) for i in range(workers)]


def test_one_request_at_a_time_means_one_worker_prefetches():
    trials = list(range(10))
    assert worker_share(trials, 0, 4, 1) == (trials, 1)
    assert all(worker_share(trials, i, 4, 1) == ([], 0) for i in (1, 2, 3))


def test_a_worker_beyond_the_count_gets_nothing():
    assert worker_share(list(range(10)), 2, 2, 16) == ([], 0)  # e.g. a restarted gw2


def test_local_models_stay_in_one_process():
    trials = ["net-1", "hf-1", "net-2", "hf-2"]
    is_local = lambda t: t.startswith("hf")  # noqa: E731
    assert worker_share(trials, 0, 2, 8, is_local) == (trials, 8)
    assert worker_share(trials, 1, 2, 8, is_local) == ([], 0)


# -- the engine -------------------------------------------------------------------------------
class SlowBackend:
    """Answers after ``delay_s`` and records the peak number of calls in flight."""

    name = model_id = "slow"
    offline = False
    max_audio_parts = None

    def __init__(self, delay_s: float) -> None:
        self.delay_s = delay_s
        self.in_flight = self.peak = self.calls = 0

    async def generate(self, request: Request) -> Response:
        self.in_flight += 1
        self.calls += 1
        self.peak = max(self.peak, self.in_flight)
        await asyncio.sleep(self.delay_s)
        self.in_flight -= 1
        return Response("Final Answer: A", "stop")


def core_trials(count: int) -> list[Trial]:
    items = items_for("chord", "test")
    return [Trial("slow", "midi", "zero", "standalone", items[i % len(items)])
            for i in range(count)]


def test_prefetch_keeps_exactly_the_allowed_number_in_flight():
    backend, trials, reports = SlowBackend(0.02), core_trials(30), []
    progress = Progress(total=30, counter=RetryCounter())
    asyncio.run(prefetch_trials(trials, lambda _: backend, GenerationSettings(), 4, progress,
                                lambda p: reports.append(p.tally()), interval_s=0.03))
    assert backend.peak == 4 and backend.calls == 30
    assert (progress.done, progress.in_flight, progress.failed) == (30, 0, 0)
    assert len(reports) >= 2  # at least one tick, and the final report
    assert reports[-1].done == 30 and all(0 <= r.in_flight <= 4 for r in reports)


# -- tallies and the board --------------------------------------------------------------------
def test_tallies_add_up_and_read_as_one_line():
    a = Tally(total=10, done=4, in_flight=2, cached=1, retried=3, failed=0, elapsed_s=3.0,
              spend_usd=0.25)
    b = Tally(total=6, done=6, in_flight=0, cached=0, retried=1, failed=2, elapsed_s=5.0,
              spend_usd=0.5)
    total = a + b
    assert total == Tally(16, 10, 2, 1, 4, 2, 5.0, 0.75)
    assert total.line("gemini-pro") == (
        "eartest prefetch gemini-pro: 10/16 done, 2 in flight, 1 cached, 4 retried, 2 failed, "
        "1.8 trials/s, $0.7500 spent, ETA 3 s")  # 9 live answers in 5 s: 6 left take ~3.3 s
    assert Tally(total=5).line().endswith("ETA ?")


def test_board_round_trip_and_release(tmp_path):
    board = ProgressBoard(tmp_path)
    board.post("gw0", Tally(total=3, done=1), finished=False)
    board.post("gw0", Tally(total=3, done=3), finished=True)
    (entry,) = board.entries().values()
    assert entry["finished"] and entry["pid"] == os.getpid()
    assert Tally(**entry["tally"]) == Tally(total=3, done=3)
    assert not board.released
    board.release()
    assert board.released and list(board.entries()) == ["gw0"]


class FakeClock:
    def __init__(self) -> None:
        self.now_s = 0.0

    def __call__(self) -> float:
        self.now_s += 1.0  # every look at the clock is a second later
        return self.now_s


def test_wait_returns_the_sum_once_every_worker_finished(tmp_path):
    board = ProgressBoard(tmp_path)
    board.post("gw0", Tally(total=2, done=2), finished=True)
    board.post("gw1", Tally(total=3, done=3), finished=True)
    reports = []
    total = board.wait(["gw0", "gw1"], reports.append, poll_s=0)
    assert (total.total, total.done) == (5, 5) and reports == []


def test_wait_reports_while_a_worker_is_still_running(tmp_path):
    board = ProgressBoard(tmp_path)
    board.post("gw0", Tally(total=2, done=2), finished=True)
    board.post("gw1", Tally(total=3, done=1), finished=False)
    reports: list[Tally] = []

    def report(tally: Tally) -> None:
        reports.append(tally)
        if len(reports) == 3:  # the worker finishes while we watch
            board.post("gw1", Tally(total=3, done=3), finished=True)

    total = board.wait(["gw0", "gw1"], report, interval_s=2.0, poll_s=0, clock=FakeClock())
    assert [r.done for r in reports] == [3, 3, 3] and total.done == 5


def test_wait_does_not_hang_on_a_dead_worker(tmp_path):
    board = ProgressBoard(tmp_path)
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)  # exited, not reaped: a zombie
    board.post("gw0", Tally(total=4, done=1), finished=False)
    entry_path = tmp_path / "gw0.json"
    entry_path.write_text(entry_path.read_text().replace(f'"pid": {os.getpid()}',
                                                         f'"pid": {child.pid}'))
    try:
        assert board.wait(["gw0"], lambda _: None, poll_s=0).done == 1
    finally:
        child.wait()
    assert board.wait(["gw0"], lambda _: None, poll_s=0).done == 1  # reaped: no such process


def test_wait_gives_up_on_a_worker_that_never_posts(tmp_path):
    board = ProgressBoard(tmp_path)
    board.post("gw0", Tally(total=2, done=2), finished=True)
    total = board.wait(["gw0", "gw1"], lambda _: None, poll_s=0, appear_timeout_s=5.0,
                       clock=FakeClock())
    assert total.done == 2


def test_a_live_unfinished_worker_is_waited_for(tmp_path):
    board = ProgressBoard(tmp_path)
    board.post("gw0", Tally(total=2, done=0), finished=False)  # this process: alive

    def report(tally: Tally) -> None:
        raise TimeoutError("still waiting, as it should")

    with pytest.raises(TimeoutError, match="as it should"):
        board.wait(["gw0"], report, interval_s=0, poll_s=0, appear_timeout_s=0,
                   clock=FakeClock())


# -- stopping: Ctrl-C and SIGTERM ---------------------------------------------------------------
class HangingBackend:
    """Holds every request until cancelled, like a server that never answers, and starts a
    helper task per request that it does not await (as an SDK's connection reader does), which
    ends in an error when cancelled. The ``concurrency``-th request presses Ctrl-C."""

    name = model_id = "hanging"
    offline = False
    max_audio_parts = None

    def __init__(self, press_at: int) -> None:
        self.press_at = press_at
        self.started = 0

    async def _reader(self) -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            raise ConnectionResetError("connection closed while cancelling") from None

    async def generate(self, request: Request) -> Response:
        self.started += 1
        asyncio.ensure_future(self._reader())
        if self.started == self.press_at:
            signal.raise_signal(signal.SIGINT)  # asyncio.Runner's handler: cancel the prefetch
        await asyncio.Event().wait()
        raise AssertionError("never answered")


def test_an_interrupted_prefetch_leaves_no_task_pending_and_says_nothing(caplog):
    """Issue 27 (defect 21's flake): Ctrl-C or SIGTERM (which the run turns into Ctrl-C) while
    requests are in flight stops the prefetch with KeyboardInterrupt, and every task it and the
    SDK started has ended, its error retrieved: none is left for asyncio to report at exit
    ("Task was destroyed but it is pending", "exception was never retrieved")."""
    from fixtures.running import runner

    backend = HangingBackend(press_at=4)
    progress = Progress(total=12, counter=RetryCounter())
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # as on a terminal
    try:
        with pytest.raises(KeyboardInterrupt):
            runner.run_sync(prefetch_trials(core_trials(12), lambda _: backend,
                                            GenerationSettings(), 4, progress, lambda p: None))
    finally:
        signal.signal(signal.SIGINT, previous)
    loop = runner._RUNNER.get_loop()
    assert backend.started == 4 and progress.in_flight == 0
    assert [t for t in asyncio.all_tasks(loop) if not t.done()] == []
    gc.collect()
    assert not [r for r in caplog.records if r.name == "asyncio"], caplog.text
    assert runner.run_sync(asyncio.sleep(0, result="next")) == "next"  # the loop still serves
