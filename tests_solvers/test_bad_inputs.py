"""Bad input from a newcomer: one clear message, never a traceback, never a silent pick
(issue 14, items 17 and 18: ``fixtures export`` targets and MCQ dataset files)."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.mcq.loading import load_dataset
from fixtures.mcq.spec import McqDatasetError
from fixtures.mcq.synthetic import make_synthetic

REPO = Path(__file__).resolve().parent.parent


def export_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fixtures", "export", *args],
                          capture_output=True, text=True, cwd=REPO, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO)})


# -- item 17: fixtures export into an existing export or onto a file --------------------------
def test_issue14_item17_export_onto_a_file_is_one_error_exit_4(tmp_path):
    target = tmp_path / "notes.txt"
    target.write_text("mine")
    result = export_cli(str(target), "--task", "transposition", "--split", "fewshot")
    assert result.returncode == 4, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        f"eartest export: {target} is a file, not a directory; choose a directory to export into"
    ]
    assert target.read_text() == "mine"


def test_issue14_item17_export_into_an_existing_export_is_refused_untouched(tmp_path):
    target = tmp_path / "export"
    first = export_cli(str(target), "--task", "transposition", "--split", "fewshot")
    assert first.returncode == 0, first.stderr[-2000:]
    before = {p: p.read_bytes() for p in target.rglob("*") if p.is_file()}
    second = export_cli(str(target), "--task", "syncopation", "--split", "fewshot")
    assert second.returncode == 4
    assert "Traceback" not in second.stderr
    assert "is not empty" in second.stderr and "new or empty directory" in second.stderr
    after = {p: p.read_bytes() for p in target.rglob("*") if p.is_file()}
    assert after == before, "a refused export must leave the earlier one as it was"


def test_issue14_item17_an_empty_existing_directory_is_fine(tmp_path):
    result = export_cli(str(tmp_path), "--task", "transposition", "--split", "fewshot")
    assert result.returncode == 0, result.stderr[-2000:]


# -- item 18: MCQ files ---------------------------------------------------------------------
@pytest.fixture
def synthetic(tmp_path: Path) -> tuple[Path, Path]:
    return make_synthetic(tmp_path / "mcq")


def _jsonl_of(csv_path: Path, target: Path) -> list[str]:
    with csv_path.open(encoding="utf-8") as handle:
        lines = [json.dumps(row) for row in csv.DictReader(handle)]
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return lines


def test_issue14_item18_a_bad_jsonl_line_is_named_by_its_real_number(synthetic):
    muchomusic = synthetic[0]
    path = muchomusic.with_name("questions.jsonl")
    lines = _jsonl_of(muchomusic, path)
    lines[1] = "{not json"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(McqDatasetError) as raised:
        load_dataset(path)
    message = str(raised.value)
    assert message.startswith(f"{path}:2: not valid JSON"), message
    assert "line 1 column" not in message


def test_issue14_item18_rows_after_blank_lines_keep_their_line_numbers(synthetic):
    muchomusic = synthetic[0]
    path = muchomusic.with_name("questions.jsonl")
    lines = _jsonl_of(muchomusic, path)
    row = json.loads(lines[2])
    row["dataset_identifier"] = "123456.json"  # no such recording
    lines[2] = json.dumps(row)
    path.write_text("\n\n".join(lines[:3]) + "\n", encoding="utf-8")  # rows on lines 1, 3, 5
    with pytest.raises(McqDatasetError, match=re.escape(f"media file: {path}:5: no audio file")):
        load_dataset(path)


def test_issue14_item18_a_directory_as_a_dataset_says_so(synthetic):
    folder = synthetic[0].parent
    with pytest.raises(McqDatasetError) as raised:
        load_dataset(folder)
    message = str(raised.value)
    assert "is a directory" in message and "no such file" not in message
    assert "muchomusic.csv" in message  # the dataset file it holds, named for the user


def test_issue14_item18_two_recordings_of_one_name_are_an_error_naming_both(synthetic):
    muchomusic = synthetic[0]
    audio = muchomusic.parent / "audio"
    original = audio / "00" / "900100.2min.wav"
    twin = audio / "other" / "900100.2min.wav"
    twin.parent.mkdir()
    shutil.copyfile(original, twin)
    with pytest.raises(McqDatasetError) as raised:
        load_dataset(muchomusic)
    message = str(raised.value)
    assert str(original) in message and str(twin) in message
    assert "audio_path" in message  # how to say which one is meant
