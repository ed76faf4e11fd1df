"""Pitch confusion (reports/pitch_confusion*.py): a model an octave off lands on the octave
diagonal. The model is a ``scripted:`` file whose ``transpose`` answers the oracle's pitch
shifted by 12 semitones; its trials run through the real pitch trial runner and records."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from fixtures.backends.scripted import ScriptFileBackend, load_script_file
from fixtures.pitch.catalog import pitch_items
from fixtures.pitch.trial import PitchTrial
from fixtures.running.runner import run_trial_sync
from reports.builders.pitch_confusion_section import pitch_confusion_section
from reports.tables.pitch_confusion import (
    confusion_counts,
    error_kind,
    error_shares,
    naming_answers,
)
from solvers.trial_record import row_from_json
from tests_solvers.trial_helpers import SETTINGS

ITEMS = pitch_items("a1", sample=1)[:4]


def _records(tmp_path, script: dict, notations=("midi", "spn", "hz")) -> pd.DataFrame:
    path = tmp_path / "model.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    backend = ScriptFileBackend("octave-off", path)
    rows = []
    for item in ITEMS:
        for notation in notations:
            result = run_trial_sync(backend, PitchTrial("octave-off", notation, item), SETTINGS)
            rows.append(row_from_json(result.record().to_json()))
    return pd.DataFrame(rows)


OCTAVE_UP = {"base": "oracle", "transpose": {"trials": "pitch/a1/*", "semitones": 12}}


def test_an_octave_off_model_lands_on_the_octave_diagonal(tmp_path):
    records = _records(tmp_path, OCTAVE_UP)
    assert not records["correct"].any()  # the answers were read, and are wrong
    answers = naming_answers(records)
    assert len(answers) == len(records)
    assert (answers["offset_semitones"] == 12).all()
    counts = confusion_counts(answers, "octave-off")
    for answered, row in counts.iterrows():
        for true, count in row.items():
            assert count == 0 or answered - true == 12
    hz = answers[answers["notation"] == "hz"]
    assert hz["cents_vs_truth"].between(1199, 1201).all()
    (shares,) = error_shares(answers).to_dict(orient="records")[:1]
    assert shares["octave"] == 1.0 and shares["pitch_class"] == 1.0 and shares["exact"] == 0.0


def test_trials_the_script_does_not_match_are_the_oracles_own(tmp_path):
    script = {"base": "oracle", "transpose": {"trials": "pitch/b9/*", "semitones": 12}}
    answers = naming_answers(_records(tmp_path, script, notations=("midi",)))
    assert (answers["offset_semitones"] == 0).all() and len(answers) == len(ITEMS)


def test_error_kinds():
    assert [error_kind(o) for o in (0, 12, -24, 1, -1, 7, 11)] == [
        "exact", "octave", "octave", "semitone", "semitone", "other", "other"]


def test_the_section_draws_heatmap_cents_and_table_into_the_report(tmp_path):
    records = _records(tmp_path, OCTAVE_UP)
    out = tmp_path / "out"
    out.mkdir()
    files, (anchor, title, body) = pitch_confusion_section(records, out)
    assert {"pitch_confusion.csv", "pitch_confusion.png", "pitch_cents_error.png"} <= set(files)
    assert body.count("data:image/png;base64,") == 2 and "100.0" in body
    assert pd.read_csv(files["pitch_confusion.csv"])["octave"].eq(1.0).all()


def test_no_naming_answers_no_section(tmp_path):
    records = _records(tmp_path, OCTAVE_UP, notations=("solfege",))
    assert pitch_confusion_section(records, tmp_path) == ({}, None)


def test_a_bad_transpose_is_one_clear_error(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"base": "oracle", "transpose": {"trials": "*"}}))
    with pytest.raises(ValueError, match="transpose.*semitones"):
        load_script_file(path)
