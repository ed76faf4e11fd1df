"""``--adaptive d2`` through pytest (issue 19): staircase slots are ordinary recorded trials.

The bench runs in subprocesses on a few slots of D2's staircases: against a scripted model
whose probability of a right answer follows a known psychometric function of the pitch step
(``fixtures/backends/scripted.py``), and against the fake OpenAI-compatible server (always
"first"), which counts the requests that reach it.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from fixtures.pitch.adaptive import PLANS
from solvers.staircase import next_level
from tests_solvers import PYTEST, trial_row
from tests_solvers.fakes.openai_server import FakeOpenAIServer, text

REPO = Path(__file__).resolve().parent.parent
D2 = "bench/test_pitch/test_d_sequential.py::test_d2"
SLOTS = 6
SCRIPT = {"base": "oracle", "psychometric": {"trials": "pitch/d2/*", "param": "delta_cents",
                                             "threshold": 40, "slope": 4, "guess": 0.5,
                                             "lapse": 0.02, "seed": 3}}


def run(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    env["OPENAI_API_KEY"] = "sk-test-adaptive"
    cmd = [*PYTEST, D2, "-q", "-p", "no:cacheprovider", "--no-report", "--adaptive", "d2",
           "--adaptive-trials", str(SLOTS), *args]
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600, env=env)


def staircases(run_dir: Path) -> dict[str, list[tuple[str, float, bool]]]:
    """(test id, level, right) of each slot, per condition, in slot order."""
    rows = [trial_row(line) for line in (run_dir / "trials.jsonl").read_text().splitlines()]
    by_gap: dict[str, list] = {}
    for row in sorted(rows, key=lambda r: (r["params"]["gap_ms"], r["params"]["slot"])):
        by_gap.setdefault(row["params"]["gap_ms"], []).append(
            (row["test_id"], row["params"]["delta_cents"], bool(row["correct"])))
    return by_gap


def follows_the_staircase(steps: list[tuple[str, float, bool]]) -> bool:
    answers = [right for _, _, right in steps]
    expected = [float(f"{next_level(PLANS['d2'].staircase, answers[:n]):.3g}")
                for n in range(len(steps))]
    return [level for _, level, _ in steps] == expected


def test_slots_follow_the_staircase_and_a_resumed_run_continues_it(tmp_path):
    script = tmp_path / "observer.json"
    script.write_text(json.dumps(SCRIPT))
    model = f"scripted:{script}"
    common = ["--model", model, "-k", "g500 or g2000"]
    full = run(*common, "--run-dir", str(tmp_path / "full"))
    assert full.returncode in (0, 1), full.stdout[-3000:] + full.stderr[-3000:]
    found = staircases(tmp_path / "full")
    assert list(found) == [500, 2000]
    for gap, steps in found.items():
        assert [test_id for test_id, _, _ in steps] == [
            f"{model}-audio-plain-d2-adaptive-g{gap}-t{n:02d}" for n in range(SLOTS)]
        assert follows_the_staircase(steps), steps
    answers = [right for steps in found.values() for _, _, right in steps]
    assert any(answers) and not all(answers), "the observer should get some wrong"

    partial = run(*common, "-x", "--run-dir", str(tmp_path / "part"))  # stops at a wrong answer
    assert partial.returncode == 1
    recorded = (tmp_path / "part" / "trials.jsonl").read_text().splitlines()
    assert 0 < len(recorded) < 2 * SLOTS
    resumed = run(*common, "--resume", str(tmp_path / "part"))
    assert resumed.returncode in (0, 1), resumed.stdout[-3000:] + resumed.stderr[-3000:]
    assert staircases(tmp_path / "part") == found  # same levels, same answers, slot by slot


def test_slots_are_asked_once_each_and_a_rerun_sends_no_request(tmp_path):
    with FakeOpenAIServer(default=text("Final Answer: first")) as server:
        common = ["--model", "openai:qwen2-audio-7b", "--base-url", server.base_url,
                  "--cache-path", str(tmp_path / "responses.sqlite"), "-k", "g500 or g1000"]
        first = run(*common, "--run-dir", str(tmp_path / "a"))
        asked = server.count
        # the rerun on two workers: each staircase on one of them (--dist loadgroup), in order
        again = run(*common, "-n", "2", "--dist", "loadgroup", "--run-dir", str(tmp_path / "b"))
        asked_again = server.count - asked
        refused = run(*common, "-n", "2", "--run-dir", str(tmp_path / "c"))
    assert first.returncode in (0, 1), first.stdout[-3000:] + first.stderr[-3000:]
    assert asked == 2 * SLOTS, "the prefetch must not ask slots ahead, nor twice"
    found = staircases(tmp_path / "a")
    assert all(follows_the_staircase(steps) for steps in found.values())
    assert again.returncode == first.returncode, again.stdout[-3000:] + again.stderr[-3000:]
    assert asked_again == 0
    assert staircases(tmp_path / "b") == found
    assert refused.returncode == 4 and "--dist loadgroup" in refused.stderr
    assert "Traceback" not in refused.stdout + refused.stderr


def test_an_unknown_experiment_is_one_clear_error():
    result = run("--model", "chance", "--adaptive", "zz")
    assert result.returncode == 4
    assert "--adaptive: unknown or non-adaptive experiment(s) zz; valid: d2" in result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_each_staircase_is_one_unit_of_scheduling_under_loadgroup():
    """xdist's loadgroup reads an ``@group`` suffix that pytest 9 never shows it; eartest's
    scheduler (fixtures/plugins/staircase_schedule.py) groups a staircase's slots by their ids."""
    from fixtures.plugins.staircase_schedule import staircase_scope

    listed = run("--model", "chance", "--collect-only")
    ids = [line for line in listed.stdout.splitlines() if "::" in line]
    assert len(ids) == SLOTS * len(PLANS["d2"].conditions), listed.stdout[-2000:]
    scopes: dict[str, list[str]] = {}
    for nodeid in ids:
        scopes.setdefault(staircase_scope(nodeid), []).append(nodeid)
    assert len(scopes) == len(PLANS["d2"].conditions)
    for members in scopes.values():
        assert [m.rsplit("-t", 1)[1] for m in members] == [f"{n:02d}]" for n in range(SLOTS)]
    assert staircase_scope("bench/x.py::test_y[a-b]@grp") == "grp"
    assert staircase_scope("bench/x.py::test_y[a@b]") == "bench/x.py::test_y[a@b]"


def test_two_workers_ask_each_slot_once(tmp_path):
    """Under ``-n 2 --dist loadgroup`` no worker re-asks another's earlier slots."""
    with FakeOpenAIServer(default=text("Final Answer: first")) as server:
        done = run("--model", "openai:qwen2-audio-7b", "--base-url", server.base_url,
                   "--cache-path", str(tmp_path / "responses.sqlite"), "-k", "g500 or g1000",
                   "-n", "2", "--dist", "loadgroup", "--run-dir", str(tmp_path / "a"))
        asked = server.count
    assert done.returncode in (0, 1), done.stdout[-3000:] + done.stderr[-3000:]
    assert asked == 2 * SLOTS
    assert all(follows_the_staircase(steps) for steps in staircases(tmp_path / "a").values())
