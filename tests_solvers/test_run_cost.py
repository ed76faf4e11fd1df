"""What each trial and each run pays (issue 33): the cuts keep behaviour and stay cut.

A record is written and read as before, only without re-resolving its schema or deep-copying
its values; prompt templates are parsed once per edit and an edit still shows at once; a
wrong answer's failure reads the same with its traceback cut to the test body first; and a
run that sends nothing imports neither the Gemini SDK nor scipy.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from types import SimpleNamespace

import pytest
from _pytest._code import ExceptionInfo

from fixtures.backends.base import GenerationSettings
from fixtures.backends.offline import OracleBackend
from fixtures.running.runner import Trial, run_trial_sync
from fixtures.running.trial_store import MemoryTrialStore
from fixtures.tasks import prompt_files
from fixtures.tasks.catalog import items_for
from reports.plugins.bench_output import _trim_to_test_body
from solvers import trial_record
from solvers.trial_record import TrialRecord, row_from_json

REPO = Path(__file__).resolve().parent.parent


def _records() -> list[TrialRecord]:
    """Real records of every core strategy (LogicLM's carry transcriptions and turns)."""
    item = items_for("chord")[0]
    return [run_trial_sync(OracleBackend(), Trial("oracle", "midi", "zero", strategy, item),
                           GenerationSettings()).record()
            for strategy in ("standalone", "cot", "logiclm")]


def test_a_record_is_written_as_dataclasses_asdict_wrote_it():
    for record in _records():
        expected = {k: v for k, v in asdict(record).items() if k in record.to_json()}
        assert json.dumps(record.to_json(), sort_keys=True) == json.dumps(expected,
                                                                          sort_keys=True)
        assert record.to_json()["turns"] is not record.turns  # a copy, as asdict made


def test_plain_copies_containers_and_keeps_tuples_and_named_tuples():
    point = SimpleNamespace  # not a container: copied whole, as asdict does
    from collections import namedtuple

    Pair = namedtuple("Pair", "a b")
    value = {"t": (1, [2]), "n": Pair(1, {"x": [3]}), "o": point(z=1)}
    plain = trial_record._plain(value)
    assert plain == {"t": (1, [2]), "n": Pair(1, {"x": [3]}), "o": plain["o"]}
    assert type(plain["n"]) is Pair and plain["t"][1] is not value["t"][1]
    assert plain["o"] is not value["o"] and plain["o"].z == 1


def test_reading_records_resolves_each_schema_once(monkeypatch):
    calls = []
    real = trial_record.get_type_hints

    def counting(kind):
        calls.append(kind)
        return real(kind)

    monkeypatch.setattr(trial_record, "get_type_hints", counting)
    trial_record._schema.cache_clear()
    lines = [record.to_json() for record in _records()] * 20
    rows = [row_from_json(json.loads(json.dumps(line))) for line in lines]
    assert len(rows) == 60 and all(row["correct"] is True for row in rows)
    assert sorted(kind.__name__ for kind in calls) == ["CoreDetails", "TrialRecord"]
    trial_record._schema.cache_clear()


def test_prompt_templates_are_parsed_once_per_edit(tmp_path, monkeypatch):
    parses = []
    real_loads = prompt_files.tomllib.loads
    monkeypatch.setattr(prompt_files, "tomllib",
                        SimpleNamespace(loads=lambda text: parses.append(text) or
                                        real_loads(text)))
    path = tmp_path / "task.toml"
    path.write_text('system = "one"\n')
    assert [prompt_files.prompt_templates(path)["system"] for _ in range(5)] == ["one"] * 5
    assert len(parses) == 1
    path.write_text('system = "two"\n')  # same size, within the clock's resolution
    assert prompt_files.prompt_templates(path)["system"] == "two"
    assert len(parses) == 2


def test_the_memory_store_hands_each_result_to_its_test_once():
    store = MemoryTrialStore()
    first = SimpleNamespace(model="m", trial_id="t1")
    again = SimpleNamespace(model="m", trial_id="t1")  # the test's own parametrized object
    result = SimpleNamespace(correct=True, trial=first)
    store.put(first, result)
    store.put(SimpleNamespace(model="other", trial_id="t1"), SimpleNamespace(trial=None))
    taken = store.take(again)
    assert taken is result and taken.trial is again
    assert store.take(again) is None  # taken once
    store.clear()
    assert store.take(SimpleNamespace(model="other", trial_id="t1")) is None


def _test_body():
    assert False, "wrong answer"  # noqa: B011 (a bench test's failing assert)


def _deeper():
    _test_body()


def _failure(function) -> ExceptionInfo:
    try:
        function()
    except AssertionError:
        return ExceptionInfo.from_current()
    raise AssertionError("no failure")


def test_a_wrong_answers_traceback_is_cut_to_the_test_body():
    excinfo = _failure(_deeper)  # runner and pluggy frames stand above a test body
    assert len(excinfo.traceback) >= 3
    item = SimpleNamespace(obj=_test_body)
    _trim_to_test_body(item, SimpleNamespace(when="call", excinfo=excinfo))
    assert [entry.frame.code.raw for entry in excinfo.traceback] == [_test_body.__code__]
    assert excinfo.exconly(tryshort=True).startswith("AssertionError: wrong answer")


def test_a_failure_raised_below_the_test_body_keeps_its_traceback():
    excinfo = _failure(_deeper)
    whole = len(excinfo.traceback)
    _trim_to_test_body(SimpleNamespace(obj=_deeper), SimpleNamespace(when="call",
                                                                     excinfo=excinfo))
    assert len(excinfo.traceback) == whole  # raised in _test_body, not the test's own frame
    _trim_to_test_body(SimpleNamespace(obj=_test_body), SimpleNamespace(when="setup",
                                                                         excinfo=excinfo))
    assert len(excinfo.traceback) == whole  # only the call's wrong answer


@pytest.mark.parametrize("code, absent", [
    ("from fixtures.backends.gemini import GeminiBackend\n"
     "from fixtures.backends.options import BackendOptions\n"
     "GeminiBackend('gemini-pro', 'gemini-2.5-pro', 'key', BackendOptions())",
     ("google.genai", "aiohttp", "pydantic")),
    ("import reports.plugins.report, reports.builders.artifacts, reports.stats.thresholds",
     ("scipy",)),
    # every plugin the root conftest loads: what an xdist worker, a --collect-only and a usage
    # error pay for; pandas comes with the first table or gate (about 0.6 s of CPU a process)
    ("import importlib, conftest\n"
     "for name in conftest.pytest_plugins: importlib.import_module(name)",
     ("pandas", "pyarrow", "matplotlib", "scipy")),
], ids=["gemini-backend-built", "report-modules", "plugins-at-start-up"])
def test_a_run_that_sends_nothing_imports_no_sdk(code, absent):
    check = f"{code}\nimport sys\nprint([m for m in {absent!r} if m in sys.modules])"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", check], cwd=REPO, capture_output=True,
                          text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"


PROBE = '''
import sys


def pytest_unconfigure(config):
    print("hypothesis imported:", "hypothesis" in sys.modules)
'''


def _probed_run(tmp_path: Path, probe: str) -> str:
    """The output of a small oracle bench run with the plugin ``probe`` (its source) loaded."""
    (tmp_path / "probe_plugin.py").write_text(probe)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)])}
    env.pop("PYTEST_XDIST_WORKER", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "bench/test_chord.py", "-q", "-s", "-p", "probe_plugin",
         "-p", "no:cacheprovider", "--no-report", "--model", "oracle", "-m",
         "midi and zero and standalone", "-k", "chord4", "--run-dir", str(tmp_path / "run")],
        cwd=REPO, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout


