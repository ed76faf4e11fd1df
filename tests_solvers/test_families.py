"""The family registry is the one place families are listed, and the ini keys of a lab.

A toy fourth family, added by one line in ``fixtures.families.FAMILIES`` (done by a throwaway
project's conftest, the code of the repository untouched), must be parametrized, prefetched
against the fake OpenAI server and described in the run header. The ini keys
``eartest_model``, ``eartest_cache_dir`` and ``eartest_run_dir`` must set their defaults, with
the command line (for the cache directory ``$EARTEST_CACHE_DIR``) winning.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.families import FAMILIES, bench_path, registered
from tests_solvers.fakes.openai_server import FakeOpenAIServer

REPO = Path(__file__).resolve().parent.parent
pytest_plugins = ["pytester"]
PLUGINS = ('pytest_plugins = ["reports.plugins.report", "reports.gate.baseline", '
           '"fixtures.plugins.trials", "fixtures.plugins.models"]\n')

TOY_FAMILY = '''
from dataclasses import dataclass

import pytest

from fixtures.families import Family
from fixtures.running.runner import Trial
from fixtures.tasks.catalog import items_for
from fixtures.tasks.spec import Item
from fixtures.tasks.suite import CORE


@dataclass(frozen=True)
class ToyTrial:
    """A chord item asked as a family of its own."""

    suite = CORE  # asked, judged and recorded the core way
    model: str
    item: Item
    control: str = "real"
    modality = "midi"
    shot = "zero"
    strategy = "standalone"

    @property
    def task(self):  # a core task's name, so its record is a valid core record
        return self.item.task

    @property
    def trial_id(self):
        return f"toy/{self.item.item_id}"

    @property
    def test_id(self):
        return f"{self.model}-toy-{self.item.item_id}"

    async def run(self, backend, settings):
        core = Trial(self.model, self.modality, self.shot, self.strategy, self.item)
        result = await core.run(backend, settings)
        result.trial = self
        return result


@dataclass(frozen=True)
class ToySelection:
    count: int


class ToyFamily(Family):
    name = "toy"
    report_sections = ("toy_table",)

    def add_options(self, parser):
        parser.getgroup("toy").addoption("--toy-count", type=int, default=3)

    def configure(self, config, run):
        config.addinivalue_line("markers", "toy: the toy family")
        if config.getoption("toy_count") < 1:
            raise pytest.UsageError("--toy-count must be at least 1")
        return ToySelection(config.getoption("toy_count"))

    def test_key(self, bench_path, function):
        return "toy" if bench_path == ("test_toy.py",) and function == "test_toy" else None

    def trials(self, run, selection, key=None):
        items = items_for("chord")[:selection.count]
        return [ToyTrial(model, item) for model in run.models for item in items]

    def marks(self, trial):
        return ["toy"]

    def owns(self, trial):
        return isinstance(trial, ToyTrial)

    def header(self, config, run, selection):
        return {"toy": {"count": selection.count}, "options": {"toy_count": selection.count}}
'''

TOY_CONFTEST = '''
import json
import os

import fixtures.families

fixtures.families.FAMILIES += ("toy_family:ToyFamily",)  # the one line that adds a family

''' + PLUGINS + '''

def pytest_sessionfinish(session):
    if hasattr(session.config, "workerinput") or session.config.option.collectonly:
        return
    header = {}
    for part in session.config.hook.pytest_eartest_run_header(config=session.config):
        header.update(part)
    with open(os.environ["TOY_HEADER"], "w") as f:
        json.dump(header, f, default=str)
'''

BODY = '''
def test_{name}(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()
'''


def test_the_registry_lists_each_family_once_and_bench_paths_are_below_bench():
    names = [family.name for family in registered()]
    assert names == ["core", "mcq", "pitch", "muse", "musepub"] and len(FAMILIES) == 5
    assert bench_path("/x/bench/test_pitch/test_a_atomic.py") == ("test_pitch", "test_a_atomic.py")
    assert bench_path("/x/bench/test_chord.py") == ("test_chord.py",)
    assert bench_path("/x/tests/test_chord.py") is None


LAZY_PROBE = """
import sys
import pytest
code = pytest.main(["bench", "--ignore=bench/test_pitch", "--model", "oracle", "--collect-only",
                    "-q", "-p", "no:cacheprovider"])
from fixtures.pitch import catalog
print("EXIT", int(code), "PITCH_GRIDS", catalog.condition_grid.cache_info().currsize,
      "MCQ_LOADED", "fixtures.mcq.loading" in sys.modules)
