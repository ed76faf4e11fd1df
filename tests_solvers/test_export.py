"""``python -m fixtures export``: files, manifest rows and hashes; clear argument errors.

Stimuli come from the default stimulus cache (``$EARTEST_CACHE_DIR`` or ``.cache/eartest``);
the exported copies go to a temporary folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.__main__ import main
from fixtures.stimuli import midi_path, wav_path
from fixtures.stimuli.engrave import score_png_path
from fixtures.tasks.catalog import TASK_NAMES, items_for

REPO_ROOT = Path(__file__).resolve().parents[1]
EXTENSIONS = ("wav", "mid", "png")  # audio, MIDI and score modalities of every core clip


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "fixtures", *args],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
        timeout=300,
    )


def test_export_writes_every_file_and_a_manifest_row_per_item(tmp_path: Path) -> None:
    result = run_cli("export", str(tmp_path), "--task", "syncopation")
    assert result.returncode == 0, result.stderr
    items = items_for("syncopation")
    assert result.stderr.count("\n") >= len(items) and not result.stdout
    rows = [json.loads(line) for line in (tmp_path / "manifest.jsonl").read_text().splitlines()]
    assert [row["item_id"] for row in rows] == [item.item_id for item in items]
    for item, row in zip(items, rows, strict=True):
        files = row.pop("files")
        assert row == json.loads(json.dumps(item.manifest_row()))
        assert [f["name"] for f in files] == [f"{item.item_id}.{ext}" for ext in EXTENSIONS]
        clip = item.clips[0]
        sources = (wav_path(clip), midi_path(clip), score_png_path(clip))
        for entry, source in zip(files, sources, strict=True):
            data = (tmp_path / entry["name"]).read_bytes()
            assert hashlib.sha256(data).hexdigest() == entry["sha256"]
            assert data == source.read_bytes()
    written = {path.name for path in tmp_path.iterdir()}
    want = {f"{item.item_id}.{ext}" for item in items for ext in EXTENSIONS}
    assert written == want | {"manifest.jsonl", "stimuli.csv", "stimuli"}


def test_two_clip_items_get_a_and_b_files(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["export", str(tmp_path), "--task", "transposition", "--split", "fewshot"]) == 0
    names = sorted(path.name for path in tmp_path.iterdir())
    ids = [item.item_id for item in items_for("transposition", "fewshot")]
    want = sorted(f"{i}_{ab}.{ext}" for i in ids for ab in "ab" for ext in EXTENSIONS)
    assert names == sorted(want + ["manifest.jsonl", "stimuli", "stimuli.csv"])
    assert "[2/2]" in capsys.readouterr().err


def test_unknown_task_is_one_line_naming_the_valid_tasks(tmp_path: Path) -> None:
    result = run_cli("export", str(tmp_path), "--task", "chord,melody")
    assert result.returncode == 2 and not result.stdout
    (line,) = result.stderr.splitlines()
    assert "melody" in line and all(task in line for task in TASK_NAMES)
    assert not any(tmp_path.iterdir())


def test_help_and_bad_split_are_argparse_errors(tmp_path: Path) -> None:
    helped = run_cli("--help")
    assert helped.returncode == 0 and "export" in helped.stdout
    assert run_cli("export", "--help").returncode == 0
    bad = run_cli("export", str(tmp_path), "--split", "train")
    assert bad.returncode == 2 and "invalid choice" in bad.stderr


def test_pitch_items_export_with_truth_kind_and_one_wav_per_scene(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    from fixtures.pitch.catalog import pitch_items
    from fixtures.pitch.render import scene_wav_path

    args = ["export", str(tmp_path), "--task", "pitch_d7b,pitch_c4", "--pitch-sample", "2"]
    assert main(args) == 0
    rows = [json.loads(line) for line in (tmp_path / "manifest.jsonl").read_text().splitlines()]
    expected = [*pitch_items("c4", 2), *pitch_items("d7b", 2)]
    assert [r["item_id"] for r in rows] == [item.item_id for item in expected]
    for row, item in zip(rows, expected, strict=True):
        assert row["task"] == f"pitch_{item.experiment}"
        assert row["truth"] == list(item.truth)
        assert row["answer_kind"] == item.answer_kind
        assert len(row["files"]) == len(item.scenes)
        for entry, scene in zip(row["files"], item.scenes, strict=True):
            data = (tmp_path / entry["name"]).read_bytes()
            assert entry["sha256"] == hashlib.sha256(data).hexdigest()
            assert data == scene_wav_path(scene).read_bytes()
    assert [f["name"] for f in rows[-1]["files"]] == [
        f"{rows[-1]['item_id']}_a.wav", f"{rows[-1]['item_id']}_b.wav"
    ]
    assert "pitch_d7b" in capsys.readouterr().err
