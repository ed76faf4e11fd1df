"""Issue 27, a run's identity: what a run measures is recorded once, and ``--resume`` and
``python -m reports build`` refuse to re-scope or mix it (defects 3, 4, 5, 6, 7 and 18; the
defect number is in each test's name).

The benchmark runs in a subprocess as a user runs it. An interrupted run is made with the
``chance`` model and ``--maxfail 1`` (it stops at its first wrong answer, with its records and
``run_options.json`` written), or against the fake Gemini server on 127.0.0.1.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from reports.run.settings_check import settings_problem
from tests_solvers import CORE_BENCH, PYTEST
from tests_solvers.fakes.gemini_server import FakeGeminiServer

REPO = Path(__file__).resolve().parent.parent
SLICE = ("-m", "chord and midi and zero and standalone")  # 44 trials
CHANCE = ("--model", "chance", *SLICE, "--maxfail", "1")
ENDPOINT_VARIABLES = ("GEMINI_BASE_URL", "GOOGLE_GEMINI_BASE_URL", "GOOGLE_API_KEY")


def bench(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items()
                   if k not in ENDPOINT_VARIABLES and k != "PYTEST_XDIST_WORKER"}
    environment.update(env or {})
    return subprocess.run([*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", *args],
                          cwd=REPO, capture_output=True, text=True, timeout=600, env=environment)


def reports(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reports", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=300)


def summary(run_dir: Path) -> dict:
    return json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))


def record_count(run_dir: Path) -> int:
    return len((run_dir / "trials.jsonl").read_text(encoding="utf-8").splitlines())


def usage_error(result: subprocess.CompletedProcess) -> str:
    """The one error line of a refused run (exit 4, no traceback)."""
    output = result.stdout + result.stderr
    assert result.returncode == 4, output[-3000:]
    assert "Traceback" not in output
    [line] = [line for line in output.splitlines() if "--resume" in line and "different" in line]
    return line


@pytest.fixture(scope="module")
def interrupted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A chance run of 44 trials stopped at its first wrong answer (copied by each test)."""
    run_dir = tmp_path_factory.mktemp("interrupted") / "run"
    result = bench(*CHANCE, "--run-dir", str(run_dir))
    assert result.returncode == 1, result.stdout[-3000:]
    assert summary(run_dir)["complete"] is False and record_count(run_dir) < 44
    return run_dir


def copy_of(run_dir: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(run_dir, tmp_path / "run"))


def test_defect03_collect_only_never_marks_a_run_complete(interrupted, tmp_path):
    run_dir = copy_of(interrupted, tmp_path)
    before = {p.name: p.read_bytes() for p in run_dir.iterdir() if p.is_file()}
    listed = bench(*CHANCE, "--resume", str(run_dir), "--collect-only")
    assert summary(run_dir)["complete"] is False
    assert {p.name: p.read_bytes() for p in run_dir.iterdir() if p.is_file()} == before
    assert listed.returncode == 0, listed.stdout[-2000:]  # nothing ran, nothing failed
    # the run can still be completed, and then is complete with every trial recorded
    done = bench("--model", "chance", *SLICE, "--resume", str(run_dir))
    assert done.returncode == 1, done.stdout[-2000:]  # chance answers some wrong
    assert summary(run_dir)["complete"] is True and record_count(run_dir) == 44
    identity = summary(run_dir)["header"]["identity"]
    assert identity["selection"]["trials"] == 44
    assert {"thinking_budget", "thinking_level"} <= set(identity["options"])  # defect 6


def test_defect05_a_resume_that_re_scopes_the_selection_is_refused(interrupted, tmp_path):
    run_dir = copy_of(interrupted, tmp_path)
    before = (run_dir / "trials.jsonl").read_text()
    line = usage_error(bench(*CHANCE, "--resume", str(run_dir),
                             "--deselect", "bench/test_chord.py"))
    assert "--deselect (was [], now ['bench/test_chord.py'])" in line
    # the pitch experiments forgotten: the test paths differ, named in the same one line
    forgot = subprocess.run(
        [*PYTEST, "bench", "-q", "-p", "no:cacheprovider", *CHANCE, "--resume", str(run_dir),
         "--seed", "3"], cwd=REPO, capture_output=True, text=True, timeout=600)
    line = usage_error(forgot)
    assert "--ignore (was ['bench/test_pitch'], now [])" in line and "--seed (was 0" in line
    assert (run_dir / "trials.jsonl").read_text() == before
    assert summary(run_dir)["complete"] is False


