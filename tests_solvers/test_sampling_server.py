"""Issue 17 end to end: ``--samples K`` against the fake OpenAI-compatible server, and chance.

The server plays a model that is right with probability ``P`` per sample, drawing from the
seed each request carries (so the same request always gets the same answer, and samples of a
trial differ only by their seed). The benchmark runs in a subprocess: K requests per trial,
none on a re-run, only the new samples when K grows, and the report's mean accuracy, majority
accuracy and agreement within their intervals of the analytic values.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
from pathlib import Path

from fixtures.tasks.catalog import items_for
from reports.builders.compare import compare_runs
from solvers.sampling import binary_agreement, binary_majority_accuracy
from tests_solvers import CORE_BENCH, PYTEST, trial_row
from tests_solvers.fakes.openai_server import FakeOpenAIServer, text

REPO = Path(__file__).resolve().parent.parent
SLICE = ["-m", "chord and midi and zero and standalone"]  # 44 trials
TRIALS = 44
P = 0.7
TRUTH = {name: item.answer for item in items_for("chord", "test")
         for name in item.stimulus_names()}


def _model(request) -> object:
    """Right with probability P per request (drawn from its seed and stimulus), else one
    fixed wrong letter."""
    stimulus = re.search(r"Stimulus: (\w+)\.mid", json.dumps(request.body)).group(1)
    truth = TRUTH[stimulus]
    draw = hashlib.sha256(f"{request.body['seed']}/{stimulus}".encode()).digest()
    right = int.from_bytes(draw[:8], "big") / 2 ** 64 < P
    wrong = next(letter for letter in "ABCD" if letter != truth)
    return text(f"Final Answer: {truth if right else wrong}")


def run(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    env["OPENAI_API_KEY"] = "sk-test-sampling"
    cmd = [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", "-n", "0", *args]
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600, env=env)


def test_k_samples_are_k_requests_cached_per_sample_and_reported_within_intervals(tmp_path):
    cache = tmp_path / "responses.sqlite"
    with FakeOpenAIServer(script=_model) as server:
        common = ["--model", "openai:sampled-7b", "--base-url", server.base_url,
                  "--cache-path", str(cache), "--temperature", "1.0", "--top-p", "0.9", *SLICE]
        baseline = tmp_path / "baseline.json"
        first = run(*common, "--samples", "3", "--run-dir", str(tmp_path / "k3"),
                    "--baseline-save", str(baseline))
        assert first.returncode in (0, 1), first.stdout[-3000:] + first.stderr[-3000:]
        assert server.count == 3 * TRIALS
        bodies = [r.body for r in server.requests]
        assert {(b["temperature"], b["top_p"]) for b in bodies} == {(1.0, 0.9)}
        assert len({b["seed"] for b in bodies}) == 2 * TRIALS + 1  # sample 0 sends --seed 0
        again = run(*common, "--samples", "3", "--run-dir", str(tmp_path / "again"),
                    "--baseline", str(baseline), "--gate", "0.01", "--no-report")
        assert server.count == 3 * TRIALS  # a re-run sends nothing
        # same answers: majority-wrong trials xfail, the paired gate sees no drop
        assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
        # its records are all that is read (reports compare reads trials.jsonl)
        more = run(*common, "--samples", "5", "--run-dir", str(tmp_path / "k5"), "--no-report")
        assert more.returncode in (0, 1) and server.count == 5 * TRIALS  # 2 new per trial
    rows = [trial_row(line) for line in (tmp_path / "k5" / "trials.jsonl").read_text().splitlines()]
    assert all(r["samples"]["k"] == 5 and r["new_requests"] == 2 for r in rows)
    assert all([t["cached"] for t in r["turns"]] == [True] * 3 + [False] * 2 for r in rows)
    cells = json.loads((tmp_path / "k3" / "summary.json").read_text())["cells"]
    (cell,) = [c for c in cells if c["task"] == "chord"]
    assert cell["samples_k"] == 3 and cell["n"] == TRIALS
    assert cell["mean_ci_low"] <= P <= cell["mean_ci_high"]
    assert cell["ci_low"] <= binary_majority_accuracy(P, 3) <= cell["ci_high"]
    assert cell["agreement_ci_low"] <= binary_agreement(P, 3) <= cell["agreement_ci_high"]
    assert "mean" in first.stdout and "agree" in first.stdout  # the terminal summary
    assert f"{TRIALS} trials x 3 samples" in first.stdout  # the up-front estimate counts them
    stored = json.loads(baseline.read_text())["models"]["openai:sampled-7b"]
    assert len(stored["samples"]) == TRIALS
    assert all(len(flags) == 3 for flags in stored["samples"].values())
    compared = compare_runs(tmp_path / "k3", tmp_path / "k5")
    assert "Mean accuracy over samples, paired by item" in compared


def test_chance_at_k3_asks_three_requests_a_trial_and_lands_on_its_analytic_values(tmp_path):
    from solvers.sampling import uniform_agreement, uniform_majority_accuracy

    options = {"chord": 4, "transposition": 2, "syncopation": 5}
    done = run("--model", "chance", "-m", "midi and zero", "--samples", "3",
               "--run-dir", str(tmp_path / "chance"))
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-3000:]
    summary = json.loads((tmp_path / "chance" / "summary.json").read_text())
    assert summary["usage"]["chance"]["trials"] == 252
    assert summary["usage"]["chance"]["new_requests"] == 3 * 252
    covered = []
    for cell in summary["cells"]:  # 9 cells: three 95 % intervals each
        m = options[cell["task"]]
        assert cell["samples_k"] == 3
        covered += [cell["mean_ci_low"] <= 1 / m <= cell["mean_ci_high"],
                    cell["ci_low"] <= uniform_majority_accuracy(m) <= cell["ci_high"],
                    cell["agreement_ci_low"] <= uniform_agreement(m, 3)
                    <= cell["agreement_ci_high"]]
    assert len(covered) == 27
    assert sum(covered) >= 23  # 22 or fewer of 27 at 95 % coverage: probability about 1 %
