"""``python -m pytest ...`` for the tests' subprocesses, from a warm process: import once, fork.

Some 250 tests run the benchmark or ``python -m reports`` in a subprocess, and each new
interpreter spends 1.5-2.5 s of CPU importing pytest, its plugins, numpy, scipy, pandas and
matplotlib before it does its own work: about a third of the suite's time. Here one server per
test process imports all that once and forks a child per command. A child has imported, never
run, the modules a fresh process would import anyway; it then sets the command's working folder,
environment and argv, runs ``python -m <module>`` with ``runpy`` and exits with its code, its
output in files the caller reads. Everything the command does is the real code path.

``run`` is a drop-in for ``subprocess.run`` that takes the warm road only where it gives the
same result as a new interpreter: ``[sys.executable, "-m", module, ...]`` run from the
repository, output captured, no stdin, no ``preexec_fn`` or other process settings, and no
``PYTHON*`` variable that differs from the server's (those act at interpreter start, like
``PYTHONPATH``; one that names only the repository changes nothing, and the child sets
``sys.dont_write_bytecode`` for ``PYTHONDONTWRITEBYTECODE``). Anything else, and every
command under ``EARTEST_TESTS_COLD=1``, goes to ``subprocess.run``; so do tests that stop,
signal or limit a process: they use ``Popen``.
``tests_solvers/conftest.py`` installs it as ``subprocess.run`` for the suite.

Replies travel on a descriptor of their own (what an import prints goes to stderr), and each
request carries a number its reply repeats. A caller interrupted while it waits (an
exception, a signal) kills the server and everything it started, so no reply is ever taken for
another request's; a forked copy of the test process never uses the server.
"""

from __future__ import annotations

import atexit
import importlib
import importlib.metadata
import json
import os
import runpy
import signal
import subprocess
import sys
import tempfile
import threading
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COLD_VARIABLE = "EARTEST_TESTS_COLD"
_REAL_RUN = subprocess.run
_PASSED_THROUGH = {"capture_output", "text", "universal_newlines", "encoding", "errors",
                   "env", "cwd", "timeout", "check", "stdout", "stderr"}
# What the benchmark's processes import anyway (the root conftest's plugins come on top):
# importing them once in the server is the whole saving. Not numba or librosa: numba reads
# its cache folder when imported, and the root conftest sets it per process.
WARM_MODULES = ("pytest", "xdist.plugin", "numpy", "scipy.stats", "pandas", "matplotlib",
                "matplotlib.pyplot", "pyarrow", "soundfile", "mido", "pretty_midi",
                "google.genai", "openai", "reports.builders.artifacts", "reports.gate.verdict",
                "reports.tables.accuracy", "reports.tables.assisted", "reports.tables.controls")


