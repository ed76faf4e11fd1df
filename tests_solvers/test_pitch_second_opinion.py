"""The second tracker (Praat) and the octave-ambiguity measure see what they must.

The failure they were added for: FluidR3's Church Organ (GM 19) from MIDI 70 up has a partial
at 1.5 x f0, so its waveform repeats an octave below the note and Praat hears MIDI 76 for 88.
"""

from __future__ import annotations

import librosa
import numpy as np
import pytest

from fixtures.pitch.gm_sources import _render_gm_raw
from fixtures.pitch.spec import GM_PROGRAMS, SAMPLE_RATE_HZ, SOURCES, Scene, Tone
from tests_solvers.pitch_label_checks import cents_off, scene_audio
from tests_solvers.pitch_second_opinion import (
    OCTAVE_AMBIGUITY_DB,
    check_octave,
    octave_ambiguity_db,
    partial_levels_db,
    praat_f0_hz,
)

CHURCH_ORGAN_PROGRAM = 19


def one_tone(source: str, midi: int) -> np.ndarray:
    return scene_audio(Scene((Tone(source, 0.2, 1.0, midi),), 1.5))


def test_the_church_organ_is_caught_and_the_served_organ_is_not(monkeypatch) -> None:
    monkeypatch.setitem(GM_PROGRAMS, "church_organ", CHURCH_ORGAN_PROGRAM)
    church = _render_gm_raw([Tone("church_organ", 0.2, 1.0, 88)], round(1.5 * SAMPLE_RATE_HZ),
                            {})
    f0_hz = float(librosa.midi_to_hz(88))
    problems = check_octave(church, 0.2, 1.2, f0_hz, "church organ m88")
    assert problems and "octave ambiguous" in problems[0]
    assert cents_off(praat_f0_hz(church, 0.2, 1.2), 88) == pytest.approx(-1200, abs=35)
    organ = one_tone("organ", 88)
    assert check_octave(organ, 0.2, 1.2, f0_hz, "organ m88") == []
    assert abs(cents_off(praat_f0_hz(organ, 0.2, 1.2), 88)) <= 35


@pytest.mark.parametrize("midi", [72, 89])
@pytest.mark.parametrize("source", SOURCES)
def test_every_source_has_an_unambiguous_octave(source: str, midi: int) -> None:
    """High notes, where the church organ failed (every note of every source is checked by
    ``make labels``: A1 covers the whole range)."""
    audio = one_tone(source, midi)
    f0_hz = float(librosa.midi_to_hz(midi))
    levels = partial_levels_db(audio, 0.2, 1.2, f0_hz)
    assert octave_ambiguity_db(levels) >= OCTAVE_AMBIGUITY_DB, levels
    assert abs(cents_off(praat_f0_hz(audio, 0.2, 1.2), midi)) <= 35


def test_a_tone_an_octave_below_its_label_is_ambiguous() -> None:
    """Audio at MIDI 60 labelled 72: the true f0 sits at 0.5 x the labelled one."""
    audio = one_tone("sawtooth", 60)
    assert check_octave(audio, 0.2, 1.2, float(librosa.midi_to_hz(72)), "octave low")


def test_praat_hears_nothing_in_silence() -> None:
    assert praat_f0_hz(np.zeros(SAMPLE_RATE_HZ), 0.0, 1.0) is None
