"""The octave and multiple checks of a tracked pitch against its spectrum
(``fixtures.backends.listener.harmonic_salience``), on synthetic tones at several sample
rates: the answer is in Hz whatever the rate."""

from __future__ import annotations

import numpy as np
import pytest

from fixtures.backends.listener import harmonic_salience

DURATION_S = 1.0


def _tone(sample_rate_hz: int, partials: dict[float, float], noise: float = 1e-4) -> np.ndarray:
    """Sum of sines {freq_hz: amplitude} plus a little white noise (a recording's hiss)."""
    t = np.arange(round(DURATION_S * sample_rate_hz)) / sample_rate_hz
    rng = np.random.default_rng(0)
    tone = sum(a * np.sin(2 * np.pi * f * t) for f, a in partials.items())
    return tone + noise * rng.standard_normal(t.size)


def _best(sample_rate_hz: int, partials: dict[float, float], tracked_hz: float,
          others: tuple[float, ...] = ()) -> float:
    freqs, level = harmonic_salience.compressed_spectrum(
        _tone(sample_rate_hz, partials), sample_rate_hz)
    return harmonic_salience.best_fundamental_hz(
        freqs, level, tracked_hz, others, 30.0, 2200.0, 1.2)


RATES = [16_000, 22_050, 44_100, 48_000]
STRING_247 = {247.0 * h: 0.8 ** h for h in range(1, 9)}  # a B3 with falling partials


@pytest.mark.parametrize("sample_rate_hz", RATES)
def test_a_tracked_subharmonic_becomes_the_fundamental(sample_rate_hz: int) -> None:
    """YIN's lock on twice and four and five times the period is undone."""
    for tracked_hz in (247.0 / 2, 247.0 / 4, 247.0 / 5):
        assert _best(sample_rate_hz, STRING_247, tracked_hz) == pytest.approx(247.0, rel=0.01)


@pytest.mark.parametrize("sample_rate_hz", RATES)
def test_a_faint_lower_octave_without_odd_harmonics_is_not_the_note(sample_rate_hz: int) -> None:
    partials = {**STRING_247, 123.5: 0.05}  # a sympathetic string's faint B2, nothing at 3x
    assert _best(sample_rate_hz, partials, 123.5, (247.0,)) == pytest.approx(247.0, rel=0.01)


@pytest.mark.parametrize("sample_rate_hz", RATES)
def test_a_weak_fundamental_with_odd_harmonics_stays_low(sample_rate_hz: int) -> None:
    """A low piano note: fundamental 35 dB under the second partial, the odd ones strong."""
    partials = {55.0 * h: 1.0 / h for h in range(2, 9)} | {55.0: 0.018}
    assert _best(sample_rate_hz, partials, 110.0, (55.0,)) == pytest.approx(55.0, rel=0.01)
    assert _best(sample_rate_hz, partials, 55.0) == pytest.approx(55.0, rel=0.01)


@pytest.mark.parametrize("sample_rate_hz", RATES)
def test_a_pure_tone_and_a_missing_fundamental_keep_the_tracked_pitch(sample_rate_hz: int) -> None:
    assert _best(sample_rate_hz, {440.0: 0.5}, 440.0) == 440.0
    residue = {200.0 * h: 0.3 for h in (3, 4, 5, 6)}  # no energy at 200 Hz itself
    assert _best(sample_rate_hz, residue, 200.0) == 200.0


def test_a_rumble_under_the_note_loses_to_the_note() -> None:
    """A strong 44 Hz thump with no harmonics of its own under an A4 (a tracker's lock)."""
    partials = {440.0 * h: 0.6 ** h for h in range(1, 6)} | {44.0: 1.0}
    assert _best(44_100, partials, 44.0, (440.0,)) == pytest.approx(440.0, rel=0.01)


@pytest.mark.parametrize("length_s", [0.0005, 0.05, 1.0])
@pytest.mark.parametrize("kind", ["silence", "noise"])
def test_silence_noise_and_tiny_segments_keep_the_tracked_pitch(kind: str, length_s: float) -> None:
    """Nothing harmonic to weigh: no error, and the tracker's pitch stands."""
    size = round(length_s * 22_050)
    rng = np.random.default_rng(1)
    segment = np.zeros(size) if kind == "silence" else rng.standard_normal(size)
    freqs, level = harmonic_salience.compressed_spectrum(segment, 22_050)
    assert harmonic_salience.best_fundamental_hz(
        freqs, level, 220.0, (), 30.0, 2200.0, 1.2) == 220.0
