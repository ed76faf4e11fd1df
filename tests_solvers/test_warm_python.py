"""The warm road for the tests' subprocesses (``tests_solvers/warm_python.py``) gives what a new
interpreter gives: exit code, both streams, environment, argv; isolated children; the timeout
and ``check`` of ``subprocess.run``; and it steps aside where it would differ."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests_solvers import warm_python

PROBE = [sys.executable, "-m", "tests_solvers.warm_probe"]


def _probe(*args: str, runner=warm_python.run,
           **kwargs) -> tuple[dict, subprocess.CompletedProcess]:
    kwargs.setdefault("cwd", warm_python.REPO)
    done = runner([*PROBE, *args], capture_output=True, text=True, timeout=120, **kwargs)
    return json.loads(done.stdout), done


@pytest.mark.parametrize("code", [0, 1, 4])
def test_a_warm_child_gives_what_a_new_interpreter_gives(code):
    env = {**os.environ, "WARM_PROBE": "seen", "WARM_PROBE_EXIT": str(code)}
    warm, warm_done = _probe("a b", "--x", env=env)
    cold, cold_done = _probe("a b", "--x", env=env, runner=warm_python._REAL_RUN)
    assert warm["parent"] != os.getpid() and cold["parent"] == os.getpid()  # warm: the server's
    for key in ("argv", "cwd", "variable"):
        assert warm[key] == cold[key]
    assert warm["argv"] == ["a b", "--x"] and warm["variable"] == "seen"
    assert (warm_done.returncode, warm_done.stderr) == (cold_done.returncode, cold_done.stderr)
    assert warm_done.returncode == code and warm_done.stderr == "to stderr\nsecond line\n"


def test_children_share_no_state_and_bytes_and_merged_streams_come_back():
    first, _ = _probe()
    second, _ = _probe()
    assert not first["mark_seen"] and not second["mark_seen"]
    merged = warm_python.run(PROBE, cwd=warm_python.REPO, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
    assert isinstance(merged.stdout, bytes) and merged.stderr is None
    assert b"to stderr\r\nsecond line" in merged.stdout


def test_timeout_and_check_behave_as_in_subprocess_run():
    with pytest.raises(subprocess.TimeoutExpired):
        warm_python.run([sys.executable, "-m", "http.server", "0"], cwd=warm_python.REPO,
                        capture_output=True, timeout=1)
    with pytest.raises(subprocess.CalledProcessError):
        warm_python.run(PROBE, cwd=warm_python.REPO, capture_output=True, check=True,
                        env={**os.environ, "WARM_PROBE_EXIT": "3"})


@pytest.mark.parametrize("how", ["elsewhere", "pythonpath", "stdin", "cold"])
def test_it_steps_aside_where_a_warm_child_would_differ(how, tmp_path, monkeypatch):
    kwargs: dict = {}
    if how == "elsewhere":
        kwargs["cwd"] = tmp_path
        kwargs["env"] = {**os.environ, "PYTHONPATH": str(warm_python.REPO)}
    elif how == "pythonpath":
        kwargs["env"] = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{warm_python.REPO}"}
    elif how == "stdin":
        kwargs["input"] = ""
    else:
        monkeypatch.setenv(warm_python.COLD_VARIABLE, "1")
    seen, _ = _probe(**kwargs)
    assert seen["parent"] == os.getpid()  # a new interpreter, started by this process


@pytest.mark.parametrize("path", ["{repo}", "{repo}{sep}", "{repo}{sep}{repo}/."])
def test_a_pythonpath_of_only_the_repository_stays_warm(path):
    """Many tests name the repository in PYTHONPATH; from the repository it finds nothing a
    plain ``python -m`` would not, so those commands need no new interpreter."""
    value = path.format(repo=warm_python.REPO, sep=os.pathsep)
    env = {**os.environ, "PYTHONPATH": value}
    warm, done = _probe(env=env)
    cold, _ = _probe(env=env, runner=warm_python._REAL_RUN)
    assert done.returncode == 0 and warm["parent"] != os.getpid()
    assert warm["argv"] == cold["argv"] and warm["cwd"] == cold["cwd"]


@pytest.mark.parametrize("value", ["1", ""])
def test_pythondontwritebytecode_is_served_warm_and_takes_effect(value, monkeypatch):
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": value}
    warm, _ = _probe(env=env)
    cold, _ = _probe(env=env, runner=warm_python._REAL_RUN)
    assert warm["parent"] != os.getpid() and warm["no_bytecode"] == cold["no_bytecode"]
    assert warm["no_bytecode"] is (value == "1")


class _Interrupted(Exception):
    pass


def test_an_interrupted_caller_leaves_no_reply_for_the_next_command():
    """A caller stopped while it waits (here by an alarm, as a signal stops a test) must not
    leave the stopped command's reply in the pipe: the next command would take it as its own
    (the exit code of the one before, with no output). The stopped command is killed too."""
    import signal
    import time

    def interrupt(signum, frame):  # noqa: ANN001, ARG001 (a signal handler's signature)
        raise _Interrupted

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        warm_python.run(PROBE, cwd=warm_python.REPO, capture_output=True)  # the server is up
        server = warm_python._SERVER.process
        signal.setitimer(signal.ITIMER_REAL, 1.0)
        with pytest.raises(_Interrupted):  # a command that would end, 0, after 4 s
            _probe(env={**os.environ, "WARM_PROBE_SLEEP_S": "4"})
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert server.poll() is not None and warm_python._SERVER.process is None
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _processes_in_group(server.pid):
        time.sleep(0.05)
    assert not _processes_in_group(server.pid), "the stopped command was left running"
    time.sleep(4)  # were the stopped command still running, its reply would be there now
    seen, done = _probe(env={**os.environ, "WARM_PROBE_EXIT": "5"})
    assert done.returncode == 5 and seen["parent"] != os.getpid()  # its own reply, warm again


def _processes_in_group(group: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and os.getpgid(int(entry)) == group:
                state = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()[0]
                found += [int(entry)] if state != "Z" else []
        except OSError:
            pass
    return found


def _run_probe_from_a_fork(queue) -> None:  # noqa: ANN001 (a multiprocessing queue)
    seen, done = _probe(env={**os.environ, "WARM_PROBE_EXIT": "2"})
    queue.put((seen["parent"], os.getpid(), done.returncode))


def test_a_forked_copy_of_the_test_process_starts_its_own_interpreters():
    """A fork shares the server's pipes: were it to use them, the test process and the fork
    could each read the other's reply."""
    import multiprocessing

    warm_python.run(PROBE, cwd=warm_python.REPO, capture_output=True)  # the server is up
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_run_probe_from_a_fork, args=(queue,))
    child.start()
    parent_of_probe, fork_pid, returncode = queue.get(timeout=120)
    child.join(timeout=60)
    assert child.exitcode == 0 and returncode == 2
    assert parent_of_probe == fork_pid  # a new interpreter, started by the fork itself
    seen, done = _probe()
    assert done.returncode == 0 and seen["parent"] == warm_python._SERVER.process.pid