def warm_imports() -> None:
    """Import what a command would import: only a speed-up, so a module that fails to import
    is left to the child, which reports it as a new process would."""
    names = [*WARM_MODULES, *_root_conftest_plugins()]
    names += [point.value.split(":")[0]
              for point in importlib.metadata.entry_points(group="pytest11")
              if not point.value.startswith("hypothesis")]
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 (any failure is the child's to report)
            pass


def _root_conftest_plugins() -> list[str]:
    import ast

    tree = ast.parse((REPO / "conftest.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "pytest_plugins" for t in node.targets):
            return list(ast.literal_eval(node.value))
    return []


def run_module_here(module: str, args: list[str], cwd: str, env: dict[str, str],
                    stdout_path: str, stderr_path: str | None) -> None:
    """In a forked child: become ``python -m module *args``. It never returns: the module's
    ``SystemExit`` (or its uncaught exception) ends this process the way it ends a new
    interpreter, with the normal shutdown (threads joined, ``atexit``, files flushed)."""
    try:
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        out = os.open(stdout_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(out, 1)
        err = os.open(stderr_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC) if stderr_path else out
        os.dup2(err, 2)
        sys.path[0] = cwd  # what ``python -m`` puts first
        sys.dont_write_bytecode = bool(env.get("PYTHONDONTWRITEBYTECODE"))  # its only effect
        import random

        random.seed()  # a new interpreter's seed, not the server's copied state
        sys.argv = [module, *args]
    except BaseException:  # noqa: BLE001 (the command never started: say why, leave)
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(127)
    runpy.run_module(module, run_name="__main__", alter_sys=True)
    raise SystemExit(0)


def private_stdout():  # noqa: ANN201 (a binary file object)
    """This process's standard output as a file of its own, with descriptor 1 pointed at
    stderr: whatever an import prints (pyfluidsynth prints where it found its library when
    ``CI`` is set) goes to stderr, never into what a caller parses."""
    private = os.fdopen(os.dup(1), "wb")
    sys.stdout.flush()
    os.dup2(2, 1)
    return private


def serve() -> None:
    """The server: a JSON request a line on stdin, a JSON reply a line on stdout."""
    import gc

    replies = private_stdout()
    warm_imports()
    # what is imported stays out of the collector's way: without this every child's garbage
    # collections walk (and so copy) the whole imported heap, which costs most of the saving
    gc.freeze()
    requests = sys.stdin.buffer
    for line in iter(requests.readline, b""):
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            replies.close()  # the command's own output never reaches the replies
            run_module_here(request["module"], request["args"], request["cwd"], request["env"],
                            request["stdout"], request["stderr"])
        reply = {"id": request["id"], "returncode": _wait(pid, request["timeout_s"])}
        replies.write(json.dumps(reply).encode() + b"\n")
        replies.flush()


def _wait(pid: int, timeout_s: float | None) -> int | None:
    """The child's exit code, or None after killing it at its timeout."""
    import time

    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    delay_s = 0.005
    while True:
        done, status = os.waitpid(pid, os.WNOHANG if deadline is not None else 0)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:  # type: ignore[operator]
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None
        time.sleep(delay_s)
        delay_s = min(delay_s * 2, 0.05)


class _Server:
    """One warm server per test process, started at its first command."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self.lock = threading.Lock()
        self.environment = _server_environment()
        self.owner_pid = os.getpid()
        self.requests_sent = 0
        atexit.register(self.stop)

    def ensure(self) -> subprocess.Popen:
        if self.process is None or self.process.poll() is not None:
            # its own session: abandoning a request kills the server and whatever it started
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tests_solvers.warm_python"], cwd=REPO,
                env=self.environment, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                start_new_session=True)
        return self.process

    def stop(self) -> None:
        """At the test process's exit: the server leaves at the end of its input."""
        if os.getpid() != self.owner_pid:
            return  # a forked copy of the test process: the server is not its own
        if self.process is not None and self.process.poll() is None:
            self.process.stdin.close()  # type: ignore[union-attr]
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.abandon()

    def abandon(self) -> None:
        """Kill the server and the command it runs; the next command starts a new server. A
        request left unanswered (the caller interrupted) must not leave its reply in the pipe
        for the next caller to take as its own."""
        process, self.process = self.process, None
        if process is None:
            return
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()
        for pipe in (process.stdin, process.stdout):
            try:
                pipe.close()  # type: ignore[union-attr]
            except OSError:
                pass

    def ask(self, request: dict) -> int | None:
        self.requests_sent += 1
        request = {**request, "id": self.requests_sent}
        process = self.ensure()
        try:
            process.stdin.write(json.dumps(request).encode() + b"\n")  # type: ignore[union-attr]
            process.stdin.flush()  # type: ignore[union-attr]
            line = process.stdout.readline()  # type: ignore[union-attr]
        except BaseException:
            self.abandon()
            raise
        reply = _parsed_reply(line)
        if reply is None or reply.get("id") != request["id"]:
            self.abandon()
            said = "died" if not line else "answered another request" if reply else \
                f"wrote {line[:200]!r}, not a reply,"
            raise RuntimeError(
                f"the warm test server {said} running {request['module']} "
                f"{' '.join(request['args'])}; rerun with "
                f"{COLD_VARIABLE}=1 to run each command in a new interpreter")
        return reply["returncode"]


def _parsed_reply(line: bytes) -> dict | None:
    """The server's reply, or None for an empty or foreign line."""
    try:
        reply = json.loads(line)
    except ValueError:
        return None
    return reply if isinstance(reply, dict) else None


def _server_environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}


_SERVER = _Server()


def _warm_command(cmd: object, kwargs: dict) -> tuple[str, dict[str, str]] | None:
    """The module and environment of a command the warm road serves, or None."""
    if os.environ.get(COLD_VARIABLE) or not isinstance(cmd, (list, tuple)) or len(cmd) < 3:
        return None
    if set(kwargs) - _PASSED_THROUGH or cmd[1] != "-m" or not isinstance(cmd[2], str):
        return None
    if os.path.realpath(str(cmd[0])) != os.path.realpath(sys.executable):
        return None
    if not (kwargs.get("capture_output") or kwargs.get("stdout") == subprocess.PIPE):
        return None
    if kwargs.get("stderr") not in (None, subprocess.PIPE, subprocess.STDOUT):
        return None
    if os.path.realpath(kwargs.get("cwd") or os.getcwd()) != str(REPO):
        return None
    env = dict(os.environ if kwargs.get("env") is None else kwargs["env"])
    if _interpreter_settings(env) != _interpreter_settings(_SERVER.environment):
        return None
    return cmd[2], env


def _interpreter_settings(env: dict[str, str]) -> dict[str, str]:
    """The ``PYTHON*`` variables, which act when an interpreter starts. A ``PYTHONPATH`` that
    names only the repository (an empty entry is the working folder, the repository too)
    counts as none: ``python -m`` run from the repository finds the same modules either way;
    ``PYTHONDONTWRITEBYTECODE`` is left out, as the child sets ``sys.dont_write_bytecode``."""
    settings = {k: v for k, v in env.items()
                if k.startswith("PYTHON") and k != "PYTHONDONTWRITEBYTECODE"}  # the child sets it
    entries = settings.get("PYTHONPATH", "").split(os.pathsep)
    if all(os.path.realpath(entry or REPO) == str(REPO) for entry in entries):
        settings.pop("PYTHONPATH", None)
    return settings


def run(cmd, **kwargs) -> subprocess.CompletedProcess:  # noqa: ANN001 (subprocess.run's)
    """``subprocess.run`` for the tests: warm where that is the same, real otherwise."""
    warm = _warm_command(cmd, kwargs)
    # a forked copy of the test process shares the server's pipes: it must not talk on them
    if warm is None or os.getpid() != _SERVER.owner_pid \
            or not _SERVER.lock.acquire(blocking=False):
        return _REAL_RUN(cmd, **kwargs)
    try:
        return _run_warm(list(cmd), *warm, kwargs)
    finally:
        _SERVER.lock.release()


def _run_warm(cmd: list, module: str, env: dict[str, str],
              kwargs: dict) -> subprocess.CompletedProcess:
    merged = kwargs.get("stderr") == subprocess.STDOUT
    with tempfile.TemporaryDirectory(prefix="eartest-warm-") as folder:
        out, err = Path(folder) / "stdout", Path(folder) / "stderr"
        returncode = _SERVER.ask({
            "module": module, "args": [str(a) for a in cmd[3:]],
            "cwd": str(REPO), "env": env,
            "stdout": str(out), "stderr": None if merged else str(err),
            "timeout_s": kwargs.get("timeout")})
        stdout = out.read_bytes() if out.exists() else b""
        stderr = None if merged else (err.read_bytes() if err.exists() else b"")
    if kwargs.get("text") or kwargs.get("universal_newlines") or kwargs.get("encoding") \
            or kwargs.get("errors"):
        stdout, stderr = _text(stdout, kwargs), None if stderr is None else _text(stderr, kwargs)
    if returncode is None:
        raise subprocess.TimeoutExpired(cmd, kwargs["timeout"], output=stdout, stderr=stderr)
    done = subprocess.CompletedProcess(cmd, returncode, stdout, stderr)
    if kwargs.get("check"):
        done.check_returncode()
    return done


def _text(data: bytes, kwargs: dict) -> str:
    """Bytes as ``subprocess.run(text=True)`` gives them: decoded, universal newlines."""
    import locale

    encoding = kwargs.get("encoding") or locale.getpreferredencoding(False)
    text = data.decode(encoding, kwargs.get("errors") or "strict")
    return text.replace("\r\n", "\n").replace("\r", "\n")


if __name__ == "__main__":
    serve()
