"""A run's ``trials.jsonl`` on disk: the appending writer, the run directory's lock, and the
torn last line a kill or a full disk leaves.

Records are appended one JSON line at a time, each flushed, so a run stopped at any moment
loses at most the line being written. That line, cut off without its newline, is the one
thing that can break the file: the next append would glue a whole record onto the fragment
and every later reading would fail. So a resume first sets the fragment aside in
``trials.torn.txt`` (nothing is deleted) and the trial runs again; a reader skips a torn last
line with a warning; a bad line anywhere else is still an error naming the line.

One run at a time may write into a directory: a second run is refused while the first holds
an exclusive ``flock`` on ``.eartest.lock`` (released by the kernel when the process ends, so
a killed run never leaves a stale lock).
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import time
import warnings
from collections.abc import Iterable
from pathlib import Path

import pytest

from reports.gate.exit_status import FINISHED_BROKEN
from solvers.trial_record import RecordError, row_from_json

RECORDS_FILE = "trials.jsonl"
TORN_FILE = "trials.torn.txt"  # fragments set aside by resumes, appended, never overwritten
LOCK_FILE = ".eartest.lock"


class TornRecordWarning(UserWarning):
    """A records file ends in a torn line, which was left out."""


def is_torn(line: str | bytes) -> bool:
    """Whether ``line`` (as read, newline included) is an unfinished last line: no newline,
    and not a whole JSON object."""
    if line.endswith("\n" if isinstance(line, str) else b"\n") or not line.strip():
        return False
    try:
        return not isinstance(json.loads(line), dict)
    except ValueError:
        return True


def read_rows(paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> list[dict]:
    """One row per trial from run directories or ``trials.jsonl`` files, concatenated.

    Several runs can be combined (e.g. one per model), but each (model, trial_id) may appear
    only once: a duplicate means two runs disagree about the same trial, and picking one would
    silently change a score. A ``source`` field names the file each row came from.

    Each line is validated against :class:`solvers.trial_record.TrialRecord` (records of the
    previous shape, ``record_version`` 1, are read as they are) and flattened: a family's
    ``details`` become columns, so every table reads one flat frame.

    Raises
    ------
    FileNotFoundError
        If a path is neither a run directory holding ``trials.jsonl`` nor an existing file.
    ValueError
        For a line that is not a valid trial record (naming file, line number and field), or a
        duplicate (model, trial_id). A torn last line (no newline, not whole JSON) is left
        out with a ``TornRecordWarning`` instead.
    """
    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    rows: list[dict] = []
    seen: dict[tuple[str, str], str] = {}
    for given in paths:
        path = Path(given)
        if path.is_dir():
            path = path / RECORDS_FILE
        if not path.is_file():
            raise FileNotFoundError(f"no trial records at {path}")
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                if is_torn(line):  # the last line, cut off: never a whole record
                    warnings.warn(f"{path}:{number}: a torn last record ({len(line)} "
                                  "characters, cut off by a kill or a full disk) left out",
                                  TornRecordWarning, stacklevel=3)
                    continue
                record = _parse_line(line, path, number)
                key = (record["model"], record["trial_id"])
                where = f"{path}:{number}"
                if key in seen:
                    raise ValueError(
                        f"duplicate trial: model {key[0]!r}, trial_id {key[1]!r} appears at "
                        f"{seen[key]} and at {where}"
                    )
                seen[key] = where
                rows.append({**record, "source": str(path)})
    return rows


def _parse_line(line: str, path: Path, number: int) -> dict:
    try:
        return row_from_json(json.loads(line))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}:{number}: not valid JSON ({exc.msg})") from None
    except RecordError as exc:
        raise ValueError(f"{path}:{number}: not a trial record: {exc}") from None


class RunDirBusy(Exception):
    """Another live process holds the run directory's lock."""


