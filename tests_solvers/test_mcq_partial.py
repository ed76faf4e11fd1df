"""MCQ sets with part of their media missing, and the authors' prepared-JSON layout."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.mcq.loading import load_dataset
from fixtures.mcq.selection import McqSelection, selected_mcq_trials
from fixtures.mcq.spec import McqDatasetError
from fixtures.mcq.synthetic import make_synthetic, remove_media, write_parquet
from tests_solvers import trial_row
from tests_solvers.mcq_hub import fake_hub_cache

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def partial(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[Path]]:
    """Both synthetic sets with 30 % of their media files deleted."""
    muchomusic, wildscore = make_synthetic(tmp_path_factory.mktemp("mcq_partial"))
    removed = remove_media(muchomusic, 0.3) + remove_media(wildscore, 0.3)
    return muchomusic, wildscore, removed


def _run(datasets: str, run_dir: Path, env: dict | None = None,
         *options: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "bench/test_mcq.py", "-q",
         "-n", "0", "--model", "oracle,chance", "--mcq-repeats", "1",
         "--mcq-dataset", datasets, "--run-dir", str(run_dir), *options],
        cwd=REPO, capture_output=True, text=True, timeout=600,
        env={**os.environ, **(env or {})})


def _records(run_dir: Path) -> list[dict]:
    return [trial_row(line) for line in (run_dir / "trials.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def partial_run(partial, tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    muchomusic, wildscore, _ = partial
    run_dir = tmp_path_factory.mktemp("mcq_partial_run") / "run"
    return run_dir, _run(f"{muchomusic},{wildscore}", run_dir)


def test_a_third_of_the_files_deleted_leaves_the_questions_without_media(partial):
    muchomusic, wildscore, removed = partial
    assert len(removed) == 8  # 4 of 12 per set
    for path in (muchomusic, wildscore):
        dataset = load_dataset(path, missing="skip")
        absent = [item for item in dataset.items if not item.media_path]
        assert len(dataset.items) == 12 and len(absent) == 4
        assert all("not found" in item.missing_media or "no audio file" in item.missing_media
                   for item in absent)
        assert dataset.coverage(dataset.layout == "muchomusic" and "audio" or "image") == (8, 12)
        assert dataset.coverage("no-audio" if dataset.layout == "muchomusic" else
                                "text-only") == (12, 12)
    # the ids do not depend on whether the file is there
    full = make_synthetic(muchomusic.parent.parent / "full")
    for path, whole in zip((muchomusic, wildscore), full, strict=True):
        assert ([i.item_id for i in load_dataset(path, missing="skip").items]
                == [i.item_id for i in load_dataset(whole).items])


def test_error_policy_names_the_first_missing_files(partial):
    muchomusic, _, _ = partial
    with pytest.raises(McqDatasetError) as raised:
        load_dataset(muchomusic, missing="error")
    message = str(raised.value)
    assert message.startswith("4 of 12 questions have no media file")
    assert message.count("no audio file for") == 4 and "--mcq-missing skip" in message


def test_questions_without_media_run_only_where_no_media_is_sent(partial):
    from fixtures.backends.base import GenerationSettings
    from fixtures.running.run_options import RunOptions

    dataset = load_dataset(partial[0], missing="skip")
    selection = McqSelection((dataset,), {"muchomusic": ("audio", "no-audio")}, 2, 0)
    run = RunOptions(("oracle",), ("audio",), ("zero",), ("standalone",), GenerationSettings(),
                     controls=("mismatched",))
    trials = selected_mcq_trials(run, selection)
    audio = [t for t in trials if t.condition == "audio"]
    assert len([t for t in audio if t.control == "real"]) == 8 * 2
    assert all(t.item.media_path for t in audio)
    mismatched = [t for t in audio if t.control == "mismatched"]
    assert len(mismatched) == 8 * 2 and all(t.partner.media_path for t in mismatched)
    assert len([t for t in trials if t.condition == "no-audio"]) == 12 * 2


def test_the_partial_run_completes_and_reports_its_coverage(partial_run):
    run_dir, result = partial_run
    assert result.returncode == 1, result.stdout[-3000:]  # chance is wrong, nothing errors
    assert " error" not in result.stdout.splitlines()[-1]
    warnings = [line for line in result.stdout.splitlines() if "eartest MCQ WARNING" in line]
    assert len(warnings) == 2
    assert "audio 8 of 12, no-audio 12 of 12" in warnings[0]
    assert "image 8 of 12, text-only 12 of 12" in warnings[1]
    records = _records(run_dir)
    for condition, count in (("audio", 8), ("no-audio", 12), ("image", 8), ("text-only", 12)):
        cell = [r for r in records if r["condition"] == condition and r["model"] == "oracle"]
        assert len(cell) == count and all(r["correct"] for r in cell)
        assert {(r["questions_run"], r["questions_total"]) for r in cell} == {(count, 12)}
    table = (run_dir / "mcq.md").read_text()
    assert "| muchomusic | audio | zero | all | oracle | 100.0" in table
    assert table.count("| 8 of 12 |") == 4 and table.count("| 12 of 12 |") == 4
    header = json.loads((run_dir / "summary.json").read_text())["header"]["mcq"]
    coverage = {d["name"]: d["coverage"] for d in header["datasets"]}
    assert coverage["muchomusic"]["audio"] == {"with_media": 8, "questions": 12}
    assert coverage["wildscore"]["text-only"] == {"with_media": 12, "questions": 12}


def test_the_parquet_and_hub_forms_run_like_the_csv_form(partial, partial_run, tmp_path):
    """The partial sets as Parquet with the media embedded, MuChoMusic read by Hub id from a
    local cache (HF_HUB_OFFLINE=1): trial for trial the CSV run's truth, answer and verdict."""
    muchomusic, wildscore, _ = partial
    cache = fake_hub_cache(tmp_path / "hub", "synth/muchomusic",
                           write_parquet(muchomusic, tmp_path / "muchomusic.parquet"))
    scores = write_parquet(wildscore, tmp_path / "pq" / "wildscore.parquet")
    result = _run(f"synth/muchomusic,{scores}", tmp_path / "run",
                  {"HF_HUB_CACHE": str(cache), "HF_HUB_OFFLINE": "1"}, "--no-report")
    assert result.returncode == 1, result.stdout[-3000:]

    def outcomes(records: list[dict]) -> dict:
        return {(r["model"], r["trial_id"]): (r["truth"], r["parsed_answer"], r["correct"])
                for r in records}

    csv = _records(partial_run[0])
    assert len(csv) == 2 * (8 + 12) * 2  # models x (with media + without) x datasets
    assert outcomes(_records(tmp_path / "run")) == outcomes(csv)
    assert 0 < sum(r["correct"] for r in csv if r["model"] == "chance") < 40


