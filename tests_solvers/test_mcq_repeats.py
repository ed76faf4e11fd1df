"""MCQ repeats are separate requests (issue 15): two repeats of a question whose shuffles put
the options in the same order send the same request, and each must still be asked, not share
one cached reply. Counted by the fake OpenAI-compatible server."""

from __future__ import annotations

import os
import subprocess
from collections import Counter
from pathlib import Path

from fixtures.mcq.loading import load_dataset
from fixtures.mcq.presentation import option_order
from fixtures.mcq.synthetic import make_synthetic
from tests_solvers import PYTEST, trial_row
from tests_solvers.fakes.openai_server import FakeOpenAIServer

REPO = Path(__file__).resolve().parent.parent
REPEATS = 3


def coinciding_seed(dataset: Path) -> int:
    """The first --seed under which some question shows two repeats the same option order."""
    items = load_dataset(dataset).items
    for seed in range(200):
        for item in items:
            orders = [option_order(item, repeat, seed) for repeat in range(REPEATS)]
            if len(set(orders)) < REPEATS:
                return seed
    raise AssertionError("no seed below 200 makes two repeats coincide")


def test_two_repeats_with_the_same_option_order_are_two_requests(tmp_path):
    muchomusic, _ = make_synthetic(tmp_path / "data")
    seed = coinciding_seed(muchomusic)
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    env["OPENAI_API_KEY"] = "sk-test-mcq-repeats"
    with FakeOpenAIServer() as server:
        result = subprocess.run(
            [*PYTEST, "bench/test_mcq.py", "-q", "-p", "no:cacheprovider",
             "--no-report", "--model", "openai:qwen2-audio-7b", "--base-url", server.base_url,
             "--cache-path", str(tmp_path / "c.sqlite"), "--mcq-dataset", str(muchomusic),
             "--mcq-examples", "0", "--mcq-repeats", str(REPEATS), "--seed", str(seed),
             "--run-dir", str(tmp_path / "run")],
            cwd=REPO, capture_output=True, text=True, timeout=600, env=env)
        sent = server.count
    assert result.returncode in (0, 1), result.stdout[-3000:] + result.stderr[-3000:]
    records = [trial_row(line) for line in (tmp_path / "run" / "trials.jsonl").open()]
    requests = Counter(r["turns"][0]["request_hash"] for r in records)
    assert any(n > 1 for n in requests.values()), "no two repeats sent the same request"
    assert all(len(r["turns"]) == 1 for r in records)
    assert sent == len(records), f"{sent} requests for {len(records)} trials"
    assert not any(r["turns"][0]["cached"] for r in records)
