"""``--pitch-dataset``: PitchBench's release as its dataset card lays it out (one configuration
per experiment, ``pitchbench_a1_pitch_id``..., each row an ``audio`` WAV, ``prompt_*`` questions
and answer fields such as ``midi``), built here with the real ``datasets`` library, read as a
Parquet folder, a ``save_to_disk`` folder and a Hub id in the local cache, asked and scored by
eartest's pitch experiments."""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest
import soundfile

from tests_solvers import PYTEST
from tests_solvers.mcq_hub import fake_hub_cache
from tests_solvers.test_bench_plugin import REPO, read_records

datasets = pytest.importorskip("datasets")
RATE_HZ = 16000
A1_MIDIS = (48, 60, 69)
CHORDS = ((60, 64, 67), (57, 60, 64))


def wav_bytes(midis: tuple[int, ...]) -> bytes:
    t = np.arange(RATE_HZ // 2) / RATE_HZ
    signal = sum(0.2 * np.sin(2 * np.pi * 440 * 2 ** ((m - 69) / 12) * t) for m in midis)
    out = io.BytesIO()
    soundfile.write(out, signal, RATE_HZ, format="WAV")
    return out.getvalue()


def configurations() -> dict[str, object]:
    """Three mapped configurations and one eartest does not map (E5, vibrato)."""
    def table(rows: list[dict]):
        return datasets.Dataset.from_list(rows).cast_column(
            "audio", datasets.Audio(sampling_rate=RATE_HZ))

    return {
        "pitchbench_a1_pitch_id": table([
            {"audio": {"bytes": wav_bytes((m,)), "path": f"piano_{m}.wav"},
             "prompt_midi": "Which MIDI note?", "prompt_spn": "Which note?", "midi": m,
             "source": "piano"} for m in A1_MIDIS]),
        "pitchbench_c4_chord_pitches": table([
            {"audio": {"bytes": wav_bytes(notes), "path": f"chord_{i}.wav"},
             "prompt_midi": "Which notes?", "midi_notes": list(notes)}
            for i, notes in enumerate(CHORDS)]),
        "pitchbench_c3_chord_quality": table([
            {"audio": {"bytes": wav_bytes((60, 63, 66, 70)), "path": "hd.wav"},
             "prompt": "Which quality?", "chord_quality_gt": "half-diminished"}]),
        "pitchbench_e5_vibrato": table([
            {"audio": {"bytes": wav_bytes((60,)), "path": "vib.wav"}, "prompt": "q",
             "midi": 60}]),
    }


@pytest.fixture(scope="module")
def parquet_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("release")
    for name, table in configurations().items():
        (root / name).mkdir()
        table.to_parquet(str(root / name / "test-00000-of-00001.parquet"))
    return root


def test_parquet_release_items_carry_the_answer_fields(parquet_release: Path):
    from fixtures.pitch.release import load_release

    items, header = load_release(str(parquet_release))
    assert sorted(items) == ["a1", "c3", "c4"]
    assert sorted(i.truth for i in items["a1"]) == [(m,) for m in A1_MIDIS]
    assert sorted(i.truth for i in items["c4"]) == sorted(CHORDS)
    assert items["c3"][0].truth == ("half-diminished",)
    assert all(i.recordings and Path(i.recordings[0]).is_file() and not i.scenes
               for group in items.values() for i in group)
    assert header["items"] == {"a1": 3, "c3": 1, "c4": 2}
    assert header["left_out"] == {"pitchbench_e5_vibrato": "eartest does not map its answer "
                                                           "fields"}


def test_save_to_disk_and_parquet_give_the_same_items(parquet_release: Path, tmp_path: Path):
    from fixtures.pitch.release import load_release

    for name, table in configurations().items():
        datasets.DatasetDict({"test": table}).save_to_disk(str(tmp_path / name))
    saved, _ = load_release(str(tmp_path))
    parquet, _ = load_release(str(parquet_release))
    def key(items):
        return {e: sorted((i.item_id, i.truth) for i in group) for e, group in items.items()}
    assert key(saved) == key(parquet)


def run_pitch(*args: str, run_dir: Path, env: dict | None = None):
    return subprocess.run(
        [*PYTEST, "bench/test_pitch", "-q", "-p", "no:cacheprovider", "--run-dir",
         str(run_dir), *args],
        cwd=REPO, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", **(env or {})})


def test_a_cached_hub_id_runs_oracle_right_and_chance_valid(parquet_release: Path, tmp_path):
    cache = fake_hub_cache(tmp_path / "hub", "pitchbench-authors/PitchBench", parquet_release)
    result = run_pitch("--pitch-dataset", "pitchbench-authors/PitchBench", "--model",
                       "oracle,chance", run_dir=tmp_path / "run",
                       env={"HF_HUB_CACHE": str(cache), "HF_HUB_OFFLINE": "1"})
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-3000:]  # chance
    records = read_records(tmp_path / "run")
    oracle = [r for k, r in records.items() if k.startswith("oracle/")]
    # A1 and C4 in four notations, C3 once: 3 * 4 + 2 * 4 + 1
    assert len(oracle) == 21 and all(r["correct"] for r in oracle)
    chance = [r for k, r in records.items() if k.startswith("chance/")]
    assert len(chance) == 21 and all(r["error_class"] is None for r in chance)
    header = json.loads((tmp_path / "run" / "summary.json").read_text())["header"]
    assert header["options"]["pitch_items"]["items"] == {"a1": 3, "c3": 1, "c4": 2}


@pytest.mark.parametrize("extra", [("--pitch-sample", "1"), ("--adaptive", "d2"),
                                   ("--stimuli-manifest", "m.csv")])
def test_options_that_shape_the_built_in_items_are_one_usage_error(parquet_release, tmp_path,
                                                                   extra):
    soundfile.write(tmp_path / "a4.wav", np.zeros(800) + 0.1, RATE_HZ)
    (tmp_path / "m.csv").write_text("task,audio,midi\npitch_a1,a4.wav,69\n")
    extra = tuple(str(tmp_path / v) if v == "m.csv" else v for v in extra)
    result = run_pitch("--pitch-dataset", str(parquet_release), "--model", "oracle", *extra,
                       run_dir=tmp_path / "run")
    assert result.returncode == 4, result.stdout[-2000:] + result.stderr[-2000:]
    assert result.stderr.count("ERROR:") == 1 and "Traceback" not in result.stderr


def test_a_release_with_no_mapped_configuration_is_a_usage_error(tmp_path: Path):
    from fixtures.pitch.release import load_release

    with pytest.raises(pytest.UsageError, match="no PitchBench configuration"):
        load_release(str(tmp_path))
    (tmp_path / "pitchbench_e5_vibrato").mkdir()
    configurations()["pitchbench_e5_vibrato"].to_parquet(
        str(tmp_path / "pitchbench_e5_vibrato" / "test.parquet"))
    with pytest.raises(pytest.UsageError, match="no configuration of an experiment"):
        load_release(str(tmp_path))


def test_audio_beside_the_data_is_found_and_a_row_without_its_answer_is_named(tmp_path):
    from fixtures.pitch.release import load_release

    config = tmp_path / "pitchbench_a1_pitch_id"
    config.mkdir()
    (config / "tone.wav").write_bytes(wav_bytes((64,)))
    datasets.Dataset.from_list([{"audio": "tone.wav", "midi": 64}]).to_parquet(
        str(config / "test.parquet"))
    items, _ = load_release(str(tmp_path))
    assert [(i.truth, Path(i.recordings[0]).name) for i in items["a1"]] == [((64,), "tone.wav")]
    datasets.Dataset.from_list([{"audio": "tone.wav", "midi": None}]).to_parquet(
        str(config / "test.parquet"))
    with pytest.raises(pytest.UsageError, match=r"row 1: no answer field \(midi or gt_midi\)"):
        load_release(str(tmp_path))
