"""``--shard K/N``, the shard-set check of ``reports build``, cache merging and the SLURM
recipe run locally (issue 20)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fixtures.backends.base import Response
from fixtures.plugins.shard import expected_cost
from fixtures.sending.response_cache import CacheError, ResponseCache
from reports.run.shards import shard_set_problem
from solvers.sharding import assign_shards, parse_shard, shard_costs
from tests_solvers import CORE_BENCH, PYTEST
from tests_solvers.fakes.openai_server import FakeOpenAIServer

REPO = Path(__file__).resolve().parent.parent
SLURM = REPO / "scripts" / "slurm"
SLICE = ["-k", "chord", "--shot", "zero", "--strategy", "standalone"]  # 3 modalities × 44
TABLES = ("table1.md", "table1.csv", "transcription_f1.csv")

trial_lists = st.lists(
    st.tuples(st.text(min_size=1, max_size=12), st.sampled_from([1.0, 1.5, 2.0, 4.0, 8.0])),
    max_size=60, unique_by=lambda pair: pair[0])


@given(trial_lists, st.integers(1, 7), st.randoms(use_true_random=False))
def test_every_trial_lands_in_one_shard_whatever_the_input_order(trials, count, rng):
    assigned = assign_shards(trials, count)
    assert all(0 <= shard < count for shard in assigned)
    shuffled = list(trials)
    rng.shuffle(shuffled)
    again = dict(zip((t for t, _ in shuffled), assign_shards(shuffled, count), strict=True))
    assert again == dict(zip((t for t, _ in trials), assigned, strict=True))


@given(trial_lists, st.integers(1, 7))
def test_shard_costs_differ_by_at_most_the_largest_single_cost(trials, count):
    totals = shard_costs(trials, assign_shards(trials, count), count)
    largest = max((cost for _, cost in trials), default=0.0)
    assert max(totals) - min(totals) <= largest + 1e-9


@pytest.mark.parametrize("text", ["", "3", "0/3", "4/3", "1/0", "a/b", "-1/3", "1/3/5"])
def test_a_malformed_shard_is_refused(text):
    with pytest.raises(ValueError, match="--shard"):
        parse_shard(text)


def test_assignment_refuses_duplicate_ids_and_free_trials():
    with pytest.raises(ValueError, match="'a' occurs twice"):
        assign_shards([("a", 1.0), ("a", 2.0)], 2)
    with pytest.raises(ValueError, match="positive"):
        assign_shards([("a", 0.0)], 2)


def test_audio_costs_more_than_midi_and_logiclm_more_than_standalone():
    class Axes:
        def __init__(self, modality, strategy="standalone", shot="zero"):
            self.modality, self.strategy, self.shot = modality, strategy, shot

    assert expected_cost(Axes("midi")) == 1.0
    assert expected_cost(Axes("audio")) > expected_cost(Axes("score")) > 1.0
    assert expected_cost(Axes("midi", "logiclm")) > expected_cost(Axes("midi", "cot")) > 1.0
    assert expected_cost(Axes("midi", shot="few")) > 1.0
    assert expected_cost(Axes("audio-without-IR")) == expected_cost(Axes("audio"))  # MCQ ablation


def header(index: int, count: int, selection: str = "s1") -> dict:
    return {"shard": {"index": index, "count": count, "selection": selection}}


def test_shard_set_check_names_missing_and_doubled_shards():
    dirs = [Path(f"run{i}") for i in range(4)]
    whole = [header(1, 3), header(2, 3), header(3, 3), {"run_id": "unsharded"}]
    assert shard_set_problem(whole, dirs) is None
    missing = shard_set_problem([header(1, 3), header(3, 3)], dirs[:2])
    assert missing and "shard 2/3 of selection s1 is missing" in missing
    doubled = shard_set_problem([header(1, 2), header(1, 2), header(2, 2)], dirs[:3])
    assert doubled and "shard 1/2 of selection s1 is given 2 times: run0, run1" in doubled
    two_splits = [header(1, 2, "a"), header(2, 2, "a"), header(1, 2, "b")]
    assert "shard 2/2 of selection b is missing" in shard_set_problem(two_splits, dirs[:3])
    dead = [header(1, 2), {"run_id": "run1", "note": "no summary.json"}]
    assert "without a summary.json: run1" in shard_set_problem(dead, dirs[:2])


def response(text: str) -> Response:
    return Response(text=text, input_tokens=3, output_tokens=2)


def test_merging_caches_adds_what_is_missing_and_keeps_what_is_held(tmp_path):
    with ResponseCache(tmp_path / "a.sqlite") as a, ResponseCache(tmp_path / "b.sqlite") as b:
        a.put("k1", response("A says 1"), "openai", "m")
        b.put("k1", response("B says 1"), "openai", "m")
        b.put("k2", response("B says 2"), "openai", "m")
    with ResponseCache(tmp_path / "a.sqlite") as a:
        assert a.merge_from(tmp_path / "b.sqlite") == (1, 1)
        assert a.get("k1").text == "A says 1" and a.get("k2").text == "B says 2"
        assert a.merge_from(tmp_path / "b.sqlite") == (0, 2)
    foreign = tmp_path / "foreign.sqlite"
    sqlite3.connect(foreign).execute("CREATE TABLE t (x)").connection.close()
    with ResponseCache(tmp_path / "a.sqlite") as a:
        with pytest.raises(CacheError, match="not an eartest"):
            a.merge_from(foreign)


def test_cache_merge_command_reports_counts_and_refuses_bad_input(tmp_path):
    with ResponseCache(tmp_path / "shard.sqlite") as shard:
        shard.put("k", response("x"), "openai", "m")
    command = [PYTEST[0], "-m", "fixtures", "cache-merge", "--into", str(tmp_path / "all.sqlite")]
    done = subprocess.run([*command, str(tmp_path / "shard.sqlite")], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "1 responses added, 0 already held" in done.stdout
    bad = subprocess.run([*command, str(tmp_path / "nothing.sqlite")], cwd=REPO,
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 4
    assert bad.stderr.strip().splitlines() == [
        f"python -m fixtures cache-merge: no response cache at {tmp_path / 'nothing.sqlite'}"]


def pytest_run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """A bench run that finished (status 1: some answers were wrong, as a model's are)."""
    done = subprocess.run([*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", *args],
                          cwd=REPO, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode in (0, 1), done.stdout[-2000:] + done.stderr[-2000:]
    return done


def recorded_ids(run_dir: Path) -> list[str]:
    lines = (run_dir / "trials.jsonl").read_text().splitlines()
    return [json.loads(line)["test_id"] for line in lines if line.strip()]


def test_oracle_shards_merge_into_the_unsharded_tables(tmp_path):
    # two models and LogicLM: both tables (accuracy and transcription F1), the summary cells
    # and reports compare agree with the unsharded run
    common = ["--model", "oracle,chance", "-k", "chord", "--shot", "zero", "--strategy",
              "logiclm", "--tb=no"]  # 176 trials
    pytest_run(*common, "--run-dir", str(tmp_path / "whole"))
    for k in (1, 2, 3):
        extra = ["-n", "2"] if k == 2 else []  # under xdist the workers agree on the split
        pytest_run(*common, "--shard", f"{k}/3", "--run-dir", str(tmp_path / f"s{k}"), *extra)
    shards = [recorded_ids(tmp_path / f"s{k}") for k in (1, 2, 3)]
    every = [tid for ids in shards for tid in ids]
    assert len(every) == len(set(every))
    assert sorted(every) == sorted(recorded_ids(tmp_path / "whole"))
    headers = [json.loads((tmp_path / f"s{k}" / "summary.json").read_text())["header"]["shard"]
               for k in (1, 2, 3)]
    assert {h["selection"] for h in headers} == {headers[0]["selection"]}
    costs = headers[0]["costs"]
    assert max(costs) - min(costs) <= 0.10 * max(costs)
    merge = [PYTEST[0], "-m", "reports", "build"]
    built = subprocess.run([*merge, *(str(tmp_path / f"s{k}") for k in (1, 2, 3)),
                            "--out", str(tmp_path / "merged")], cwd=REPO, capture_output=True,
                           text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    for name in TABLES:
        assert (tmp_path / "merged" / name).read_text() == (tmp_path / "whole" / name).read_text()
    cells = [json.loads((tmp_path / d / "summary.json").read_text())["cells"]
             for d in ("whole", "merged")]
    assert cells[0] == cells[1]
    compared = subprocess.run([PYTEST[0], "-m", "reports", "compare", str(tmp_path / "whole"),
                               str(tmp_path / "merged")], cwd=REPO, capture_output=True,
                              text=True, timeout=300)
    rows = [line for line in compared.stdout.splitlines() if line.startswith("oracle ")]
    assert compared.returncode == 0 and len(rows) == 2 + 1  # a cell per modality, a total
    assert all(" +0.0 " in row and "*" not in row for row in rows)
    short = subprocess.run([*merge, str(tmp_path / "s1"), str(tmp_path / "s3"), "--out",
                            str(tmp_path / "short")], cwd=REPO, capture_output=True, text=True,
                           timeout=300)
    assert short.returncode == 4 and "shard 2/3" in short.stderr and "is missing" in short.stderr
    assert not (tmp_path / "short").exists()

    # a shard killed half-way and resumed keeps its part: --resume deselects after the split
    records = tmp_path / "s3" / "trials.jsonl"
    lines = records.read_text().splitlines()
    records.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    (tmp_path / "s3" / "summary.json").unlink()  # before the summary was written
    pytest_run(*common, "--shard", "3/3", "--resume", str(tmp_path / "s3"), "--no-report")
    assert sorted(recorded_ids(tmp_path / "s3")) == sorted(shards[2])


def slurm_env(tmp_path: Path, run: str, base_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    return env | {
        "EARTEST_RUN": run, "EARTEST_SHARED": str(tmp_path / "shared"),
        "EARTEST_LOCAL": str(tmp_path / "node"), "EARTEST_REPO": str(REPO),
        "EARTEST_PYTHON": PYTEST[0], "EARTEST_MODEL": "openai:qwen2-audio-7b",
        "EARTEST_ARGS": " ".join(["--base-url", base_url, "-p", "no:hypothesispytest", *SLICE,
                                  "--modality", "midi"]),  # the oracle test covers the rest
        "OPENAI_API_KEY": "sk-test-slurm", "SLURM_ARRAY_TASK_COUNT": "3",
    }


def slurm_job(env: dict[str, str], script: str, **extra: str) -> None:
    """One of the recipe's scripts run as SLURM would run it, with ``extra`` in its env."""
    done = subprocess.run(["bash", str(SLURM / script)], cwd=REPO, capture_output=True,
                          text=True, timeout=600, env=env | extra)
    assert done.returncode == 0, f"{script}: {done.stdout[-1500:]}{done.stderr[-1500:]}"


def run_array(env: dict[str, str]) -> None:
    """The whole recipe as SLURM would run it: render, the array's K = 1..3, merge."""
    slurm_job(env, "prerender.sbatch")
    for k in (1, 2, 3):
        slurm_job(env, "shards.sbatch", SLURM_ARRAY_TASK_ID=str(k), SLURM_JOB_ID="4242")
    slurm_job(env, "merge.sbatch")


def test_slurm_array_run_locally_equals_an_unsharded_run_and_repeats_for_free(tmp_path):
    with FakeOpenAIServer() as server:
        env = slurm_env(tmp_path, "first", server.base_url)
        run_array(env)
        asked = server.count
        merged = tmp_path / "shared" / "runs" / "first" / "merged"
        pytest_run("--model", "openai:qwen2-audio-7b", "--base-url", server.base_url, *SLICE,
                   "--modality", "midi",
                   "--cache-path", str(tmp_path / "alone.sqlite"),
                   "--run-dir", str(tmp_path / "whole"), env=env)
        assert server.count == 2 * asked  # the unsharded run asked each request once too
        for name in TABLES:
            assert (merged / name).read_text() == (tmp_path / "whole" / name).read_text()
        assert sorted(recorded_ids(merged)) == sorted(recorded_ids(tmp_path / "whole"))
        with ResponseCache(tmp_path / "shared" / "cache" / "responses.sqlite") as shared:
            assert shared.count() == asked
        # a shard of a second run starts from the merged shared cache: it asks nothing
        slurm_job(env | {"EARTEST_RUN": "second"}, "shards.sbatch", SLURM_ARRAY_TASK_ID="2",
                  SLURM_JOB_ID="4243")
        assert server.count == 2 * asked
        assert recorded_ids(tmp_path / "shared" / "runs" / "second" / "shard-2-of-3")
    assert not (tmp_path / "node").exists() or not any((tmp_path / "node").iterdir())
