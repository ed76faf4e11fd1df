"""``python -m fixtures export DIR --format hf``: the Parquet dataset loads back with ``datasets``
(labels and bytes equal the items'), its card and Croissant metadata describe what is there,
the export is byte-for-byte deterministic, and a stimuli manifest reads it (and any Parquet
file with embedded audio) into the same items and the same trial outcomes as the built-in run.

Real ``datasets`` and pyarrow, offline (HF_HUB_OFFLINE / HF_DATASETS_OFFLINE), with its cache
in a temporary folder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests_solvers import FULL_E2E
from tests_solvers.test_bench_plugin import REPO, read_records, run_bench

CORE = ("syncopation", "transposition", "chord")
PITCH = ("pitch_a1", "pitch_d7b")  # one scene and two scenes per item
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}


@pytest.fixture(scope="module", autouse=True)
def offline(tmp_path_factory: pytest.TempPathFactory):
    with pytest.MonkeyPatch.context() as patch:
        for name, value in OFFLINE.items():
            patch.setenv(name, value)
        patch.setenv("HF_HOME", str(tmp_path_factory.mktemp("hf_home")))
        yield


def export(directory: Path, tasks: tuple[str, ...]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "fixtures", "export", str(directory), "--format", "hf",
         "--task", ",".join(tasks), "--pitch-sample", "2"],
        cwd=REPO, capture_output=True, text=True, timeout=600, env={**os.environ, **OFFLINE},
    )


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory, offline) -> Path:
    directory = tmp_path_factory.mktemp("hf") / "export"
    result = export(directory, CORE + PITCH)
    assert result.returncode == 0, result.stderr
    return directory


def items_of(config: str) -> list:
    from fixtures.pitch.catalog import pitch_items
    from fixtures.tasks.catalog import items_for

    if config in CORE:
        return list(items_for(config, None))
    return list(pitch_items(config.removeprefix("pitch_"), 2))


def parquet(directory: Path, config: str):
    import datasets

    files = sorted(str(p) for p in (directory / config).glob("*.parquet"))
    return datasets.load_dataset("parquet", data_files=files, split="train")


@pytest.mark.parametrize("config", CORE)
def test_core_rows_reload_with_the_items_labels_and_bytes(exported: Path, config: str):
    from fixtures.stimuli import midi_path, wav_path
    from fixtures.stimuli.engrave import score_png_path

    rows = parquet(exported, config)
    items = items_of(config)
    assert len(rows) == len(items)
    by_id = {row["item_id"]: row for row in rows}
    for item in items:
        row = by_id[item.item_id]
        params = item.params_dict()
        assert (row["task"], row["split"], row["answer"], row["label"]) == (
            item.task, item.split, item.answer, item.label)
        assert row["transcription"] == [list(t) for t in item.transcription]
        if config == "chord":
            assert (row["root"], row["quality"]) == (params["root"], params["quality"])
        elif config == "syncopation":
            assert row["offbeat_hits"] == params["level"] == row["param_level"]
        else:
            assert row["same"] is params["same"]
        for suffix, clip in zip(("", "_2"), item.clips, strict=False):
            assert row[f"audio{suffix}"]["bytes"] == wav_path(clip).read_bytes()
            assert row[f"audio{suffix}"]["path"] == f"{clip.stimulus_name}.wav"
            assert row[f"midi{suffix}"] == midi_path(clip).read_bytes()
            assert row[f"score{suffix}"]["bytes"] == score_png_path(clip).read_bytes()


@pytest.mark.parametrize("config", PITCH)
def test_pitch_rows_reload_with_truth_and_scene_audio(exported: Path, config: str):
    from fixtures.pitch.render import scene_wav_path

    rows = parquet(exported, config)
    items = items_of(config)
    assert [row["item_id"] for row in rows] == [item.item_id for item in items]
    for row, item in zip(rows, items, strict=True):
        assert row["truth"] == list(item.truth) and row["answer_kind"] == item.answer_kind
        assert {k: row[f"param_{k}"] for k, _ in item.params} == item.params_dict()
        columns = ["audio", "audio_2"][: len(item.scenes)]
        assert [row[c]["bytes"] for c in columns] == [
            scene_wav_path(scene).read_bytes() for scene in item.scenes]
    assert len(items[0].scenes) == (2 if config == "pitch_d7b" else 1)


def test_load_dataset_by_config_name_from_the_card(exported: Path):
    import datasets
    import yaml

    card = (exported / "README.md").read_text()
    header = yaml.safe_load(card.split("---")[1])
    assert [c["config_name"] for c in header["configs"]] == [*CORE, *PITCH]
    chord = datasets.load_dataset(str(exported), "chord")
    assert {s: len(d) for s, d in chord.items()} == {"test": 44, "fewshot": 4}
    assert type(chord["test"].features["audio"]).__name__ == "Audio"
    assert type(chord["test"].features["score"]).__name__ == "Image"
    d7b = datasets.load_dataset(str(exported), "pitch_d7b")
    assert list(d7b) == ["test"] and len(d7b["test"]) == 2
    assert "## How the labels were made and verified" in card and "## Licence" in card


def _columns(exported: Path, config: str):
    import pyarrow.parquet as pq

    schemas = {pq.read_schema(p) for p in (exported / config).glob("*.parquet")}
    assert len(schemas) == 1  # every shard of a config has one schema
    return schemas.pop()


def test_croissant_validates_and_reads_with_mlcroissant(exported: Path):
    """The reference implementation accepts croissant.json with no error and reads through
    it the same items and audio bytes as the Parquet files hold."""
    import logging

    import mlcroissant as mlc
    import pyarrow.parquet as pq

    logging.getLogger("absl").setLevel(logging.ERROR)  # "datePublished is recommended"
    dataset = mlc.Dataset(jsonld=exported / "croissant.json")
    for config in (CORE[2], PITCH[0]):
        table = pq.read_table(sorted((exported / config).glob("*.parquet")))
        expected = {row["item_id"]: row["audio"]["bytes"] for row in table.to_pylist()}
        got = {record[f"{config}/item_id"].decode(): record[f"{config}/audio"]
               for record in dataset.records(record_set=config)}
        assert got == expected and len(got) == len(items_of(config))


def test_croissant_names_every_file_set_and_parquet_column(exported: Path):
    import pyarrow as pa

    meta = json.loads((exported / "croissant.json").read_text())
    for key in ("@context", "@type", "name", "description", "conformsTo", "license",
                "distribution", "recordSet"):
        assert key in meta, key
    assert meta["@type"] == "sc:Dataset"
    assert meta["conformsTo"] == "http://mlcommons.org/croissant/1.0"
    file_sets = {d["@id"]: d for d in meta["distribution"]}
    assert all(d["@type"] == "cr:FileSet" for d in file_sets.values())
    assert [r["@id"] for r in meta["recordSet"]] == [*CORE, *PITCH]
    for record_set in meta["recordSet"]:
        config = record_set["@id"]
        schema = _columns(exported, config)
        file_set = file_sets[f"parquet-{config}"]
        assert list(exported.glob(file_set["includes"]))
        assert {f["source"]["extract"]["column"] for f in record_set["field"]} == set(
            schema.names)
        for field in record_set["field"]:
            assert field["@type"] == "cr:Field" and field["dataType"].startswith(("sc:", "cr:"))
            source = field["source"]
            assert source["fileSet"]["@id"] == file_set["@id"]
            arrow = schema.field(source["extract"]["column"]).type
            assert field.get("repeated", False) == pa.types.is_list(arrow)
            path = source.get("transform", {}).get("jsonPath")
            if path:  # a struct's member: Audio/Image's bytes
                assert path in [arrow.field(i).name for i in range(arrow.num_fields)]


def test_export_is_byte_identical_when_repeated(exported: Path, tmp_path: Path):
    again = tmp_path / "again"
    result = export(again, ("chord", "pitch_d7b"))
    assert result.returncode == 0, result.stderr
    for config in ("chord", "pitch_d7b"):
        files = sorted(p.name for p in (exported / config).iterdir())
        assert files == sorted(p.name for p in (again / config).iterdir())
        for name in files:
            assert (again / config / name).read_bytes() == (exported / config / name).read_bytes()


# --- the export as a stimuli manifest ---------------------------------------------------------


def test_manifest_reads_the_export_into_the_built_in_items(exported: Path):
    from fixtures.tasks.catalog import items_for
    from fixtures.tasks.manifest import load_manifest

    manifest = load_manifest(exported)
    expected = [i for task in CORE for i in items_for(task, "test")]
    assert [(i.task, i.item_id, i.answer, i.transcription) for i in manifest.items] \
        == [(i.task, i.item_id, i.answer, i.transcription) for i in expected]
    # embedded audio lands in the cache under the stimulus name the export gave it
    for item, built_in in zip(manifest.items, expected, strict=True):
        assert item.stimulus_names() == built_in.stimulus_names()
        assert [Path(r).read_bytes() for r in item.recordings] == [
            p.read_bytes() for p in map(_wav, built_in.clips)]


def _wav(clip):
    from fixtures.stimuli import wav_path

    return wav_path(clip)


def _parquet_manifest(path: Path, rows: list[dict]) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def test_embedded_audio_named_after_its_label_gets_a_hash_name(tmp_path: Path):
    from fixtures.tasks.catalog import items_for
    from fixtures.tasks.manifest import load_manifest

    chords = [i for i in items_for("chord", "test")][:2]
    rows = [{"task": "chord", "quality": i.params_dict()["quality"],
             "audio": {"bytes": _wav(i.clips[0]).read_bytes(),
                       "path": f"{i.params_dict()['quality']}_{n}.wav"}}
            for n, i in enumerate(chords)]
    manifest = load_manifest(_parquet_manifest(tmp_path / "m.parquet", rows))
    for item, chord in zip(manifest.items, chords, strict=True):
        (recording,) = item.recordings
        assert chord.params_dict()["quality"] not in recording
        assert Path(recording).name == item.stimulus_names()[0] + ".wav"
        assert item.answer == chord.answer


def test_a_bad_parquet_row_is_one_error_naming_file_row_and_column(tmp_path: Path):
    from fixtures.tasks.catalog import items_for
    from fixtures.tasks.manifest import ManifestError, load_manifest

    chord = items_for("chord", "test")[0]
    audio = {"bytes": _wav(chord.clips[0]).read_bytes(), "path": "x.wav"}
    path = _parquet_manifest(tmp_path / "m.parquet", [
        {"task": "chord", "quality": "major", "audio": audio},
        {"task": "chord", "quality": "weird", "audio": audio},
    ])
    with pytest.raises(ManifestError) as error:
        load_manifest(path)
    assert error.value.kind == "unknown_label"
    assert f"{path}: row 2, column 'quality'" in str(error.value) and "weird" in str(error.value)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ManifestError, match="no Parquet files"):
        load_manifest(empty)


def test_a_bad_parquet_manifest_is_exit_4_without_traceback(tmp_path: Path):
    broken = tmp_path / "m.parquet"
    broken.write_bytes(b"not parquet")
    result = run_bench("--stimuli-manifest", str(broken), "--collect-only")
    assert result.returncode == 4 and "Traceback" not in result.stderr
    assert "not a readable Parquet file" in result.stderr


# --- the round trip: the same trials and outcomes as the built-in run -------------------------

# The three models in one run each way (one process start and report instead of three).
ROUND_TRIP_MODELS = ("oracle", "chance", "listener")


def outcomes_by_item(run_dir: Path) -> dict[tuple, tuple]:
    """Trial outcomes keyed by model, axes and item id (not by trial id, so the comparison
    would hold even if a manifest named its trials differently)."""
    return {(r["model"], r["task"], r["modality"], r["shot"], r["strategy"], r["item_id"]):
            (r["correct"], r["parsed_answer"], r["prompt_hash"], tuple(r["stimuli"]))
            for r in read_records(run_dir).values()}


def test_round_trip_gives_the_built_in_outcomes(exported: Path, tmp_path: Path):
    strategies = ("standalone", "cot", "logiclm") if FULL_E2E else ("standalone",)  # make e2e
    axes = ("--model", ",".join(ROUND_TRIP_MODELS), "--modality", "audio",
            "--strategy", ",".join(strategies))
    built_in = run_bench(*axes, run_dir=tmp_path / "built_in", timeout_s=1200)
    manifest = run_bench(*axes, "--stimuli-manifest", str(exported),
                         run_dir=tmp_path / "manifest", timeout_s=1200)
    assert manifest.returncode == built_in.returncode, manifest.stdout[-2000:]
    assert manifest.returncode in (0, 1), manifest.stderr[-2000:]
    expected = outcomes_by_item(tmp_path / "built_in")
    got = outcomes_by_item(tmp_path / "manifest")
    # models x test items x shots x strategies
    assert len(expected) == len(ROUND_TRIP_MODELS) * (20 + 20 + 44) * 2 * len(strategies)
    assert got == expected
