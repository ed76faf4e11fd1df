"""The response cache's file: round trips, many processes, SIGKILL, bad files.

Processes are real: fresh interpreters (``subprocess``) that create the file at the same
moment, forked children that inherit an open cache, and a writer killed with SIGKILL.
(Cache modes and keys: test_cached_backend.py.)
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from fixtures.backends.base import Response
from fixtures.sending.response_cache import CacheError, ResponseCache

REPO = Path(__file__).resolve().parents[1]


# -- round trips ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "response",
    [
        Response("Final answer: C ü ♯", "length", 123, 4567, 8.25, False, None),
        Response("", "error", 0, 0, 0.5, False, "HTTP 503: overloaded"),
        Response("x", "stop", 1, 2, 0.0, True, None),
    ],
)
def test_every_field_round_trips(tmp_path, response):
    with ResponseCache(tmp_path / "c.sqlite") as cache:
        cache.put("k", response, "gemini", "gemini-2.5-pro")
        assert cache.get("k") == dataclasses.replace(response, cached=True)
        assert cache.get("other") is None
        assert cache.count() == 1


# -- many processes ---------------------------------------------------------------------------

WRITER = textwrap.dedent(
    """
    import os, sys, time
    from fixtures.backends.base import Response
    from fixtures.sending.response_cache import ResponseCache
    path, go, worker, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    while not os.path.exists(go):
        time.sleep(0.002)
    cache = ResponseCache(path, timeout_s=30)
    for i in range(n):
        cache.put(f"own-{worker}-{i}", Response(f"{worker}:{i}"), "scripted", "m")
        cache.put(f"shared-{i}", Response(f"shared {i}"), "scripted", "m")
        seen = cache.get(f"shared-{(i * 7) % n}")
        assert seen is None or seen.text == f"shared {(i * 7) % n}", seen
    for i in range(n):
        assert cache.get(f"own-{worker}-{i}").text == f"{worker}:{i}"
        assert cache.get(f"shared-{i}").text == f"shared {i}"
    print("ok", cache.count())
    """
)


def _env() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "PYTHONPATH": path}


def test_many_processes_create_write_and_read_at_once(tmp_path):
    path, go, workers, n = tmp_path / "c.sqlite", tmp_path / "go", 6, 150
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), str(go), str(w), str(n)],
            env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for w in range(workers)
    ]
    time.sleep(0.3)  # let them all start, then release them together on a fresh file
    go.touch()
    for proc in procs:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0 and out.startswith("ok"), err
    with ResponseCache(path) as cache:
        assert cache.count() == workers * n + n
        for w in range(workers):
            assert all(cache.get(f"own-{w}-{i}").text == f"{w}:{i}" for i in range(n))


def _create_at_once(directory: Path, start: float, rounds: int) -> None:
    for r in range(rounds):
        while time.time() < start + 0.05 * r:
            pass
        cache = ResponseCache(directory / f"fresh-{r}.sqlite")
        cache.put(f"pid-{os.getpid()}", Response("here"), "scripted", "m")
        cache.close()


def test_workers_creating_one_file_at_once_all_succeed(tmp_path):
    context, rounds = multiprocessing.get_context("fork"), 20
    start = time.time() + 0.3
    children = [
        context.Process(target=_create_at_once, args=(tmp_path, start, rounds)) for _ in range(8)
    ]
    for child in children:
        child.start()
    for child in children:
        child.join(timeout=60)
    assert [child.exitcode for child in children] == [0] * 8
    for r in range(rounds):
        assert ResponseCache(tmp_path / f"fresh-{r}.sqlite").count() == 8


def _forked_writer(cache: ResponseCache, worker: int) -> None:
    inherited = cache._conn
    for i in range(50):
        cache.put(f"fork-{worker}-{i}", Response(f"{worker}/{i}"), "scripted", "m")
        assert cache.get("parent").text == "from the parent"
    assert cache.count() >= 51
    assert inherited is not None and cache._conn is not inherited  # never reuse the parent's


def test_forked_children_reopen_their_own_connection(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    cache.put("parent", Response("from the parent"), "scripted", "m")  # connection now open
    context = multiprocessing.get_context("fork")  # the child inherits the open cache object
    children = [context.Process(target=_forked_writer, args=(cache, w)) for w in range(4)]
    for child in children:
        child.start()
    for child in children:
        child.join(timeout=60)
        assert child.exitcode == 0
    cache.put("parent-after", Response("still fine"), "scripted", "m")
    assert cache.count() == 1 + 4 * 50 + 1
    assert cache.get("fork-3-49").text == "3/49"
    cache.close()


# -- SIGKILL ----------------------------------------------------------------------------------

KILLED_WRITER = textwrap.dedent(
    """
    import sys
    from fixtures.backends.base import Response
    from fixtures.sending.response_cache import ResponseCache
    cache = ResponseCache(sys.argv[1])
    for i in range(1_000_000):
        cache.put(f"k{i}", Response(f"answer {i}", output_tokens=i), "scripted", "m")
        sys.stdout.write(f"{i}\\n")
        sys.stdout.flush()
    """
)


def test_every_returned_put_survives_sigkill(tmp_path):
    path = tmp_path / "c.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(path)],
        env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert proc.stdout is not None
    lines = [proc.stdout.readline() for _ in range(2000)]
    os.kill(proc.pid, signal.SIGKILL)
    rest, _ = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    printed = [int(line) for line in lines + rest.splitlines(keepends=True) if line.endswith("\n")]
    assert len(printed) >= 2000 and printed == list(range(len(printed)))
    assert Path(f"{path}-wal").exists()  # killed before any clean close
    with ResponseCache(path) as cache:
        for i in printed:
            assert cache.get(f"k{i}") == Response(f"answer {i}", output_tokens=i, cached=True)
        assert cache.count() >= len(printed)


# -- bad files --------------------------------------------------------------------------------


def test_random_bytes_are_a_clear_error(tmp_path):
    path = tmp_path / "c.sqlite"
    path.write_bytes(random.Random(0).randbytes(8192))
    with pytest.raises(CacheError) as caught:
        ResponseCache(path).open()
    message = str(caught.value)
    assert str(path) in message and "delete or move the file" in message
    assert "refresh does not repair" in message and "\n" not in message
    with pytest.raises(CacheError, match="delete or move"):
        ResponseCache(path).get("k")  # lazily opened: the same error on first use


@pytest.mark.parametrize(
    "schema",
    [
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)",
        "CREATE TABLE responses (key TEXT PRIMARY KEY, response_json TEXT)",
    ],
)
def test_another_schema_is_a_clear_error_and_left_untouched(tmp_path, schema):
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute(schema)
    conn.close()
    with pytest.raises(CacheError, match="not an eartest response cache") as caught:
        ResponseCache(path).put("k", Response("x"), "scripted", "m")
    assert str(path) in str(caught.value) and "delete or move the file" in str(caught.value)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()


def test_another_schema_version_is_a_clear_error(tmp_path):
    path = tmp_path / "c.sqlite"
    ResponseCache(path).open().close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(CacheError, match="schema version 99") as caught:
        ResponseCache(path).count()
    assert str(path) in str(caught.value) and "delete or move the file" in str(caught.value)
