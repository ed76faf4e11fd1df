"""The listener on real recordings (MUSE's stimuli, a human musician's piano, guitar and drum
recordings; not in this repository). Set EARTEST_REAL_AUDIO to a MUSE checkout to run these;
without it they are skipped. They check the recordings listener-5 and -6 were tuned on (its held-out
figures are in docs/listener.md, measured once with benchmarks/listener_real.py)."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

REAL_AUDIO = Path(os.environ.get("EARTEST_REAL_AUDIO", "/nonexistent"))
pytestmark = pytest.mark.skipif(
    not (REAL_AUDIO / "stimuli" / "Intermediate").is_dir(),
    reason="needs real recordings outside the repository: EARTEST_REAL_AUDIO=<MUSE checkout>")


def _benchmark():
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "listener_real.py"
    spec = importlib.util.spec_from_file_location("listener_real", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_real_chords_are_heard_and_never_misheard() -> None:
    tally = _benchmark().chords(REAL_AUDIO, held=False)
    assert tally["wrong"] == 0 and tally["right"] >= 0.9 * sum(tally.values()), tally


def test_real_studio_loops_are_counted() -> None:
    tally = _benchmark().loops(REAL_AUDIO, held=False)
    assert tally["right"] == sum(tally.values()) > 0, tally


def test_real_melody_pairs_are_mostly_answered_right() -> None:
    tally = _benchmark().melody_pairs(REAL_AUDIO, held=False)
    assert tally["wrong"] <= 0.02 * sum(tally.values()), tally
    assert tally["right"] >= 0.8 * sum(tally.values()), tally


def test_real_oddball_melodies_are_declined_rather_than_misheard() -> None:
    tally = _benchmark().oddballs(REAL_AUDIO, held=False)
    assert tally["wrong"] <= 1 and tally["right"] >= 0.5 * sum(tally.values()), tally


def test_real_contours_survive_a_bass_line_s_octave_errors() -> None:
    tally = _benchmark().contours(REAL_AUDIO, held=False)
    assert tally["right"] >= 0.95 * sum(tally.values()) > 0, tally