def test_a_bench_run_does_not_load_hypothesis(tmp_path):
    assert "hypothesis imported: False" in _probed_run(tmp_path, PROBE)


def test_a_trial_sets_up_only_the_fixtures_that_are_its_own(tmp_path):
    """``run_trial`` holds nothing of a test: set up once per run, not once per trial; and a
    trial's closure names no fixture it does not need."""
    env = {**os.environ}
    env.pop("PYTEST_XDIST_WORKER", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "bench/test_chord.py", "-q", "--setup-plan",
         "-p", "no:cacheprovider", "-p", "no:randomly", "--no-report", "--model", "oracle",
         "-m", "midi and zero and standalone", "-k", "chord4 or chord5",
         "--run-dir", str(tmp_path / "run")],
        cwd=REPO, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    setups = [line.split()[1:3] for line in done.stdout.splitlines()
              if line.strip().startswith("SETUP")]
    per_trial = sorted({name.split("[")[0] for scope, name in setups if scope == "F"})
    assert per_trial == ["backend", "record", "trial"]
    assert setups.count(["S", "run_trial"]) == 1
    # each fixture in a test's closure is looked up for every trial, session-scoped or not:
    # the pool and the settings come from the configuration, not from their fixtures
    assert not {"backend_pool", "generation_settings"} & {name for _, name in setups}


FREEZE_PROBE = '''
import gc

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_collection_finish(session):
    print("frozen at collection:", gc.get_freeze_count())


def pytest_runtest_setup(item):
    print("frozen at a test:", gc.get_freeze_count())
'''


def test_what_exists_before_the_tests_is_left_out_of_the_collectors_passes(tmp_path):
    """The modules, items and prefetched results are frozen once before the first test body
    (they live to the end): the collector's full passes during the tests skip them."""
    out = _probed_run(tmp_path, FREEZE_PROBE)
    at_collection = int(out.split("frozen at collection: ")[1].split()[0])
    at_tests = {int(line.split(": ")[1]) for line in out.splitlines()
                if line.startswith("frozen at a test: ")}
    assert len(at_tests) == 1 and at_tests.pop() > at_collection  # once, before the first test
