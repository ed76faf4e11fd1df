"""Pitch trials are audio trials (issue 15): ``--modality`` selects them like core trials, and
their test ids carry the modality in a core test id's slot, then the notation; their trial
ids, the keys of caches and baselines, stay as they were."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from fixtures.pitch.catalog import pitch_items
from fixtures.pitch.trial import PitchTrial
from tests_solvers import PYTEST

REPO = Path(__file__).resolve().parent.parent
ID = re.compile(r"::test_(\w+)\[([^\]]+)\]$")


def collected_ids(*modality: str) -> list[tuple[str, str]]:
    result = subprocess.run(
        [*PYTEST, "bench/test_pitch/test_a_atomic.py", "-q",
         "-p", "no:cacheprovider", "--co", "--model", "oracle", "--pitch-sample", "2",
         *modality],
        cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode in (0, 5), result.stdout[-3000:] + result.stderr[-3000:]
    found = [m.groups() for m in map(ID.search, result.stdout.splitlines()) if m]
    return [(test, test_id) for test, test_id in found if test_id != "NOTSET"]  # no trial


def test_modality_midi_selects_no_pitch_trial():
    assert collected_ids("--modality", "midi") == []


def test_pitch_test_ids_say_their_modality_then_their_notation():
    ids = collected_ids("--modality", "audio,midi")
    assert ids and all(test_id.startswith("oracle-audio-") for _, test_id in ids)
    notations = {test_id.split("-")[2] for experiment, test_id in ids if experiment == "a1"}
    assert notations == {"midi", "spn", "solfege", "hz"}


@pytest.mark.parametrize("notation", ["midi", "spn"])
def test_pitch_trial_ids_are_unchanged(notation):
    item = pitch_items("a1", 1)[0]
    trial = PitchTrial("oracle", notation, item)
    assert trial.trial_id == f"pitch/a1/{notation}/{item.item_id}"
    assert trial.test_id == f"oracle-audio-{notation}-{item.item_id}"
