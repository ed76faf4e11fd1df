"""A run's records survive a torn write, one run at a time writes a run directory, and a run
that breaks after its trials says so with its own exit status (issue 27, defects 2, 8, 11, 15).
"""

from __future__ import annotations

import dataclasses
import json
import os
import resource
import signal
import subprocess
import time
from pathlib import Path

import pytest

from reports.__main__ import main as reports_main
from reports.gate.exit_status import FINISHED_BROKEN
from reports.run.record_file import TORN_FILE, lock_run_dir
from tests_solvers import CORE_BENCH, PYTEST, sigint_as_on_a_terminal
from tests_solvers.fakes.openai_server import FakeOpenAIServer

REPO = Path(__file__).resolve().parent.parent
CHANCE = ["--model", "chance", "--modality", "midi", "-m", "chord and zero and standalone"]


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    return subprocess.run([*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", *args],
                          cwd=REPO, capture_output=True, text=True, timeout=600,
                          env=environment | (env or {}))


def test_defect2_a_torn_last_record_is_set_aside_and_its_trial_runs_again(tmp_path):
    run_dir = tmp_path / "run"
    # stops at the first wrong answer (no report: the resume's summary is the one read)
    stopped = run(*CHANCE, "-x", "--run-dir", str(run_dir), "--no-report")
    assert stopped.returncode == 1, stopped.stdout[-2000:]
    records = run_dir / "trials.jsonl"
    lines = records.read_text().splitlines(keepends=True)
    torn_id = json.loads(lines[-1])["test_id"]
    fragment = lines[-1][:len(lines[-1]) // 2]  # disk full halfway through the last write
    records.write_text("".join(lines[:-1]) + fragment)

    resumed = run(*CHANCE, "--resume", str(run_dir))
    assert resumed.returncode == 1, resumed.stdout[-3000:] + resumed.stderr[-3000:]
    assert "torn record" in resumed.stderr and TORN_FILE in resumed.stderr
    assert (run_dir / TORN_FILE).read_text() == fragment + "\n", "nothing silently lost"
    test_ids = [json.loads(line)["test_id"] for line in records.read_text().splitlines()]
    assert len(test_ids) == len(set(test_ids)) == 44
    assert torn_id in test_ids, "the torn trial ran again"
    assert json.loads((run_dir / "summary.json").read_text())["complete"] is True


def test_defect2_reports_build_leaves_out_a_torn_last_line_but_not_a_bad_middle_one(
        tmp_path, capsys):
    run_dir = tmp_path / "run"
    assert run(*CHANCE, "--run-dir", str(run_dir), "--no-report").returncode == 1
    records = run_dir / "trials.jsonl"
    lines = records.read_text().splitlines(keepends=True)
    records.write_text("".join(lines) + lines[0][:40])  # a torn 45th line
    assert reports_main(["build", str(run_dir), "--out", str(tmp_path / "merged")]) == 0
    err = capsys.readouterr().err
    assert f"{records}:45: a torn last record" in err and "WARNING" in err
    assert len((tmp_path / "merged" / "trials.jsonl").read_text().splitlines()) == 44

    records.write_text("".join(lines[:3]) + lines[3][:40] + "\n" + "".join(lines[4:]))
    assert reports_main(["build", str(run_dir), "--out", str(tmp_path / "again")]) == 4
    assert f"{records}:4: not valid JSON" in capsys.readouterr().err


def test_defect8_a_second_run_into_a_busy_run_dir_is_refused(tmp_path):
    run_dir = tmp_path / "run"
    with FakeOpenAIServer() as server:
        # the first run holds its first request until the second has been refused
        server.script = lambda request: dataclasses.replace(server.default, delay_s=60.0)
        common = ["--model", "openai:qwen2-audio-7b", "--base-url", server.base_url,
                  "--cache-path", str(tmp_path / "responses.sqlite"),
                  "-m", "chord and midi and zero and standalone", "--run-dir", str(run_dir)]
        env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
        first = subprocess.Popen(
            [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", *common], cwd=REPO,
            env=env | {"OPENAI_API_KEY": "sk-test-lock"}, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 300
            while server.count == 0 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert server.count, "the first run never asked"
            second = run(*common, env={"OPENAI_API_KEY": "sk-test-lock"})
        finally:
            first.kill()
            first.wait()
    assert second.returncode == 4, second.stdout[-2000:] + second.stderr[-2000:]
    assert "--run-dir: " in second.stderr and "in use by another eartest run" in second.stderr
    assert "Traceback" not in second.stdout + second.stderr
    assert not (run_dir / "trials.jsonl").exists()


def test_defect8_a_resume_waits_for_no_one_but_is_refused_while_the_run_lives(tmp_path):
    run_dir = tmp_path / "run"
    # interrupted; only the records are read, here and after the resume
    assert run(*CHANCE, "-x", "--run-dir", str(run_dir), "--no-report").returncode == 1
    handle = lock_run_dir(run_dir)  # as the interrupted run would, were it still running
    refused = run(*CHANCE, "--resume", str(run_dir))
    assert refused.returncode == 4, refused.stdout[-2000:] + refused.stderr[-2000:]
    assert "--resume: " in refused.stderr and "in use by another eartest run" in refused.stderr
    os.close(handle)  # the holder ended: its lock is gone with it
    resumed = run(*CHANCE, "--resume", str(run_dir), "--no-report")
    assert resumed.returncode == 1, resumed.stdout[-2000:] + resumed.stderr[-2000:]
    assert len((run_dir / "trials.jsonl").read_text().splitlines()) == 44


def test_defect11_a_crash_after_the_trials_is_one_message_and_the_broken_status(tmp_path):
    run_dir = tmp_path / "run"
    (run_dir / "summary.json").mkdir(parents=True)  # the report cannot be written
    broken = run("--model", "oracle", "-m", "chord and midi and zero and standalone",
                 "--run-dir", str(run_dir))
    assert broken.returncode == FINISHED_BROKEN, broken.stdout[-3000:] + broken.stderr[-3000:]
    assert "Traceback" not in broken.stdout + broken.stderr
    assert "BROKEN run: the trials ran" in broken.stdout
    assert len((run_dir / "trials.jsonl").read_text().splitlines()) == 44


def test_defect15_resuming_a_fully_recorded_run_is_not_an_empty_session(tmp_path):
    run_dir = tmp_path / "run"
    oracle = ["--model", "oracle", "-m", "chord and midi and zero and standalone"]
    assert run(*oracle, "--run-dir", str(run_dir), "--no-report").returncode == 0
    (run_dir / "summary.json").unlink(missing_ok=True)  # killed while writing the report
    resumed = run(*oracle, "--resume", str(run_dir))
    assert resumed.returncode == 0, resumed.stdout[-3000:] + resumed.stderr[-3000:]
    assert "all 44 trials were already recorded" in resumed.stdout
    assert "new requests (" not in resumed.stdout, "an offline model asks no server"
    assert json.loads((run_dir / "summary.json").read_text())["complete"] is True


def test_defect21_sigterm_leaves_no_private_cache_of_cache_off(tmp_path):
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    env |= {"OPENAI_API_KEY": "sk-test-sigterm", "TMPDIR": str(temp)}
    with FakeOpenAIServer() as server:
        server.script = lambda request: (None if server.count <= 3 else
                                         dataclasses.replace(server.default, delay_s=60.0))
        victim = subprocess.Popen(
            [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", "--model",
             "openai:qwen2-audio-7b", "--base-url", server.base_url, "--cache", "off",
             "-m", "chord and midi and zero and standalone", "--concurrency", "4", "--run-dir",
             str(tmp_path / "run")],
            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 300
        # SIGTERM once the server holds every request slot (--concurrency 4): the prefetch
        # has requests pending, every time, not only when the timing happens to fall so.
        while (server.count <= 3 or server.in_flight < 4) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.in_flight == 4, "the server holds the prefetch's requests"
        assert list(temp.glob("eartest-cache-off-*")), "the run made its private cache"
        victim.terminate()
        output = victim.communicate(timeout=120)[0]
    assert victim.returncode == 2, output[-3000:]
    assert not list(temp.glob("eartest-cache-off-*")), "the run's replies were left behind"
    for noise in ("Traceback", "Task was destroyed", "never retrieved", "Exception ignored"):
        assert noise not in output, output[-3000:]


@pytest.mark.parametrize(("status", "finished"), [(0, True), (1, True), (2, False), (4, False),
                                                  (FINISHED_BROKEN, False)])
def test_make_bench_calls_only_a_result_a_finish(tmp_path, status, finished):
    """The Makefile's bench target, its pytest replaced by a stand-in exiting with ``status``
    (``-o setup``: no set-up is run)."""
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    (fake_bin / "python").write_text(f"#!/bin/sh\nexit {status}\n")
    (fake_bin / "python").chmod(0o755)
    done = subprocess.run(["make", "-s", "-o", "setup", "bench", f"BIN={fake_bin}"], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode == 0) is finished, done.stdout + done.stderr
    if status == FINISHED_BROKEN:
        assert "BROKEN" in done.stdout


def _file_size_limit(limit_bytes: int):
    """For a subprocess: files may grow to ``limit_bytes``, then writes fail as on a full
    disk (EFBIG, its signal ignored)."""
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    return apply


def test_defect2_and_11_a_full_disk_mid_run_stops_it_broken_and_resumable(tmp_path):
    run_dir = tmp_path / "run"
    oracle = ["--model", "oracle", "-m", "chord and midi and zero and standalone"]
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    full = subprocess.run(
        [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", *oracle, "--run-dir",
         str(run_dir)], cwd=REPO, capture_output=True, text=True, timeout=600, env=env,
        preexec_fn=_file_size_limit(20_000))
    shown = full.stdout + full.stderr
    assert full.returncode == FINISHED_BROKEN, shown[-3000:]
    assert "Traceback" not in shown and "INTERNALERROR" not in shown
    assert "BROKEN run" in full.stdout and "cannot write trial records" in shown
    lines = (run_dir / "trials.jsonl").read_bytes().splitlines(keepends=True)
    assert 0 < len(lines) < 44 and all(line.endswith(b"\n") for line in lines)
    assert all(json.loads(line) for line in lines), "no half record left behind"
    resumed = run(*oracle, "--resume", str(run_dir), "--no-report")
    assert resumed.returncode == 0, resumed.stdout[-3000:] + resumed.stderr[-3000:]
    assert len((run_dir / "trials.jsonl").read_text().splitlines()) == 44


def test_defect15_the_request_count_printed_is_what_the_server_received(tmp_path):
    """LogicLM repairs whose request equals an earlier one are read from the cache: the server
    gets each once, and the account must say so (it said 132 for 88 sent)."""
    with FakeOpenAIServer() as server:
        done = run("--model", "openai:gpt-4o-audio-preview", "--base-url", server.base_url,
                   "--cache-path", str(tmp_path / "responses.sqlite"),
                   "-m", "chord and midi and zero and logiclm", "--run-dir",
                   str(tmp_path / "run"), "--no-report", env={"OPENAI_API_KEY": "sk-test"})
        sent = server.count
    assert done.returncode in (0, 1), done.stdout[-3000:] + done.stderr[-3000:]
    records = [json.loads(line) for line in (tmp_path / "run" / "trials.jsonl").open()]
    assert sum(len(r["turns"]) for r in records) > sent, "no repeated repair: nothing tested"
    assert sum(r["new_requests"] for r in records) == sent
    assert f"openai:gpt-4o-audio-preview: {sent} new requests" in done.stdout


def test_defect22_an_interrupted_bench_run_prints_no_snapshot_summary(tmp_path):
    run_dir = tmp_path / "run"
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    victim = subprocess.Popen(
        [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", "--model", "oracle", "-n", "2",
         "--run-dir", str(run_dir)], cwd=REPO, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
        preexec_fn=sigint_as_on_a_terminal)
    deadline = time.monotonic() + 400
    records = run_dir / "trials.jsonl"
    while time.monotonic() < deadline and victim.poll() is None and (
            not records.exists() or len(records.read_text().splitlines()) < 10):
        time.sleep(0.1)
    victim.send_signal(signal.SIGINT)
    output = victim.communicate(timeout=300)[0]
    assert victim.returncode == 2, output[-3000:]
    assert "INCOMPLETE run" in output
    assert "snapshot" not in output.lower(), output[-3000:]