def test_what_an_import_prints_in_the_server_never_reads_as_a_reply(monkeypatch):
    """With ``CI`` set (as on CI machines) pyfluidsynth prints where it found its library when
    imported, and the server imports it (through pretty_midi) before its first reply. That line
    once reached the caller as the first reply, and every later command took the reply of the
    one before."""
    ci = {**os.environ, "CI": "1"}
    printed = warm_python._REAL_RUN([sys.executable, "-c", "import fluidsynth"], env=ci,
                                    capture_output=True, text=True, timeout=120)
    assert "fluidsynth" in printed.stdout  # the trigger is real: the import prints
    server = warm_python._Server()
    server.environment = ci
    monkeypatch.setattr(warm_python, "_SERVER", server)
    try:
        for code in (3, 0, 6):
            seen, done = _probe(env={**ci, "WARM_PROBE_EXIT": str(code)})
            assert done.returncode == code and seen["parent"] == server.process.pid
            assert done.stdout.count("\n") == 1  # the probe's own line and nothing else
    finally:
        server.stop()


def test_the_documented_command_collector_prints_only_its_results_with_ci_set():
    """``tests_solvers/docs_collect.py`` shares the server's imports: with ``CI`` set the same
    import-time line came before its JSON and the documented-commands test could not read it."""
    done = warm_python._REAL_RUN(
        [sys.executable, "-m", "tests_solvers.docs_collect"], cwd=warm_python.REPO,
        input=json.dumps([{"args": ["--version"], "env": {}}]), capture_output=True, text=True,
        env={**os.environ, "CI": "1"}, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    (outcome,) = json.loads(done.stdout)
    assert outcome["returncode"] == 0 and "pytest" in outcome["output"]
    assert "fluidsynth" in done.stderr  # the import's line went to stderr
