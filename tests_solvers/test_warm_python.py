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