"""


def test_a_core_run_builds_no_pitch_catalog_and_loads_no_mcq_dataset():
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    done = subprocess.run([sys.executable, "-c", LAZY_PROBE], cwd=REPO, capture_output=True,
                          text=True, timeout=600, env=env)
    assert "1008 tests collected" in done.stdout, done.stdout[-2000:]
    assert done.stdout.splitlines()[-1] == "EXIT 0 PITCH_GRIDS 0 MCQ_LOADED False"


@pytest.fixture
def toy(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(REPO), str(pytester.path)]))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-toy-family")
    monkeypatch.setenv("TOY_HEADER", str(pytester.path / "header.json"))
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    pytester.makepyfile(toy_family=TOY_FAMILY)
    pytester.makeconftest(TOY_CONFTEST)
    pytester.mkdir("bench")
    pytester.makepyfile(**{"bench/test_toy": BODY.format(name="toy"),
                           "bench/test_chord": BODY.format(name="chord")})
    return pytester


def test_the_collection_ids_of_a_fourth_family_come_from_the_family(toy: pytest.Pytester):
    result = toy.runpytest_subprocess("--model", "oracle", "--collect-only", "-q",
                                      "-p", "no:cacheprovider", "-m", "toy")
    ids = [line for line in result.stdout.lines if "::" in line]
    assert ids == [f"bench/test_toy.py::test_toy[oracle-toy-chord{n}]" for n in (1, 2, 3)], \
        result.stdout.str()[-2000:]
    bad = toy.runpytest_subprocess("--model", "oracle", "--toy-count", "0", "--collect-only")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    assert "--toy-count must be at least 1" in bad.stderr.str()


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["single", "xdist"])
def test_a_fourth_family_is_prefetched_and_in_the_run_header(toy: pytest.Pytester,
                                                            workers: list[str]):
    with FakeOpenAIServer() as server:
        result = toy.runpytest_subprocess(
            "--model", "openai:qwen2-audio-7b", "--base-url", server.base_url,
            "--cache", "refresh", "--cache-path", str(toy.path / "responses.sqlite"),
            "--toy-count", "4", "-m", "toy", "--no-report", "--run-dir", str(toy.path / "run"),
            "-p", "no:cacheprovider", *workers,
        )
        requests = server.count
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed", 0) + outcomes.get("failed", 0) == 4, result.stdout.str()
    assert requests == 4  # the prefetch asked each trial once; the test bodies took its results
    result.stdout.fnmatch_lines(["*eartest prefetch: 4 trials*"])
    records = [json.loads(line) for line in (toy.path / "run" / "trials.jsonl").open()]
    assert sorted(r["test_id"] for r in records) == [
        f"openai:qwen2-audio-7b-toy-chord{n}" for n in (1, 2, 3, 4)]
    header = json.loads((toy.path / "header.json").read_text())
    assert header["toy"] == {"count": 4}
    assert header["options"]["toy_count"] == 4
    assert header["families"]["toy"] == {"report_sections": ["toy_table"]}
    assert "mcq" not in header["families"]  # no dataset: the MCQ family runs nothing


# -- ini keys -----------------------------------------------------------------------------------
MINI_CHORD = ["--modality", "midi", "--shot", "zero", "--strategy", "standalone",
              "-k", "chord17", "-p", "no:cacheprovider", "--no-report"]


@pytest.fixture
def lab(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A lab's checkout: a pytest.ini naming its model, cache and runs folders."""
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    monkeypatch.delenv("EARTEST_CACHE_DIR", raising=False)
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    pytester.makeini("[pytest]\neartest_model = chance\neartest_cache_dir = labcache\n"
                     "eartest_run_dir = labruns\n")
    pytester.makeconftest(PLUGINS)
    pytester.mkdir("bench")
    pytester.makepyfile(**{"bench/test_chord": BODY.format(name="chord")})
    return pytester


def _records(run_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (run_dir / "trials.jsonl").open()]


def test_ini_keys_set_the_model_and_the_runs_folder(lab: pytest.Pytester):
    result = lab.runpytest_subprocess(*MINI_CHORD)
    runs = list((lab.path / "labruns").iterdir())
    assert len(runs) == 1 and runs[0].name.endswith("-chance"), result.stdout.str()
    assert {r["model"] for r in _records(runs[0])} == {"chance"}
    chosen = lab.path / "mine"
    lab.runpytest_subprocess(*MINI_CHORD, "--model", "oracle", "--run-dir", str(chosen))
    assert {r["model"] for r in _records(chosen)} == {"oracle"}  # the command line wins
    assert len(list((lab.path / "labruns").iterdir())) == 1


def test_ini_cache_dir_loses_to_the_environment(
    lab: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    def stimuli_in(directory: Path) -> int:
        return sum(1 for p in directory.rglob("*") if p.is_file()) if directory.exists() else 0

    lab.runpytest_subprocess(*MINI_CHORD, "--modality", "audio")
    assert stimuli_in(lab.path / "labcache") > 0  # the ini key, relative to the ini file
    env_dir = tmp_path / "from_env"
    monkeypatch.setenv("EARTEST_CACHE_DIR", str(env_dir))
    lab.runpytest_subprocess(*MINI_CHORD, "--modality", "audio", "--run-dir",
                             str(tmp_path / "r1"))
    assert stimuli_in(env_dir) > 0  # (labcache already held them: the env var won)