def _authors_layout(base: Path, synthetic_csv: Path) -> tuple[Path, list[dict]]:
    """The evaluation code's prepared JSON in ``base/data`` with audio under
    ``base/data/sdd/audio/00``: its audio_paths are relative to ``base``, where it runs."""
    items = load_dataset(synthetic_csv).items[:3]
    audio = base / "data" / "sdd" / "audio" / "00"
    audio.mkdir(parents=True)
    entries = []
    for number, item in enumerate(items):
        name = f"{900100 + number}.2min.wav"
        shutil.copy(item.media_path, audio / name)
        order = [1, 0, 3, 2]  # the correct answer (order 0) shown second
        entries.append({"id": 900100 + number, "prompt": f"Question: {item.question}\n Options: ",
                        "answers": [item.options[i] for i in order], "answer_orders": order,
                        "dataset": "sdd", "genre": "Pop", "reasoning": [], "knowledge": [],
                        "audio_path": f"data/sdd/audio/00/{name}", "model_output": "A"})
    path = base / "data" / "prepared.json"
    path.write_text(json.dumps(entries))
    return path, entries


def test_the_authors_prepared_json_finds_audio_where_their_code_looks(partial, tmp_path):
    full = make_synthetic(tmp_path / "synthetic")[0]
    path, entries = _authors_layout(tmp_path / "authors", full)
    dataset = load_dataset(path)
    assert [item.media_path for item in dataset.items] == [
        str(tmp_path / "authors" / entry["audio_path"]) for entry in entries]
    first = dataset.items[0]
    assert first.answer == entries[0]["answers"][1] and first.genre == "Pop"
    assert first.option_kinds == ("incorrect_but_related", "correct", "incorrect_and_unrelated",
                                  "correct_but_unrelated")
    # moved elsewhere: --mcq-root names the authors' working folder
    moved = tmp_path / "elsewhere" / "prepared.json"
    moved.parent.mkdir()
    shutil.copy(path, moved)
    assert [i.media_path for i in load_dataset(moved, root=tmp_path / "authors").items] == [
        i.media_path for i in dataset.items]
    with pytest.raises(McqDatasetError) as raised:
        load_dataset(moved)
    message = str(raised.value)
    assert (f"looked at {tmp_path / 'elsewhere' / 'data/sdd/audio/00/900100.2min.wav'} and "
            f"{tmp_path / 'data/sdd/audio/00/900100.2min.wav'}") in message