def lock_run_dir(run_dir: Path) -> int:
    """Hold ``run_dir``'s lock for as long as the returned descriptor stays open."""
    handle = os.open(run_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(handle, 64).decode("ascii", "replace").strip() or "unknown"
        os.close(handle)
        raise RunDirBusy(
            f"{run_dir} is in use by another eartest run (process {holder}); wait for it to "
            "end or choose another directory (two runs in one directory would mix their "
            "records)") from None
    os.ftruncate(handle, 0)
    os.write(handle, str(os.getpid()).encode("ascii"))
    return handle


def torn_tail(path: Path) -> bytes | None:
    """The unfinished last line of ``path`` (bytes after its last newline that are not one
    whole JSON object), or None when the file ends cleanly."""
    with path.open("rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        if size == 0:
            return None
        step, tail = 4096, b""
        while b"\n" not in tail and len(tail) < size:
            start = max(0, size - len(tail) - step)
            handle.seek(start)
            tail = handle.read(size - start)
    fragment = tail.rsplit(b"\n", 1)[-1] if b"\n" in tail else tail
    return fragment if is_torn(fragment) else None


def set_aside_torn_tail(run_dir: Path) -> str | None:
    """Before appending to ``run_dir``'s records: move a torn last line to ``TORN_FILE`` (and
    end a whole last line that lacks its newline with one). Returns a warning, or None."""
    path = run_dir / RECORDS_FILE
    if not path.is_file():
        return None
    fragment = torn_tail(path)
    if fragment is None:
        with path.open("rb+") as handle:
            size = handle.seek(0, os.SEEK_END)
            if size and (handle.seek(size - 1), handle.read(1))[1] != b"\n":
                handle.write(b"\n")  # a whole record whose newline was never written
        return None
    with (run_dir / TORN_FILE).open("ab") as side:
        side.write(fragment + b"\n")
    with path.open("rb+") as handle:
        handle.truncate(handle.seek(0, os.SEEK_END) - len(fragment))
    return (f"WARNING: {path} ended in a torn record ({len(fragment)} bytes cut off by a kill "
            f"or a full disk); set aside in {run_dir / TORN_FILE}, and its trial runs again")


def default_run_dir(config: pytest.Config, fallback: Path) -> Path:
    """``<runs folder>/<time>-<models>``; the writer adds a numeric suffix if that name is
    taken when it claims the directory. The runs folder is the ini key ``eartest_run_dir``
    (relative to the ini file), else ``fallback``."""
    chosen = config.getoption("model") or config.getini("eartest_model")
    models = re.sub(r"[^A-Za-z0-9_.-]+", "_", chosen)
    folder = config.getini("eartest_run_dir")
    base = (config.inipath.parent / folder if folder and config.inipath
            else fallback)
    return base / f"{time.strftime('%Y%m%d-%H%M%S')}-{models}"


class RecordWriter:
    """Appends records to the run's JSONL file as reports arrive, flushing each line.

    A default run directory (``fresh=True``) is claimed with an atomic ``mkdir`` when the run
    first writes: two runs started in the same second (parallel CI jobs, a test suite) must
    never share one ``trials.jsonl``, and a run that writes nothing leaves no directory."""

    def __init__(self, run_dir: Path, on_open=None, fresh: bool = False) -> None:
        self.run_dir = run_dir
        self.count = 0
        self._handle = None
        self._on_open = on_open  # called with the directory once, when it is first written
        self._unclaimed = fresh
        self._lock: int | None = None

    @property
    def path(self) -> Path:
        return self.run_dir / RECORDS_FILE

    def lock(self) -> None:
        """Take the directory's lock (idempotent); RunDirBusy when another run holds it."""
        if self._lock is None:
            self._lock = lock_run_dir(self.run_dir)

    def unlock(self) -> None:
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    def claim(self) -> Path:
        """The run's directory, created now if this is the first write (idempotent)."""
        if self._unclaimed:
            base, suffix = self.run_dir, 1
            while True:
                try:
                    self.run_dir.mkdir(parents=True)
                    break
                except FileExistsError:
                    suffix += 1
                    self.run_dir = base.with_name(f"{base.name}-{suffix}")
            self._unclaimed = False
            self.lock()
        else:
            self.run_dir.mkdir(parents=True, exist_ok=True)
        return self.run_dir

    def write(self, record: dict) -> None:
        if self._handle is None:
            self.claim()
            if self._on_open is not None:
                self._on_open(self.run_dir)
            self._handle = open(self.path, "ab", buffering=0)
        line = (json.dumps(record, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")
        end = os.fstat(self._handle.fileno()).st_size
        try:
            written = 0
            while written < len(line):
                written += self._handle.write(line[written:])
        except OSError:  # a full disk: leave no fragment for the next line to glue onto
            try:
                os.ftruncate(self._handle.fileno(), end)
            except OSError:
                pass  # then a resume sets the fragment aside
            raise
        self.count += 1

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def release(writer: RecordWriter, made: list[Path]) -> None:
    """At the end of a run: drop the lock; the folders made for a run that wrote nothing
    (``made``, deepest first) are removed again."""
    writer.unlock()
    lock = writer.run_dir / LOCK_FILE
    if lock.exists() and [p.name for p in writer.run_dir.iterdir()] == [LOCK_FILE]:
        lock.unlink()
    for folder in made:
        try:
            folder.rmdir()
        except OSError:
            break


def broken_message(exc: BaseException, records: Path, count: int, writing: bool) -> str:
    """The one line a run that broke prints instead of a traceback: its records could not be
    written (a full disk), or finishing it after its trials failed."""
    why = "interrupted" if isinstance(exc, KeyboardInterrupt) else f"{type(exc).__name__}: {exc}"
    what = ("writing its trial records failed, so the run stopped" if writing
            else "the trials ran, but finishing the run failed")
    return (f"eartest: BROKEN run: {what} ({why}); {count} trial records are in {records}; "
            f"rebuild the report with python -m reports build {records.parent} --out <new "
            f"directory>, or complete the run with --resume {records.parent} "
            f"(exit status {FINISHED_BROKEN}: not a result)")


def hold(config: pytest.Config, writer: RecordWriter) -> str | None:
    """Lock a named run directory before anything runs (made now, removed at the end if
    nothing was written) and set aside a torn last record; the warning, if any."""
    made = [d for d in (writer.run_dir, *writer.run_dir.parents) if not d.exists()]
    writer.run_dir.mkdir(parents=True, exist_ok=True)
    try:
        writer.lock()
    except RunDirBusy as exc:
        option = "--resume" if config.getoption("resume") else "--run-dir"
        raise pytest.UsageError(f"{option}: {exc}") from None
    config.add_cleanup(lambda: release(writer, made))
    return set_aside_torn_tail(writer.run_dir)
