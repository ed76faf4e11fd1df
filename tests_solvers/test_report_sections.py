"""The reports build each section from the records of the families that asked for it in the
run header (issue 15: the reports iterate over families, never over family names)."""

from __future__ import annotations

import json

import pandas as pd

from reports.builders.artifacts import write_artifacts
from reports.builders.sections import RECORDED_BEFORE_FAMILIES, records_for, sections_by_family
from solvers.trial_record import row_from_json


def _core_rows(family: str) -> pd.DataFrame:
    rows = []
    for n, correct in enumerate([True, True, False, True]):
        record = {"record_version": 1, "model": "m", "task": "chord", "modality": "midi",
                  "shot": "zero", "strategy": "standalone", "item_id": f"chord{n}",
                  "trial_id": f"chord/midi/zero/standalone/chord{n}", "truth": "A",
                  "parsed_answer": "A" if correct else "B", "correct": correct,
                  "error_class": None, "truth_transcription": [[60, 64, 67]],
                  "transcription": None, "turns": [], "family": family}
        rows.append(row_from_json(record))
    return pd.DataFrame(rows)


def test_a_new_family_gets_the_sections_its_header_names(tmp_path):
    header = {"families": {"muse": {"report_sections": ["table1", "controls"]}}}
    write_artifacts(_core_rows("muse"), tmp_path, header)
    cells = json.loads((tmp_path / "summary.json").read_text())["cells"]
    assert [(c["model"], c["task"], c["n"], c["correct"]) for c in cells] == [("m", "chord", 4, 3)]


def test_records_of_a_family_that_asks_for_no_table_stay_out_of_it(tmp_path):
    header = {"families": {"muse": {"report_sections": []}}}
    write_artifacts(_core_rows("muse"), tmp_path, header)
    assert json.loads((tmp_path / "summary.json").read_text())["cells"] == []


def test_a_section_nobody_builds_is_named_not_dropped(tmp_path):
    header = {"families": {"core": {"report_sections": ["table1", "spectrogram_gallery"]}}}
    write_artifacts(_core_rows("core"), tmp_path, header)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["unbuilt_report_sections"] == ["spectrogram_gallery"]
    assert summary["cells"][0]["n"] == 4


def test_old_runs_and_merged_sources_fall_back_or_read_their_sources():
    assert sections_by_family({}) == RECORDED_BEFORE_FAMILIES
    merged = {"sources": [{"families": {"pitch": {"report_sections": ["pitch_tables"]}}}]}
    assert sections_by_family(merged)["pitch"] == ("pitch_tables",)
    df = _core_rows("core")
    assert len(records_for(df, "table1", sections_by_family(merged))) == 4
    assert records_for(df, "pitch_tables", sections_by_family(merged)).empty