def test_defect06_a_resume_against_another_gemini_endpoint_is_refused(tmp_path):
    run_dir = tmp_path / "run"
    common = ("--model", "gemini-pro", *SLICE, "--maxfail", "1",
              "--cache-path", str(tmp_path / "responses.sqlite"))
    with FakeGeminiServer(default_text="Final Answer: nothing") as first, \
            FakeGeminiServer() as second:
        urls = (first.base_url, second.base_url)
        started = bench(*common, "--run-dir", str(run_dir),
                        env={"GEMINI_API_KEY": "k", "GEMINI_BASE_URL": first.base_url})
        assert summary(run_dir)["complete"] is False, started.stdout[-3000:]
        asked = second.generate_count
        line = usage_error(bench(*common, "--resume", str(run_dir),
                                 env={"GEMINI_API_KEY": "k", "GEMINI_BASE_URL": second.base_url}))
        assert second.generate_count == asked == 0  # refused before any request
    assert f"model gemini-pro's base_url (was '{urls[0]}', now '{urls[1]}')" in line


@pytest.fixture(scope="module")
def chord_manifest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The chord items exported with their stimuli manifest."""
    directory = tmp_path_factory.mktemp("export")
    result = subprocess.run([sys.executable, "-m", "fixtures", "export", str(directory),
                             "--task", "chord"], cwd=REPO, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr
    return directory / "stimuli.csv"


def test_defect07_a_manifest_edited_before_the_resume_is_detected(chord_manifest, tmp_path):
    manifest = Path(shutil.copytree(chord_manifest.parent, tmp_path / "export")) / "stimuli.csv"
    args = ("--model", "chance", "--stimuli-manifest", str(manifest), "--modality", "audio",
            "-m", "chord and zero and standalone", "--maxfail", "1")
    run_dir = tmp_path / "run"
    assert bench(*args, "--run-dir", str(run_dir)).returncode == 1
    assert summary(run_dir)["complete"] is False
    # two items trade their truths (labels and transcriptions): same file, same item ids
    with manifest.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    first, second = (i for i, row in enumerate(rows) if row["split"] == "test"
                     and row["item_id"] in ("chord3", "chord4"))
    for column in ("root", "quality", "transcription"):
        rows[first][column], rows[second][column] = rows[second][column], rows[first][column]
    with manifest.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    line = usage_error(bench(*args, "--resume", str(run_dir)))
    assert "the content of --stimuli-manifest (was '" in line


def test_defect04_build_refuses_an_incomplete_run_unless_allowed(interrupted, tmp_path):
    refused = reports("build", str(interrupted), "--out", str(tmp_path / "merged"))
    assert refused.returncode == 4 and "Traceback" not in refused.stderr
    recorded = record_count(interrupted)
    assert f"INCOMPLETE input: {interrupted} ({recorded} of 44 trials recorded)" \
        in refused.stderr
    assert not (tmp_path / "merged").exists()
    built = reports("build", str(interrupted), "--allow-incomplete",
                    "--out", str(tmp_path / "merged"))
    assert built.returncode == 0, built.stderr
    merged = summary(tmp_path / "merged")
    assert merged["complete"] is False
    assert (merged["header"]["trials_recorded"], merged["header"]["trials_expected"]) == \
        (recorded, 44)
    assert "INCOMPLETE run" in (tmp_path / "merged" / "report.html").read_text()


def test_defect04_a_killed_run_without_summary_is_known_incomplete(interrupted, tmp_path):
    run_dir = copy_of(interrupted, tmp_path)
    (run_dir / "summary.json").unlink()  # kill -9: no summary, but the saved identity
    refused = reports("build", str(run_dir), "--out", str(tmp_path / "merged"))
    assert refused.returncode == 4 and "INCOMPLETE input" in refused.stderr


def _header(base_url: str | None = None, **options: object) -> dict:
    identity = {"options": {"thinking_budget": None, "thinking_level": None, **options}}
    return {"options": {"models": ["gemini-pro"], "temperature": 0.0},
            "models": {"gemini-pro": {"kind": "gemini", "model_id": "gemini-2.5-pro",
                                      **({"base_url": base_url} if base_url else {})}},
            "identity": identity}


def test_defect06_build_refuses_to_pool_endpoints_and_thinking_settings(tmp_path):
    runs = [Path("a"), Path("b")]
    assert settings_problem([_header(), _header()], runs) is None
    endpoint = settings_problem([_header(), _header("http://127.0.0.1:9")], runs)
    assert "model gemini-pro ran with base_url the default endpoint in a; " \
           "http://127.0.0.1:9 in b" in endpoint
    thinking = settings_problem([_header(thinking_budget=0),
                                 _header(thinking_budget=1024, thinking_level="low")], runs)
    assert "thinking_budget 0 in a; 1024 in b" in thinking
    assert "thinking_level None in a; low in b" in thinking
    for number, header in enumerate((_header(), _header(thinking_level="high"))):
        run = tmp_path / f"run{number}"
        run.mkdir()
        (run / "summary.json").write_text(json.dumps({"header": header}))
        (run / "trials.jsonl").write_text("")
    built = reports("build", str(tmp_path / "run0"), str(tmp_path / "run1"),
                    "--out", str(tmp_path / "merged"))
    assert built.returncode == 4 and "thinking_level None in" in built.stderr


def test_defect18_a_saved_dataset_folder_gets_the_csv_forms_trial_ids(tmp_path):
    import datasets

    from fixtures.mcq.loading import load_dataset
    from fixtures.mcq.synthetic import make_synthetic, write_parquet
    from fixtures.mcq.trial import McqTrial

    muchomusic, _ = make_synthetic(tmp_path / "csv")
    parquet = write_parquet(muchomusic, tmp_path / "pq" / "muchomusic.parquet")
    saved = datasets.load_dataset("parquet", data_files=str(parquet))
    saved.save_to_disk(str(tmp_path / "my_saved_copy"))  # any folder name a user picks

    def trial_ids(path: Path) -> list[str]:
        items = load_dataset(path).items
        return [McqTrial("m", "audio", 0, 0, item, 0, items).trial_id for item in items]

    from_csv = trial_ids(muchomusic)
    assert len(from_csv) == 12
    assert trial_ids(tmp_path / "my_saved_copy") == from_csv == trial_ids(parquet)


def test_task_versions_are_part_of_the_identity_and_never_pooled(interrupted, tmp_path):
    from fixtures.plugins.trials import pytest_eartest_run_identity
    from reports.run.identity import differences

    prompts = pytest_eartest_run_identity(None)["prompts"]
    assert {"tasks", "mcq", "muse", "pitch"} <= set(prompts)
    edited = {"prompts": {**prompts, "tasks": "0123456789"}}
    assert differences(edited, {"prompts": prompts}) == [
        f"the prompt files of fixtures/tasks (was '0123456789', now '{prompts['tasks']}')"]
    # records of one task under two versions (another trial, an edited prompt) are not built
    # into one cell
    run_dir = copy_of(interrupted, tmp_path)
    first = json.loads((run_dir / "trials.jsonl").read_text().splitlines()[0])
    other = tmp_path / "other"
    other.mkdir()
    (other / "trials.jsonl").write_text(json.dumps(
        {**first, "task_version": "s0-edited", "trial_id": first["trial_id"] + "x",
         "test_id": first["test_id"] + "x"}) + "\n")
    built = reports("build", str(run_dir), str(other), "--allow-incomplete",
                    "--out", str(tmp_path / "out"))
    assert built.returncode == 4, built.stderr
    assert f"model chance task chord under s0-edited, {first['task_version']}" \
        in built.stderr
