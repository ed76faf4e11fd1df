"""``pytest bench --stimuli-manifest``, run as a user runs it: the exported stimuli round-trip to
the built-in run's outcomes, a smaller label set lands chance on 1/|set|, bad input is exit 4.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests_solvers import FULL_E2E
from tests_solvers.test_bench_plugin import REPO, binomial_interval, read_records, run_bench

AXES = ("--modality", "audio", "--shot", "few", "--strategy", "standalone,logiclm")


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The core tasks' stimuli exported with their stimuli manifest (from the render cache)."""
    directory = tmp_path_factory.mktemp("export")
    result = subprocess.run(
        [sys.executable, "-m", "fixtures", "export", str(directory),
         "--task", "syncopation,transposition,chord"],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stderr
    return directory


def outcomes(run_dir: Path) -> dict[str, tuple]:
    return {key: (r["correct"], r["parsed_answer"], r["prompt_hash"], r["stimuli"],
                  r["truth_transcription"], r["transcription"])
            for key, r in read_records(run_dir).items()}


def test_exported_manifest_gives_the_built_in_trials_and_outcomes(exported: Path, tmp_path):
    models = ("--model", "listener,oracle,chance")
    # make test: LogicLM only (its few-shot examples show the manifest's transcriptions)
    axes = AXES if FULL_E2E else (*AXES[:-1], "logiclm")
    strategies = len(axes[-1].split(","))
    built_in = run_bench(*models, *axes, run_dir=tmp_path / "built_in", timeout_s=300)
    manifest = run_bench(*models, *axes, "--stimuli-manifest", str(exported / "stimuli.csv"),
                         run_dir=tmp_path / "manifest", timeout_s=300)
    assert built_in.returncode == manifest.returncode == 1, manifest.stdout[-2000:]  # chance
    expected, got = outcomes(tmp_path / "built_in"), outcomes(tmp_path / "manifest")
    assert len(expected) == (20 + 20 + 44) * 3 * strategies
    assert got.keys() == expected.keys()
    assert got == expected
    listener = [v[0] for k, v in got.items() if k.startswith("listener/")]
    assert sum(listener) / len(listener) > 0.9  # the listener heard the recordings


def _major_minor(exported: Path, folder: Path) -> Path:
    """The exported chord rows of major and minor chords, as a manifest in another folder;
    only the few-shot rows keep their transcription (the worked examples show it)."""
    with open(exported / "stimuli.csv", newline="") as handle:
        rows = [r for r in csv.DictReader(handle)
                if r["task"] == "chord" and r["quality"] in ("major", "minor")]
    path = folder / "major_minor.jsonl"
    lines = [
        {"task": "chord", "item_id": r["item_id"], "split": r["split"], "root": r["root"],
         "quality": {"major": "maj", "minor": "m"}[r["quality"]],
         "audio": str(exported / r["audio"])}
        | ({"transcription": r["transcription"]} if r["split"] == "fewshot" else {})
        for r in rows
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_major_minor_manifest_scores_against_two_options(exported: Path, tmp_path: Path):
    manifest = _major_minor(exported, tmp_path)
    result = run_bench("--model", "oracle,chance", "--stimuli-manifest", str(manifest),
                       "-v", "-rs", run_dir=tmp_path / "run", timeout_s=300)  # -q -v: header
    assert result.returncode == 1, result.stdout[-2000:]
    assert "chord offers only the options A, B" in result.stdout
    assert "modality midi dropped" in result.stdout
    assert "test_syncopation.py: got empty parameter set" in result.stdout
    records = read_records(tmp_path / "run")
    by_model = {m: [r for r in records.values() if r["model"] == m] for m in ("oracle", "chance")}
    assert len(by_model["oracle"]) == 22 * 2 * 3  # 11 major + 11 minor test chords
    assert all(r["correct"] for r in by_model["oracle"])
    chance = by_model["chance"]
    # Every guess is one of the two offered answers, so each trial's chance is exactly 1/2.
    assert {r["parsed_answer"] for r in chance} == {"A", "B"}
    assert all(r["error_class"] is None and r["truth_transcription"] == [] for r in chance)
    low, high = binomial_interval(len(chance), 0.5)
    assert low <= sum(r["correct"] for r in chance) <= high
    table1 = (tmp_path / "run" / "table1.md").read_text()
    assert "| Chance |  |  | 50.0 | 50.0 |" in table1


def test_a_bad_manifest_is_one_usage_error(tmp_path: Path):
    manifest = tmp_path / "m.csv"
    manifest.write_text("task,audio,quality\nchord,missing.wav,major\n")
    result = run_bench("--stimuli-manifest", str(manifest), "--collect-only")
    assert result.returncode == 4 and "Traceback" not in result.stderr
    (line,) = [x for x in result.stderr.splitlines() if "--stimuli-manifest" in x]
    assert "line 2, column 'audio'" in line and "missing.wav" in line


def test_a_manifest_without_the_audio_modality_is_a_usage_error(exported: Path):
    result = run_bench("--stimuli-manifest", str(exported / "stimuli.csv"), "--modality", "midi",
                       "--collect-only")
    assert result.returncode == 4 and "use --modality audio" in result.stderr


def test_the_listener_hears_recordings_in_another_format(tmp_path: Path):
    """FLAC copies of rendered stimuli: new bytes, so nothing is reused from earlier analyses,
    and the listener gets only the recording (no clip, no label)."""
    import soundfile

    from fixtures.backends import make_backend
    from fixtures.backends.base import GenerationSettings
    from fixtures.running.runner import Trial, run_trial_sync
    from fixtures.stimuli import wav_path
    from fixtures.tasks.catalog import items_for
    from fixtures.tasks.manifest import load_manifest

    chosen = [next(i for i in items_for("chord", "test") if i.params_dict()["quality"] == q)
              for q in ("major", "minor", "dominant", "diminished")]
    chosen.append(items_for("transposition", "test")[1])
    rows = []
    for item in chosen:
        row = {"task": item.task}
        for column, clip in zip(("audio", "audio_2"), item.clips, strict=False):
            audio, rate = soundfile.read(wav_path(clip))
            row[column] = f"{item.item_id}_{column}.flac"
            soundfile.write(tmp_path / row[column], audio * 0.8, rate)
        row |= {k: v for k, v in item.params_dict().items() if k in ("quality", "same")}
        rows.append(json.dumps(row))
    (tmp_path / "m.jsonl").write_text("\n".join(rows) + "\n")
    manifest = load_manifest(tmp_path / "m.jsonl")
    listener = make_backend("listener")
    for item in manifest.items:
        result = run_trial_sync(listener, Trial("listener", "audio", "zero", "logiclm", item),
                                GenerationSettings())
        assert result.correct, result.explain()
